/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the verdict on one figure of two results (compare's rows and
 * its function rows): the change, and whether it counts, by the noise the
 * base's boots measured, Welch's t-test over the iterations, or the
 * threshold alone when neither side varies.  On the wall clock one run a
 * side measures no noise: a change beyond the threshold is then "noise
 * not measured", neither regressed nor improved.
 */
#ifndef FSLOADCTL_VERDICT_H
#define FSLOADCTL_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "report/stats.h"

/* How to judge. */
struct verdict_rule {
	double threshold;	/* %: the smallest change that counts */
	double alpha;		/* of the t-test and the noise band */
	bool higher_better;
	unsigned int base_boots, new_boots;	/* the sides' "boots" */
	bool wall;		/* the wall clock: a run is no measure of its noise */
};

/* What was found. */
struct verdict {
	struct stat_sample sa, sb;
	struct welch w;
	double change;		/* %, NEW against BASE */
	double vp;		/* the variance test's p */
	double noise;		/* %, the noise band; NAN */
	const char *verdict;	/* "improved", "regressed", "no significant change",
				 * "noise not measured" */
	const char *mode;	/* "noise", "threshold", "untested", "welch",
				 * "unmeasured" */
	const char *note;	/* NULL, or why (may point into nbuf) */
	char nbuf[96];
};

/* Judge BASE's @na values @va against NEW's @nb values @vb by @r. */
void judge(const double *va, size_t na, const double *vb, size_t nb,
	   const struct verdict_rule *r, struct verdict *v);

/* {"n", "mean", "stddev", "values": [@v...]} as member @key (JSON only). */
void print_sample_json(const char *key, const struct stat_sample *s,
		       const double *v);

#endif /* FSLOADCTL_VERDICT_H */
