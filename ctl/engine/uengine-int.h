/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the userspace engine's insides (start --engine user, uring),
 * shared by its files; the engine's interface is uengine.h.
 *
 * The kernel's workers and these threads share the workload's definition:
 * include/fsload/engine.h (names, file order, the choice of an operation by
 * weight, random offsets, statistics, histograms, the op table), the phase
 * loop of include/fsload/engine-loop.h and the job's choreography of
 * include/fsload/engine-job.h are compiled here unchanged, over
 * ctl/lib/kshim.h.
 * What differs is only how an operation is done: here through the system
 * call that the kernel's operation stands for, on the same path relative
 * to the job directory (an O_PATH descriptor, as the kernel's pinned
 * path), so the filesystem does the same work and the difference is the
 * system-call boundary.
 *
 * The job runs as a kernel job does (module/worker.c): the same job layout,
 * the same phase barriers (engine-job.h: the last thread to arrive opens
 * or closes a phase), the idle baseline and the loop's own cost measured
 * before the first phase, a timed syncfs tail after a phase, each
 * thread's CPU time, the machine's busy time and the threads that used
 * most CPU meanwhile.  All of them in the scheduler's ns, as the kernel's
 * (module/measure.c): a worker's CPU time from its thread CPU clock, the
 * machine's busy time from /proc/schedstat; only a kernel without that
 * file (no CONFIG_SCHEDSTATS) leaves /proc/stat's ticks, and the report
 * says so.
 * The results fill the structures that the kernel's status and results
 * are parsed into, so they print the same way.
 *
 * Its files, as the module's (each using only those before it):
 *	uclock.c		the clock the loop times ops with (the TSC)
 *	ubackend-sync.c		the ops through system calls: the loop
 *				compiled over them (uloop.h)
 *	ubackend-uring.c	the ops through io_uring (uring.c): the loop
 *				compiled over them
 *	umeasure.c		the machine's busy time, the top threads
 *				(module/measure.c)
 *	uprogram.c		the program, as the kernel's start request
 *				parser makes it (module/program.c)
 *	uworker.c		the engine's hooks around the loop: barriers,
 *				holds, what calibration and a phase's
 *				opening and closing (engine-job.h) do
 *				here; the threads (module/worker.c)
 *	ustatus.c		the job's status and results, as the kernel
 *				reports them (module/netlink.c)
 *	ujob.c			the job's lifecycle (module/job.c)
 */
#ifndef FSLOADCTL_UENGINE_INT_H
#define FSLOADCTL_UENGINE_INT_H

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include "lib/kshim.h"
/*
 * fsload_engine_run() initialises its permutation only for random order
 * and uses it only then; GCC's -O2 cannot see that once the loop is
 * inlined (the kernel builds with -Wno-maybe-uninitialized).
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <fsload/engine.h>
#pragma GCC diagnostic pop
#include <fsload/program.h>

#include "engine/job.h"
#include "engine/uengine.h"
#include "engine/uring.h"
#include "nl/results.h"

/*
 * The main thread's longest sleep while the job runs: how long a SIGINT
 * may wait.  It wakes more often only for a tick or the progress line.
 */
#define UENGINE_POLL_MS		200
/* CPUs counted one by one; the busy time of any more is summed in the last. */
#define USYS_CPUS_MAX		CPU_SETSIZE

/*
 * The busy time of each CPU since boot, at one moment: from
 * /proc/schedstat, the time its tasks ran (ns; the idle task's is not
 * counted, as the kernel's idle time is not), or without it, /proc/stat's
 * ticks of neither idle nor iowait (USER_HZ: 10 ms).
 */
struct fsload_sys {
	u64 wall_ns;
	unsigned int cpus;		/* online CPUs; 0: not read */
	u64 busy_ns[USYS_CPUS_MAX];
};

/* A thread's CPU time (/proc/PID/task/TID/schedstat). */
struct utsnap {
	pid_t tid;
	pid_t pid;
	u64 runtime_ns;
};

struct ujob;

/* One engine thread; the phase loop's struct fsload_worker. */
struct fsload_worker {
	struct ujob *job;
	pthread_t thread;
	bool created;
	pid_t tid;
	unsigned int index;
	void *buf;		/* I/O buffer, page-aligned, random bytes */
	struct uring *ring;	/* ubackend-uring.c's: its ops go there */
	struct fsload_engine e;
};

/*
 * A backend: how the engine's threads do their ops.  Each is a file that
 * defines the phase loop's fsload_op_*() and fsload_drain() and compiles
 * the loop over them (uloop.h), so that an op is a direct call in either.
 * Its functions are called per thread or per phase, never per op; those
 * it does not need are NULL.
 */
struct ubackend {
	const char *what;	/* what does the ops, for a message */
	/*
	 * The thread's own state (a ring), made by the thread: 0 or a
	 * negative errno, with why in @why.
	 */
	int (*thread_init)(struct fsload_worker *w, char *why, size_t why_len);
	void (*thread_exit)(struct fsload_worker *w);
	/* Before phase @ph, and outside its CPU time. */
	void (*phase_begin)(struct fsload_worker *w,
			    const struct fsload_phase *ph);
	/* Run phase @p: fsload_engine_run() of the backend's loop. */
	enum fsload_run_end (*run)(struct fsload_worker *w,
				   const struct fsload_phase *ph,
				   unsigned int p, u64 start_ns, u64 *end_ns);
	/* The CPU time its helpers ran for the thread since the last call. */
	u64 (*helpers_cpu_ns)(struct fsload_worker *w);
	/* fsload_engine_overhead() of its loop, @ph zeroed scratch space. */
	u64 (*overhead)(struct fsload_worker *w, struct fsload_phase *ph);
	/* The phase's sync tail: fsload_op_syncfs(). */
	s64 (*syncfs)(struct fsload_worker *w);
};

extern const struct ubackend ubackend_sync;
extern const struct ubackend ubackend_uring;

struct ujob {
	/* The program. */
	const struct program *prog;	/* as given (its phases' own flags) */
	struct fsload_phase *phases;
	unsigned int nphases;
	struct fsload_slots slots;
	/* flags, threads, rank ... groups: what the threads are set up from */
	struct fsload_setup setup;
	u32 idle_ms;
	u32 max_block;

	bool busy_ticks;	/* the machine's busy time from /proc/stat */
	bool uring;		/* --engine uring, with these options */
	struct uring_opts uring_opts;
	const struct ubackend *backend;
	int dir_fd;		/* the job directory, O_PATH */
	int sync_fd;		/* the same, opened for syncfs() */
	struct fsload_worker *workers;

	bool stop;		/* READ_ONCE/WRITE_ONCE; workers poll it */
	struct rank_sync *sync;	/* a multi-client run's barriers, or NULL */
	bool stopped_by_ranks;	/* at a barrier, the ranks stopped */
	/* Protects everything below, the barrier and merging results. */
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* barrier, stop, workers' end */
	unsigned int arrived;
	unsigned int barrier_gen;
	unsigned int running;
	int cur_phase;
	int err;
	char errmsg[FSLOAD_ERRMSG_MAX];
	unsigned int holds;	/* caches dropped before a phase */
	u64 hold_ns;
	struct fsload_result *res;

	/* The phase's opener and closer only. */
	struct fsload_sys sys0;
	struct utsnap *threads0;
	unsigned int nthreads0;

	u64 idle_ns;
	u64 idle_busy_ns;
	u64 overhead_ops;
	u64 overhead_ns;
	u8 op_clock;		/* enum fsload_op_clock of overhead_ns */
};

static inline u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static inline u64 thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* CLOCK_REALTIME @ms from now, for pthread_cond_timedwait(). */
static inline void udeadline(struct timespec *ts, u32 ms)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

/* A failed system call's negative errno. */
static inline s64 neg_errno(void)
{
	return errno ? -errno : -EIO;
}

/* The hooks of both the phase loop and the job's choreography. */

static inline bool fsload_stopping(struct fsload_worker *w)
{
	return READ_ONCE(w->job->stop);
}

/* Userspace threads are preempted: no rescheduling point is needed. */
static inline void fsload_yield(void)
{
}

/* uclock.c */
#if defined(__x86_64__) || defined(__i386__)
/*
 * The TSC, where it is a clock (uengine_clock_init()): mono_ns() reads
 * it too, in the vDSO, under the timekeeper's sequence count.
 * uengine_tsc_ok only turns false, at a phase's start
 * (uengine_clock_check()), with every other thread waiting.
 */
extern bool uengine_tsc_ok;
extern u32 uengine_tsc_mult;
#endif
void uengine_clock_init(void);
void uengine_clock_check(void);

/* ubackend-sync.c: the system calls io_uring has no request for. */
s64 usync_mknod(struct fsload_worker *w, unsigned int mode);
s64 usync_syncfs(struct fsload_worker *w);

/* ubackend-uring.c */
int ubackend_uring_check(const struct uring_opts *o);

/* umeasure.c */
bool usys_read_schedstat(struct fsload_sys *s);
void usys_snap(const struct ujob *job, struct fsload_sys *s);
u64 fsload_sys_busy(const struct fsload_sys *a, const struct fsload_sys *b, u64 span_ns);
struct utsnap *utsnap_take(unsigned int *count);
unsigned int utop_threads(struct ujob *job, struct fsload_top *top);

/* uprogram.c */
void ushape(const struct program *prog, u32 threads, u64 files,
	    u32 flags, struct fsload_job_shape *js);
int uprog_convert(const struct program *prog,
		  const struct fsload_job_shape *js,
		  u32 phase_flags, struct fsload_phase *out, u32 *max_block);

/* uworker.c */
void ujob_stop(struct ujob *job);
int uworker_start(struct fsload_worker *w, const char *cpus, unsigned int i);

/* ustatus.c */
struct progress;
void uprogress_draw(struct ujob *job, const struct job_req *req,
		    u64 start_ns, struct progress *pr);
int ujob_report(struct ujob *job, const struct job_req *req,
		const char *resolved, u64 elapsed_ns, struct run *run);

#endif /* FSLOADCTL_UENGINE_INT_H */
