// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: an op type's latency histogram in the model, from the
 * engine's (nl/hist.h).  Without netlink: also linked into
 * tests/engine_test.
 */
#include <errno.h>
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
