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
#include <linux/prandom.h>
#include <linux/bvec.h>
#include <uapi/linux/fsload.h>

/* Module parameters (main.c). */
extern unsigned int fsload_max_jobs;
extern unsigned int fsload_max_threads;
extern unsigned int fsload_max_finished;
extern unsigned int fsload_max_block_bytes;
extern unsigned long long fsload_max_file_bytes;

/* One weighted operation of a phase, as validated from netlink. */
struct fsload_opdesc {
	u8 type;		/* enum fsload_op */
	u32 weight;		/* relative weight, >= 1 */
	u64 size;		/* bytes written per file */
	u32 block;		/* bytes per read/write call */
	u32 flags;		/* enum fsload_op_flags */
	char prefix;		/* rename: the new name's first letter */
};

struct fsload_phase {
	char name[FSLOAD_NAME_MAX];
	u8 order;		/* enum fsload_phase_order */
	char prefix;		/* first letter of file names */
	u32 flags;		/* enum fsload_phase_flags */
	u64 duration_ns;	/* stonewall; 0 = none */
	u64 first;		/* first file index, sequential order */
	u64 iterations;		/* per thread */
	unsigned int nops;
	u32 weight_total;
	struct fsload_opdesc ops[FSLOAD_PHASE_OPS_MAX];
};

/* What a job runs: everything the start request said, validated. */
struct fsload_program {
	char profile[FSLOAD_NAME_MAX];
	u32 flags;		/* enum fsload_job_flags */
	u32 threads;
	u64 files;		/* per thread */
	u32 files_per_dir;
	u64 seed;
	u32 progress_ms;
	u32 max_block;		/* largest block of any op, bytes */
	unsigned int nphases;
	struct fsload_phase *phases;
};

/* Statistics of one operation type; owned by one worker, or merged. */
struct fsload_opstat {
	u64 ops;		/* successful operations */
	u64 errors;		/* failed operations */
	u64 bytes;		/* bytes written and read */
	u64 lat_sum;		/* ns */
	u64 lat_min;		/* ns, U64_MAX when no operation */
	u64 lat_max;		/* ns */
};

/* Merged result of one phase. */
struct fsload_result {
	bool started;
	u32 threads;		/* workers that merged into this result */
	u32 complete;		/* workers that finished every iteration */
	u32 stonewalled;	/* workers stopped by the time limit */
	u64 start_ns;		/* ktime_get_ns() when the barrier opened */
	u64 end_ns;		/* latest end of any worker's last op */
	struct fsload_opstat op[FSLOAD_OP_MAX + 1];
};

/* Length of "t000/d00000/f00000000" and offsets of its parts. */
#define FSLOAD_NAME_LEN		21
#define FSLOAD_NAME_TDIR_LEN	4	/* "t000" */
#define FSLOAD_NAME_DIR_LEN	11	/* "t000/d00000" */
#define FSLOAD_NAME_FILE_OFF	12	/* "f00000000" */

struct fsload_job;
struct netlink_ext_ack;

struct fsload_worker {
	struct fsload_job *job;
	struct task_struct *task;	/* pinned with get_task_struct() */
	pid_t pid;			/* thread id, kept after the end */
	unsigned int index;
	struct page **pages;		/* I/O buffer, prog.max_block bytes */
	struct bio_vec *bvec;		/* the same pages, for iov_iters */
	unsigned int npages;
	struct rnd_state rnd;
	u64 ops_done;			/* all phases; READ_ONCE by others */
	u64 bytes_done;			/* all phases; READ_ONCE by others */
	u32 file_base;			/* first file index (shared dir) */
	u64 name_idx;			/* file index that name[] holds */
	u32 name_dir_left;		/* files left in name[]'s subdir */
	char name[FSLOAD_NAME_LEN + 1];
	struct fsload_opstat st[FSLOAD_OP_MAX + 1];	/* current phase */
};

struct fsload_job {
	u32 id;
	refcount_t ref;
	struct list_head done_node;	/* fsload_done_list; fsload_mutex */
	struct fsload_program prog;
	const struct cred *cred;	/* the starter's, for the workers */
	struct path parent;		/* the target directory, pinned */
	struct path dir;		/* parent/fsload-<id>, pinned */
	char *dir_str;			/* target directory as resolved */
	u32 owner_portid;		/* 0 when detached */
	u64 start_ns;
	u64 end_ns;

	struct fsload_worker *workers;
	atomic_t running;		/* workers that have not finished */

	/* Phase start barrier. */
	atomic_t arrived;
	int phase_go;			/* phases opened; smp_store_release */
	wait_queue_head_t wq;		/* barrier and stop waiters */
	bool stop;			/* WRITE_ONCE; workers poll it */

	/* Protects state, err, errmsg and merging into results. */
	spinlock_t lock;
	enum fsload_job_state state;
	int cur_phase;
	int err;			/* negative errno of the first failure */
	char errmsg[160];
	struct fsload_result *res;	/* prog.nphases entries */

	struct work_struct reap_work;
	struct delayed_work progress_work;
};

/* job.c */
extern struct mutex fsload_mutex;
int fsload_job_start(struct fsload_job *job, struct netlink_ext_ack *extack);
struct fsload_job *fsload_job_alloc(void);
void fsload_job_put(struct fsload_job *job);
struct fsload_job *fsload_job_get(u32 id);
struct fsload_job *fsload_job_get_next(u32 *id);
void fsload_job_stop(struct fsload_job *job);
void fsload_job_owner_gone(u32 portid);
void fsload_job_progress(struct fsload_job *job, u64 *ops, u64 *bytes);
void fsload_job_worker_done(struct fsload_job *job);
int fsload_jobs_init(void);
void fsload_jobs_quiesce(void);
void fsload_jobs_exit(void);

/* ops.c */
int fsload_worker_fn(void *data);
int fsload_tree_remove(const struct path *parent, const char *name);
int fsload_mkdir(const struct path *parent, const char *name, int len,
		 struct path *res);
int fsload_rmdir(const struct path *parent, const char *name, int len);

/* netlink.c */
int fsload_nl_init(void);
void fsload_nl_exit(void);
void fsload_nl_notify(struct fsload_job *job, u8 cmd);

#endif /* _FSLOAD_H */
