/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: CPU lists for --cpus ("0,2-3,5", as taskset -c takes them).
 */
#ifndef FSLOADCTL_CPULIST_H
#define FSLOADCTL_CPULIST_H

#include <stdint.h>

/*
 * Parse @s into @cpus (at most @max, in the order given, ranges
 * expanded).  Returns the number of CPUs, or -1 when @s is not a list
 * or holds more than @max.
 */
int cpulist_parse(const char *s, uint32_t *cpus, unsigned int max);

#endif /* FSLOADCTL_CPULIST_H */
