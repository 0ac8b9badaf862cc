// SPDX-License-Identifier: GPL-2.0
/*
 * fsload: the worker kthread - each job phase's barrier, its opening and
 * closing by the last worker to arrive, the hold before it, the phase
 * loop (engine-loop.h, over the primitives in vfs.c) and the merge of
 * each worker's statistics into the job's results.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/blkdev.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/jump_label.h>
#ifdef CONFIG_X86_TSC
#include <asm/tsc.h>
#endif
#include "fsload.h"
#include "compat.h"
#define CREATE_TRACE_POINTS
#include "trace.h"

/* engine-job.h's: record the first failure of the job and stop it. */
static void fsload_fail(struct fsload_worker *w, const char *phase,
			const char *what, int err);

static inline bool fsload_stopping(struct fsload_worker *w)
{
	return READ_ONCE(w->job->stop);
}

static inline u64 fsload_now(void)
{
	return ktime_get_ns();
}

#ifdef CONFIG_X86_TSC
static bool fsload_force_tsc;
module_param_named(force_tsc, fsload_force_tsc, bool, 0644);
MODULE_PARM_DESC(force_tsc,
		 "Time ops with the TSC where the CPU does not declare it constant and nonstop (a virtual machine's that is: QEMU TCG); never one the kernel marked unstable. From the next job's start (default: no)");

/*
 * The TSC, where it is a clock (fsload_clock_decide()): ktime_get_ns()
 * reads it too, under the timekeeper's sequence count and through the
 * clocksource's read callback.
 */
static DEFINE_STATIC_KEY_FALSE(fsload_tsc);
static u32 fsload_tsc_mult;

static __always_inline bool fsload_cycles_ok(void)
{
	return static_branch_likely(&fsload_tsc);
}

static __always_inline u64 fsload_cycles(void)
{
	return rdtsc();
}

static inline u32 fsload_cycles_mult(void)
{
	return fsload_tsc_mult;
}

/*
 * The TSC is a clock: the CPU says it runs at a constant rate
 * (constant_tsc) and on in deep C-states (nonstop_tsc), or the
 * administrator does (force_tsc: a virtual CPU that does not say so, as
 * QEMU's TCG), and the kernel trusts it: found synchronised across CPUs,
 * not marked unstable since (the clocksource watchdog), its rate known.
 */
static bool fsload_tsc_clock(void)
{
	if (!boot_cpu_has(X86_FEATURE_TSC) || !tsc_khz ||
	    check_tsc_unstable())
		return false;
	return READ_ONCE(fsload_force_tsc) ||
	       (boot_cpu_has(X86_FEATURE_CONSTANT_TSC) &&
		boot_cpu_has(X86_FEATURE_NONSTOP_TSC));
}

/*
 * At a job's start (its calibration): time its ops with the TSC where it
 * is a clock.  Another job's workers anchored on the TSC leave it in the
 * phase if it no longer is (fsload_clock(): no time goes back); those
 * that were not take it at their next phase's start.
 */
static void fsload_clock_decide(void)
{
	bool tsc = fsload_tsc_clock();

	if (tsc == static_key_enabled(&fsload_tsc))
		return;
	if (tsc) {
		fsload_tsc_mult = div_u64((u64)NSEC_PER_MSEC <<
					  FSLOAD_CLOCK_SHIFT, tsc_khz);
		static_branch_enable(&fsload_tsc);
	} else {
		static_branch_disable(&fsload_tsc);
	}
}

/*
 * A TSC the kernel marks unstable later (the clocksource watchdog) is
 * left at once by every worker: checked at each phase's start and at the
 * loop's rescheduling points (FSLOAD_YIELD_OPS ops apart, so that the
 * call costs a fraction of an instruction per op).
 */
static __always_inline void fsload_clock_check(void)
{
	if (static_branch_likely(&fsload_tsc) &&
	    unlikely(check_tsc_unstable()))
		static_branch_disable(&fsload_tsc);
}
#else
static __always_inline bool fsload_cycles_ok(void)
{
	return false;
}

static __always_inline u64 fsload_cycles(void)
{
	return 0;
}

static inline u32 fsload_cycles_mult(void)
{
	return 0;
}

static void fsload_clock_decide(void)
{
}

static __always_inline void fsload_clock_check(void)
{
}
#endif

/* A rescheduling point, and where the loop sees the TSC marked unstable. */
static inline void fsload_yield(void)
{
	cond_resched();
	fsload_clock_check();
}

static inline void fsload_trace_op(struct fsload_worker *w,
				   const struct fsload_opdesc *op, s64 ret,
				   u64 lat)
{
	/* Not the engine's own calibration, before the first phase. */
	if (trace_fsload_op_enabled() && READ_ONCE(w->job->cur_phase) >= 0)
		trace_fsload_op(w->job->id, w->index, op->type, ret, lat);
}

/* The phase loop, shared with fsloadctl's userspace engine. */
#include <fsload/engine-loop.h>

/* The engine-job.h hooks that record a failure, open and close a phase. */

/* A block job fails on its device. */
static inline const char *fsload_fail_where(struct fsload_worker *w)
{
	return w->job->prog.block ? w->job->dir_str : w->e.name;
}

static inline void fsload_stop(struct fsload_worker *w)
{
	fsload_job_stop(w->job);
}

static inline const struct fsload_phase *
fsload_job_phase(struct fsload_worker *w, unsigned int p)
{
	return &w->job->prog.phases[p];
}

static inline void fsload_job_lock(struct fsload_worker *w)
	__acquires(&w->job->lock)
{
	spin_lock(&w->job->lock);
}

static inline void fsload_job_unlock(struct fsload_worker *w)
	__releases(&w->job->lock)
{
	spin_unlock(&w->job->lock);
}

static inline void *fsload_zalloc(size_t size)
{
	return kzalloc(size, GFP_KERNEL);
}

static inline void fsload_free(void *p)
{
	kfree(p);
}

static inline void fsload_sys_snap_job(struct fsload_worker *w,
				       struct fsload_sys *s)
{
	fsload_sys_snap(s);
}

static inline u32 fsload_idle_ms(struct fsload_worker *w)
{
	return w->job->prog.idle_ms;
}

static void fsload_idle_wait(struct fsload_worker *w, u32 ms)
{
	wait_event_idle_timeout(w->job->wq, READ_ONCE(w->job->stop),
				msecs_to_jiffies(ms));
}

/* The op clock when not the TSC: ktime_get_ns() (fsload_now()). */
#define FSLOAD_OP_CLOCK_NOW	FSLOAD_OP_CLOCK_KTIME

static u64 fsload_overhead(struct fsload_worker *w, struct fsload_phase *ph)
{
	fsload_clock_decide();
	return fsload_engine_overhead(w, &w->e, ph);
}

/*
 * The sampler reads the workers' counters as soon as cur_phase says p:
 * zero them now, while every other worker sleeps, not as each starts the
 * phase (fsload_engine_run() zeroes its own again), so that no sample of
 * phase p counts what phase p - 1 did.  phase_seq is odd from here until
 * p is published (fsload_phase_opened()): a sample that overlaps any of
 * it is dropped (series.c), never stored as phase p - 1 with counters
 * partly zeroed.
 */
static void fsload_phase_prepare(struct fsload_worker *w, unsigned int p)
{
	struct fsload_job *job = w->job;
	unsigned int i;

	spin_lock(&job->lock);
	job->phase_seq++;
	spin_unlock(&job->lock);
	for (i = 0; i < job->prog.setup.threads; i++)
		fsload_engine_reset(&job->workers[i].e);
}

static inline void fsload_threads_open(struct fsload_worker *w)
{
	fsload_threads_snap(&w->job->threads0);
}

static unsigned int fsload_threads_close(struct fsload_worker *w,
					 struct fsload_top *top)
{
	struct fsload_job *job = w->job;
	unsigned int ntop = 0;

	if (job->threads0.v)
		ntop = fsload_threads_top(&job->threads0, job, top);
	fsload_threads_free(&job->threads0);
	return ntop;
}

/* A block job's tail flushes the device it writes to. */
static s64 fsload_phase_sync(struct fsload_worker *w, const char **what)
{
	struct fsload_job *job = w->job;

	if (!job->prog.block)
		return fsload_op_syncfs(w);
	*what = "flush";
	return job->prog.bio_write ? blkdev_issue_flush(job->bdev.bdev) : 0;
}

static inline void fsload_phase_opened(struct fsload_worker *w,
				       unsigned int p)
{
	struct fsload_job *job = w->job;

	job->phase_seq++;
	trace_fsload_phase_start(job->id, p, job->prog.phases[p].name,
				 job->prog.setup.threads);
}

static inline void fsload_phase_closed(struct fsload_worker *w,
				       unsigned int p, u64 t1, u64 t2)
{
	trace_fsload_phase_end(w->job->id, p, t1 - w->job->sys0.wall_ns,
			       t2 - t1);
}

static bool fsload_barrier_passed(struct fsload_job *job, unsigned int gen)
{
	/* Pairs with smp_store_release() in fsload_barrier_pass(). */
	return smp_load_acquire(&job->barrier_gen) > gen;
}

static bool fsload_barrier_arrive(struct fsload_worker *w, unsigned int gen)
{
	struct fsload_job *job = w->job;

	return atomic_inc_return(&job->arrived) == job->prog.setup.threads * (gen + 1);
}

static void fsload_barrier_pass(struct fsload_worker *w, unsigned int gen)
{
	/*
	 * Pairs with smp_load_acquire() in fsload_barrier_passed(): what the
	 * phase's opener or closer wrote is visible to the others.
	 */
	smp_store_release(&w->job->barrier_gen, gen + 1);
	wake_up_all(&w->job->wq);
}

static bool fsload_barrier_wait(struct fsload_worker *w, unsigned int gen)
{
	struct fsload_job *job = w->job;

	wait_event_idle(job->wq, fsload_barrier_passed(job, gen) ||
			READ_ONCE(job->stop));
	return fsload_barrier_passed(job, gen);
}

/*
 * Before phase @p opens (or after the last, @p the number of phases),
 * with every other worker asleep in the barrier: if the phase asks (the
 * job, with FSLOAD_JOB_F_HOLD_END), announce the hold and wait for
 * JOB_RESUME or a stop.  Returns false when the job is stopping.
 */
static bool fsload_hold(struct fsload_worker *w, unsigned int p)
{
	struct fsload_job *job = w->job;

	if (READ_ONCE(job->stop))
		return false;
	if (!fsload_holds(&job->prog, p))
		return true;
	WRITE_ONCE(job->held, p + 1);
	fsload_nl_notify(job, FSLOAD_CMD_JOB_HELD_NTF);
	wait_event_idle(job->wq, !READ_ONCE(job->held) || READ_ONCE(job->stop));
	WRITE_ONCE(job->held, 0);
	return !READ_ONCE(job->stop);
}

static void fsload_merge(struct fsload_worker *w, unsigned int p,
			 enum fsload_run_end end, u64 end_ns,
			 const struct fsload_counters *c0,
			 const struct fsload_counters *c1)
{
	struct fsload_job *job = w->job;
	struct fsload_result *res = &job->res[p];
	unsigned int i;

	spin_lock(&job->lock);
	fsload_phase_sum_add(&res->sum, &w->e, end, end_ns);
	res->worker_cpu_ns += c1->cpu_ns - c0->cpu_ns;
	res->instructions += c1->instructions - c0->instructions;
	res->cycles += c1->cycles - c0->cycles;
	fsload_profile_merge(w, res);
	spin_unlock(&job->lock);

	mutex_lock(&job->hist_lock);
	for (i = 0; i < fsload_hist_words(&job->slots); i++)
		res->hist[i] += w->e.hist[i];
	mutex_unlock(&job->hist_lock);
}

/*
 * Run phase @p and merge the worker's statistics; returns true when every
 * iteration was done or the phase's time limit was reached.
 */
static bool fsload_run_phase(struct fsload_worker *w, unsigned int p)
{
	struct fsload_job *job = w->job;
	const struct fsload_phase *ph = &job->prog.phases[p];
	struct fsload_counters c0, c1;
	enum fsload_run_end end;
	u64 end_ns;

	fsload_clock_check();
	fsload_counters_read(w, &c0);
	/* Before its first op, a sample is of no op type (0). */
	WRITE_ONCE(w->e.op_type, 0);
	WRITE_ONCE(w->in_phase, p + 1);
	end = fsload_engine_run(w, &w->e, ph, p, job->res[p].start_ns,
				&end_ns);
	WRITE_ONCE(w->in_phase, 0);
	/*
	 * An operation a stop interrupted (fsload_job_stop()) is the stop:
	 * fsload_engine_body() neither counts nor names it.
	 */
	fsload_counters_read(w, &c1);
	fsload_merge(w, p, end, end_ns, &c0, &c1);
	if (end == FSLOAD_RUN_FAILED)
		fsload_fail(w, ph->name, fsload_op_name(w->e.failed_op->type),
			    w->e.err);
	return end == FSLOAD_RUN_DONE || end == FSLOAD_RUN_STONEWALLED;
}

/* mkdir e->name, a directory of the worker's tree; EEXIST is fine if @ok. */
static int fsload_mkdir_name(struct fsload_worker *w, bool ok)
{
	struct path parent;
	int err;

	err = fsload_name_parent(w, &parent);
	if (err)
		return err;
	err = fsload_mkdir(&parent, &w->e.name[w->e.last_off],
			   w->e.name_len - w->e.last_off, NULL);
	path_put(&parent);
	return err == -EEXIST && ok ? 0 : err;
}

/* mkdir the worker's tree root, t<index> (t000 when shared; test-dir.0-0). */
static int fsload_mkdir_root(struct fsload_worker *w)
{
	return fsload_mkdir(&w->job->dir, w->e.name, w->e.root_len, NULL);
}

/* The job around the phase loop, shared with fsloadctl's user engine. */
#include <fsload/engine-job.h>

/**
 * fsload_worker_fn() - body of a worker kthread
 * @data: the worker
 *
 * Runs the job's phases with the credentials of the user who started the
 * job, then tells the job it has finished.  Never frees anything itself:
 * the job's reaper stops and releases the workers.
 *
 * Context: kthread.
 * Return: 0.
 */
int fsload_worker_fn(void *data)
{
	struct fsload_worker *w = data;
	struct fsload_job *job = w->job;
	const struct fsload_program *prog = &job->prog;
	const struct cred *old;

	/* fsload_job_stop() ends a sleep only a signal ends. */
	allow_signal(SIGKILL);
	old = override_creds(job->cred);
	fsload_counters_open(w);
	if (w->ev_insn)
		WRITE_ONCE(job->pmu, true);
	/* A block job has no directories. */
	fsload_engine_job(w, &w->e, prog->phases, prog->nphases, !prog->block,
			  prog->setup.flags & FSLOAD_JOB_F_SHARED_DIR);
	fsload_counters_close(w);
	revert_creds(old);
	fsload_job_worker_done(job);
	return 0;
}
