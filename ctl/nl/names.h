/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: names of job states, operations and errnos.
 */
#ifndef FSLOADCTL_NAMES_H
#define FSLOADCTL_NAMES_H

#include <stdbool.h>
#include <stddef.h>

const char *state_name(unsigned int state);
bool state_is_final(unsigned int state);
/* The name of name scheme @scheme (enum fsload_names), as --names spells it. */
const char *names_name(unsigned int scheme);
const char *op_name(unsigned int op);
/* enum fsload_op_clock's value @clock as the spec names it */
const char *op_clock_name(unsigned int clock);
const char *errno_name(int err, char *buf, size_t len);

/* Exit code for a job that has ended in @state. */
int state_exit_code(unsigned int state);

#endif /* FSLOADCTL_NAMES_H */
