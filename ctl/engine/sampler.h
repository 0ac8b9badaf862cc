/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the block device sampler of a job's series.
 */
#ifndef FSLOADCTL_SAMPLER_H
#define FSLOADCTL_SAMPLER_H

#include <stdint.h>

#include "nl/series.h"

/*
 * Sample the block device under @dir (or @dir itself, a block device)
 * every @ms until series_dev_stop();
 * nothing (and s->dev "") when it has none (tmpfs, btrfs's anonymous
 * device).
 */
void series_dev_start(struct series *s, const char *dir, uint32_t ms);
void series_dev_stop(struct series *s);
/* Stop the sampler, free what @s holds. */
void series_free(struct series *s);

#endif /* FSLOADCTL_SAMPLER_H */
