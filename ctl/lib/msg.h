/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: messages on stderr, "fsloadctl: <command>: ...".
 */
#ifndef FSLOADCTL_MSG_H
#define FSLOADCTL_MSG_H

/* Set by main(): the subcommand running, for messages (NULL: none yet). */
extern const char *cmd_name;

void errmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warnmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* As errmsg(), followed by ": strerror(errno)". */
void errsys(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* FSLOADCTL_MSG_H */
