/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: a job's barriers in a multi-client run (struct rank_sync,
 * engine/job.h; the ranks: lib/multi.h).
 */
#ifndef FSLOADCTL_ENGINE_RANKS_H
#define FSLOADCTL_ENGINE_RANKS_H

#include <stdbool.h>

#include "engine/job.h"

/* How often a running job looks for another rank's stop (ms). */
#define RANK_TICK_MS	100

void rank_sync_init(struct rank_sync *rs, double timeout_s);
/*
 * Before phase @phase, the job held: wait for every rank there.  False
 * when a rank asked to stop (its job failed or was stopped).
 */
bool rank_sync_phase(struct rank_sync *rs, unsigned int phase);
/*
 * A run in one directory (@rs->join), once: rank 0 tells the others the
 * directory its job made, @name (NULL: it made none) and what it is, @id
 * (kept in @rs->join_id), and each other rank learns them before it
 * starts its job: 0, or -ENOENT when rank 0 made none.
 */
void rank_sync_join_put(struct rank_sync *rs, const char *name,
			const struct fsload_dir_id *id);
int rank_sync_join_get(struct rank_sync *rs);
/*
 * After this rank's job, or its failure to start one: the exchange above
 * if it has not taken place, for every rank takes part in it once.
 */
void rank_sync_join_done(struct rank_sync *rs);
/* A job_req tick (@arg: the rank_sync): true when another rank asks to stop. */
bool rank_sync_tick(void *arg);
/*
 * After the job, which @failed (or never started) or not: ask the other
 * ranks to stop if it did, then pass the others' barriers (as a stop if
 * it failed) until every rank's job has ended.  Whether any rank's job
 * failed (or the run is being ended): the same answer on every rank.
 */
bool rank_sync_end(struct rank_sync *rs, bool failed);
/*
 * Before the next job of each rank (--iterations, an --engine list):
 * no stop seen yet, rank 0's new job directory to be told.
 */
void rank_sync_next(struct rank_sync *rs);

#endif /* FSLOADCTL_ENGINE_RANKS_H */
