// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: statistics over results, without netlink.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "nl/results.h"
#include "report/stats.h"

int opstat_add(struct opstat *sum, const struct opstat *os)
{
	const uint64_t lat = (1ULL << FSLOAD_A_OPSTAT_LAT_MIN_NS) |
			     (1ULL << FSLOAD_A_OPSTAT_LAT_MAX_NS);
	unsigned int i = 0, j = 0, n = 0;
	uint64_t timed = opstat_sampled(os);
	struct hist_bucket *b = NULL;

	if (sum->nbuckets + os->nbuckets) {
		b = malloc((sum->nbuckets + os->nbuckets) * sizeof(*b));
		if (!b)
			return -ENOMEM;
	}
	/* Both ascending; a bucket of one scheme has one low_ns. */
	while (i < sum->nbuckets || j < os->nbuckets) {
		if (j == os->nbuckets || (i < sum->nbuckets &&
		    sum->buckets[i].low_ns < os->buckets[j].low_ns)) {
			b[n++] = sum->buckets[i++];
		} else if (i == sum->nbuckets ||
			   os->buckets[j].low_ns < sum->buckets[i].low_ns) {
			b[n++] = os->buckets[j++];
		} else {
			b[n] = sum->buckets[i++];
			b[n++].count += os->buckets[j++].count;
		}
	}
	free(sum->buckets);
	sum->buckets = b;
	sum->nbuckets = n;
	if (timed) {
		if (!sum->sampled || os->lat_min_ns < sum->lat_min_ns)
			sum->lat_min_ns = os->lat_min_ns;
		if (!sum->sampled || os->lat_max_ns > sum->lat_max_ns)
			sum->lat_max_ns = os->lat_max_ns;
		sum->have |= os->have & lat;
	}
	sum->type = os->type;
	sum->ops += os->ops;
	sum->errors += os->errors;
	sum->misses += os->misses;
	sum->bytes += os->bytes;
	sum->sampled += timed;
	sum->have |= 1ULL << FSLOAD_A_OPSTAT_SAMPLED;
	sum->lat_sum_ns += os->lat_sum_ns;
	return 0;
}

/* Statistics for compare (stats.h). */

void sample_of(const double *x, size_t n, struct stat_sample *s)
{
	double sum = 0, ss = 0;
	size_t i;

	s->n = n;
	s->mean = NAN;
	s->sd = 0;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		sum += x[i];
	s->mean = sum / (double)n;
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->sd = sqrt(ss / (double)(n - 1));
}

double sd_population(const struct stat_sample *s)
{
	return s->n < 2 ? 0 : s->sd * sqrt((double)(s->n - 1) / (double)s->n);
}

/*
 * Continued fraction of the incomplete beta function, modified Lentz's
 * method (Numerical Recipes, 6.4; DLMF 8.17.22).
 */
static double lentz_step(double aa, double *c, double *d)
{
	const double tiny = 1e-300;

	*d = 1 + aa * *d;
	if (fabs(*d) < tiny)
		*d = tiny;
	*c = 1 + aa / *c;
	if (fabs(*c) < tiny)
		*c = tiny;
	*d = 1 / *d;
	return *d * *c;
}

static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d, h, del, aa;
	int m, m2;

	d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 1000; m++) {
		m2 = 2 * m;
		/* the even and the odd step of the fraction */
		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		h *= lentz_step(aa, &c, &d);
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		del = lentz_step(aa, &c, &d);
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double incbeta(double a, double b, double x)
{
	double lbt;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	      b * log1p(-x);
	/* the continued fraction converges fast for x < (a + 1) / (a + b + 2) */
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

double t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	/* P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
	tail = incbeta(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail / 2 : tail / 2;
}

double t_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6, mid;
	int i;

	if (!(p > 0) || !(p < 1) || !(df > 0))
		return NAN;
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double f_cdf(double f, double d1, double d2)
{
	if (isnan(f) || !(d1 > 0) || !(d2 > 0))
		return NAN;
	if (f <= 0)
		return 0;
	if (isinf(f))
		return 1;
	return incbeta(d1 / 2, d2 / 2, d1 * f / (d1 * f + d2));
}

int welch_test(const struct stat_sample *a, const struct stat_sample *b,
	       struct welch *w)
{
	double va, vb, se2;

	w->t = NAN;
	w->df = NAN;
	w->p = NAN;
	if (a->n < 2 || b->n < 2)
		return -1;
	va = a->sd * a->sd / (double)a->n;
	vb = b->sd * b->sd / (double)b->n;
	se2 = va + vb;
	if (!(se2 > 0))
		return -1;
	w->t = (b->mean - a->mean) / sqrt(se2);
	w->df = se2 * se2 / (va * va / (double)(a->n - 1) +
			     vb * vb / (double)(b->n - 1));
	w->p = 2 * (1 - t_cdf(fabs(w->t), w->df));
	/* for large |t|, from the tail directly: no cancellation */
	if (w->p < 1e-6)
		w->p = incbeta(w->df / 2, 0.5, w->df / (w->df + w->t * w->t));
	return 0;
}

double variance_test(const struct stat_sample *a, const struct stat_sample *b)
{
	double f, d1, d2, c;

	if (a->n < 2 || b->n < 2 || !(a->sd > 0) || !(b->sd > 0))
		return NAN;
	f = (b->sd * b->sd) / (a->sd * a->sd);
	d1 = (double)(b->n - 1);
	d2 = (double)(a->n - 1);
	c = f_cdf(f, d1, d2);
	return 2 * (c < 0.5 ? c : 1 - c);
}

double noise_band_pct(const struct stat_sample *a, size_t m, double alpha)
{
	if (a->n < 2 || !m || !a->mean)
		return NAN;
	return t_quantile(1 - alpha / 2, (double)a->n - 1) * a->sd *
	       sqrt(1.0 / (double)a->n + 1.0 / (double)m) / fabs(a->mean) *
	       100;
}

double detectable_change_pct(double cov_pct, size_t n, double alpha,
			     double power)
{
	double df, ta, tb;

	if (n < 2 || !(alpha > 0) || !(power > 0) || !(power < 1))
		return NAN;
	/* equal n and variance: Welch's df is 2(n - 1) */
	df = 2.0 * (double)(n - 1);
	ta = t_quantile(1 - alpha / 2, df);
	tb = t_quantile(power, df);
	return (ta + tb) * cov_pct * sqrt(2.0 / (double)n);
}
