/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the phase loop of include/fsload/engine-loop.h, compiled
 * once per backend of the userspace engine (uengine-int.h).  Included by
 * ubackend-sync.c and ubackend-uring.c, each after its fsload_op_*() and
 * fsload_drain(): the loop's other hooks are the same in both.  A
 * backend's struct ubackend names uloop_run() and uloop_overhead().
 */
#ifndef FSLOADCTL_ULOOP_H
#define FSLOADCTL_ULOOP_H

#include "engine/uengine-int.h"

/* A block job is the kernel's alone (fsloadctl start refuses it here). */
static s64 fsload_op_bio(struct fsload_worker *w,
			 const struct fsload_opdesc *op)
{
	(void)w;
	(void)op;
	return -EOPNOTSUPP;
}

static inline u64 fsload_now(void)
{
	return mono_ns();
}

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>

static inline bool fsload_cycles_ok(void)
{
	return uengine_tsc_ok;
}

static inline u64 fsload_cycles(void)
{
	return __rdtsc();
}

static inline u32 fsload_cycles_mult(void)
{
	return uengine_tsc_mult;
}
#else
static inline bool fsload_cycles_ok(void)
{
	return false;
}

static inline u64 fsload_cycles(void)
{
	return 0;
}

static inline u32 fsload_cycles_mult(void)
{
	return 0;
}
#endif

/* The kernel's tracepoint; userspace has perf's syscall events. */
static inline void fsload_trace_op(struct fsload_worker *w,
				   const struct fsload_opdesc *op, s64 ret,
				   u64 lat)
{
	(void)w;
	(void)op;
	(void)ret;
	(void)lat;
}

/* The phase loop, shared with the kernel's workers (uengine-int.h). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <fsload/engine-loop.h>

static enum fsload_run_end uloop_run(struct fsload_worker *w,
				     const struct fsload_phase *ph,
				     unsigned int p, u64 start_ns,
				     u64 *end_ns)
{
	return fsload_engine_run(w, &w->e, ph, p, start_ns, end_ns);
}

static u64 uloop_overhead(struct fsload_worker *w, struct fsload_phase *ph)
{
	return fsload_engine_overhead(w, &w->e, ph);
}
#pragma GCC diagnostic pop

#endif /* FSLOADCTL_ULOOP_H */
