// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the userspace engine's sync backend (start --engine user):
 * each op of the program through the system calls it stands for, on the
 * same path relative to the job directory as the kernel's operation, and
 * the phase loop compiled over them (uloop.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/uengine-int.h"

/* The operations, through the system calls they stand for */

static int uop_open_flags(const struct fsload_opdesc *op, int flags)
{
	if (op->flags & FSLOAD_OP_F_DIRECT)
		flags |= O_DIRECT;
	return flags | O_LARGEFILE;
}

/* Close, keeping a failure of the operation before it. */
static s64 uop_close(int fd, s64 ret)
{
	if (close(fd) && ret >= 0)
		return neg_errno();
	return ret;
}

/*
 * Write @bytes from @pos in blocks, or with @at_pos at the file position
 * (write(), append and fs_mark's create); fsync if asked.
 */
static s64 uop_write_all(struct fsload_worker *w, int fd,
			 const struct fsload_opdesc *op, u64 bytes, u64 pos,
			 bool at_pos)
{
	ssize_t n;
	size_t len;

	while (bytes) {
		len = min(bytes, (u64)op->block);
		n = at_pos ? write(fd, w->buf, len) :
			     pwrite(fd, w->buf, len, (off_t)pos);
		if (n <= 0)
			return n ? neg_errno() : -EIO;
		bytes -= n;
		pos += n;
	}
	if ((op->flags & FSLOAD_OP_F_FSYNC) && fsync(fd))
		return neg_errno();
	return 0;
}

/*
 * mknodat(2) of a regular file (the mknod flag, mdtest -k); io_uring has
 * no request for it: the uring backend's too.
 */
s64 usync_mknod(struct fsload_worker *w, unsigned int mode)
{
	return mknodat(w->job->dir_fd, w->e.name, S_IFREG | mode, 0) ?
	       neg_errno() : 0;
}

static s64 fsload_op_create(struct fsload_worker *w, const struct fsload_opdesc *op)
{
	bool trunc = op->flags & FSLOAD_OP_F_TRUNC;
	unsigned int mode;
	s64 err = 0;
	int fd, flags;

	flags = fsload_create_flags(op, &mode);
	if (op->flags & FSLOAD_OP_F_MKNOD)
		return usync_mknod(w, mode);
	flags = uop_open_flags(op, flags);
	fd = openat(w->job->dir_fd, w->e.name, flags, mode);
	if (fd < 0)
		return neg_errno();
	if ((op->flags & FSLOAD_OP_F_FALLOCATE) && op->size &&
	    fallocate(fd, 0, 0, (off_t)op->size))
		err = neg_errno();
	if (!err)
		err = uop_write_all(w, fd, op, op->size, 0, trunc);
	err = uop_close(fd, err);
	return err ? err : (s64)op->size;
}

static s64 fsload_op_append(struct fsload_worker *w, const struct fsload_opdesc *op)
{
	s64 err;
	int fd;

	fd = openat(w->job->dir_fd, w->e.name,
		    uop_open_flags(op, O_WRONLY | O_APPEND), 0);
	if (fd < 0)
		return neg_errno();
	err = uop_write_all(w, fd, op, op->size, 0, true);
	err = uop_close(fd, err);
	return err ? err : (s64)op->size;
}

static s64 fsload_op_random(struct fsload_worker *w, const struct fsload_opdesc *op,
		      bool write)
{
	ssize_t n;
	s64 err = 0;
	u64 pos;
	int fd;

	pos = fsload_random_offset(&w->e, op);
	fd = openat(w->job->dir_fd, w->e.name,
		    uop_open_flags(op, write ? O_WRONLY : O_RDONLY), 0);
	if (fd < 0)
		return neg_errno();
	n = write ? pwrite(fd, w->buf, op->block, (off_t)pos) :
		    pread(fd, w->buf, op->block, (off_t)pos);
	if (n < 0)
		err = neg_errno();
	else if (write && (op->flags & FSLOAD_OP_F_FSYNC) && fsync(fd))
		err = neg_errno();
	err = uop_close(fd, err);
	return err ? err : n;
}

/* To EOF, or with the sized flag op->size bytes (0: open and close). */
static s64 fsload_op_read(struct fsload_worker *w, const struct fsload_opdesc *op)
{
	bool sized = op->flags & FSLOAD_OP_F_SIZED;
	s64 total = 0, err = 0;
	u64 pos = 0, left = op->size;
	ssize_t n = 0;
	int fd;

	fd = openat(w->job->dir_fd, w->e.name, uop_open_flags(op, O_RDONLY),
		    0);
	if (fd < 0)
		return neg_errno();
	while (!sized || left) {
		n = pread(fd, w->buf, sized && left < op->block ? left :
				      op->block, (off_t)pos);
		if (n <= 0)
			break;
		total += n;
		pos += n;
		if (sized)
			left -= n;
	}
	if (n < 0)
		err = neg_errno();
	err = uop_close(fd, err);
	return err ? err : total;
}

static s64 fsload_op_fsync(struct fsload_worker *w)
{
	s64 err = 0;
	int fd;

	fd = openat(w->job->dir_fd, w->e.name, O_RDONLY | O_LARGEFILE);
	if (fd < 0)
		return neg_errno();
	if (fsync(fd))
		err = neg_errno();
	return uop_close(fd, err);
}

static s64 fsload_op_stat(struct fsload_worker *w)
{
	struct stat st;

	return fstatat(w->job->dir_fd, w->e.name, &st, 0) ? neg_errno() : 0;
}

/*
 * unlink, rmdir, mkdir and rename: the system call walks to the name's
 * directory and acts on its last component, as the kernel's operation.
 */
static s64 fsload_op_dirent(struct fsload_worker *w, const struct fsload_opdesc *op)
{
	int dfd = w->job->dir_fd, ret;

	switch (op->type) {
	case FSLOAD_OP_MKDIR:
		ret = mkdirat(dfd, w->e.name, 0755);
		break;
	case FSLOAD_OP_RENAME:
		ret = renameat(dfd, w->e.ren_from, dfd, w->e.ren_to);
		break;
	default:
		ret = unlinkat(dfd, w->e.name, op->type == FSLOAD_OP_RMDIR ?
			       AT_REMOVEDIR : 0);
		break;
	}
	return ret ? neg_errno() : 0;
}

static s64 fsload_op_drop_cache(struct fsload_worker *w)
{
	int fd, err;

	fd = openat(w->job->dir_fd, w->e.name, O_RDONLY | O_LARGEFILE);
	if (fd < 0)
		return neg_errno();
	err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return uop_close(fd, -err);
}

/* io_uring has no syncfs: the uring backend's too. */
s64 usync_syncfs(struct fsload_worker *w)
{
	return syncfs(w->job->sync_fd) ? neg_errno() : 0;
}

static s64 fsload_op_syncfs(struct fsload_worker *w)
{
	return usync_syncfs(w);
}

/* A system call is synchronous: nothing in flight. */
static inline s64 fsload_drain(struct fsload_worker *w, u64 *last_ns)
{
	(void)w;
	*last_ns = 0;
	return 0;
}

#include "engine/uloop.h"

const struct ubackend ubackend_sync = {
	.what = "system calls",
	.run = uloop_run,
	.overhead = uloop_overhead,
	.syncfs = usync_syncfs,
};
