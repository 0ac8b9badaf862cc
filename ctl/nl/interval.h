/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the intervals of a phase, from a job's series.
 */
#ifndef FSLOADCTL_INTERVAL_H
#define FSLOADCTL_INTERVAL_H

#include <stdbool.h>

#include <linux/fsload.h>

struct series;
struct phase_result;

/* The work of one interval of a phase. */
struct interval {
	double t_ms;		/* its end, from the phase's start */
	double dt_s;
	double ops[FSLOAD_OP_MAX + 1];		/* per second */
	double lat_us[FSLOAD_OP_MAX + 1];	/* mean; NAN without ops */
	double p50_us[FSLOAD_OP_MAX + 1];	/* the kernel's; NAN without */
	double p99_us[FSLOAD_OP_MAX + 1];
	double p99_max_us;			/* of all types; NAN without */
	double mib;				/* per second */
	bool dev;
	double rd_s, wr_s, rd_mib, wr_mib, in_flight, util;
	double rd_kib, wr_kib;	/* average request size; NAN without */
};

/*
 * The intervals of phase @pr: between its start and each of its samples.
 * Returns a malloc'd array of *n.
 */
struct interval *phase_intervals(const struct series *s,
				 const struct phase_result *pr, unsigned int *n);
/* Whether any of the @n intervals has the device's figures. */
bool intervals_dev(const struct interval *iv, unsigned int n);
/* Whether phase @pr ran op type @t. */
bool phase_has(const struct phase_result *pr, unsigned int t);

#endif /* FSLOADCTL_INTERVAL_H */
