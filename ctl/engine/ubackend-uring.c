// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the userspace engine's io_uring backend (start --engine
 * uring): each op of the program queued on the thread's ring (uring.c,
 * the requests that stand for the sync backend's system calls), and the
 * phase loop compiled over them (uloop.h).  syncfs and mknod have no
 * io_uring request: they stay the sync backend's system calls, after the
 * ops queued before them have ended.
 */
#define _GNU_SOURCE
#include <fcntl.h>

#include "engine/uengine-int.h"
#include "lib/msg.h"

/* The ring's op of a type without parameters. */
static s64 uop_uring(struct fsload_worker *w, u8 type)
{
	static const struct fsload_opdesc ops[FSLOAD_OP_MAX + 1] = {
		[FSLOAD_OP_STAT] = { .type = FSLOAD_OP_STAT },
		[FSLOAD_OP_FSYNC] = { .type = FSLOAD_OP_FSYNC },
		[FSLOAD_OP_DROP_CACHE] = { .type = FSLOAD_OP_DROP_CACHE },
	};

	return uring_op(w->ring, &w->e, &ops[type]);
}

/*
 * Before a system call that io_uring has no request for (syncfs, mknod):
 * the ring's ops queued before it end first, as the system calls before
 * it would have.  0 or their failure.
 */
static s64 uop_settle(struct fsload_worker *w)
{
	u64 last;

	return uring_drain(w->ring, &w->e, &last);
}

static s64 fsload_op_create(struct fsload_worker *w,
			    const struct fsload_opdesc *op)
{
	unsigned int mode;
	s64 err;

	if (!(op->flags & FSLOAD_OP_F_MKNOD))
		return uring_op(w->ring, &w->e, op);
	fsload_create_flags(op, &mode);
	err = uop_settle(w);
	return err ? err : usync_mknod(w, mode);
}

static s64 fsload_op_append(struct fsload_worker *w,
			    const struct fsload_opdesc *op)
{
	return uring_op(w->ring, &w->e, op);
}

static s64 fsload_op_random(struct fsload_worker *w,
			    const struct fsload_opdesc *op, bool write)
{
	(void)write;	/* op->type says it */
	return uring_op(w->ring, &w->e, op);
}

static s64 fsload_op_read(struct fsload_worker *w,
			  const struct fsload_opdesc *op)
{
	return uring_op(w->ring, &w->e, op);
}

static s64 fsload_op_fsync(struct fsload_worker *w)
{
	return uop_uring(w, FSLOAD_OP_FSYNC);
}

static s64 fsload_op_stat(struct fsload_worker *w)
{
	return uop_uring(w, FSLOAD_OP_STAT);
}

/* unlink, rmdir, mkdir and rename */
static s64 fsload_op_dirent(struct fsload_worker *w,
			    const struct fsload_opdesc *op)
{
	return uring_op(w->ring, &w->e, op);
}

static s64 fsload_op_drop_cache(struct fsload_worker *w)
{
	return uop_uring(w, FSLOAD_OP_DROP_CACHE);
}

static s64 ubackend_uring_syncfs(struct fsload_worker *w)
{
	s64 err = uop_settle(w);

	return err ? err : usync_syncfs(w);
}

static s64 fsload_op_syncfs(struct fsload_worker *w)
{
	return ubackend_uring_syncfs(w);
}

/* The ring's batch. */
static inline s64 fsload_drain(struct fsload_worker *w, u64 *last_ns)
{
	return uring_drain(w->ring, &w->e, last_ns);
}

#include "engine/uloop.h"

/* The worker's own ring, made by its thread (an SQPOLL thread is named after it). */
static int ubackend_uring_init(struct fsload_worker *w, char *why,
			       size_t why_len)
{
	struct ujob *job = w->job;

	return uring_open(&w->ring, &job->uring_opts, job->dir_fd, w->buf,
			  why, why_len);
}

static void ubackend_uring_exit(struct fsload_worker *w)
{
	uring_close(w->ring);
	w->ring = NULL;
}

static void ubackend_uring_phase(struct fsload_worker *w,
				 const struct fsload_phase *ph)
{
	/* a rotating rename is its phase's only op */
	uring_phase(w->ring, ph, (ph->flags & FSLOAD_PHASE_F_DIRS) ||
			     (ph->nops &&
			      (ph->ops[0].flags & FSLOAD_OP_F_ROTATE)),
		    min(w->e.files, w->e.reached));
	uring_helpers_cpu_ns(w->ring);
}

static u64 ubackend_uring_helpers(struct fsload_worker *w)
{
	return uring_helpers_cpu_ns(w->ring);
}

const struct ubackend ubackend_uring = {
	.what = "io_uring",
	.thread_init = ubackend_uring_init,
	.thread_exit = ubackend_uring_exit,
	.phase_begin = ubackend_uring_phase,
	.run = uloop_run,
	.helpers_cpu_ns = ubackend_uring_helpers,
	.overhead = uloop_overhead,
	.syncfs = ubackend_uring_syncfs,
};

/*
 * That this kernel lets a process make a ring with the options @o and
 * the operations the engine uses (a worker's is its own).  0, or
 * EXIT_SYSERR after saying why not.
 */
int ubackend_uring_check(const struct uring_opts *o)
{
	struct uring *u;
	char why[128];

	if (uring_open(&u, o, AT_FDCWD, NULL, why, sizeof(why))) {
		errmsg("uring engine: %s", why);
		return EXIT_SYSERR;
	}
	uring_close(u);
	return 0;
}
