/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare's judgement of two results beside their figures
 * (report/envdiff.c): environments, workload, debug kernel, taint.
 */
#ifndef FSLOADCTL_REPORT_ENVDIFF_H
#define FSLOADCTL_REPORT_ENVDIFF_H

#include <stdbool.h>
#include <stddef.h>

struct jval;
struct result_side;

/* Every parameter of the workload that differs (errors when @as_error). */
void envdiff_workload(const struct jval *a, const struct jval *b,
		      bool as_error, unsigned int *ndiff);
/* A warning for every difference of environment, then of workload. */
void envdiff_environment(const struct jval *a, const struct jval *b,
			 unsigned int *ndiff);
/* A debug kernel's result; *@known: the result says. */
bool envdiff_debug_kernel(const struct jval *doc, bool *known);
/* 1 op timed in how many (--lat-sample). */
double envdiff_lat_sample(const struct jval *doc);
/* harness.clock: icount, wall; NULL: unsaid. */
const char *envdiff_clock(const struct jval *doc);
/* The CPU identity and string-op flags that differ, into @buf. */
unsigned int envdiff_cpu(const struct jval *a, const struct jval *b,
			 char *buf, size_t len, bool *one_side);
/* A warning when the kernel became tainted during @s's run. */
void envdiff_taint_note(const struct result_side *s);

#endif
