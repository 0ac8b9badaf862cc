// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: CPU lists for --cpus.
 */
#include <stdlib.h>

#include "lib/cpulist.h"

#define CPU_MAX	65535	/* beyond any nr_cpu_ids; the kernel checks */

static int number(const char **p, unsigned long *v)
{
	char *end;

	if (**p < '0' || **p > '9')
		return -1;
	*v = strtoul(*p, &end, 10);
	if (*v > CPU_MAX)
		return -1;
	*p = end;
	return 0;
}

int cpulist_parse(const char *s, uint32_t *cpus, unsigned int max)
{
	unsigned long lo, hi, c;
	unsigned int n = 0;
	const char *p = s;

	do {
		if (number(&p, &lo))
			return -1;
		hi = lo;
		if (*p == '-') {
			p++;
			if (number(&p, &hi) || hi < lo)
				return -1;
		}
		for (c = lo; c <= hi; c++) {
			if (n == max)
				return -1;
			cpus[n++] = (uint32_t)c;
		}
		if (*p && *p != ',')
			return -1;
	} while (*p && *++p);
	return *s && s[0] != ',' && p[-1] != ',' ? (int)n : -1;
}
