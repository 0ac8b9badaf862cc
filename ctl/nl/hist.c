// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: an op type's latency histogram in the model, from the
 * engine's and to percentiles (nl/hist.h).  Without netlink: also linked
 * into tests/engine_test.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "lib/kshim.h"
#include <fsload/engine.h>
#include "nl/results.h"
#include "nl/hist.h"

int opstat_from_hist(struct opstat *os, const uint64_t *hist)
{
	unsigned int b, n = 0;

	for (b = 0; b < FSLOAD_HIST_BUCKETS; b++)
		n += !!hist[b];
	if (!n)
		return 0;
	os->buckets = calloc(n, sizeof(*os->buckets));
	if (!os->buckets)
		return -ENOMEM;
	for (b = 0; b < FSLOAD_HIST_BUCKETS; b++) {
		if (!hist[b])
			continue;
		os->buckets[os->nbuckets].low_ns = fsload_hist_low(b);
		os->buckets[os->nbuckets].high_ns = fsload_hist_high(b);
		os->buckets[os->nbuckets].count = hist[b];
		os->nbuckets++;
	}
	os->have |= 1ULL << FSLOAD_A_OPSTAT_BUCKET;
	return 0;
}

double opstat_percentile(const struct opstat *os, uint32_t q_ppm)
{
	uint64_t n = 0, rank, v;
	const struct hist_bucket *b = NULL;
	unsigned int i;

	for (i = 0; i < os->nbuckets; i++)
		n += os->buckets[i].count;
	if (!n)
		return NAN;
	rank = fsload_hist_rank(n, q_ppm);
	for (i = 0; i < os->nbuckets; i++) {
		b = &os->buckets[i];
		if (rank <= b->count)
			break;
		rank -= b->count;
	}
	/* Not there: counts that overflowed their sum. */
	if (i == os->nbuckets)
		return NAN;
	v = fsload_hist_value(b->low_ns, b->high_ns, rank, b->count);
	/*
	 * Here only: a phase's histogram comes with the minimum and maximum
	 * the engine measured (the kernel's interval samples have none).
	 */
	if (RES_HAS(os, FSLOAD_A_OPSTAT_LAT_MIN_NS) && opstat_sampled(os))
		v = max(v, os->lat_min_ns);
	if (RES_HAS(os, FSLOAD_A_OPSTAT_LAT_MAX_NS) && opstat_sampled(os))
		v = min(v, os->lat_max_ns);
	return (double)v;
}
