/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the io_uring rings of the userspace engine (start --engine
 * uring).  The user engine's threads and choreography (uworker.c) and its
 * phase loop over the uring backend's ops (ubackend-uring.c) run the
 * program; this file only does its operations, each as the io_uring
 * requests that stand for its system calls, batched.
 */
#ifndef FSLOADCTL_URING_H
#define FSLOADCTL_URING_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/kshim.h"
#include <fsload/engine.h>

#include "workload/profile.h"

/* What --uring-sqpoll and --uring-batch ask for. */
struct uring_opts {
	bool sqpoll;		/* a kernel thread polls the submissions */
	uint32_t batch;		/* ops submitted at once, 1..URING_BATCH_MAX */
};

struct uring;

/*
 * A ring for one engine thread, doing its ops relative to @dir_fd with
 * the I/O buffer @buf.  Called from that thread (it owns the ring and, with
 * SQPOLL, its polling thread is named after it).  Returns 0 or a negative
 * errno, with why in @why (for a message).
 */
int uring_open(struct uring **u, const struct uring_opts *o, int dir_fd,
	       void *buf, char *why, size_t why_len);
void uring_close(struct uring *u);

/*
 * The batch for a phase: @batch ops at once, 1 for a phase whose ops must
 * happen in order (the directory tree), at most @files (a batch never
 * holds one name twice in a pass).  @ph: the failures it expects
 * (fsload_count_failure()).
 */
void uring_phase(struct uring *u, const struct fsload_phase *ph,
		 bool ordered, u64 files);

/*
 * Queue @op on e->name; when the batch is full, submit it and account
 * every op of it in @e (latency: its completion less the batch's
 * submission).  Returns FSLOAD_RET_ACCOUNTED, or the batch's failure
 * (counted; its op in e->failed_op unless one was already).
 */
s64 uring_op(struct uring *u, struct fsload_engine *e,
	     const struct fsload_opdesc *op);

/*
 * Submit and account what is queued: 0 or the first failure's negative
 * errno; *@last_ns the latest completion (0 if none).
 */
s64 uring_drain(struct uring *u, struct fsload_engine *e, u64 *last_ns);

/*
 * The CPU time its kernel helpers (the SQPOLL thread, io-wq workers) ran
 * since the last call, ns: the engine thread's share, measured from each
 * helper's /proc/self/task/TID/schedstat.  The first call starts.
 */
u64 uring_helpers_cpu_ns(struct uring *u);

/* A thread of this process named @comm is a ring's kernel helper. */
bool uring_is_helper(const char *comm);

#endif /* FSLOADCTL_URING_H */
