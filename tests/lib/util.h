/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the C tests that run in a guest share (fsload_nl_test, fsload_fuzz):
 * time, the module's parameters, removing a tree, capabilities.
 */
#ifndef FSLOAD_TESTS_UTIL_H
#define FSLOAD_TESTS_UTIL_H

#include <stdint.h>

#define PARAM_DIR	"/sys/module/fsload/parameters"

/* CLOCK_MONOTONIC in milliseconds. */
int64_t now_ms(void);
/* Sleep @ms milliseconds, across signals. */
void sleep_ms(int ms);
/* Module parameter @name (PARAM_DIR): 0 or -errno. */
int param_read(const char *name, unsigned long long *v);
int param_write(const char *name, unsigned long long v);
/* Remove @path and everything below it; 0 when there is none. */
int rm_rf(const char *path);
/*
 * This process's capability sets, as 64-bit masks (bit CAP_x): 0, or -1
 * with errno.
 */
int cap_sets(uint64_t *effective, uint64_t *permitted);

#endif /* FSLOAD_TESTS_UTIL_H */
