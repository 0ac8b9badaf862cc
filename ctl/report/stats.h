/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: statistics for comparing results (cmd/compare.c), without
 * netlink; unit-tested on the host (tests/stats_test.c).
 */
#ifndef FSLOADCTL_STATS_H
#define FSLOADCTL_STATS_H

#include <stddef.h>

/* Summary of a sample: n, mean, sample standard deviation (n - 1). */
struct stat_sample {
	size_t n;
	double mean;
	double sd;	/* 0 when n < 2 */
};

void sample_of(const double *x, size_t n, struct stat_sample *s);
/*
 * @s's population standard deviation (over n, not n - 1), as mdtest's
 * summary of its iterations reports it; 0 when n < 2.
 */
double sd_population(const struct stat_sample *s);

/* Regularized incomplete beta function I_x(a, b); NAN outside the domain. */
double incbeta(double a, double b, double x);
/* Student's t distribution with @df degrees of freedom: P(T <= t). */
double t_cdf(double t, double df);
/* Its inverse: the t with P(T <= t) = @p (bisection on t_cdf). */
double t_quantile(double p, double df);
/* F distribution (d1, d2): P(F <= f). */
double f_cdf(double f, double d1, double d2);

/* Welch's unequal-variances t-test of two samples. */
struct welch {
	double t;	/* (mean_b - mean_a) / standard error */
	double df;	/* Welch-Satterthwaite degrees of freedom */
	double p;	/* two-sided p-value; NAN when it cannot be computed */
};

/* Returns 0, or -1 when a sample has n < 2 or both have no variance. */
int welch_test(const struct stat_sample *a, const struct stat_sample *b,
	       struct welch *w);

/*
 * Two-sided F-test of equal variances (b's over a's): the p-value, NAN
 * when either sample has n < 2 or a variance of 0.
 */
double variance_test(const struct stat_sample *a, const struct stat_sample *b);

/*
 * Half the width, in % of @a's mean, of the two-sided 1 - @alpha
 * prediction interval for the mean of @m new observations of what @a
 * sampled: t(1 - alpha/2, n - 1) * sd * sqrt(1/n + 1/m).  The noise band
 * of a baseline measured over several boots; NAN when @a->n < 2.
 */
double noise_band_pct(const struct stat_sample *a, size_t m, double alpha);

/*
 * The smallest relative change of the mean (in % of it) that a Welch
 * test at level @alpha finds with probability @power, with @n iterations
 * on each side and a coefficient of variation @cov_pct (%).
 */
double detectable_change_pct(double cov_pct, size_t n, double alpha,
			     double power);

struct opstat;

/*
 * Add @os to @sum: its counts, and its histogram merged into @sum's
 * (malloc'd).  0 or -ENOMEM.
 */
int opstat_add(struct opstat *sum, const struct opstat *os);

#endif /* FSLOADCTL_STATS_H */
