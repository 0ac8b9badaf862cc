/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: an op type's latency histogram in the model (struct opstat's
 * sparse buckets): made from the engine's dense one, and its percentiles
 * by the rule the kernel's interval samples use (include/fsload/engine.h).
 */
#ifndef FSLOADCTL_HIST_H
#define FSLOADCTL_HIST_H

#include <stdint.h>

struct opstat;

/*
 * Set @os's buckets from @hist, FSLOAD_HIST_BUCKETS counts as an engine
 * keeps them (fsload_account()), as the kernel sends them: the non-empty
 * ones, ascending.  0 or -ENOMEM.
 */
int opstat_from_hist(struct opstat *os, const uint64_t *hist);

/*
 * Percentile @q_ppm (parts per million) of @os's histogram, by
 * fsload_hist_rank() and fsload_hist_value(), clamped to @os's minimum
 * and maximum.  NAN when empty.
 */
double opstat_percentile(const struct opstat *os, uint32_t q_ppm);

#endif /* FSLOADCTL_HIST_H */
