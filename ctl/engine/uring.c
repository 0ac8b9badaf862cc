// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the io_uring backend of the userspace engine (start --engine
 * uring).
 *
 * Each op of the program becomes the io_uring requests that stand for the
 * system calls the user engine makes (ubackend-sync.c), on the same names
 * relative to the same O_PATH job directory:
 *	create		openat(O_CREAT|O_EXCL|O_WRONLY, or with the rdwr flag
 *			O_CREAT|O_RDWR, the trunc flag O_CREAT|O_TRUNC|O_RDWR|
 *			O_NOFOLLOW: fsload_create_flags()) [fallocate] write...
 *			[fsync] close
 *	append		openat(O_WRONLY|O_APPEND) write... [fsync] close
 *	read		openat(O_RDONLY) read... (to EOF, or with the sized
 *			flag op->size bytes: none, open and close) close
 *	read/write_random  openat read|write [fsync] close
 *	fsync		openat(O_RDONLY) fsync close
 *	drop_cache	openat(O_RDONLY) fadvise(DONTNEED) close
 *	stat		statx(STATX_BASIC_STATS), as fstatat(2)
 *	mkdir, unlink, rmdir, rename  mkdirat, unlinkat, renameat
 * The file is a direct descriptor (a registered file slot per op of the
 * batch), so an op's requests are one hard-linked chain: they run in order
 * and the close runs whatever failed before it; the first failure in the
 * chain is the op's.  A read to EOF, and writes beyond URING_CHAIN_WRITES
 * blocks, continue in a new chain when the previous one completes.
 * syncfs (the phase's sync tail and the syncfs op) and a create with the
 * mknod flag (mknodat) have no io_uring request: they stay system calls,
 * after the queued ops have ended (ubackend-uring.c).  Every request used is in Linux 5.15
 * (mkdirat, the newest; direct descriptors); uring_open() probes them.
 *
 * Batching: the loop queues ops; the batch's requests are submitted by one
 * io_uring_enter (with SQPOLL, by the polling thread) when it holds
 * opts.batch ops or the phase ends, and reaped until each op has ended.
 * An op's latency is its completion (when its last request's completion
 * was reaped) less the batch's submission.  The ops of a batch run
 * concurrently (io_uring may punt any of them to its io-wq workers): a
 * phase over the directory tree (parents before children) and a rotating
 * rename (each item into the name the one before vacated) run one op at a
 * time, and a batch holds at most as many ops as the thread has files.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#include "engine/fsutil.h"
#include "engine/uring.h"

/* Writes of one chain: beyond them, the next chain goes on. */
#define URING_CHAIN_WRITES	8
/* The most requests of one chain: openat fallocate writes fsync close. */
#define URING_CHAIN_MAX		(URING_CHAIN_WRITES + 4)
/* With SQPOLL: how long its thread polls an empty ring before it sleeps. */
#define URING_SQ_IDLE_MS	1
/* Kernel helpers followed per ring (SQPOLL thread, io-wq workers). */
#define URING_HELPERS_MAX	64

/* What a request of an op's chain is (user_data's low byte). */
enum uring_req {
	UREQ_OPEN,
	UREQ_ALLOC,
	UREQ_WRITE,
	UREQ_READ,
	UREQ_SYNC,
	UREQ_ADVISE,
	UREQ_CLOSE,
	UREQ_ONE,	/* statx, mkdirat, unlinkat, renameat */
};

/* One op of the batch; its file is the direct descriptor of its index. */
struct uring_slot {
	const struct fsload_opdesc *op;
	u64 left;		/* bytes still to write, or to read (sized) */
	u64 pos;		/* the next read or write offset */
	s64 bytes;		/* bytes moved */
	s64 last_read;		/* the last read's result */
	int err;		/* the first failure of its chain */
	unsigned int inflight;	/* requests submitted, not yet reaped */
	bool closing;		/* its last chain is submitted */
	bool ended;		/* and completed */
	u64 done_ns;		/* its last request reaped */
	char name[FSLOAD_RENAME_LEN_MAX + 1];	/* a rename's source */
	char nname[FSLOAD_RENAME_LEN_MAX + 1];	/* and its target */
	struct statx stx;
};

/* A helper thread's CPU time when last read. */
struct uring_helper {
	pid_t tid;
	u64 runtime_ns;
};

struct uring {
	struct io_uring ring;
	int dir_fd;
	void *buf;
	pid_t tid;			/* the engine thread's */
	u32 batch_max;			/* --uring-batch */
	u32 batch;			/* this phase's */
	const struct fsload_phase *ph;	/* the phase */
	u32 queued;			/* ops in slot[] */
	u32 active;			/* of them, not ended */
	u64 submit_ns;			/* the batch's submission */
	unsigned int nhelpers;
	struct uring_helper helpers[URING_HELPERS_MAX];
	struct uring_slot *slot;	/* batch_max */
};

static u64 uring_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* The ops every program may use: name them when the kernel lacks one. */
static const struct {
	int op;
	const char *name;
} uring_needed[] = {
	{ IORING_OP_OPENAT, "openat" },
	{ IORING_OP_CLOSE, "close" },
	{ IORING_OP_READ, "read" },
	{ IORING_OP_WRITE, "write" },
	{ IORING_OP_FSYNC, "fsync" },
	{ IORING_OP_FALLOCATE, "fallocate" },
	{ IORING_OP_FADVISE, "fadvise" },
	{ IORING_OP_STATX, "statx" },
	{ IORING_OP_UNLINKAT, "unlinkat" },
	{ IORING_OP_RENAMEAT, "renameat" },
	{ IORING_OP_MKDIRAT, "mkdirat" },
};

static int uring_probe(struct io_uring *ring, char *why, size_t why_len)
{
	struct io_uring_probe *p = io_uring_get_probe_ring(ring);
	unsigned int i;

	if (!p) {
		snprintf(why, why_len, "cannot probe io_uring's operations");
		return -EOPNOTSUPP;
	}
	for (i = 0; i < ARRAY_SIZE(uring_needed); i++) {
		if (!io_uring_opcode_supported(p, uring_needed[i].op)) {
			snprintf(why, why_len,
				 "this kernel's io_uring has no %s (Linux 5.15 has every operation the engine uses)",
				 uring_needed[i].name);
			io_uring_free_probe(p);
			return -EOPNOTSUPP;
		}
	}
	io_uring_free_probe(p);
	return 0;
}

int uring_open(struct uring **up, const struct uring_opts *o, int dir_fd,
	       void *buf, char *why, size_t why_len)
{
	struct io_uring_params params;
	struct uring *u;
	int err;

	*up = NULL;
	u = calloc(1, sizeof(*u));
	if (u)
		u->slot = calloc(o->batch, sizeof(*u->slot));
	if (!u || !u->slot) {
		free(u);
		snprintf(why, why_len, "out of memory");
		return -ENOMEM;
	}
	memset(&params, 0, sizeof(params));
	if (o->sqpoll) {
		params.flags |= IORING_SETUP_SQPOLL;
		params.sq_thread_idle = URING_SQ_IDLE_MS;
	}
	err = io_uring_queue_init_params(o->batch * URING_CHAIN_MAX,
					 &u->ring, &params);
	if (err) {
		snprintf(why, why_len, "io_uring_setup: %s%s", strerror(-err),
			 err == -EPERM ?
			 " (kernel.io_uring_disabled, or a seccomp filter?)" :
			 "");
		free(u->slot);
		free(u);
		return err;
	}
	err = uring_probe(&u->ring, why, why_len);
	if (!err) {
		/* a direct descriptor per op of a batch */
		err = io_uring_register_files_sparse(&u->ring, o->batch);
		if (err)
			snprintf(why, why_len,
				 "cannot register %u file slots: %s", o->batch,
				 strerror(-err));
	}
	if (err) {
		io_uring_queue_exit(&u->ring);
		free(u->slot);
		free(u);
		return err;
	}
	u->dir_fd = dir_fd;
	u->buf = buf;
	u->tid = gettid();
	u->batch_max = u->batch = o->batch;
	*up = u;
	return 0;
}

void uring_close(struct uring *u)
{
	if (!u)
		return;
	/*
	 * The files its ops closed in their slots are put when the ring is
	 * torn down, which the kernel does after the ring's close, in a
	 * worker: the filesystem could not be unmounted for a moment after
	 * fsloadctl exits (seen under the instruction clock).  Unregistering
	 * the slots waits for their files to be put.
	 */
	io_uring_unregister_files(&u->ring);
	io_uring_queue_exit(&u->ring);
	free(u->slot);
	free(u);
}

void uring_phase(struct uring *u, const struct fsload_phase *ph,
		 bool ordered, u64 files)
{
	u->ph = ph;
	u->batch = ordered ? 1 : (u32)min((u64)u->batch_max, files ?: 1);
}

static struct io_uring_sqe *uring_sqe(struct uring *u, u32 i,
				      enum uring_req kind)
{
	/* The ring holds URING_CHAIN_MAX requests for every op of a batch. */
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	io_uring_sqe_set_data64(sqe, (u64)i << 8 | kind);
	u->slot[i].inflight++;
	return sqe;
}

/* The last request of a chain ends it; the others link to the next. */
static void uring_link(struct io_uring_sqe *sqe)
{
	sqe->flags |= IOSQE_IO_HARDLINK;
}

static void uring_fixed(struct io_uring_sqe *sqe)
{
	sqe->flags |= IOSQE_FIXED_FILE;
}

static int uring_open_flags(const struct fsload_opdesc *op,
			    unsigned int *mode)
{
	int flags = O_LARGEFILE;

	*mode = 0;

	if (op->flags & FSLOAD_OP_F_DIRECT)
		flags |= O_DIRECT;
	switch (op->type) {
	case FSLOAD_OP_CREATE:
		return flags | fsload_create_flags(op, mode);
	case FSLOAD_OP_APPEND:
		return flags | O_WRONLY | O_APPEND;
	case FSLOAD_OP_WRITE_RANDOM:
		return flags | O_WRONLY;
	case FSLOAD_OP_FSYNC:
	case FSLOAD_OP_DROP_CACHE:
		return O_RDONLY | O_LARGEFILE;
	default:
		return flags | O_RDONLY;
	}
}

/* Fsync and close: the end of a file's chain. */
static void uring_prep_close(struct uring *u, u32 i, bool sync)
{
	struct uring_slot *s = &u->slot[i];
	struct io_uring_sqe *sqe;

	if (sync) {
		sqe = uring_sqe(u, i, UREQ_SYNC);
		io_uring_prep_fsync(sqe, (int)i, 0);
		uring_fixed(sqe);
		uring_link(sqe);
	}
	sqe = uring_sqe(u, i, UREQ_CLOSE);
	io_uring_prep_close_direct(sqe, i);
	s->closing = true;
}

/*
 * The next writes of op @i, linked; then, once all are submitted, its
 * fsync (if asked) and close.
 */
static void uring_prep_writes(struct uring *u, u32 i)
{
	struct uring_slot *s = &u->slot[i];
	const struct fsload_opdesc *op = s->op;
	/* append's O_APPEND, fs_mark's create: as write(2), at the position */
	bool at_pos = op->type == FSLOAD_OP_APPEND ||
		      (op->flags & FSLOAD_OP_F_TRUNC);
	struct io_uring_sqe *sqe = NULL;
	unsigned int n;
	u32 len;

	for (n = 0; n < URING_CHAIN_WRITES && s->left; n++) {
		len = (u32)min(s->left, (u64)op->block);
		sqe = uring_sqe(u, i, UREQ_WRITE);
		/* at the file's position: offset -1 */
		io_uring_prep_write(sqe, (int)i, u->buf, len,
				    at_pos ? (u64)-1 : s->pos);
		uring_fixed(sqe);
		uring_link(sqe);
		s->left -= len;
		s->pos += len;
	}
	if (!s->left)
		uring_prep_close(u, i, op->flags & FSLOAD_OP_F_FSYNC);
	else if (sqe)	/* the chain's end: the next when it completes */
		sqe->flags &= ~IOSQE_IO_HARDLINK;
}

static bool uring_sized(const struct fsload_opdesc *op)
{
	return op->flags & FSLOAD_OP_F_SIZED;
}

static void uring_prep_read(struct uring *u, u32 i, bool link)
{
	struct uring_slot *s = &u->slot[i];
	struct io_uring_sqe *sqe;
	u32 len = s->op->block;

	if (uring_sized(s->op) && s->left < len)
		len = (u32)s->left;
	sqe = uring_sqe(u, i, UREQ_READ);
	io_uring_prep_read(sqe, (int)i, u->buf, len, s->pos);
	uring_fixed(sqe);
	if (link)
		uring_link(sqe);
}

/* The first chain of op @i, on the name in its slot. */
static void uring_prep_op(struct uring *u, u32 i)
{
	struct uring_slot *s = &u->slot[i];
	const struct fsload_opdesc *op = s->op;
	struct io_uring_sqe *sqe;
	unsigned int mode;
	int flags;

	switch (op->type) {
	case FSLOAD_OP_STAT:
		sqe = uring_sqe(u, i, UREQ_ONE);
		io_uring_prep_statx(sqe, u->dir_fd, s->name, 0,
				    STATX_BASIC_STATS, &s->stx);
		s->closing = true;
		return;
	case FSLOAD_OP_MKDIR:
		sqe = uring_sqe(u, i, UREQ_ONE);
		io_uring_prep_mkdirat(sqe, u->dir_fd, s->name, 0755);
		s->closing = true;
		return;
	case FSLOAD_OP_UNLINK:
	case FSLOAD_OP_RMDIR:
		sqe = uring_sqe(u, i, UREQ_ONE);
		io_uring_prep_unlinkat(sqe, u->dir_fd, s->name,
				       op->type == FSLOAD_OP_RMDIR ?
				       AT_REMOVEDIR : 0);
		s->closing = true;
		return;
	case FSLOAD_OP_RENAME:
		sqe = uring_sqe(u, i, UREQ_ONE);
		io_uring_prep_renameat(sqe, u->dir_fd, s->name, u->dir_fd,
				       s->nname, 0);
		s->closing = true;
		return;
	default:
		break;
	}
	flags = uring_open_flags(op, &mode);
	sqe = uring_sqe(u, i, UREQ_OPEN);
	io_uring_prep_openat_direct(sqe, u->dir_fd, s->name, flags, mode, i);
	uring_link(sqe);
	switch (op->type) {
	case FSLOAD_OP_CREATE:
		if ((op->flags & FSLOAD_OP_F_FALLOCATE) && op->size) {
			sqe = uring_sqe(u, i, UREQ_ALLOC);
			io_uring_prep_fallocate(sqe, (int)i, 0, 0,
						(off_t)op->size);
			uring_fixed(sqe);
			uring_link(sqe);
		}
		/* fall through */
	case FSLOAD_OP_APPEND:
		s->left = op->size;
		if (s->left) {
			uring_prep_writes(u, i);
			return;
		}
		uring_prep_close(u, i, op->flags & FSLOAD_OP_F_FSYNC);
		return;
	case FSLOAD_OP_READ:
		if (uring_sized(op)) {
			s->left = op->size;
			if (!s->left) {
				uring_prep_close(u, i, false);
				return;
			}
		}
		uring_prep_read(u, i, false);
		return;
	case FSLOAD_OP_READ_RANDOM:
	case FSLOAD_OP_WRITE_RANDOM:
		sqe = uring_sqe(u, i, op->type == FSLOAD_OP_READ_RANDOM ?
				UREQ_READ : UREQ_WRITE);
		if (op->type == FSLOAD_OP_READ_RANDOM)
			io_uring_prep_read(sqe, (int)i, u->buf, op->block,
					   s->pos);
		else
			io_uring_prep_write(sqe, (int)i, u->buf, op->block,
					    s->pos);
		uring_fixed(sqe);
		uring_link(sqe);
		uring_prep_close(u, i, op->type == FSLOAD_OP_WRITE_RANDOM &&
				 (op->flags & FSLOAD_OP_F_FSYNC));
		return;
	case FSLOAD_OP_FSYNC:
		uring_prep_close(u, i, true);
		return;
	case FSLOAD_OP_DROP_CACHE:
		sqe = uring_sqe(u, i, UREQ_ADVISE);
		io_uring_prep_fadvise(sqe, (int)i, 0, 0, POSIX_FADV_DONTNEED);
		uring_fixed(sqe);
		uring_link(sqe);
		uring_prep_close(u, i, false);
		return;
	default:
		/* the loop's other ops are not here (ubackend-uring.c) */
		s->err = -EOPNOTSUPP;
		s->closing = true;
		return;
	}
}

/* A request of op @i completed with @res. */
static void uring_complete(struct uring *u, u32 i, enum uring_req kind,
			   int res, u64 now)
{
	struct uring_slot *s = &u->slot[i];
	const struct fsload_opdesc *op = s->op;

	s->inflight--;
	s->done_ns = now;
	switch (kind) {
	case UREQ_READ:
		if (res > 0) {
			s->bytes += res;
			s->pos += res;
			if (uring_sized(op))
				s->left -= (u64)res;
		}
		s->last_read = res;
		break;
	case UREQ_WRITE:
		if (op->type == FSLOAD_OP_WRITE_RANDOM) {
			if (res >= 0)
				s->bytes = res;
			break;
		}
		/*
		 * A write of a whole block, or the last one of what remains:
		 * no file here writes less, and write(2) would go on.
		 */
		if (res >= 0 && (u32)res != op->block &&
		    (u64)res != op->size % op->block)
			res = -EIO;
		break;
	default:
		break;
	}
	if (res < 0 && !s->err)
		s->err = res;
}

/* Op @i's chain has completed: its next chain (it is not closing). */
static void uring_next(struct uring *u, u32 i)
{
	struct uring_slot *s = &u->slot[i];

	if (s->op->type == FSLOAD_OP_READ) {
		if (!s->err && s->last_read > 0 &&
		    (!uring_sized(s->op) || s->left))
			uring_prep_read(u, i, false);
		else
			uring_prep_close(u, i, false);
	} else if (s->left && !s->err)
		uring_prep_writes(u, i);
	else
		uring_prep_close(u, i, false);
}

/* Reap until every op of the batch has ended; 0 or a negative errno. */
static int uring_reap(struct uring *u)
{
	struct io_uring_cqe *cqe;
	unsigned int head, n;
	u64 now;
	u32 i;
	int ret;

	while (u->active) {
		ret = io_uring_submit_and_wait(&u->ring, 1);
		if (ret < 0 && ret != -EINTR)
			return ret;
		now = uring_now();
		n = 0;
		io_uring_for_each_cqe(&u->ring, head, cqe) {
			u64 data = io_uring_cqe_get_data64(cqe);

			uring_complete(u, (u32)(data >> 8),
				       (enum uring_req)(data & 0xff), cqe->res,
				       now);
			n++;
		}
		io_uring_cq_advance(&u->ring, n);
		for (i = 0; i < u->queued; i++) {
			struct uring_slot *s = &u->slot[i];

			if (s->ended || s->inflight)
				continue;
			if (s->closing) {
				s->ended = true;
				u->active--;
			} else {
				uring_next(u, i);
			}
		}
	}
	return 0;
}

/*
 * Submit the batch and reap it; account each op in @e, or count its
 * failure.  Returns 0 or the failure to report: the first that a phase
 * cannot tolerate, else the first.  *@last_ns: the latest completion.
 */
static s64 uring_flush(struct uring *u, struct fsload_engine *e,
		       u64 *last_ns)
{
	const struct fsload_opdesc *failed = NULL;
	int err = 0, ret;
	u32 i;

	if (!u->queued)
		return 0;
	u->active = u->queued;
	u->submit_ns = uring_now();
	ret = uring_reap(u);
	for (i = 0; i < u->queued; i++) {
		struct uring_slot *s = &u->slot[i];

		if (ret && !s->ended && !s->err)
			s->err = ret;
		if (s->err) {
			fsload_count_failure(e, u->ph, s->op->type, s->err);
			if (!err || (fsload_tolerable(err) &&
				     !fsload_tolerable(s->err))) {
				err = s->err;
				failed = s->op;
			}
			continue;
		}
		fsload_account(e, s->op->type,
			       s->done_ns > u->submit_ns ?
			       s->done_ns - u->submit_ns : 0,
			       s->op->type == FSLOAD_OP_CREATE ||
			       s->op->type == FSLOAD_OP_APPEND ?
			       s->op->size : (u64)s->bytes);
		*last_ns = max(*last_ns, s->done_ns);
	}
	/*
	 * The ring failed (io_uring_enter): the ops not ended have failed
	 * with it, and so has the job; their slots stay until uring_close().
	 */
	u->queued = 0;
	if (failed && !e->failed_op)
		e->failed_op = failed;
	return err;
}

s64 uring_op(struct uring *u, struct fsload_engine *e,
	     const struct fsload_opdesc *op)
{
	struct uring_slot *s = &u->slot[u->queued];
	u64 last = 0;
	s64 err;

	memset(s, 0, offsetof(struct uring_slot, name));
	s->op = op;
	if (op->type == FSLOAD_OP_RENAME) {
		/* set by the loop (fsload_rename_names()) */
		strcpy(s->name, e->ren_from);
		strcpy(s->nname, e->ren_to);
	} else {
		memcpy(s->name, e->name, e->name_len + 1);
	}
	if (op->type == FSLOAD_OP_READ_RANDOM ||
	    op->type == FSLOAD_OP_WRITE_RANDOM)
		s->pos = fsload_random_offset(e, op);
	uring_prep_op(u, u->queued++);
	if (u->queued < u->batch)
		return FSLOAD_RET_ACCOUNTED;
	err = uring_flush(u, e, &last);
	return err ? err : FSLOAD_RET_ACCOUNTED;
}

s64 uring_drain(struct uring *u, struct fsload_engine *e, u64 *last_ns)
{
	*last_ns = 0;
	return uring_flush(u, e, last_ns);
}

/* Its helpers: the SQPOLL thread and the io-wq workers of either. */

bool uring_is_helper(const char *comm)
{
	return !strncmp(comm, "iou-sqp-", 8) || !strncmp(comm, "iou-wrk-", 8);
}

/* @comm is iou-sqp-@owner or iou-wrk-@owner (*@sqp: the former). */
static bool uring_helper_of(const char *comm, pid_t owner, bool *sqp)
{
	char *end;
	long v;

	if (!uring_is_helper(comm))
		return false;
	v = strtol(comm + 8, &end, 10);
	*sqp = comm[4] == 's';
	return v == owner && (*end == '\n' || !*end);
}

u64 uring_helpers_cpu_ns(struct uring *u)
{
	struct uring_helper now[URING_HELPERS_MAX];
	char path[64], comm[32], buf[128];
	unsigned int n = 0, i, j;
	pid_t sqp = 0, tid;
	struct dirent *d;
	u64 sum = 0;
	bool is_sqp;
	DIR *dir;
	int pass;

	dir = opendir("/proc/self/task");
	if (!dir)
		return 0;
	/* the SQPOLL thread first: the io-wq workers may be its */
	for (pass = 0; pass < 2; pass++) {
		rewinddir(dir);
		while ((d = readdir(dir)) && n < URING_HELPERS_MAX) {
			tid = atoi(d->d_name);
			if (tid <= 0)
				continue;
			snprintf(path, sizeof(path), "%d/comm", tid);
			if (!read_small(dirfd(dir), path, comm, sizeof(comm)))
				continue;
			if (!uring_helper_of(comm, u->tid, &is_sqp) &&
			    !(sqp && uring_helper_of(comm, sqp, &is_sqp)))
				continue;
			if (is_sqp && !pass) {
				sqp = tid;
				continue;
			}
			if (!pass)
				continue;
			snprintf(path, sizeof(path), "%d/schedstat", tid);
			if (!read_small(dirfd(dir), path, buf, sizeof(buf)))
				continue;
			now[n].tid = tid;
			now[n].runtime_ns = strtoull(buf, NULL, 10);
			n++;
		}
	}
	closedir(dir);
	/* since the last call; a helper that has ended took its time along */
	for (i = 0; i < n; i++) {
		u64 was = 0;

		for (j = 0; j < u->nhelpers; j++) {
			if (u->helpers[j].tid == now[i].tid) {
				was = u->helpers[j].runtime_ns;
				break;
			}
		}
		if (now[i].runtime_ns > was)
			sum += now[i].runtime_ns - was;
	}
	memcpy(u->helpers, now, n * sizeof(*now));
	u->nhelpers = n;
	return sum;
}
