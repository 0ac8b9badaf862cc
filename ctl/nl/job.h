/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: job status (JOB_GET replies, the JOB_START reply and
 * notifications), decoded (printed by report/job.c).
 */
#ifndef FSLOADCTL_JOB_H
#define FSLOADCTL_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/fsloadctl.h"

struct decoder;
struct fsload_dir_id;
struct nl_ctx;
struct nlmsghdr;
struct program;

/* A worker without progress (FSLOAD_A_STALL_*). */
struct job_stall {
	uint32_t thread;
	uint32_t pid;
	uint32_t phase;
	uint8_t op;
	uint64_t start_ns;
	uint64_t duration_ns;
	bool ended;
};

/* A thread group (FSLOAD_A_GROUP_*). */
struct job_group {
	char name[FSLOAD_NAME_MAX];
	uint32_t threads;
};

/**
 * struct job_status - status attributes of one job
 * @have: bit (1 << FSLOAD_A_JOB_x) set for each attribute present
 * @pids: worker thread ids, in thread order (@npids of them), from
 *	WORKER_GET (job_workers_get()), not the status
 * @pids_hidden: WORKER_GET listed workers without their thread ids (only
 *	the job's starter or an administrator sees them)
 * Other members mirror the FSLOAD_A_JOB_* attributes of the same names.
 */
struct job_status {
	uint64_t have;
	uint32_t id;
	char *dir;
	uint64_t dir_ino;	/* the job directory's st_ino */
	char *device;		/* a block job's, instead of @dir */
	uint64_t device_bytes;
	uint32_t flags;
	uint32_t threads;
	uint64_t files;
	uint32_t files_per_dir;
	uint32_t tree_branch;
	uint32_t first_dir;	/* the first directory holding files */
	uint32_t rank;		/* of a multi-client run */
	uint32_t ranks;		/* > 1: its ranks share one directory */
	char *dir_name;		/* its job directory's name in @dir */
	/* what a joining job checks of it (struct fsload_dir_id) */
	uint32_t dir_mode;
	bool has_dir_btime;
	uint64_t dir_btime;
	uint32_t dir_handle_type;
	uint32_t dir_handle_bytes;	/* 0: no handle */
	uint8_t dir_handle[FSLOAD_JOIN_HANDLE_MAX];
	uint32_t lat_sample;	/* 1 op timed in lat_sample */
	uint8_t names;		/* enum fsload_names */
	uint32_t name_bytes;	/* fsmark names */
	uint32_t name_random_bytes;
	uint32_t held;		/* the phase a held job holds before */
	uint64_t seed;
	char profile[FSLOAD_NAME_MAX];
	uint32_t progress_ms;
	uint8_t state;
	uint32_t err;
	char *error_msg;
	uint32_t phase_index;
	uint32_t phases;
	uint64_t elapsed_ns;
	uint64_t ops;
	uint64_t bytes;
	uint64_t phase_items;		/* of the current phase, all workers;
					 * 0: none, or not said (past have's bits)
					 */
	uint64_t phase_items_done;	/* of those, begun */
	uint32_t *pids;
	unsigned int npids;
	bool pids_hidden;
	uint32_t *worker_cpus;	/* pinned: each worker's CPU (@nworker_cpus) */
	unsigned int nworker_cpus;
	unsigned int ngroups;	/* thread groups (FSLOAD_A_JOB_GROUP) */
	struct job_group groups[FSLOAD_GROUPS_MAX];
	uint32_t owner_portid;
	uint32_t idle_ms;
	uint32_t cpus;
	uint8_t pmu;
	uint64_t idle_ns;
	uint64_t idle_busy_ns;
	uint64_t overhead_ops;
	uint64_t overhead_ns;
	uint8_t op_clock;	/* enum fsload_op_clock */
	bool user_engine;	/* run by fsloadctl's userspace engine */
	bool uring;		/* through io_uring (--engine uring) */
	bool uring_sqpoll;	/* with a polling kernel thread */
	uint32_t uring_batch;	/* ops submitted at once */
	bool busy_ticks;	/* its busy time of all CPUs in ticks, not ns */
	uint32_t sample_ms;
	uint32_t stall_ms;
	uint32_t cpu_profile_hz;	/* 0: not profiled */
	uint32_t cpu_profile_stacks;
	uint8_t cpu_profile_clock;	/* enum fsload_profile_clock */
	uint64_t cpu_profile_period;	/* ns or cycles per sample */
	struct job_stall *stalls;
	unsigned int nstalls;
};

#define JS_HAS(js, attr)	(!!((js)->have & (1ULL << (attr))))

/*
 * What the starter of a job knows that status does not carry: the
 * program's parameters.
 */
struct job_extra {
	bool has_size;		/* the program writes files */
	uint64_t size;		/* bytes per file */
	uint32_t block;		/* bytes per I/O call */
	bool fsync;		/* fsync after writing */
	const char *const *phase_names;	/* by index, for progress */
	unsigned int nphases;
};

/*
 * The decoders of a status message and of a WORKER_GET message into a
 * struct job_status (nl/decode.h; tests/decode_test.c checks them).
 */
extern const struct decoder job_status_decoder;
extern const struct decoder job_workers_decoder;

/* Parse a status message into @js (zeroed or freed first by the caller). */
int job_status_parse(const struct nlmsghdr *nlh, struct job_status *js);
/*
 * Parse a WORKER_GET message into @js: the workers' thread ids (@pids)
 * and, for a pinned job, CPUs (@worker_cpus), by thread index.
 */
int job_workers_parse(const struct nlmsghdr *nlh, struct job_status *js);
void job_status_free(struct job_status *js);
/* Move @src into @dst (freeing what @dst held). */
void job_status_move(struct job_status *dst, struct job_status *src);

/**
 * struct job_start - a JOB_START request, its FSLOAD_A_JOB_* attributes;
 * what is 0 (NULL) is not sent unless said
 * @dir: the target directory (sent unless @prog is a block program)
 * @device: a block program's device, instead
 * @prog: its phases, groups and profile name (nl/program.h)
 * @phase_flags: added to every phase's (program_phase_flags())
 * @ranks: sent when more than 1
 * @join_dir: rank 0's job's directory to join, what it is in @join_id
 * @lat_sample: 1 (every op) is not sent
 * @names: enum fsload_names, always sent
 * @seed, @flags, @threads, @files, @files_per_dir, @progress_ms,
 *	@idle_ms, @sample_ms, @stall_ms: always sent
 * @cpu_profile_stacks: sent with @cpu_profile_hz only
 * @cpus: the workers' CPUs, @ncpus of them (FSLOAD_A_JOB_WORKER_CPU)
 * Other members are the attributes of the same names.
 */
struct job_start {
	const char *dir;
	const char *device;
	const struct program *prog;
	uint32_t phase_flags;
	uint32_t flags;
	uint32_t threads;
	uint64_t files;
	uint32_t files_per_dir;
	uint32_t tree_branch;
	uint32_t first_dir;
	uint32_t rank;
	uint32_t ranks;
	const char *join_dir;
	const struct fsload_dir_id *join_id;
	uint32_t lat_sample;
	uint8_t names;
	uint32_t name_bytes;
	uint32_t name_random_bytes;
	uint64_t seed;
	uint32_t progress_ms;
	uint32_t idle_ms;
	uint32_t sample_ms;
	uint32_t stall_ms;
	uint32_t cpu_profile_hz;
	uint32_t cpu_profile_stacks;
	const uint32_t *cpus;
	unsigned int ncpus;
};

/* Build the JOB_START request @s in nl's buffer. */
void job_start_put(struct nl_ctx *nl, const struct job_start *s);
/* Reply callback of JOB_START: parses into a struct job_status. */
int job_start_reply_cb(const struct nlmsghdr *nlh, void *data);

/* "i/n" of a status's current phase (1-based), into @buf. */
const char *job_phase_str(const struct job_status *js, char *buf,
			  size_t len);

#endif /* FSLOADCTL_JOB_H */
