/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsload: a job's choreography around the phase loop, compiled into the
 * kernel's workers (module/worker.c) and fsloadctl's userspace engine
 * (ctl/engine/uworker.c), so that both make the same directories and pass the
 * same barriers: each thread makes its tree, then runs every phase
 * between two barriers; at each barrier the last thread to arrive holds
 * (if the phase asks) and opens the phase, or closes it, while the
 * others wait; a failure or a stop ends the job at the next barrier.
 * Opening the first phase calibrates the engine (its idle baseline, the
 * loop's own cost); opening and closing each phase measures the
 * machine's CPU over it, its sync tail and the top threads, into the
 * phase's struct fsload_result.
 *
 * Included once per engine, once it has defined engine-loop.h's
 * fsload_stopping() and fsload_yield() and, as static functions (how each
 * engine waits, measures and reports):
 *	bool fsload_barrier_arrive(w, gen)
 *				count @w in at barrier @gen: true for the
 *				last thread to arrive
 *	void fsload_barrier_pass(w, gen)
 *				the last one: publish that barrier @gen is
 *				passed (what it wrote visible to the others)
 *				and wake them
 *	bool fsload_barrier_wait(w, gen)
 *				the others: wait until barrier @gen is
 *				passed (true) or the job stops (false)
 *	bool fsload_hold(w, p)	before phase @p opens, its hold if it has
 *				FSLOAD_PHASE_F_HOLD (after the last phase,
 *				@p the number of phases: the job's if it
 *				has FSLOAD_JOB_F_HOLD_END); false when the
 *				job is stopping
 *	const struct fsload_phase *fsload_job_phase(w, p)
 *				phase @p of the job
 *	void fsload_job_lock(w), fsload_job_unlock(w)
 *				the job's lock: its results, its
 *				measurements and its current phase
 *	void *fsload_zalloc(size), fsload_free(ptr)
 *				zeroed memory the opener may sleep for
 *	void fsload_sys_snap_job(w, s)
 *				the machine's busy time now, into
 *				struct fsload_sys @s (the engine's type)
 *	u64 fsload_sys_busy(a, b, span_ns)
 *				the busy time of all CPUs from @a to @b,
 *				each CPU's at most @span_ns
 *	u32 fsload_idle_ms(w), void fsload_idle_wait(w, ms)
 *				the job's idle baseline before its first
 *				phase, and the wait for it (a stop ends it)
 *	u64 fsload_overhead(w, ph)
 *				fsload_engine_overhead() of the engine's
 *				loop, @ph zeroed scratch space; with
 *				FSLOAD_OP_CLOCK_NOW, the op clock it times
 *				with when not the TSC
 *	void fsload_phase_prepare(w, p)
 *				before phase @p's snapshots, after the
 *				calibration (before the first phase)
 *	void fsload_threads_open(w), fsload_threads_close(w, top)
 *				every thread's CPU time at the phase's
 *				opening; at its closing the top threads
 *				since (fsload_top_add()), their number
 *	s64 fsload_phase_sync(w, what)
 *				the phase's sync tail (FSLOAD_PHASE_F_SYNC),
 *				*@what what it did, for a failure
 *	void fsload_phase_opened(w, p), fsload_phase_closed(w, p, t1, t2)
 *				under the job's lock, phase @p published,
 *				or closed: its busy span ended at @t1, its
 *				tail at @t2
 * engine-job.h then records a failure and opens and closes each phase
 * itself (an engine declares fsload_fail() to call it before):
 *	void fsload_fail(w, phase, what, err)
 *				record the job's first failure (@what on
 *				fsload_fail_where()) and stop the job
 *	void fsload_phase_open(w, p)
 *	void fsload_phase_close(w, p)
 *				open or close phase @p: its clock, the
 *				machine's CPU, its sync tail
 *	bool fsload_run_phase(w, p)
 *				run phase @p (fsload_engine_run()) and merge
 *				the thread's statistics: true when every
 *				iteration was done or its time limit reached
 *	int fsload_mkdir_root(w)
 *				mkdir the thread's tree root, e->name's first
 *				e->root_len bytes
 *	int fsload_mkdir_name(w, ok)
 *				mkdir e->name; -EEXIST is 0 when @ok
 *	const char *fsload_fail_where(w)
 *				where a failure of thread @w was: e->name
 *	void fsload_stop(w)	stop the job
 * Each returns 0 or a negative errno where it returns an int.
 */
#ifndef _FSLOAD_ENGINE_JOB_H
#define _FSLOAD_ENGINE_JOB_H

#include "engine.h"

/*
 * Record the first failure of the job, @what failing with @err in phase
 * @phase (or what it was doing), and stop the job.
 */
static void fsload_fail(struct fsload_worker *w, const char *phase,
			const char *what, int err)
{
	fsload_job_lock(w);
	if (!w->job->err) {
		w->job->err = err;
		snprintf(w->job->errmsg, sizeof(w->job->errmsg),
			 "phase %s, thread %u: %s %s: error %d", phase,
			 w->index, what, fsload_fail_where(w), err);
	}
	fsload_job_unlock(w);
	fsload_stop(w);
}

/*
 * Before the first phase, with every other thread waiting: the machine's
 * idle baseline, then the cost of the phase loop itself, from running
 * null operations through it.
 */
static void fsload_calibrate(struct fsload_worker *w)
{
	u32 idle_ms = fsload_idle_ms(w);
	struct fsload_sys a, b;
	struct fsload_phase *ph;
	u64 ns;

	if (idle_ms) {
		fsload_sys_snap_job(w, &a);
		fsload_idle_wait(w, idle_ms);
		fsload_sys_snap_job(w, &b);
		fsload_job_lock(w);
		w->job->idle_ns = b.wall_ns - a.wall_ns;
		w->job->idle_busy_ns = fsload_sys_busy(&a, &b,
						       w->job->idle_ns);
		fsload_job_unlock(w);
	}
	ph = fsload_zalloc(sizeof(*ph));
	if (!ph)
		return;
	ns = fsload_overhead(w, ph);
	fsload_free(ph);
	if (!ns)
		return;
	fsload_job_lock(w);
	w->job->overhead_ops = FSLOAD_OVERHEAD_OPS;
	w->job->overhead_ns = ns;
	w->job->op_clock = w->e.clk_tsc ? FSLOAD_OP_CLOCK_TSC :
					  FSLOAD_OP_CLOCK_NOW;
	fsload_job_unlock(w);
}

/* The last thread to arrive opens phase @p. */
static void fsload_phase_open(struct fsload_worker *w, unsigned int p)
{
	struct fsload_result *res = &w->job->res[p];

	if (p == 0)
		fsload_calibrate(w);
	fsload_phase_prepare(w, p);
	/* Without the memory, the phase just lists no threads. */
	fsload_threads_open(w);
	fsload_sys_snap_job(w, &w->job->sys0);
	fsload_job_lock(w);
	res->started = true;
	res->start_ns = w->job->sys0.wall_ns;
	w->job->cur_phase = p;
	fsload_phase_opened(w, p);
	fsload_job_unlock(w);
}

/*
 * The last thread to finish phase @p closes it: the machine's CPU over
 * the phase, the sync tail, the threads that used most CPU.
 */
static void fsload_phase_close(struct fsload_worker *w, unsigned int p)
{
	const struct fsload_phase *ph = fsload_job_phase(w, p);
	struct fsload_result *res = &w->job->res[p];
	struct fsload_top top[FSLOAD_TOP_THREADS];
	const char *what = "syncfs";
	struct fsload_sys s1, s2;
	unsigned int ntop;
	bool tail = false;
	s64 err = 0;

	fsload_sys_snap_job(w, &s1);
	s2 = s1;
	if ((ph->flags & FSLOAD_PHASE_F_SYNC) && !fsload_stopping(w)) {
		err = fsload_phase_sync(w, &what);
		fsload_sys_snap_job(w, &s2);
		tail = true;
	}
	ntop = fsload_threads_close(w, top);

	fsload_job_lock(w);
	if (!fsload_stopping(w) || tail) {
		res->measured = true;
		/* over the phase's elapsed time, as the report divides */
		res->sys_busy_ns = fsload_sys_busy(&w->job->sys0, &s1,
						   fsload_result_elapsed(res));
		res->tail = tail;
		res->tail_ns = s2.wall_ns - s1.wall_ns;
		res->tail_busy_ns = fsload_sys_busy(&s1, &s2, res->tail_ns);
		res->ntop = ntop;
		memcpy(res->top, top, ntop * sizeof(*top));
	}
	fsload_phase_closed(w, p, s1.wall_ns, s2.wall_ns);
	fsload_job_unlock(w);
	if (err) {
		w->e.name[0] = '\0';
		fsload_fail(w, ph->name, what, (int)err);
	}
}

/*
 * Barrier @gen: wait until every thread has arrived.  The last to arrive
 * opens phase @gen / 2 (even @gen), after its hold, or closes it (odd)
 * while the others wait.  Returns false when the job is stopping: a
 * stopping job opens no phase.
 */
static bool fsload_barrier(struct fsload_worker *w, unsigned int gen)
{
	if (!fsload_barrier_arrive(w, gen))
		return fsload_barrier_wait(w, gen) && !fsload_stopping(w);
	if (!(gen & 1) && !fsload_hold(w, gen / 2))
		return false;
	if (gen & 1)
		fsload_phase_close(w, gen / 2);
	else
		fsload_phase_open(w, gen / 2);
	fsload_barrier_pass(w, gen);
	return !fsload_stopping(w);
}

/*
 * After the last phase (@nphases), every thread arrives once more; the
 * last holds (FSLOAD_JOB_F_HOLD_END: until the other ranks of a run in
 * the job's directory are done with it) while the others wait, so that
 * no thread ends, and the tree is not removed, before the hold ends.
 */
static void fsload_barrier_end(struct fsload_worker *w, unsigned int nphases)
{
	unsigned int gen = 2 * nphases;

	if (!fsload_barrier_arrive(w, gen)) {
		fsload_barrier_wait(w, gen);
		return;
	}
	fsload_hold(w, nphases);
	fsload_barrier_pass(w, gen);
}

/*
 * Make directory @k of the thread's tree.  In a shared tree its parent
 * may be another thread's to make and not made yet: then make that first
 * (@levels up at most).
 */
static int fsload_make_dir(struct fsload_worker *w, struct fsload_engine *e,
			   u32 k, bool shared, unsigned int levels)
{
	int err;

	fsload_name_set_dir(e, k);
	err = fsload_mkdir_name(w, shared);
	if (err != -ENOENT || !shared || !e->branch || !k || !levels)
		return err;
	err = fsload_make_dir(w, e, (k - 1) / e->branch, shared, levels - 1);
	if (err)
		return err;
	fsload_name_set_dir(e, k);
	return fsload_mkdir_name(w, shared);
}

/*
 * Make the thread's tree root, t<index> (t000 when @shared; mdtest's
 * test-dir.0-0), and unless a phase of @ph makes them, the directories
 * that will hold its files, parents first: its own tree's from directory
 * 0 (those before e->first_dir hold none), in a shared tree those of its
 * files and their parents, another thread may have made one first.  On
 * failure e->name is where.
 */
static int fsload_engine_prepare(struct fsload_worker *w,
				 struct fsload_engine *e,
				 const struct fsload_phase *ph,
				 unsigned int nphases, bool shared)
{
	u32 fpd = e->files_per_dir;
	u32 d = shared ? e->file_base / fpd : 0;
	u32 dend = (e->file_base + (u32)e->files - 1) / fpd;
	int err;

	err = fsload_mkdir_root(w);
	if (err == -EEXIST && fsload_root_shared(e))
		err = 0;
	if (err) {
		e->name_len = e->root_len;
		e->name[e->root_len] = '\0';
		return err;
	}
	if (fsload_phases_make_dirs(ph, nphases) || e->in_root)
		return 0;
	for (; d <= dend && !err; d++) {
		if (fsload_stopping(w))
			break;
		err = fsload_make_dir(w, e, d, shared, FSLOAD_TREE_DEPTH_MAX);
		fsload_yield();
	}
	return err;
}

/*
 * Thread @w's whole job: its directories (unless @dirs is false: a block
 * job has none), then the @nphases phases of @ph, each between its two
 * barriers (2p opens phase p, 2p + 1 closes it), until one fails or the
 * job stops, and after the last, the end's barrier.
 */
static void fsload_engine_job(struct fsload_worker *w, struct fsload_engine *e,
			      const struct fsload_phase *ph,
			      unsigned int nphases, bool dirs, bool shared)
{
	unsigned int p;
	bool ok = true;
	int err = 0;

	if (dirs)
		err = fsload_engine_prepare(w, e, ph, nphases, shared);
	if (err)
		fsload_fail(w, "prepare", "mkdir", err);	/* e->name: where */
	for (p = 0; !err && ok && p < nphases; p++) {
		if (!fsload_barrier(w, 2 * p))
			break;
		ok = fsload_run_phase(w, p);
		fsload_barrier(w, 2 * p + 1);
	}
	if (!err && ok && p == nphases)
		fsload_barrier_end(w, nphases);
}

#endif /* _FSLOAD_ENGINE_JOB_H */
