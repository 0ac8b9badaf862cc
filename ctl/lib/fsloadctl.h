/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: common definitions.
 */
#ifndef FSLOADCTL_H
#define FSLOADCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/fsload.h>

/* From the top-level VERSION file, through the Makefile. */
#ifndef FSLOADCTL_VERSION
#error "FSLOADCTL_VERSION is not defined: build with ctl/Makefile"
#endif

/* Exit codes; keep in sync with the help text in main.c and OUTPUT.md. */
enum {
	EXIT_OK		= 0,	/* success, or the job ended DONE */
	EXIT_JOB	= 1,	/* the job ended FAILED or STOPPED */
	EXIT_USAGE	= 2,	/* bad command line */
	EXIT_KERNEL	= 3,	/* the kernel refused the request */
	EXIT_NOMODULE	= 4,	/* no "fsload" generic netlink family */
	EXIT_SYSERR	= 5,	/* other system or netlink error */
	EXIT_TIMEOUT	= 6,	/* wait --timeout expired */
};

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* Set by main(): the subcommand running, for messages; JSON output. */
extern const char *cmd_name;
extern bool opt_json;

/* Messages on stderr, "fsloadctl: <command>: ..." */
void errmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warnmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* As errmsg(), followed by ": strerror(errno)". */
void errsys(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* names.c */
const char *state_name(unsigned int state);
bool state_is_final(unsigned int state);
const char *op_name(unsigned int op);
const char *errno_name(int err, char *buf, size_t len);

/* Exit code for a job that has ended in @state. */
int state_exit_code(unsigned int state);

/* Monotonic time in nanoseconds. */
uint64_t now_ns(void);

#endif /* FSLOADCTL_H */
