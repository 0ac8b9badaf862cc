/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: a job to run (struct job_req) and a job that ran (struct
 * run), on either engine.
 */
#ifndef FSLOADCTL_ENGINE_JOB_H
#define FSLOADCTL_ENGINE_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/kshim.h"
#include <fsload/engine.h>

#include "nl/job.h"
#include "nl/results.h"
#include "nl/profile.h"
#include "nl/series.h"
#include "nl/program.h"
#include "workload/jobdesc.h"

/*
 * Which engine runs a job (start --engine: one, or several compared; both
 * is kernel,user).
 */
enum engine {
	ENGINE_KERNEL,	/* fsload.ko's workers, over netlink */
	ENGINE_USER,	/* fsloadctl's threads, through system calls */
	ENGINE_URING,	/* fsloadctl's threads, through io_uring */
	ENGINE_COUNT
};

/* Its name in --engine and in reports; NULL past the last. */
static inline const char *engine_name(unsigned int e)
{
	static const char *const names[ENGINE_COUNT] = {
		[ENGINE_KERNEL] = "kernel",
		[ENGINE_USER] = "user",
		[ENGINE_URING] = "uring",
	};

	return e < ENGINE_COUNT ? names[e] : NULL;
}

/* start --engine: the engines that run the job, in turn; compared if n > 1. */
struct engine_set {
	enum engine e[ENGINE_COUNT];
	unsigned int n;
};

/*
 * The engine that runs at @pos (0: first) of iteration @it: the list
 * rotated by @it, so that over a multiple of n iterations each engine
 * runs first, and at every other place, equally often.
 */
static inline enum engine engine_set_at(const struct engine_set *es,
					unsigned int it, unsigned int pos)
{
	return es->e[(pos + it) % es->n];
}

struct rank_report;

/**
 * struct rank_sync - a job's part in a multi-client run (lib/multi.h):
 * every phase of the job holds, and opens when every rank's job has
 * arrived there (engine/ranks.c)
 * @timeout_s: the longest a rank waits for the others (--rank-timeout)
 * @passed: the barriers this rank has passed
 * @stop_from: the rank whose stop ended this rank's job, or -1
 * @join: every rank's job works in the directory rank 0's makes (ranks)
 * @join_sent: rank 0 has told the others which (or that it made none);
 *	on the others, they have been told
 * @join_dir: its name in the target directory (rank 0's job's, to join)
 * @join_id: what it is (its st_ino, mode, birth time, file handle), as
 *	rank 0's job reported it
 */
struct rank_sync {
	double timeout_s;
	unsigned int passed;
	int stop_from;
	bool join;
	bool join_sent;
	char join_dir[FSLOAD_JOIN_DIR_MAX];
	struct fsload_dir_id join_id;
};

/**
 * struct job_req - what to start
 * @p: the job's description (workload/jobdesc.h), what the engine
 *	needs of start's parameters
 * @prog: the program
 * @threads: worker threads
 * @files: files per thread
 * @flags: FSLOAD_JOB_F_*
 * @x: what the header prints about the program
 * @tick: called every @tick_ms while the job runs; returning true stops
 *	the job (as asked: run->stopped_by_us)
 * @tick_arg: its argument
 * @tick_ms: its interval
 * @engine: the engine that runs it
 * @sync: a multi-client run's barriers, or NULL
 */
struct job_req {
	const struct job_desc *p;
	const struct program *prog;
	uint32_t threads;
	uint64_t files;
	uint32_t flags;
	const struct job_extra *x;
	bool (*tick)(void *arg);
	void *tick_arg;
	unsigned int tick_ms;
	enum engine engine;
	struct rank_sync *sync;
};

/*
 * The flags every phase of @req gets: the sync tail (unless
 * --no-sync-tail), a hold for the ranks' barrier.
 */
static inline uint32_t job_phase_flags(const struct job_req *req)
{
	return (req->p->no_sync_tail ? 0 : FSLOAD_PHASE_F_SYNC) |
	       (req->sync ? FSLOAD_PHASE_F_HOLD : 0);
}

/* The run's ranks when they work in one directory (ranks), else 1. */
static inline uint32_t job_ranks(const struct job_req *req)
{
	return req->p->ranks > 1 ? req->p->ranks : 1;
}

/* Whether @req's job works in rank 0's job's directory, not its own. */
static inline bool job_joins(const struct job_req *req)
{
	return req->sync && req->sync->join && req->p->rank;
}

/**
 * struct run - one job that ran
 * @js: its final status
 * @r: its per-phase results
 * @ok: @js and @r are valid
 * @ret: exit code from its state (0 done; 1 failed or stopped)
 * @stopped_by_us: @tick asked it to stop
 * @interrupted: it was stopped by SIGINT/SIGTERM or from outside
 * @threads: worker threads asked for
 * @has_extents: @ext_files and @ext_total were counted
 * @engine: the engine that ran it
 * @job_dir: the job directory of a user engine job (malloc'd); the
 *	kernel's is DIR/fsload-<id>
 * @ranks: a multi-client run's ranks, on rank 0 (report/ranks.h): @r
 *	and @js are then every rank's, merged; else NULL
 */
struct run {
	struct job_status js;
	struct results r;
	bool ok;
	int ret;
	bool stopped_by_us;
	bool interrupted;
	uint32_t threads;
	bool has_extents;
	uint64_t ext_files;
	uint64_t ext_total;
	enum engine engine;
	unsigned int iteration;	/* of --iterations, from 0 */
	unsigned int position;	/* in its iteration's engine order, from 0 */
	char *job_dir;
	struct series series;	/* time series, stall reports */
	uint32_t *pids;		/* the workers' thread ids, by index, read
				 * at the start (a stall notification has
				 * none: anyone may receive it)
				 */
	unsigned int npids;
	struct cpu_profile profile;	/* --cpu-profile's stacks */
	bool stall_stop_wanted;	/* --stall-stop */
	bool stall_stop;	/* a stall was reported: stop the job */
	bool quiet;
	unsigned int holds;	/* FSLOAD_PHASE_F_HOLD: caches dropped */
	uint64_t hold_ns;	/* the time that took */
	const struct rank_report *ranks;
};

#endif /* FSLOADCTL_ENGINE_JOB_H */
