/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsload: the phase loop, compiled into the kernel's workers (worker.c) and
 * fsloadctl's userspace engine (ctl/engine/uloop.h, once per backend), so
 * that both run the same operation sequence with the same accounting.
 *
 * Included once per engine, after it has defined:
 *	struct fsload_worker		its worker, opaque here
 * the primitives fsload_do_op() calls, each doing an op of its type on
 * e->name and returning the bytes moved, a negative errno, or
 * FSLOAD_RET_ACCOUNTED:
 *	fsload_op_create(w, op)		fsload_op_append(w, op)
 *	fsload_op_read(w, op)		fsload_op_random(w, op, write)
 *	fsload_op_stat(w)		fsload_op_fsync(w)
 *	fsload_op_dirent(w, op)		unlink, mkdir, rmdir, rename (from
 *					e->ren_from to e->ren_to)
 *	fsload_op_syncfs(w)		fsload_op_drop_cache(w)
 *	fsload_op_bio(w, op)		bio_write, bio_read
 * and:
 *	s64 fsload_drain(w, &last_ns)	wait for the asynchronous ops in
 *					flight and account them: 0 or the
 *					first failure's negative errno (its
 *					op in e->failed_op, unless one was
 *					already); *last_ns the latest
 *					completion
 * An asynchronous op that returns an earlier op's failure has counted it
 * and set e->failed_op.
 *	bool fsload_stopping(w)		a stop was requested
 *	u64 fsload_now(void)		monotonic clock, ns
 *	bool fsload_cycles_ok(void)	the loop may time ops with a cycle
 *					counter: one of constant rate,
 *					not stopped in idle states,
 *					synchronised across CPUs (the
 *					kernel's verdict), cheaper to read
 *					than fsload_now(); read at each
 *					phase's start and each clock read
 *					(false ends the counter's use in
 *					the phase)
 *	u64 fsload_cycles(void)		that counter
 *	u32 fsload_cycles_mult(void)	ns per count << FSLOAD_CLOCK_SHIFT
 *	void fsload_yield(void)		a rescheduling point
 *	void fsload_trace_op(w, op, ret, lat)
 *					a synchronous op ended (tracepoint)
 * each a function the compiler sees, static (inline) or declared: the
 * operation is a direct call, chosen by one switch (no indirect call per
 * op, no retpoline).
 */
#ifndef _FSLOAD_ENGINE_LOOP_H
#define _FSLOAD_ENGINE_LOOP_H

#include "engine.h"

/*
 * Do @op, of @type (its type, which the loop may know without reading
 * it): bytes moved (>= 0), a negative errno or FSLOAD_RET_ACCOUNTED.
 * In the loop itself: each instance of fsload_engine_body() gets its own
 * switch (out of line, the call would cost more than the null op).
 */
static __always_inline s64 fsload_do_op(struct fsload_worker *w,
					const struct fsload_opdesc *op,
					u8 type)
{
	switch (type) {
	case FSLOAD_OP_NULL:
		return 0;
	case FSLOAD_OP_CREATE:
		return fsload_op_create(w, op);
	case FSLOAD_OP_STAT:
		return fsload_op_stat(w);
	case FSLOAD_OP_READ:
		return fsload_op_read(w, op);
	case FSLOAD_OP_APPEND:
		return fsload_op_append(w, op);
	case FSLOAD_OP_WRITE_RANDOM:
		return fsload_op_random(w, op, true);
	case FSLOAD_OP_READ_RANDOM:
		return fsload_op_random(w, op, false);
	case FSLOAD_OP_FSYNC:
		return fsload_op_fsync(w);
	case FSLOAD_OP_RENAME:
		fsload_rename_names(&w->e, op);
		return fsload_op_dirent(w, op);
	case FSLOAD_OP_UNLINK:
	case FSLOAD_OP_MKDIR:
	case FSLOAD_OP_RMDIR:
		return fsload_op_dirent(w, op);
	case FSLOAD_OP_SYNCFS:
		return fsload_op_syncfs(w);
	case FSLOAD_OP_BIO_WRITE:
	case FSLOAD_OP_BIO_READ:
		return fsload_op_bio(w, op);
	case FSLOAD_OP_DROP_CACHE:
		return fsload_op_drop_cache(w);
	}
	return -EOPNOTSUPP;
}

/*
 * fsload_clock() after it left the cycle counter in the phase: no time
 * below the counter's last (fsload_now() may be, by the counter's rate
 * error), until fsload_now() passes it.
 */
static inline u64 fsload_clock_floor(struct fsload_engine *e)
{
	u64 now = fsload_now();

	if (now < e->clk_floor)
		return e->clk_floor;
	e->clk_floor = 0;
	return now;
}

/*
 * fsload_clock() leaves the cycle counter: it stepped back (a reading
 * below the one before: the TSC reset across a suspend, or read on a CPU
 * whose TSC lags the last one's), or the engine no longer trusts it (the
 * kernel marked the TSC unstable: fsload_cycles_ok()).  The reading is
 * not used: the time is fsload_now()'s, or the counter's last time while
 * fsload_now() is behind it (those ops' latencies clamped to 0, never
 * 2^64 ns less a few).  A step back is counted, and the worker times ops
 * with fsload_now() for the rest of the job.  Out of line: it never runs
 * in a phase on a sane counter.
 */
static noinline u64 fsload_clock_leave(struct fsload_engine *e)
{
	e->clk_floor = e->clk_ns +
		       mul_u64_u32_shr(e->clk_last - e->clk_cyc, e->clk_mult,
				       FSLOAD_CLOCK_SHIFT);
	e->clk_tsc = false;
	if (fsload_cycles_ok()) {
		e->clk_back++;
		e->clk_off = true;
	}
	return fsload_clock_floor(e);
}

/*
 * The loop's clock, ns on fsload_now()'s scale: where the engine times
 * ops with a cycle counter (e->clk_tsc: fsload_clock_anchor()), a read, a
 * comparison with the last, a multiply and a shift from the anchor the
 * phase's start took (fsload_now() costs the kernel engine 63
 * instructions, the user engine's vDSO 99: README, "The engine's own cost
 * per op"), else fsload_now().  It never goes back in a phase (a reading
 * below the last leaves the counter: fsload_clock_leave()), so that a
 * latency, a difference of it, is never negative (2^64 ns as a u64), nor
 * is a time 2^64 / rate ahead (a timed phase ended at once).  A phase's
 * times and marks, on fsload_now()'s scale, drift from it by the
 * counter's rate error (tsc_khz's against the timekeeping's), ppm of the
 * phase's length at most.
 */
static __always_inline u64 fsload_clock(struct fsload_engine *e)
{
	u64 c;

	if (likely(e->clk_tsc)) {
		if (fsload_cycles_ok()) {
			c = fsload_cycles();
			if (likely((s64)(c - e->clk_last) >= 0)) {
				e->clk_last = c;
				return e->clk_ns +
				       mul_u64_u32_shr(c - e->clk_cyc,
						       e->clk_mult,
						       FSLOAD_CLOCK_SHIFT);
			}
		}
		return fsload_clock_leave(e);
	}
	if (unlikely(e->clk_floor))
		return fsload_clock_floor(e);
	return fsload_now();
}

/*
 * The phase's start for fsload_clock(): its steps back zeroed and, where
 * the engine may time ops with the cycle counter (fsload_cycles_ok(), and
 * it has not stepped back in the job), its anchor: fsload_now() between
 * two counter reads, booked to their midpoint.
 */
static inline void fsload_clock_anchor(struct fsload_engine *e)
{
	u64 c0, c1;

	e->clk_back = 0;
	e->clk_floor = 0;
	e->clk_tsc = false;
	if (!fsload_cycles_ok() || e->clk_off)
		return;
	e->clk_mult = fsload_cycles_mult();
	c0 = fsload_cycles();
	e->clk_ns = fsload_now();
	c1 = fsload_cycles();
	if ((s64)(c1 - c0) < 0) {
		e->clk_back++;
		e->clk_off = true;
		return;
	}
	e->clk_cyc = c0 + (c1 - c0) / 2;
	e->clk_last = e->clk_cyc;
	e->clk_tsc = true;
}

/*
 * Ops between two rescheduling points, which are also where the loop sees
 * a stop: each costs as much as a quarter of the rest of the loop, and
 * neither is needed per op (a stop waits for at most this many more).
 */
#define FSLOAD_YIELD_OPS	16

/*
 * fsload_engine_run()'s body, compiled twice: @sampling is a constant, so
 * that with lat_sample 1 the loop has no trace of sampling (its cost per
 * op did not grow: README, "The engine's own cost per op").
 *
 * Without sampling, one clock read per op: the end of one is the start
 * of the next, and t0 ends as the end of the last op.  With sampling, a
 * timed op reads the clock at the top of its iteration and after the op,
 * so that its latency spans what it spans without sampling (the yield,
 * the name, the pick and the op) but the previous op's accounting; the
 * other ops read no clock.  The stonewall is then seen at the
 * rescheduling points (FSLOAD_YIELD_OPS ops at most after it), a progress
 * mark reads the clock, and the phase's end is read after the loop.
 *
 * @single, also a constant: the thread's group has one op in the phase,
 * looked up before the loop, not picked (or tested for) per op.
 */
static __always_inline enum fsload_run_end
fsload_engine_body(struct fsload_worker *w, struct fsload_engine *e,
		   const struct fsload_phase *ph, unsigned int p,
		   u64 start_ns, u64 *end_ns, const bool sampling,
		   const bool single)
{
	enum fsload_run_end end = FSLOAD_RUN_DONE;
	u32 files = e->files, idx, idx0, gap = 1, digits = 0;
	char *digit = NULL;
	unsigned int owner;
	const struct fsload_opdesc *op, *one;
	u8 type, one_type;
	struct fsload_perm perm;
	bool dirs = ph->flags & FSLOAD_PHASE_F_DIRS, rmdir, makes, renames;
	bool random = ph->order == FSLOAD_ORDER_RANDOM, timed = true;
	u64 i, t0, t1 = 0, lat = 0, deadline, iterations, next_mark, last = 0;
	s64 ret;

	fsload_engine_reset(e);
	e->failed_op = NULL;
	e->err = 0;
	makes = !dirs && fsload_phase_only(ph, FSLOAD_OP_CREATE, FSLOAD_OP_MKDIR);
	/* a rotation leaves the names as they were */
	renames = !dirs && fsload_phase_only(ph, FSLOAD_OP_RENAME,
					     FSLOAD_OP_RENAME) &&
		  !(ph->ops[0].flags & FSLOAD_OP_F_ROTATE);
	if (makes)
		e->reached = U64_MAX;
	else if (!dirs && e->reached < files)
		files = (u32)e->reached;
	if (random)
		fsload_perm_init(&perm, files, fsload_order_seed(e, p));
	idx = 0;
	if (files)
		div_u64_rem(ph->first, files, &idx);
	idx0 = idx;
	/* the item before the first (the loop moves on, then names) */
	idx = (idx ?: files) - 1;
	e->prefix = ph->prefix;
	/* the tree phases' directories are the thread's own */
	owner = dirs ? e->index : (e->index + ph->stride) % e->threads;
	if (owner != e->owner)
		fsload_engine_owner(e, owner);
	fsload_name_reprefix(e);	/* the next name may not be rebuilt */
	/* No phase lasts 2^64 ns: a deadline of U64_MAX never comes. */
	deadline = ph->duration_ns ? start_ns + ph->duration_ns : U64_MAX;
	/* A group without ops in this phase passes it idle. */
	iterations = !ph->gnops[e->group] ? 0 :
		     dirs ? e->ndirs : ph->iterations;
	/* a pass over the set is a pass over the items that exist */
	if (!dirs && files < e->files && iterations > files &&
	    (ph->iterations <= e->files || !files))
		iterations = files;
	/* Children before their parents when removing. */
	rmdir = dirs && fsload_phase_has(ph, FSLOAD_OP_RMDIR);
	/* the phase's items, for progress (fsload_engine_items()) */
	WRITE_ONCE(e->iter, 0);
	WRITE_ONCE(e->iters, iterations);
	e->nmarks = 0;
	e->next_mark = fsload_mark_at(e->iters, 1);
	/* Its ops and the marks only change here, not per op. */
	next_mark = e->next_mark;
	one = ph->gnops[e->group] == 1 ? &ph->ops[ph->gops[e->group][0]] :
	      NULL;
	if (sampling)
		gap = fsload_lat_gap(e);
	/* published before each op, or once for the group's only one */
	one_type = one ? one->type : 0;
	if (one)
		WRITE_ONCE(e->op_type, one_type);

	fsload_clock_anchor(e);
	t0 = fsload_clock(e);
	for (i = 0; i < iterations; i++) {
		if (sampling) {
			timed = !--gap;
			if (timed) {
				gap = fsload_lat_gap(e);
				t0 = fsload_clock(e);
			}
		}
		if (!(i % FSLOAD_YIELD_OPS)) {
			fsload_yield();
			if (fsload_stopping(w)) {
				end = FSLOAD_RUN_STOPPED;
				break;
			}
			if (sampling && !timed && deadline != U64_MAX)
				t0 = fsload_clock(e);
			if (sampling && t0 >= deadline) {
				end = FSLOAD_RUN_STONEWALLED;
				break;
			}
		}
		if (!sampling && t0 >= deadline) {
			end = FSLOAD_RUN_STONEWALLED;
			break;
		}
		if (likely(digits)) {
			/* the next file, of the same name but its last digit */
			digits--;
			(*digit)++;
			e->name_idx++;
		} else if (dirs) {
			fsload_name_set_dir(e, rmdir ? iterations - 1 - i : i);
		} else if (random) {
			fsload_name_set(e, e->file_base +
					   fsload_perm_next(&perm));
		} else {
			if (++idx == files)
				idx = 0;
			fsload_name_set(e, e->file_base + idx);
			/* idx: the last of them */
			digits = fsload_name_digits(e, files - 1 - idx, &digit);
			idx += digits;
		}
		op = one;
		if (!single) {
			op = fsload_pick(e, ph);
			WRITE_ONCE(e->op_type, op->type);
		}
		WRITE_ONCE(e->iter, i);
		type = single ? one_type : op->type;
		ret = fsload_do_op(w, op, type);
		if (timed) {
			t1 = fsload_clock(e);
			lat = t1 - t0;
			t0 = t1;
		}
		if (unlikely(i + 1 >= next_mark)) {
			if (!timed)
				t1 = fsload_clock(e);
			fsload_mark(e, i + 1, t1);
			next_mark = e->next_mark;
		}
		if (likely(ret >= 0)) {
			fsload_trace_op(w, op, ret, timed ? lat : 0);
			if (timed)
				fsload_account(e, type, lat, ret);
			else
				fsload_count_untimed(e, type, ret);
			continue;
		}
		/* FSLOAD_RET_ACCOUNTED is negative: one test of the sign */
		if (ret == FSLOAD_RET_ACCOUNTED)
			continue;
		fsload_trace_op(w, op, ret, timed ? lat : 0);
		/* the stop's doing, not a failure: neither counted nor named */
		if (fsload_interrupted(ret) && fsload_stopping(w)) {
			end = FSLOAD_RUN_STOPPED;
			break;
		}
		/*
		 * An asynchronous op reports an earlier one's failure,
		 * counted and named in e->failed_op: that op failed,
		 * not this one (which was not submitted).
		 */
		if (!e->failed_op) {
			e->failed_op = op;
			fsload_count_failure(e, ph, op->type, ret);
		}
		if (fsload_expected(ph, ret)) {
			e->failed_op = NULL;
			if (ret != -ENOSPC)
				continue;
			/* fill: the filesystem is full, the phase's end */
			end = FSLOAD_RUN_DONE;
			break;
		}
		e->err = ret;
		end = FSLOAD_RUN_FAILED;
		break;
	}
	WRITE_ONCE(e->iter, i);	/* the items begun */
	e->name_dir_left += digits;	/* not named: fsload_name_digits() */
	if (sampling)
		t0 = fsload_clock(e);
	/* Asynchronous operations still in flight end the phase. */
	ret = fsload_drain(w, &last);
	if (ret < 0 && end != FSLOAD_RUN_FAILED) {
		e->err = ret;
		end = FSLOAD_RUN_FAILED;
	}
	/* mdtest -Y: the sync is part of the phase's time, not an op */
	if ((ph->flags & FSLOAD_PHASE_F_TIMED_SYNC) &&
	    (end == FSLOAD_RUN_DONE || end == FSLOAD_RUN_STONEWALLED)) {
		static const struct fsload_opdesc sync_op = {
			.type = FSLOAD_OP_SYNCFS,
		};

		ret = fsload_op_syncfs(w);
		t0 = fsload_clock(e);
		if (ret < 0) {
			e->failed_op = &sync_op;	/* named, not counted */
			e->err = ret;
			end = FSLOAD_RUN_FAILED;
		}
	}
	if (end == FSLOAD_RUN_STONEWALLED && (makes || renames) &&
	    ph->order == FSLOAD_ORDER_SEQUENTIAL && !idx0)
		e->reached = min(i, (u64)files);
	*end_ns = max(t0, last);
	return end;
}

/*
 * Run @ph, which opened at @start_ns, over the worker's file set.  The
 * phase statistics in @e are reset first.  *@end_ns is the end of the last
 * operation.  One clock read per operation (with e->lat_sample N, two per
 * timed op, 1 in N, and none for the others: fsload_engine_body());
 * everything that a phase cannot change is looked up before the first.
 *
 * As mdtest: when a stonewall stops a phase that makes the items (only
 * create or mkdir) or renames them, in sequential order from item 0,
 * after n of them, the later phases run over those n items (a full pass
 * is n iterations), not over items that do not exist; the next phase
 * that makes items runs over the whole set again.
 */
static enum fsload_run_end fsload_engine_run(struct fsload_worker *w,
					     struct fsload_engine *e,
					     const struct fsload_phase *ph,
					     unsigned int p, u64 start_ns,
					     u64 *end_ns)
{
	bool single = ph->gnops[e->group] == 1;

	if (e->lat_sample > 1)
		return single ?
		       fsload_engine_body(w, e, ph, p, start_ns, end_ns, true,
					  true) :
		       fsload_engine_body(w, e, ph, p, start_ns, end_ns, true,
					  false);
	return single ?
	       fsload_engine_body(w, e, ph, p, start_ns, end_ns, false, true) :
	       fsload_engine_body(w, e, ph, p, start_ns, end_ns, false, false);
}

/*
 * The engine's own cost per operation (timing, accounting, naming): the
 * time of FSLOAD_OVERHEAD_OPS null operations through the phase loop,
 * after a warm-up of an eighth as many.  @ph is zeroed scratch space.
 * Returns that time in ns, 0 when stopped.  The worker's progress and
 * statistics are as before.
 */
static u64 fsload_engine_overhead(struct fsload_worker *w,
				  struct fsload_engine *e,
				  struct fsload_phase *ph)
{
	static const struct fsload_slots null_slots = {
		.slot[FSLOAD_OP_NULL] = 1,
		.n = 1,
	};
	const struct fsload_slots *slots = e->slots;
	u64 t0, t1, ns = 0;

	ph->order = FSLOAD_ORDER_SEQUENTIAL;
	ph->prefix = 'f';
	ph->nops = 1;
	ph->weight_total = 1;
	ph->ops[0].type = FSLOAD_OP_NULL;
	ph->ops[0].weight = 1;
	ph->ops[0].group = FSLOAD_GROUP_ALL;
	fsload_phase_groups(ph, FSLOAD_GROUPS_MAX);
	e->slots = &null_slots;
	/*
	 * Not progress: a progress report in between would count them, and
	 * the job's count would then go back.
	 */
	e->uncounted = true;
	ph->iterations = FSLOAD_OVERHEAD_OPS / 8;
	fsload_engine_run(w, e, ph, 0, fsload_now(), &t1);
	ph->iterations = FSLOAD_OVERHEAD_OPS;
	t0 = fsload_now();
	if (fsload_engine_run(w, e, ph, 0, t0, &t1) == FSLOAD_RUN_DONE)
		ns = t1 - t0;
	e->slots = slots;
	e->uncounted = false;
	/* nor are its items a phase's (fsload_engine_items()) */
	WRITE_ONCE(e->iters, 0);
	WRITE_ONCE(e->iter, 0);
	return ns;
}

#endif /* _FSLOAD_ENGINE_LOOP_H */
