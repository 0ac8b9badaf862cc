/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the monotonic clock.
 */
#ifndef FSLOADCTL_CLOCK_H
#define FSLOADCTL_CLOCK_H

#include <stdint.h>

/* Monotonic time in nanoseconds. */
uint64_t now_ns(void);

#endif /* FSLOADCTL_CLOCK_H */
