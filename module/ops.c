// SPDX-License-Identifier: GPL-2.0
/*
 * fsload: the workers and the primitive operations they run.
 *
 * Every operation does the work of the system call it stands for: names
 * are resolved by a full path walk under the job directory (the kernel's
 * own RCU-first walk, as openat()/statx()/unlinkat() on a directory fd
 * do), files are closed synchronously so ->release and the final iput
 * are part of the operation, and unlink drops the last inode reference
 * after releasing the parent's lock, as do_unlinkat() does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/stat.h>
#include <linux/timekeeping.h>
#include "fsload.h"
#include "compat.h"

/* Write @v as exactly @width decimal digits at @p. */
static void fsload_put_dec(char *p, unsigned int width, u32 v)
{
	while (width--) {
		p[width] = '0' + v % 10;
		v /= 10;
	}
}

/*
 * Point w->name at file @idx of the worker's file set.  Consecutive files
 * in one subdirectory only increment the file digits: no division and no
 * vsnprintf() in the common case.
 */
static void fsload_name_set(struct fsload_worker *w, u32 idx)
{
	u32 fpd = w->job->prog.files_per_dir;
	char *p;

	if (idx == w->name_idx + 1 && w->name_dir_left > 1) {
		p = &w->name[FSLOAD_NAME_LEN - 1];
		while (*p == '9')
			*p-- = '0';
		(*p)++;
		w->name_dir_left--;
	} else {
		fsload_put_dec(&w->name[FSLOAD_NAME_TDIR_LEN + 2], 5, idx / fpd);
		fsload_put_dec(&w->name[FSLOAD_NAME_FILE_OFF + 1], 8, idx);
		w->name_dir_left = fpd - idx % fpd;
	}
	w->name_idx = idx;
}

/*
 * A permutation of [0, files) without memory: a full-period LCG over the
 * next power of two, each value scrambled by a bijection of that range
 * (xorshift and odd multiply), values >= files skipped.
 */
struct fsload_perm {
	u64 x, a, c, mask;
	unsigned int shift;
	u64 n;
};

static void fsload_perm_init(struct fsload_perm *pm, u64 n, u64 seed)
{
	unsigned int bits = n > 1 ? fls64(n - 1) : 1;

	pm->n = n;
	pm->mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
	pm->shift = (bits + 1) / 2;
	pm->a = 6364136223846793005ULL;		/* == 1 mod 4: full period */
	pm->c = (seed * 1442695040888963407ULL) | 1;
	pm->x = (seed >> 7) & pm->mask;
}

static u32 fsload_perm_next(struct fsload_perm *pm)
{
	u64 y;

	do {
		pm->x = (pm->a * pm->x + pm->c) & pm->mask;
		y = pm->x;
		y ^= y >> pm->shift;
		y = (y * 0x9e3779b97f4a7c15ULL) & pm->mask;
		y ^= y >> pm->shift;
	} while (y >= pm->n);
	return y;
}

/*
 * Unlink (or, with @dir, rmdir) @name in the directory @parent, which the
 * caller has resolved.  The inode's last reference is dropped after the
 * parent is unlocked, as in do_unlinkat().
 */
static int fsload_remove_at(const struct path *parent, const char *name,
			    int len, bool dir)
{
	struct inode *pdir = d_inode(parent->dentry);
	struct inode *inode = NULL;
	struct dentry *de;
	int err;

	err = mnt_want_write(parent->mnt);
	if (err)
		return err;
	inode_lock_nested(pdir, I_MUTEX_PARENT);
	de = fsload_lookup_locked(parent, name, len);
	if (IS_ERR(de)) {
		err = PTR_ERR(de);
		goto out_unlock;
	}
	if (d_really_is_negative(de)) {
		err = -ENOENT;
	} else if (dir) {
		err = fsload_vfs_rmdir(parent, de);
	} else {
		inode = d_inode(de);
		ihold(inode);
		err = fsload_vfs_unlink(parent, de);
	}
	dput(de);
out_unlock:
	inode_unlock(pdir);
	if (inode)
		iput(inode);
	mnt_drop_write(parent->mnt);
	return err;
}

/**
 * fsload_mkdir() - make directory @name in @parent
 * @parent: the directory to create in
 * @name: one path component
 * @len: length of @name
 * @res: where to return the new directory, pinned; may be NULL
 *
 * Context: process context; takes the parent's inode lock.
 * Return: 0 or a negative errno (-EEXIST when @name exists).
 */
int fsload_mkdir(const struct path *parent, const char *name, int len,
		 struct path *res)
{
	struct inode *pdir = d_inode(parent->dentry);
	struct dentry *de;
	int err;

	err = mnt_want_write(parent->mnt);
	if (err)
		return err;
	inode_lock_nested(pdir, I_MUTEX_PARENT);
	de = fsload_lookup_locked(parent, name, len);
	if (IS_ERR(de)) {
		err = PTR_ERR(de);
		goto out_unlock;
	}
	if (d_really_is_positive(de)) {
		dput(de);
		err = -EEXIST;
		goto out_unlock;
	}
	de = fsload_vfs_mkdir(parent, de, 0755);
	if (IS_ERR(de)) {
		err = PTR_ERR(de);
		goto out_unlock;
	}
	if (res) {
		res->mnt = mntget(parent->mnt);
		res->dentry = de;
	} else {
		dput(de);
	}
out_unlock:
	inode_unlock(pdir);
	mnt_drop_write(parent->mnt);
	return err;
}

/**
 * fsload_rmdir() - remove the empty directory @name in @parent
 * @parent: the directory holding it
 * @name: one path component
 * @len: length of @name
 *
 * Context: process context; takes the parent's inode lock.
 * Return: 0 or a negative errno.
 */
int fsload_rmdir(const struct path *parent, const char *name, int len)
{
	return fsload_remove_at(parent, name, len, true);
}

/* Directory entries collected by one iterate_dir() pass. */
struct fsload_rm_ctx {
	struct dir_context ctx;
	char *buf;		/* records: type byte, name, NUL */
	size_t used;
	size_t size;
};

static bool fsload_rm_actor(struct dir_context *ctx, const char *name,
			    int len, loff_t off, u64 ino, unsigned int type)
{
	struct fsload_rm_ctx *rc = container_of(ctx, struct fsload_rm_ctx, ctx);

	if (len <= 2 && name[0] == '.' && (len == 1 || name[1] == '.'))
		return true;
	if (rc->used + len + 2 > rc->size)
		return false;
	rc->buf[rc->used++] = type;
	memcpy(rc->buf + rc->used, name, len);
	rc->used += len;
	rc->buf[rc->used++] = '\0';
	return true;
}

#define FSLOAD_RM_DEPTH	4	/* job dir / t / d / file, and one spare */

static int fsload_rm_contents(const struct path *dir, int depth);

static int fsload_rm_entry(const struct path *dir, const char *name,
			   unsigned int type, int depth)
{
	struct path child;
	int len = strlen(name);
	int err;

	if (type != DT_DIR && type != DT_UNKNOWN)
		return fsload_remove_at(dir, name, len, false);
	if (type == DT_UNKNOWN) {
		err = fsload_remove_at(dir, name, len, false);
		if (err != -EISDIR)
			return err;
	}
	if (depth >= FSLOAD_RM_DEPTH)
		return -ELOOP;
	err = vfs_path_lookup(dir->dentry, dir->mnt, name, 0, &child);
	if (err)
		return err;
	err = d_is_dir(child.dentry) ? fsload_rm_contents(&child, depth + 1) :
				       -ENOTDIR;
	path_put(&child);
	if (err)
		return err;
	return fsload_remove_at(dir, name, len, true);
}

static int fsload_rm_contents(const struct path *dir, int depth)
{
	struct fsload_rm_ctx rc = {
		.ctx.actor = fsload_rm_actor,
		.size = PAGE_SIZE,
	};
	struct file *f;
	size_t pos;
	int err, removed;

	rc.buf = kmalloc(rc.size, GFP_KERNEL);
	if (!rc.buf)
		return -ENOMEM;
	do {
		f = dentry_open(dir, O_RDONLY | O_DIRECTORY, current_cred());
		if (IS_ERR(f)) {
			err = PTR_ERR(f);
			break;
		}
		rc.used = 0;
		rc.ctx.pos = 0;
		err = iterate_dir(f, &rc.ctx);
		fsload_close_sync(f);
		if (err || !rc.used)
			break;
		removed = 0;
		for (pos = 0; pos < rc.used; pos += strlen(rc.buf + pos + 1) + 2) {
			err = fsload_rm_entry(dir, rc.buf + pos + 1,
					      (u8)rc.buf[pos], depth);
			if (!err || err == -ENOENT)
				removed++;
			cond_resched();
		}
		/* Nothing could be removed: give up rather than spin. */
		if (!removed)
			break;
		err = 0;
	} while (true);
	kfree(rc.buf);
	return err;
}

/**
 * fsload_tree_remove() - remove @name in @parent and everything below it
 * @parent: directory holding the tree
 * @name: the tree's root, one component
 *
 * Symlinks are removed, never followed; the walk never leaves the tree.
 *
 * Context: a kthread or kworker (files are closed with __fput_sync()).
 * Return: 0 or the first error that stopped the removal.
 */
int fsload_tree_remove(const struct path *parent, const char *name)
{
	return fsload_rm_entry(parent, name, DT_DIR, 0);
}

/* Point @it at the first @len bytes of the worker's buffer. */
static void fsload_iter(struct fsload_worker *w, struct iov_iter *it,
			unsigned int dir, size_t len)
{
	iov_iter_bvec(it, dir, w->bvec, DIV_ROUND_UP(len, PAGE_SIZE), len);
}

static ssize_t fsload_write(struct fsload_worker *w, struct file *f,
			    size_t len, loff_t *pos)
{
	struct iov_iter it;

	fsload_iter(w, &it, ITER_SOURCE, len);
	return fsload_iter_write(f, &it, pos);
}

static ssize_t fsload_read(struct fsload_worker *w, struct file *f,
			   size_t len, loff_t *pos)
{
	struct iov_iter it;

	fsload_iter(w, &it, ITER_DEST, len);
	return vfs_iter_read(f, &it, pos, 0);
}

static int fsload_open_flags(const struct fsload_opdesc *op, int flags)
{
	if (op->flags & FSLOAD_OP_F_DIRECT)
		flags |= O_DIRECT;
	return flags | O_LARGEFILE;
}

/* Write @bytes from *@pos in blocks; fsync if asked. */
static int fsload_write_all(struct fsload_worker *w, struct file *f,
			    const struct fsload_opdesc *op, u64 bytes,
			    loff_t *pos)
{
	ssize_t n;

	while (bytes) {
		n = fsload_write(w, f, min_t(u64, bytes, op->block), pos);
		if (n <= 0)
			return n ? n : -EIO;
		bytes -= n;
	}
	if (op->flags & FSLOAD_OP_F_FSYNC)
		return vfs_fsync(f, 0);
	return 0;
}

static s64 fsload_op_create(struct fsload_worker *w,
			    const struct fsload_opdesc *op)
{
	struct file *f;
	loff_t pos = 0;
	int err = 0;

	f = file_open_root(&w->job->dir, w->name,
			   fsload_open_flags(op, O_CREAT | O_EXCL | O_WRONLY),
			   0644);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if ((op->flags & FSLOAD_OP_F_FALLOCATE) && op->size)
		err = vfs_fallocate(f, 0, 0, op->size);
	if (!err)
		err = fsload_write_all(w, f, op, op->size, &pos);
	fsload_close_sync(f);
	return err ? err : op->size;
}

static s64 fsload_op_append(struct fsload_worker *w,
			    const struct fsload_opdesc *op)
{
	struct file *f;
	loff_t pos;
	int err;

	f = file_open_root(&w->job->dir, w->name,
			   fsload_open_flags(op, O_WRONLY | O_APPEND), 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	pos = i_size_read(file_inode(f));
	err = fsload_write_all(w, f, op, op->size, &pos);
	fsload_close_sync(f);
	return err ? err : op->size;
}

/* A random block-aligned offset of a block inside op->size bytes. */
static loff_t fsload_random_offset(struct fsload_worker *w,
				   const struct fsload_opdesc *op)
{
	u64 nblocks = div_u64(op->size, op->block);
	u32 r = prandom_u32_state(&w->rnd);

	/* Multiply-shift: uniform over nblocks < 2^32 without a divide. */
	return (loff_t)((nblocks * r) >> 32) * op->block;
}

static s64 fsload_op_random(struct fsload_worker *w,
			    const struct fsload_opdesc *op, bool write)
{
	loff_t pos = fsload_random_offset(w, op);
	struct file *f;
	ssize_t n;
	int err = 0;

	f = file_open_root(&w->job->dir, w->name,
			   fsload_open_flags(op, write ? O_WRONLY : O_RDONLY),
			   0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = write ? fsload_write(w, f, op->block, &pos) :
		    fsload_read(w, f, op->block, &pos);
	if (n < 0)
		err = n;
	else if (write && (op->flags & FSLOAD_OP_F_FSYNC))
		err = vfs_fsync(f, 0);
	fsload_close_sync(f);
	return err ? err : n;
}

static s64 fsload_op_read(struct fsload_worker *w,
			  const struct fsload_opdesc *op)
{
	struct file *f;
	loff_t pos = 0;
	s64 total = 0;
	ssize_t n;

	f = file_open_root(&w->job->dir, w->name,
			   fsload_open_flags(op, O_RDONLY), 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	do {
		n = fsload_read(w, f, op->block, &pos);
		if (n > 0)
			total += n;
	} while (n > 0);
	fsload_close_sync(f);
	return n < 0 ? n : total;
}

/* Rename the file within its directory to the op's new first letter. */
static int fsload_rename_at(const struct path *parent, const char *name,
			    int len, char prefix)
{
	struct inode *pdir = d_inode(parent->dentry);
	struct dentry *old, *new;
	char nname[FSLOAD_NAME_LEN];
	int err;

	memcpy(nname, name, len);
	nname[0] = prefix;
	err = mnt_want_write(parent->mnt);
	if (err)
		return err;
	inode_lock_nested(pdir, I_MUTEX_PARENT);
	old = fsload_lookup_locked(parent, name, len);
	if (IS_ERR(old)) {
		err = PTR_ERR(old);
		goto out_unlock;
	}
	new = fsload_lookup_locked(parent, nname, len);
	if (IS_ERR(new)) {
		err = PTR_ERR(new);
		goto out_old;
	}
	if (d_really_is_negative(old))
		err = -ENOENT;
	else
		err = fsload_vfs_rename(parent, old, new);
	dput(new);
out_old:
	dput(old);
out_unlock:
	inode_unlock(pdir);
	mnt_drop_write(parent->mnt);
	return err;
}

static s64 fsload_op_syncfs(struct fsload_worker *w)
{
	struct super_block *sb = w->job->dir.dentry->d_sb;
	int err;

	/* As syncfs(2). */
	down_read(&sb->s_umount);
	err = sync_filesystem(sb);
	up_read(&sb->s_umount);
	return err;
}

static s64 fsload_op_fsync(struct fsload_worker *w)
{
	struct file *f;
	int err;

	f = file_open_root(&w->job->dir, w->name, O_RDONLY | O_LARGEFILE, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	err = vfs_fsync(f, 0);
	fsload_close_sync(f);
	return err;
}

static s64 fsload_op_stat(struct fsload_worker *w)
{
	struct kstat st;
	struct path p;
	int err;

	err = vfs_path_lookup(w->job->dir.dentry, w->job->dir.mnt, w->name,
			      LOOKUP_FOLLOW, &p);
	if (err)
		return err;
	err = vfs_getattr(&p, &st, STATX_BASIC_STATS, AT_STATX_SYNC_AS_STAT);
	path_put(&p);
	return err;
}

/*
 * unlink, rmdir, mkdir or rename the file's name: walk to its directory, as the
 * system calls' parent walk does, then act on the last component.
 */
static s64 fsload_op_dirent(struct fsload_worker *w,
			    const struct fsload_opdesc *op)
{
	const char *last = &w->name[FSLOAD_NAME_FILE_OFF];
	int len = FSLOAD_NAME_LEN - FSLOAD_NAME_FILE_OFF;
	struct path parent;
	int err;

	w->name[FSLOAD_NAME_DIR_LEN] = '\0';
	err = vfs_path_lookup(w->job->dir.dentry, w->job->dir.mnt, w->name, 0,
			      &parent);
	w->name[FSLOAD_NAME_DIR_LEN] = '/';
	if (err)
		return err;
	if (op->type == FSLOAD_OP_MKDIR)
		err = fsload_mkdir(&parent, last, len, NULL);
	else if (op->type == FSLOAD_OP_RENAME)
		err = fsload_rename_at(&parent, last, len, op->prefix);
	else
		err = fsload_remove_at(&parent, last, len,
				       op->type == FSLOAD_OP_RMDIR);
	path_put(&parent);
	return err;
}

static const char *const fsload_op_names[FSLOAD_OP_MAX + 1] = {
	[FSLOAD_OP_NULL] = "null",
	[FSLOAD_OP_CREATE] = "create",
	[FSLOAD_OP_STAT] = "stat",
	[FSLOAD_OP_READ] = "read",
	[FSLOAD_OP_UNLINK] = "unlink",
	[FSLOAD_OP_APPEND] = "append",
	[FSLOAD_OP_WRITE_RANDOM] = "write_random",
	[FSLOAD_OP_READ_RANDOM] = "read_random",
	[FSLOAD_OP_FSYNC] = "fsync",
	[FSLOAD_OP_MKDIR] = "mkdir",
	[FSLOAD_OP_RMDIR] = "rmdir",
	[FSLOAD_OP_RENAME] = "rename",
	[FSLOAD_OP_SYNCFS] = "syncfs",
};

/* Returns bytes moved (>= 0) or a negative errno. */
static s64 fsload_do_op(struct fsload_worker *w, const struct fsload_opdesc *op)
{
	switch (op->type) {
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
	case FSLOAD_OP_UNLINK:
	case FSLOAD_OP_MKDIR:
	case FSLOAD_OP_RMDIR:
	case FSLOAD_OP_RENAME:
		return fsload_op_dirent(w, op);
	case FSLOAD_OP_SYNCFS:
		return fsload_op_syncfs(w);
	}
	return -EOPNOTSUPP;
}

static const struct fsload_opdesc *fsload_pick(struct fsload_worker *w,
					       const struct fsload_phase *ph)
{
	u32 r;
	unsigned int i;

	if (ph->nops == 1)
		return &ph->ops[0];
	r = prandom_u32_state(&w->rnd) % ph->weight_total;
	for (i = 0; i < ph->nops - 1; i++) {
		if (r < ph->ops[i].weight)
			break;
		r -= ph->ops[i].weight;
	}
	return &ph->ops[i];
}

/* Record the first failure of the job and stop it. */
static void fsload_fail(struct fsload_worker *w, const char *phase,
			const char *what, int err)
{
	struct fsload_job *job = w->job;

	spin_lock(&job->lock);
	if (!job->err) {
		job->err = err;
		snprintf(job->errmsg, sizeof(job->errmsg),
			 "phase %s, thread %u: %s %s: error %d", phase,
			 w->index, what, w->name, err);
	}
	spin_unlock(&job->lock);
	fsload_job_stop(job);
}

/*
 * Wait until every worker has arrived at phase @p; the last to arrive
 * opens the phase.  Returns false when the job is stopping.
 */
static bool fsload_barrier(struct fsload_worker *w, unsigned int p)
{
	struct fsload_job *job = w->job;
	struct fsload_result *res = &job->res[p];

	if (atomic_inc_return(&job->arrived) == job->prog.threads * (p + 1)) {
		/* A stopping job opens no more phases. */
		if (READ_ONCE(job->stop))
			return false;
		spin_lock(&job->lock);
		res->started = true;
		res->start_ns = ktime_get_ns();
		job->cur_phase = p;
		spin_unlock(&job->lock);
		/* Pairs with smp_load_acquire() below: start_ns is visible. */
		smp_store_release(&job->phase_go, p + 1);
		wake_up_all(&job->wq);
	} else {
		/* Pairs with smp_store_release() above. */
		wait_event_idle(job->wq, smp_load_acquire(&job->phase_go) > p ||
				READ_ONCE(job->stop));
	}
	/* Pairs with smp_store_release() above. */
	return smp_load_acquire(&job->phase_go) > p && !READ_ONCE(job->stop);
}

static void fsload_merge(struct fsload_worker *w, unsigned int p,
			 bool complete, bool stonewalled, u64 end_ns)
{
	struct fsload_job *job = w->job;
	struct fsload_result *res = &job->res[p];
	unsigned int t;

	spin_lock(&job->lock);
	res->threads++;
	if (complete)
		res->complete++;
	if (stonewalled)
		res->stonewalled++;
	res->end_ns = max(res->end_ns, end_ns);
	for (t = 1; t <= FSLOAD_OP_MAX; t++) {
		struct fsload_opstat *d = &res->op[t], *s = &w->st[t];

		if (!s->ops && !s->errors)
			continue;
		if (!d->ops && !d->errors)
			d->lat_min = U64_MAX;
		d->ops += s->ops;
		d->errors += s->errors;
		d->bytes += s->bytes;
		d->lat_sum += s->lat_sum;
		d->lat_min = min(d->lat_min, s->lat_min);
		d->lat_max = max(d->lat_max, s->lat_max);
	}
	spin_unlock(&job->lock);
}

/* Errors that weighted operations on one file set make normal. */
static bool fsload_tolerable(int err)
{
	return err == -ENOENT || err == -EEXIST || err == -ENOTEMPTY ||
	       err == -ENOTDIR || err == -EISDIR;
}

/*
 * Run phase @p; returns true when every iteration was done or the phase's
 * time limit was reached.
 */
static bool fsload_run_phase(struct fsload_worker *w, unsigned int p)
{
	struct fsload_job *job = w->job;
	const struct fsload_phase *ph = &job->prog.phases[p];
	u32 files = job->prog.files, idx;
	const struct fsload_opdesc *op;
	bool stonewalled = false;
	struct fsload_opstat *st;
	struct fsload_perm perm;
	u64 i, t0, t1, lat, deadline;
	s64 ret;

	memset(w->st, 0, sizeof(w->st));
	for (i = 0; i <= FSLOAD_OP_MAX; i++)
		w->st[i].lat_min = U64_MAX;
	if (ph->order == FSLOAD_ORDER_RANDOM)
		fsload_perm_init(&perm, files,
				 job->prog.seed ^ ((u64)w->index << 32 | p));
	div_u64_rem(ph->first, files, &idx);
	w->name[FSLOAD_NAME_FILE_OFF] = ph->prefix;
	/* No phase lasts 2^64 ns: a deadline of U64_MAX never comes. */
	deadline = ph->duration_ns ? job->res[p].start_ns + ph->duration_ns :
				     U64_MAX;

	t0 = ktime_get_ns();
	for (i = 0; i < ph->iterations; i++) {
		if (READ_ONCE(job->stop))
			break;
		if (t0 >= deadline) {
			stonewalled = true;
			break;
		}
		if (ph->order == FSLOAD_ORDER_RANDOM) {
			fsload_name_set(w, w->file_base +
					   fsload_perm_next(&perm));
		} else {
			fsload_name_set(w, w->file_base + idx);
			if (++idx == files)
				idx = 0;
		}
		op = fsload_pick(w, ph);
		ret = fsload_do_op(w, op);
		/* One clock read per op: the end of one is the next's start. */
		t1 = ktime_get_ns();
		lat = t1 - t0;
		t0 = t1;
		st = &w->st[op->type];
		if (ret < 0) {
			st->errors++;
			if ((ph->flags & FSLOAD_PHASE_F_CONTINUE) &&
			    fsload_tolerable(ret)) {
				cond_resched();
				continue;
			}
			fsload_merge(w, p, false, false, t1);
			fsload_fail(w, ph->name, fsload_op_names[op->type],
				    (int)ret);
			return false;
		}
		st->ops++;
		st->bytes += ret;
		st->lat_sum += lat;
		if (lat < st->lat_min)
			st->lat_min = lat;
		if (lat > st->lat_max)
			st->lat_max = lat;
		WRITE_ONCE(w->ops_done, w->ops_done + 1);
		WRITE_ONCE(w->bytes_done, w->bytes_done + ret);
		cond_resched();
	}
	fsload_merge(w, p, i == ph->iterations || stonewalled, stonewalled,
		     t0);
	return i == ph->iterations || stonewalled;
}

/*
 * Make the worker's directories: t<index>/d<n> for its file set; in a
 * shared tree, t000 and the subdirectories its own files need (another
 * worker may have made them first).
 */
static int fsload_worker_prepare(struct fsload_worker *w)
{
	const struct fsload_program *prog = &w->job->prog;
	bool shared = prog->flags & FSLOAD_JOB_F_SHARED_DIR;
	u32 fpd = prog->files_per_dir;
	u32 d = w->file_base / fpd;
	u32 dend = (w->file_base + (u32)prog->files - 1) / fpd;
	struct path tdir;
	char name[8];
	int err;

	err = fsload_mkdir(&w->job->dir, w->name, FSLOAD_NAME_TDIR_LEN, &tdir);
	if (err == -EEXIST && shared) {
		w->name[FSLOAD_NAME_TDIR_LEN] = '\0';
		err = vfs_path_lookup(w->job->dir.dentry, w->job->dir.mnt,
				      w->name, 0, &tdir);
		w->name[FSLOAD_NAME_TDIR_LEN] = '/';
	}
	if (err)
		return err;
	for (; d <= dend && !err; d++) {
		if (READ_ONCE(w->job->stop))
			break;
		name[0] = 'd';
		fsload_put_dec(name + 1, 5, d);
		err = fsload_mkdir(&tdir, name, 6, NULL);
		if (err == -EEXIST && shared)
			err = 0;
		cond_resched();
	}
	path_put(&tdir);
	return err;
}

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
	const struct cred *old;
	unsigned int p;
	bool shared;
	int err;

	old = override_creds(job->cred);
	shared = job->prog.flags & FSLOAD_JOB_F_SHARED_DIR;
	if (shared)
		w->file_base = w->index * (u32)job->prog.files;
	snprintf(w->name, sizeof(w->name), "t%03u/d00000/f00000000",
		 shared ? 0 : w->index);
	err = fsload_worker_prepare(w);
	if (err) {
		w->name[FSLOAD_NAME_DIR_LEN] = '\0';
		fsload_fail(w, "prepare", "mkdir", err);
	}
	for (p = 0; !err && p < job->prog.nphases; p++) {
		if (!fsload_barrier(w, p) || !fsload_run_phase(w, p))
			break;
	}
	revert_creds(old);
	fsload_job_worker_done(job);
	return 0;
}
