/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: an op type's latency histogram in the model (struct opstat's
 * sparse buckets), made from the engine's dense one.
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

#endif /* FSLOADCTL_HIST_H */
