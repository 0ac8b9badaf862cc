/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: phase results (FSLOAD_CMD_RESULT_GET).
 */
#ifndef FSLOADCTL_RESULTS_H
#define FSLOADCTL_RESULTS_H

#include <stdint.h>

#include "lib/fsloadctl.h"
#include "nl/job.h"

struct decoder;
struct nl_ctx;

/* A latency histogram bucket (FSLOAD_A_BUCKET_*). */
struct hist_bucket {
	uint64_t low_ns;
	uint64_t high_ns;	/* exclusive */
	uint64_t count;
};

/* Statistics of one operation type in a phase (FSLOAD_A_OPSTAT_*). */
struct opstat {
	uint64_t have;
	uint8_t type;
	uint64_t ops;
	uint64_t errors;
	uint64_t misses;	/* failures the phase expects: not errors */
	uint64_t bytes;
	uint64_t sampled;	/* successful ops timed: opstat_sampled() */
	uint64_t lat_sum_ns;	/* over the timed ops only */
	uint64_t lat_min_ns;
	uint64_t lat_max_ns;
	struct hist_bucket *buckets;	/* ascending, non-empty; malloc'd */
	unsigned int nbuckets;
};

/*
 * The successful ops the latencies (sum, min, max, histogram) cover: 1 in
 * the job's lat_sample; every one from a kernel that does not say.
 */
static inline uint64_t opstat_sampled(const struct opstat *os)
{
	return os->have & (1ULL << FSLOAD_A_OPSTAT_SAMPLED) ? os->sampled :
							       os->ops;
}

/* A thread other than the workers and its CPU time (FSLOAD_A_THREAD_*). */
struct thread_cpu {
	char name[32];
	uint32_t pid;
	bool named;		/* name and pid given (a privileged reader) */
	bool kernel;
	uint64_t cpu_ns;
};

/* Result of one phase (FSLOAD_A_RES_*). */
/* A mark of a phase's course (FSLOAD_A_PROGRESS_*). */
struct progress_mark {
	uint8_t pct;
	uint32_t workers;
	uint64_t items;
	uint64_t elapsed_ns;
};

struct phase_result {
	uint64_t have;
	uint32_t index;
	char name[FSLOAD_NAME_MAX];
	uint32_t threads;
	uint8_t complete;
	uint8_t stonewalled;
	bool target;		/* fsloadctl's: a fill it stopped at its target */
	uint64_t elapsed_ns;
	uint64_t ops;
	uint64_t errors;
	uint64_t bytes;
	uint64_t worker_cpu_ns;
	uint64_t instructions;	/* with HAS(FSLOAD_A_RES_INSTRUCTIONS) */
	uint64_t cycles;
	uint64_t system_cpu_ns;	/* with HAS(FSLOAD_A_RES_SYSTEM_CPU_NS) */
	uint64_t start_ns;	/* CLOCK_MONOTONIC, as the samples' */
	uint64_t tail_ns;	/* with HAS(FSLOAD_A_RES_TAIL_NS) */
	uint64_t tail_cpu_ns;
	struct opstat *opstats;
	unsigned int nopstats;
	struct thread_cpu *top;	/* other threads, most CPU first; malloc'd */
	unsigned int ntop;
	struct progress_mark progress[FSLOAD_PROGRESS_MARKS];
	unsigned int nprogress;	/* marks reached, in order */
	/* A profiled job's (HAS(FSLOAD_A_RES_PROFILE_SAMPLES)). */
	uint64_t prof_samples;	/* taken, dropped ones included */
	uint64_t prof_dropped;
	uint64_t prof_ns;	/* the sampling handler's own time */
	/* HAS(FSLOAD_A_RES_OP_CLOCK): the clock that timed the ops */
	uint8_t op_clock;	/* enum fsload_op_clock */
	uint64_t op_clock_back_steps;	/* the TSC's steps back */
};

/* A phase's "have" bit for attribute @attr. */
#define RES_HAS(pr, attr)	(!!((pr)->have & (1ULL << (attr))))

struct series;
struct cpu_profile;

struct results {
	struct phase_result *phases;
	unsigned int nphases;
	const struct series *series;	/* time series, or NULL; not owned */
	bool series_table;		/* print it as tables too */
	const struct cpu_profile *profile;	/* CPU profile, or NULL; not
						 * owned
						 */
};

/*
 * The decoders of a RESULT_GET message: its phases into a struct
 * results, and the job it names (nl/decode.h; tests/decode_test.c
 * checks them).
 */
extern const struct decoder results_decoder;
extern const struct decoder results_job_ref_decoder;

/* Dump the results of job @id, sorted by phase.  Returns an exit code. */
int results_get(struct nl_ctx *nl, uint32_t id, struct results *r);
void results_free(struct results *r);
/* The result of the phase of index @index, or NULL. */
const struct phase_result *results_phase(const struct results *r,
					 uint32_t index);

#endif /* FSLOADCTL_RESULTS_H */
