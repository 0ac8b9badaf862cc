/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsload: private definitions shared by the module's files.
 */
#ifndef _FSLOAD_H
#define _FSLOAD_H

#include <linux/types.h>
#include <linux/path.h>
#include <linux/cred.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/bvec.h>
#include <linux/sched.h>
#include <net/netlink.h>
#include <uapi/linux/fsload.h>
#include <fsload/engine.h>
#include "compat.h"

/* Module parameters (main.c). */
extern unsigned int fsload_max_jobs;
extern unsigned int fsload_max_threads;
extern unsigned int fsload_max_finished;
extern unsigned int fsload_max_samples;
extern unsigned int fsload_max_block_bytes;
extern unsigned long long fsload_max_file_bytes;

/* What a job runs: everything the start request said, validated. */
struct fsload_program {
	char profile[FSLOAD_NAME_MAX];
	/* flags, threads, rank ... groups: what the workers are set up from */
	struct fsload_setup setup;
	char *join_dir;		/* rank 0's job directory, which this job
				 * works in (its name in the target)
				 */
	struct fsload_dir_id join_id;	/* what rank 0's job reported of
					 * it (join-ino, join-mode ...)
					 */
	u32 progress_ms;
	u32 idle_ms;		/* idle baseline before the first phase */
	u32 sample_ms;		/* time series interval; 0 = none */
	u32 stall_ms;		/* report workers still this long; 0 = no */
	u32 max_block;		/* largest block of any op, bytes */
	bool block;		/* a block job: DEVICE, bio ops */
	bool bio_write;		/* it writes to the device */
	u32 max_depth;		/* largest depth of any bio op */
	char group_name[FSLOAD_GROUPS_MAX][FSLOAD_NAME_MAX];
	u32 *cpus;		/* WORKER_CPU: worker i on cpus[i % ncpus] */
	unsigned int ncpus;	/* 0: not pinned */
	unsigned int nphases;
	struct fsload_phase *phases;
	u32 profile_hz;		/* CPU profile's samples per second; 0 none */
	u32 profile_stacks;	/* distinct stacks a worker keeps */
};

/*
 * Whether @prog's job holds before phase @p, or after its last (@p its
 * number of phases).
 */
static inline bool fsload_holds(const struct fsload_program *prog,
				unsigned int p)
{
	if (p < prog->nphases)
		return prog->phases[p].flags & FSLOAD_PHASE_F_HOLD;
	return prog->setup.flags & FSLOAD_JOB_F_HOLD_END;
}

/* Where the CPU went: the machine's busy time at one moment. */
struct fsload_sys {
	u64 wall_ns;		/* ktime_get_ns() */
	u64 idle_ns;		/* idle + iowait, all online CPUs */
	unsigned int cpus;
};

/* Every thread's CPU time at the start of a phase, sorted by pid. */
struct fsload_tsnap {
	pid_t pid;
	u64 runtime_ns;
};

struct fsload_threads {
	struct fsload_tsnap *v;
	unsigned int n;
};

/* Distinct stacks a worker keeps when the request does not say. */
#define FSLOAD_PROFILE_STACKS_DEFAULT	32768
/* Distinct call paths a worker keeps: one per this many stacks. */
#define FSLOAD_PROFILE_STACKS_PER_PATH	4
/* A job's tables at most, all workers. */
#define FSLOAD_PROFILE_BYTES_MAX	(64U << 20)
/* Return addresses a CPU profile's call path keeps, innermost first. */
#define FSLOAD_PROFILE_DEPTH	40
/* Frames the handler unwinds: the interrupt's own, then the worker's. */
#define FSLOAD_PROFILE_SCRATCH	64

/*
 * A distinct call path of a worker's CPU profile, in one phase and op
 * type: the return addresses of the interrupted stack.
 */
struct fsload_ppath {
	u32 hash;		/* 0 with depth 0: the slot is free */
	u16 phase;
	u8 op;			/* enum fsload_op; 0 before the first */
	u8 depth;		/* return addresses in ip[]; 1 at least */
	unsigned long ip[FSLOAD_PROFILE_DEPTH];	/* innermost first */
};

/* A distinct stack: an interrupted instruction on a call path. */
struct fsload_pstack {
	unsigned long ip;
	u32 path;		/* its call path's slot */
	u32 samples;		/* 0: the slot is free */
};

/* The bytes of the tables of a worker keeping @stacks stacks. */
static inline u64 fsload_profile_bytes(u32 stacks)
{
	return (u64)stacks * sizeof(struct fsload_pstack) +
	       (u64)DIV_ROUND_UP(stacks, FSLOAD_PROFILE_STACKS_PER_PATH) *
	       sizeof(struct fsload_ppath);
}

struct fsload_job;
struct netlink_ext_ack;
struct perf_event;

/* A bio a worker has in flight, and how it ended. */
struct fsload_bio_ctx {
	struct list_head node;		/* the worker's bio_free or bio_done */
	struct fsload_worker *w;
	const struct fsload_opdesc *op;
	u64 submit_ns;			/* before the bio's allocation */
	u64 done_ns;			/* at its completion */
	int status;			/* blk_status_t */
};

struct fsload_worker {
	struct fsload_job *job;
	struct task_struct *task;	/* pinned with get_task_struct();
					 * WRITE_ONCE, read by the sampler
					 */
	pid_t pid;			/* thread id, kept after the end */
	unsigned int index;
	struct page **pages;		/* I/O buffer, prog.max_block bytes */
	struct bio_vec *bvec;		/* the same pages, for iov_iters */
	unsigned int npages;
	struct fsload_engine e;		/* names, order, statistics */
	u64 io_bytes;			/* read and written, all phases, as
					 * the calls return; WRITE_ONCE
					 */
	int in_phase;			/* phase + 1 in its loop, else 0;
					 * WRITE_ONCE, read by the sampler
					 */
	/* The sampler's view of the worker (series.c, its work item only). */
	u64 still_ops;			/* ops + errors when last seen moving */
	int still_phase;
	u64 still_since;		/* ns */
	bool stalled;
	/*
	 * Its CPU profile (profile.c): written by the sampling handler only
	 * while it interrupts this worker, so never concurrently; the
	 * counters are the current phase's, read and zeroed by the worker
	 * at its merge.
	 */
	struct fsload_pstack *pstacks;	/* prog.profile_stacks slots */
	struct fsload_ppath *ppaths;	/* one per STACKS_PER_PATH of them */
	unsigned long *pscratch;	/* FSLOAD_PROFILE_SCRATCH frames */
	u64 prof_samples;
	u64 prof_dropped;
	u64 prof_ns;
	/* The worker's PMU counters, its thread only; NULL without. */
	struct perf_event *ev_insn;
	struct perf_event *ev_cycles;

	/* Block jobs: prog.max_depth bio contexts. */
	struct fsload_bio_ctx *bios;
	struct list_head bio_free;	/* the worker's own */
	/*
	 * Protects bio_done and bio_inflight, which completions (any
	 * context) update; the worker frees nothing before it has seen the
	 * last completion under this lock.
	 */
	spinlock_t bio_lock;
	struct list_head bio_done;	/* completed, not yet accounted */
	unsigned int bio_inflight;
	wait_queue_head_t bio_wq;	/* the worker, waiting for one */
};

/* A worker that stopped moving (series.c). */
struct fsload_stall {
	u32 thread;		/* worker index */
	pid_t pid;
	int phase;
	u8 op;			/* the phase's op type if it has one, else 0 */
	u64 start_ns;		/* last seen moving, ktime_get_ns() */
	u64 end_ns;		/* moved again; 0 while stalled */
};

#define FSLOAD_STALLS_MAX	16

/* max_samples is taken within these (0 would leave no ring to fill). */
#define FSLOAD_SAMPLES_MIN	1U
#define FSLOAD_SAMPLES_MAX	65536U

/* A worker's counters at one moment. */
struct fsload_counters {
	u64 cpu_ns;
	u64 instructions;
	u64 cycles;
};

/*
 * A job's tree removal (vfs.c, for the reaper): what it could not
 * remove.  @budget bounds the work, so that another process that keeps
 * adding entries cannot keep the reaper busy for ever.
 */
struct fsload_cleanup {
	u64 budget;			/* removals still allowed */
	u64 left;			/* entries that stayed */
	int err;			/* negative errno of the first failure */
	char name[NAME_MAX + 1];	/* the entry it failed on ("." for the
					 * job directory itself)
					 */
};

struct fsload_job {
	u32 id;
	u64 serial;			/* which job of this id: none other
					 * of the module's has it; set before
					 * publishing
					 */
	refcount_t ref;
	struct list_head done_node;	/* fsload_done_list; fsload_mutex */
	struct fsload_program prog;
	const struct cred *cred;	/* the starter's, for the workers */
	struct path parent;		/* the target directory, pinned */
	struct path dir;		/* parent/fsload-<id>, pinned */
	struct fsload_dir_id dir_id;	/* what it is (its st_ino ...), set
					 * before publishing
					 */
	char dir_name[FSLOAD_JOIN_DIR_MAX];	/* its name in parent, set
						 * before publishing
						 */
	char *dir_str;			/* target directory as resolved, or
					 * a block job's device path
					 */
	struct fsload_bdev bdev;	/* a block job's device */
	u64 dev_bytes;			/* its size */
	u32 owner_portid;		/* 0 when detached */
	u64 start_ns;
	u64 end_ns;			/* reaped; lock */

	struct fsload_worker *workers;
	atomic_t running;		/* workers that have not finished */

	struct fsload_slots slots;	/* op types -> histogram slots */

	/* Phase barriers: 2p opens phase p, 2p + 1 closes it. */
	atomic_t arrived;
	int barrier_gen;		/* barriers passed; smp_store_release */
	/* The machine at the open of the current phase (its opener). */
	struct fsload_sys sys0;
	struct fsload_threads threads0;

	/* Measured before the first phase (its opener); lock. */
	u64 idle_ns;
	u64 idle_busy_ns;
	u64 overhead_ops;
	u64 overhead_ns;
	u8 op_clock;			/* enum fsload_op_clock of overhead_ns */
	bool pmu;			/* some worker has hardware counters */
	wait_queue_head_t wq;		/* barrier and stop waiters */
	bool stop;			/* WRITE_ONCE; workers poll it */
	int held;			/* phase + 1 it holds before, 0 when
					 * not held (FSLOAD_PHASE_F_HOLD);
					 * READ_ONCE/WRITE_ONCE
					 */

	/*
	 * Protects, here: state, reaping (the workers' tasks are signalled
	 * only before it is set), cur_phase, phase_seq, err, errmsg and
	 * res[] but for res[].hist (hist_lock); above: end_ns, idle_ns,
	 * idle_busy_ns, overhead_ops, overhead_ns and op_clock; below: the
	 * ring's samples and ring_head, stalls[] and nstalls.
	 */
	spinlock_t lock;
	enum fsload_job_state state;
	bool reaping;			/* the reaper releases the workers */
	int cur_phase;
	unsigned int phase_seq;		/* odd while a phase opens: its
					 * counters are being zeroed
					 */
	int err;			/* negative errno of the first failure */
	char errmsg[FSLOAD_ERRMSG_MAX];
	struct fsload_result *res;	/* prog.nphases entries */
	struct mutex hist_lock;		/* res[].hist: the workers' merges,
					 * the result dump's reads
					 */

	struct work_struct reap_work;
	struct delayed_work progress_work;

	/*
	 * Time series and stalls (series.c): the ring's samples, ring_head,
	 * stalls[] and nstalls under lock.
	 */
	struct delayed_work series_work;
	u64 *ring;			/* ring_cap samples, then a scratch one */
	unsigned int ring_cap;
	u64 ring_head;			/* sequence number of the next */
	u64 *ring_hist;			/* the workers' histograms summed at
					 * the last sample, then a scratch
					 * sum (the series work item only)
					 */
	int ring_hist_phase;		/* the phase they were summed in */
	struct fsload_stall stalls[FSLOAD_STALLS_MAX];
	unsigned int nstalls;		/* the first FSLOAD_STALLS_MAX only */

	/*
	 * The CPU profile's sampling events (profile.c), one per online CPU
	 * (nr_cpu_ids slots, NULL where none); created at the start,
	 * released by the reaper once the workers are stopped.
	 */
	struct perf_event **prof_ev;
	unsigned int prof_nev;
	u8 prof_clock;			/* enum fsload_profile_clock */
	u64 prof_period;		/* ns or cycles per sample */
};

/* job.c */
extern struct mutex fsload_mutex;
extern struct workqueue_struct *fsload_wq;
int fsload_job_start(struct fsload_job *job, struct netlink_ext_ack *extack);
struct fsload_job *fsload_job_alloc(void);
void fsload_job_put(struct fsload_job *job);
struct fsload_job *fsload_job_get(u32 id);
struct fsload_job *fsload_job_get_next(u32 *id);
void fsload_job_stop(struct fsload_job *job);
void fsload_job_owner_gone(u32 portid);
void fsload_job_progress(struct fsload_job *job, u64 *ops, u64 *bytes,
			 u64 *items, u64 *done);
void fsload_job_worker_done(struct fsload_job *job);
int fsload_jobs_init(void);
void fsload_jobs_quiesce(void);
void fsload_jobs_exit(void);

/* measure.c */
void fsload_counters_open(struct fsload_worker *w);
void fsload_counters_read(struct fsload_worker *w, struct fsload_counters *c);
void fsload_counters_close(struct fsload_worker *w);
void fsload_sys_snap(struct fsload_sys *s);
u64 fsload_sys_busy(const struct fsload_sys *a, const struct fsload_sys *b,
		    u64 span_ns);
int fsload_threads_snap(struct fsload_threads *s);
void fsload_threads_free(struct fsload_threads *s);
unsigned int fsload_threads_top(const struct fsload_threads *s0,
				const struct fsload_job *job,
				struct fsload_top *top);

/*
 * series.c.  A sample is FSLOAD_SAMPLE_HEAD u64 words (time, phase, I/O
 * bytes), then FSLOAD_SAMPLE_OP_WORDS per slot: ops, bytes and latency sum
 * so far in the phase, then the median and 99th percentile latency of the
 * interval since the previous sample (0 without operations), then the
 * timed ops so far in the phase (the latency sum's).
 */
#define FSLOAD_SAMPLE_HEAD	3
#define FSLOAD_SAMPLE_OP_WORDS	6

/* Index of slot @s's (slots.slot[] value, from 1) first word in a sample. */
static inline unsigned int fsload_sample_op(unsigned int s)
{
	return FSLOAD_SAMPLE_HEAD + FSLOAD_SAMPLE_OP_WORDS * (s - 1);
}

int fsload_series_alloc(struct fsload_job *job);
void fsload_series_start(struct fsload_job *job);
void fsload_series_stop(struct fsload_job *job);
unsigned int fsload_series_copy(struct fsload_job *job, u64 from, u64 *buf,
				unsigned int max, u64 *first);
unsigned int fsload_series_words(const struct fsload_job *job);

/* worker.c */
int fsload_worker_fn(void *data);

/*
 * vfs.c: the primitives of the phase loop's fsload_do_op() (engine-loop.h
 * says what each does and returns), and directories.
 */
s64 fsload_op_create(struct fsload_worker *w, const struct fsload_opdesc *op);
s64 fsload_op_append(struct fsload_worker *w, const struct fsload_opdesc *op);
s64 fsload_op_random(struct fsload_worker *w,
		     const struct fsload_opdesc *op, bool write);
s64 fsload_op_read(struct fsload_worker *w, const struct fsload_opdesc *op);
s64 fsload_op_syncfs(struct fsload_worker *w);
s64 fsload_op_fsync(struct fsload_worker *w);
s64 fsload_op_drop_cache(struct fsload_worker *w);
s64 fsload_op_stat(struct fsload_worker *w);
s64 fsload_op_dirent(struct fsload_worker *w, const struct fsload_opdesc *op);
s64 fsload_op_bio(struct fsload_worker *w, const struct fsload_opdesc *op);
s64 fsload_drain(struct fsload_worker *w, u64 *last_ns);
int fsload_name_parent(struct fsload_worker *w, struct path *parent);
int fsload_tree_remove(const struct path *dir, struct fsload_cleanup *st);
int fsload_mkdir(const struct path *parent, const char *name, int len,
		 struct path *res);
int fsload_rmdir_pinned(const struct path *d);
int fsload_lookup_dir(const struct path *parent, const char *name,
		      struct path *res);

/* profile.c */
int fsload_profile_alloc(struct fsload_job *job);
void fsload_profile_free(struct fsload_job *job);
int fsload_profile_start(struct fsload_job *job,
			 struct netlink_ext_ack *extack);
void fsload_profile_stop(struct fsload_job *job);
void fsload_profile_merge(struct fsload_worker *w, struct fsload_result *res);
int fsload_profile_frames(const struct fsload_worker *w,
			  const struct fsload_pstack *s, char *buf, size_t size);

/* program.c */
struct genl_info;
int fsload_parse_program(struct fsload_program *prog, struct genl_info *info);

/* target.c */
int fsload_resolve_dir(struct fsload_job *job, struct genl_info *info);
int fsload_dir_id(const struct path *dir, struct fsload_dir_id *id);
int fsload_open_device(struct fsload_job *job, struct genl_info *info);

/* netlink.c */
int fsload_nl_init(void);
void fsload_nl_exit(void);
void fsload_nl_notify(struct fsload_job *job, u8 cmd);

#endif /* _FSLOAD_H */
