/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: what an engine needs of start's parameters to run one job,
 * built from them in one place (job_desc_init()).  The job's program,
 * threads, files and flags travel beside it (engine/job.h's job_req).
 */
#ifndef FSLOADCTL_JOBDESC_H
#define FSLOADCTL_JOBDESC_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/progress.h"

struct params;

/**
 * struct job_desc - one job as an engine runs it; the members are the
 * start options of the same names (workload/profile.h's struct params)
 * @dir: the target directory (a block program: @device)
 * @rank: of a multi-client run; @ranks: > 1, the ranks in one directory
 * @scheme: enum fsload_names
 * @cpus: --cpus LIST, or NULL
 * @progress: how progress is shown, resolved; @quiet: no messages
 * @stall_sec: report a worker stalled this long (0: never);
 *	@stall_stop: and stop the job
 * @cpu_profile: samples per second (0: none), the kernel engine's
 * @uring_sqpoll, @uring_batch: the uring engine's
 */
struct job_desc {
	const char *dir;
	const char *device;
	uint32_t rank;
	uint32_t ranks;
	uint32_t files_per_dir;
	uint32_t tree_branch;
	uint32_t first_dir;
	uint8_t scheme;
	uint32_t name_bytes;
	uint32_t name_random_bytes;
	uint64_t seed;
	uint32_t lat_sample;
	bool no_sync_tail;
	const char *cpus;
	/* measurement and its display */
	uint32_t progress_ms;
	enum progress_mode progress;
	bool quiet;
	uint32_t idle_ms;
	uint32_t sample_ms;
	bool series_table;
	double stall_sec;
	bool stall_stop;
	uint32_t cpu_profile;
	uint32_t cpu_profile_stacks;
	/* the uring engine */
	bool uring_sqpoll;
	uint32_t uring_batch;
};

/* @d from the settled parameters @p. */
void job_desc_init(struct job_desc *d, const struct params *p);

#endif /* FSLOADCTL_JOBDESC_H */
