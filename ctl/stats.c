// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: statistics over results, without netlink (also linked into
 * tests/engine_test).
 */
#include <math.h>
#include <stdint.h>

#include "results.h"

double opstat_percentile(const struct opstat *os, double q)
{
	uint64_t n = 0, cum = 0, rank;
	const struct hist_bucket *b;
	double v = NAN;
	unsigned int i;

	for (i = 0; i < os->nbuckets; i++)
		n += os->buckets[i].count;
	if (!n)
		return NAN;
	rank = (uint64_t)ceil(q * (double)n);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < os->nbuckets; i++) {
		b = &os->buckets[i];
		if (cum + b->count >= rank) {
			/*
			 * The rank's place among the bucket's values, spread
			 * evenly over the integers low .. high - 1.
			 */
			v = (double)b->low_ns +
			    (double)(b->high_ns - 1 - b->low_ns) *
			    ((double)(rank - cum) - 0.5) / (double)b->count;
			break;
		}
		cum += b->count;
	}
	if (RES_HAS(os, FSLOAD_A_OPSTAT_LAT_MIN_NS) && os->ops &&
	    v < (double)os->lat_min_ns)
		v = (double)os->lat_min_ns;
	if (RES_HAS(os, FSLOAD_A_OPSTAT_LAT_MAX_NS) && os->ops &&
	    (isnan(v) || v > (double)os->lat_max_ns))
		v = (double)os->lat_max_ns;
	return v;
}
