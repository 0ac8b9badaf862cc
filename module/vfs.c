// SPDX-License-Identifier: GPL-2.0
/*
 * fsload: the primitive operations the workers run (the engine's
 * fsload_op_*() and fsload_drain(), engine-loop.h), and the directory
 * making and tree removal that jobs and workers share.
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
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/fadvise.h>
#include <linux/security.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/stat.h>
#include <linux/timekeeping.h>
#include "fsload.h"
#include "compat.h"

/*
 * Every walk of a job's tree is scoped to it as openat2()'s
 * RESOLVE_BENEATH | RESOLVE_NO_XDEV are: ".." above the job directory and
 * absolute symlinks fail with EXDEV, so does crossing into a mount, and a
 * rename or mount anywhere during a walk that took ".." fails it with
 * EAGAIN.  No name fsload makes has ".." or a symlink in it: only another
 * process's tampering meets these checks.  Opens go through
 * file_open_root(), which takes no resolve flags: there the job directory
 * is the walk's root, chroot style, and fsload_open() refuses a file on
 * another mount.
 */
#define FSLOAD_LOOKUP_SCOPED	(LOOKUP_BENEATH | LOOKUP_NO_XDEV)

/*
 * Remove the positive @de found under the locked @parent: rmdir with
 * @dir, else unlink, running the LSM path hook the system call runs.
 * An unlinked inode is returned held in *@inode, for the caller to iput()
 * after unlocking.  rmdir(2)'s security_path_rmdir() is exported by no
 * kernel fsload supports: an rmdir runs only the inode hook (in
 * vfs_rmdir()).
 */
static int fsload_remove_locked(const struct path *parent, struct dentry *de,
				bool dir, struct fsload_deleg *deleg,
				struct inode **inode)
{
	int err;

	if (dir)
		return fsload_vfs_rmdir(parent, de, deleg);
	err = security_path_unlink(parent, de);
	if (err)
		return err;
	*inode = d_inode(de);
	ihold(*inode);
	return fsload_vfs_unlink(parent, de, deleg);
}

/*
 * Unlink (or, with @dir, rmdir) @name in the directory @parent, which the
 * caller has resolved; with @expect, only if @name is still that dentry
 * (-ESTALE otherwise).  As do_unlinkat(): the inode's last reference is
 * dropped after the parent is unlocked, and a delegation is broken and
 * the removal retried.
 */
static int fsload_remove_at(const struct path *parent, const char *name,
			    int len, bool dir, const struct dentry *expect)
{
	struct inode *pdir = d_inode(parent->dentry);
	struct fsload_deleg deleg = {};
	struct inode *inode;
	struct dentry *de;
	bool retry;
	int err, err2;

	/* lookup_one*() in a non-directory would call a NULL ->lookup. */
	if (!d_can_lookup(parent->dentry))
		return -ENOTDIR;
	err = mnt_want_write(parent->mnt);
	if (err)
		return err;
again:
	inode = NULL;
	inode_lock_nested(pdir, I_MUTEX_PARENT);
	de = fsload_lookup_locked(parent, name, len);
	if (IS_ERR(de)) {
		err = PTR_ERR(de);
		goto out_unlock;
	}
	if (d_really_is_negative(de))
		err = -ENOENT;
	else if (expect && de != expect)
		err = -ESTALE;
	else
		err = fsload_remove_locked(parent, de, dir, &deleg, &inode);
	dput(de);
out_unlock:
	inode_unlock(pdir);
	if (inode)
		iput(inode);
	err2 = fsload_deleg_break(&deleg, &retry);
	if (retry)
		goto again;
	mnt_drop_write(parent->mnt);
	return err2 ? err2 : err;
}

/*
 * The negative dentry of @name in @parent (locked) that a create fills, as
 * the system calls' filename_create() finds it: -EEXIST when @name exists.
 */
static struct dentry *fsload_lookup_new(const struct path *parent,
					const char *name, int len)
{
	struct dentry *de = fsload_lookup_locked(parent, name, len);

	if (!IS_ERR(de) && d_really_is_positive(de)) {
		dput(de);
		return ERR_PTR(-EEXIST);
	}
	return de;
}

/*
 * Before 6.15 a filesystem's ->mkdir() may leave the dentry unhashed or
 * negative (kernfs always; FUSE and NFS at times): look the name up again,
 * as overlayfs did, and insist on a positive directory.
 */
static struct dentry *fsload_mkdir_result(const struct path *parent,
					  struct dentry *de, const char *name,
					  int len)
{
	struct dentry *d;

	if (!d_unhashed(de) && d_can_lookup(de))
		return de;
	d = fsload_lookup_locked(parent, name, len);
	dput(de);
	if (IS_ERR(d))
		return d;
	if (!d_can_lookup(d)) {
		dput(d);
		return ERR_PTR(d_really_is_negative(d) ? -ENOENT : -ENOTDIR);
	}
	return d;
}

/**
 * fsload_mkdir() - make directory @name in @parent
 * @parent: the directory to create in
 * @name: one path component
 * @len: length of @name
 * @res: where to return the new directory, pinned; may be NULL
 *
 * Runs the LSM path hook mkdir(2) runs.  With @res, the result is a
 * positive directory or an error.
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

	if (!d_can_lookup(parent->dentry))
		return -ENOTDIR;
	err = mnt_want_write(parent->mnt);
	if (err)
		return err;
	inode_lock_nested(pdir, I_MUTEX_PARENT);
	de = fsload_lookup_new(parent, name, len);
	if (IS_ERR(de)) {
		err = PTR_ERR(de);
		goto out_unlock;
	}
	err = security_path_mkdir(parent, de, 0755);
	if (err) {
		dput(de);
		goto out_unlock;
	}
	de = fsload_vfs_mkdir(parent, de, 0755);
	if (!IS_ERR(de) && res)
		de = fsload_mkdir_result(parent, de, name, len);
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
 * fsload_lookup_dir() - pin directory @name of @parent, scoped
 * @parent: the directory to look in
 * @name: one path component
 * @res: where to return it, pinned
 *
 * No symlink is followed (one is not a directory), no mount crossed.
 *
 * Context: process context.
 * Return: 0, -ENOTDIR when @name is not a directory, or a negative errno
 * of the lookup (-EXDEV: a mount point).
 */
int fsload_lookup_dir(const struct path *parent, const char *name,
		      struct path *res)
{
	int err;

	err = vfs_path_lookup(parent->dentry, parent->mnt, name,
			      FSLOAD_LOOKUP_SCOPED, res);
	if (err)
		return err;
	if (!d_can_lookup(res->dentry)) {
		path_put(res);
		res->mnt = NULL;
		res->dentry = NULL;
		return -ENOTDIR;
	}
	return 0;
}

/**
 * fsload_rmdir_pinned() - remove the empty directory @d where it now is
 * @d: a directory the caller made and holds
 *
 * Removes exactly that directory: its parent is locked and @d checked to
 * be still its child, whatever name it has now; never another directory
 * that took its name.
 *
 * Context: process context; takes the parent's inode lock.
 * Return: 0 or a negative errno (-ESTALE: moved meanwhile; -ENOENT: gone).
 */
int fsload_rmdir_pinned(const struct path *d)
{
	struct dentry *parent = dget_parent(d->dentry);
	struct path pp = { .mnt = d->mnt, .dentry = parent };
	struct fsload_deleg deleg = {};
	bool retry;
	int err, err2;

	err = mnt_want_write(d->mnt);
	if (err)
		goto out;
again:
	inode_lock_nested(d_inode(parent), I_MUTEX_PARENT);
	if (parent == d->dentry)
		err = -EBUSY;
	else if (d->dentry->d_parent != parent)
		err = -ESTALE;
	else if (d_unhashed(d->dentry) || d_really_is_negative(d->dentry))
		err = -ENOENT;
	else
		err = fsload_vfs_rmdir(&pp, d->dentry, &deleg);
	inode_unlock(d_inode(parent));
	err2 = fsload_deleg_break(&deleg, &retry);
	if (retry)
		goto again;
	if (err2)
		err = err2;
	mnt_drop_write(d->mnt);
out:
	dput(parent);
	return err;
}

/* Directory entries collected by iterate_dir(), a buffer at a time. */
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

/* job dir / t / tree of directories / file, and one spare */
#define FSLOAD_RM_DEPTH	(FSLOAD_TREE_DEPTH_MAX + 5)

static void fsload_rm_failed(struct fsload_cleanup *st, const char *name,
			     int err)
{
	if (err == -ENOENT || st->err)
		return;
	st->err = err;
	strscpy(st->name, name, sizeof(st->name));
}

static int fsload_rm_contents(const struct path *dir, int depth,
			      struct fsload_cleanup *st);

/*
 * Remove entry @name of the tree's directory @dir.  A directory is pinned
 * by a scoped lookup (no symlink followed, no mount crossed), emptied,
 * then removed only if it is still that directory.
 */
static int fsload_rm_entry(const struct path *dir, const char *name,
			   unsigned int type, int depth,
			   struct fsload_cleanup *st)
{
	struct path child;
	int len = strlen(name);
	int err;

	if (type != DT_DIR) {
		err = fsload_remove_at(dir, name, len, false, NULL);
		if (err != -EISDIR)
			return err;
	}
	if (depth >= FSLOAD_RM_DEPTH)
		return -ELOOP;
	err = vfs_path_lookup(dir->dentry, dir->mnt, name, FSLOAD_LOOKUP_SCOPED,
			      &child);
	if (err)
		return err;
	if (d_can_lookup(child.dentry)) {
		err = fsload_rm_contents(&child, depth + 1, st);
		if (!err)
			err = fsload_rmdir_pinned(&child);
	} else {
		/* Not a directory any more: what is there now, if unmoved. */
		err = fsload_remove_at(dir, name, len, false, child.dentry);
	}
	path_put(&child);
	return err;
}

/*
 * Remove what directory @dir holds.  A sweep reads the directory through
 * once, removing as it goes; sweeps repeat while they remove something
 * (entries made meanwhile) and the job's removal budget lasts.  Entries
 * that stay are counted in @st, the first failure kept.
 */
static int fsload_rm_contents(const struct path *dir, int depth,
			      struct fsload_cleanup *st)
{
	struct fsload_rm_ctx rc = {
		.ctx.actor = fsload_rm_actor,
		.size = PAGE_SIZE,
	};
	u64 removed, failed;
	struct file *f;
	size_t pos;
	int err = 0, e;

	rc.buf = kmalloc(rc.size, GFP_KERNEL);
	if (!rc.buf)
		return -ENOMEM;
	do {
		removed = 0;
		failed = 0;
		f = dentry_open(dir, O_RDONLY | O_DIRECTORY, current_cred());
		if (IS_ERR(f)) {
			err = PTR_ERR(f);
			break;
		}
		do {
			rc.used = 0;
			err = iterate_dir(f, &rc.ctx);
			for (pos = 0; !err && pos < rc.used;
			     pos += strlen(rc.buf + pos + 1) + 2) {
				if (!st->budget) {
					err = -E2BIG;
					break;
				}
				e = fsload_rm_entry(dir, rc.buf + pos + 1,
						    (u8)rc.buf[pos], depth, st);
				if (!e) {
					removed++;
					st->budget--;
				} else if (e != -ENOENT) {
					failed++;
					fsload_rm_failed(st, rc.buf + pos + 1,
							 e);
				}
				cond_resched();
			}
		} while (!err && rc.used);
		fsload_close_sync(f);
	} while (!err && removed);
	/* What the last sweep could not remove stays. */
	st->left += failed;
	kfree(rc.buf);
	return err;
}

/**
 * fsload_tree_remove() - remove the tree a job made, from its pinned root
 * @dir: the job directory, pinned since the job made it
 * @st: the removal budget in; what stayed out
 *
 * Only what is below @dir goes, and @dir itself wherever it has been
 * moved: symlinks are removed, never followed; no mount is crossed; the
 * walk never leaves the tree.  A name that another process made point
 * elsewhere is never looked up from the job's parent directory.
 *
 * Context: a kthread or kworker (files are closed with __fput_sync()).
 * Return: 0 or the first error; @st says what was left.
 */
int fsload_tree_remove(const struct path *dir, struct fsload_cleanup *st)
{
	int err;

	err = fsload_rm_contents(dir, 0, st);
	if (err)
		fsload_rm_failed(st, ".", err);
	err = fsload_rmdir_pinned(dir);
	if (err) {
		st->left++;
		fsload_rm_failed(st, ".", err);
	}
	return st->err;
}

/* Point @it at the first @len bytes of the worker's buffer. */
static void fsload_iter(struct fsload_worker *w, struct iov_iter *it,
			unsigned int dir, size_t len)
{
	iov_iter_bvec(it, dir, w->bvec, DIV_ROUND_UP(len, PAGE_SIZE), len);
}

/* Bytes moved so far, as each call returns: the time series' I/O rate. */
static void fsload_io_done(struct fsload_worker *w, ssize_t n)
{
	if (n > 0)
		WRITE_ONCE(w->io_bytes, w->io_bytes + n);
}

static ssize_t fsload_write(struct fsload_worker *w, struct file *f,
			    size_t len, loff_t *pos)
{
	struct iov_iter it;
	ssize_t n;

	fsload_iter(w, &it, ITER_SOURCE, len);
	n = fsload_iter_write(f, &it, pos);
	fsload_io_done(w, n);
	return n;
}

static ssize_t fsload_read(struct fsload_worker *w, struct file *f,
			   size_t len, loff_t *pos)
{
	struct iov_iter it;
	ssize_t n;

	fsload_iter(w, &it, ITER_DEST, len);
	n = vfs_iter_read(f, &it, pos, 0);
	fsload_io_done(w, n);
	return n;
}

/*
 * Open e->name under the job directory as openat(2) on it would, but only
 * a regular file (no I/O to a device node or FIFO another process put in
 * the tree), never on another mount: file_open_root() takes no resolve
 * flags, so a file on a mount that another process put in the tree is
 * refused after the walk (a create has made its file there by then).
 */
static struct file *fsload_open(struct fsload_worker *w, int flags,
				umode_t mode)
{
	struct file *f = file_open_root(&w->job->dir, w->e.name, flags, mode);
	int err = 0;

	if (IS_ERR(f))
		return f;
	if (unlikely(f->f_path.mnt != w->job->dir.mnt))
		err = -EXDEV;
	else if (unlikely(!S_ISREG(file_inode(f)->i_mode)))
		err = S_ISDIR(file_inode(f)->i_mode) ? -EISDIR : -EINVAL;
	if (unlikely(err)) {
		fsload_close_sync(f);
		return ERR_PTR(err);
	}
	return f;
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

/*
 * Make e->name a regular file of @mode as mknodat(2) does (mdtest -k): a
 * walk to its directory, then under the directory's lock the LSM path
 * hook, given the mode less the umask as do_mknodat() gives it, and
 * vfs_create(); a delegation on the directory is broken and the create
 * retried.  The hook mknodat(2) runs after a create succeeded (IMA's
 * ima_post_path_mknod(), then security_path_post_mknod()) is exported
 * by no kernel fsload supports: it is not run.
 */
static int fsload_mknod(struct fsload_worker *w, umode_t mode)
{
	const char *last = &w->e.name[w->e.last_off];
	int len = w->e.name_len - w->e.last_off;
	struct fsload_deleg deleg = {};
	struct path parent;
	struct dentry *de;
	struct inode *pdir;
	bool retry;
	int err, err2;

	err = fsload_name_parent(w, &parent);
	if (err)
		return err;
	pdir = d_inode(parent.dentry);
	err = mnt_want_write(parent.mnt);
	if (err)
		goto out_put;
again:
	inode_lock_nested(pdir, I_MUTEX_PARENT);
	de = fsload_lookup_new(&parent, last, len);
	if (IS_ERR(de)) {
		err = PTR_ERR(de);
		goto out_unlock;
	}
	err = security_path_mknod(&parent, de, IS_POSIXACL(pdir) ? mode :
				  mode & ~current_umask(), 0);
	if (!err)
		err = fsload_vfs_create(&parent, de, mode, &deleg);
	dput(de);
out_unlock:
	inode_unlock(pdir);
	err2 = fsload_deleg_break(&deleg, &retry);
	if (retry)
		goto again;
	if (err2)
		err = err2;
	mnt_drop_write(parent.mnt);
out_put:
	path_put(&parent);
	return err;
}

s64 fsload_op_create(struct fsload_worker *w, const struct fsload_opdesc *op)
{
	struct file *f;
	unsigned int mode;
	loff_t pos = 0;
	int err = 0, flags;

	flags = fsload_create_flags(op, &mode);
	if (op->flags & FSLOAD_OP_F_MKNOD)
		return fsload_mknod(w, S_IFREG | mode);
	f = fsload_open(w, fsload_open_flags(op, flags), mode);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if ((op->flags & FSLOAD_OP_F_FALLOCATE) && op->size)
		err = vfs_fallocate(f, 0, 0, op->size);
	if (!err)
		err = fsload_write_all(w, f, op, op->size, &pos);
	fsload_close_sync(f);
	return err ? err : op->size;
}

s64 fsload_op_append(struct fsload_worker *w, const struct fsload_opdesc *op)
{
	struct file *f;
	loff_t pos;
	int err;

	f = fsload_open(w, fsload_open_flags(op, O_WRONLY | O_APPEND), 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	pos = i_size_read(file_inode(f));
	err = fsload_write_all(w, f, op, op->size, &pos);
	fsload_close_sync(f);
	return err ? err : op->size;
}

s64 fsload_op_random(struct fsload_worker *w,
		     const struct fsload_opdesc *op, bool write)
{
	loff_t pos = fsload_random_offset(&w->e, op);
	struct file *f;
	ssize_t n;
	int err = 0;

	f = fsload_open(w, fsload_open_flags(op, write ? O_WRONLY : O_RDONLY),
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

/* To EOF, or with the sized flag op->size bytes (0: open and close). */
s64 fsload_op_read(struct fsload_worker *w, const struct fsload_opdesc *op)
{
	bool sized = op->flags & FSLOAD_OP_F_SIZED;
	u64 left = op->size;
	struct file *f;
	loff_t pos = 0;
	s64 total = 0;
	ssize_t n = 0;

	f = fsload_open(w, fsload_open_flags(op, O_RDONLY), 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	while (!sized || left) {
		n = fsload_read(w, f, sized ? min_t(u64, left, op->block) :
					      op->block, &pos);
		if (n <= 0)
			break;
		total += n;
		if (sized)
			left -= n;
	}
	fsload_close_sync(f);
	return n < 0 ? n : total;
}

/*
 * Rename @name to @nname (last components, of @len and @nlen bytes) in the
 * directory @parent, which the caller walked to for each name and found
 * the same, as renameat2(): the LSM path hook, then the VFS; a delegation
 * is broken and the rename retried.
 */
static int fsload_rename_at(const struct path *parent, const char *name,
			    int len, const char *nname, int nlen)
{
	struct inode *pdir = d_inode(parent->dentry);
	struct fsload_deleg deleg = {};
	struct dentry *old, *new;
	bool retry;
	int err, err2;

	if (!d_can_lookup(parent->dentry))
		return -ENOTDIR;
	err = mnt_want_write(parent->mnt);
	if (err)
		return err;
again:
	inode_lock_nested(pdir, I_MUTEX_PARENT);
	old = fsload_lookup_locked(parent, name, len);
	if (IS_ERR(old)) {
		err = PTR_ERR(old);
		goto out_unlock;
	}
	new = fsload_lookup_locked(parent, nname, nlen);
	if (IS_ERR(new)) {
		err = PTR_ERR(new);
		goto out_old;
	}
	if (d_really_is_negative(old))
		err = -ENOENT;
	else
		err = security_path_rename(parent, old, parent, new, 0);
	if (!err)
		err = fsload_vfs_rename(parent, old, new, &deleg);
	dput(new);
out_old:
	dput(old);
out_unlock:
	inode_unlock(pdir);
	err2 = fsload_deleg_break(&deleg, &retry);
	if (retry)
		goto again;
	mnt_drop_write(parent->mnt);
	return err2 ? err2 : err;
}

s64 fsload_op_syncfs(struct fsload_worker *w)
{
	struct super_block *sb = w->job->dir.dentry->d_sb;
	int err;

	/* As syncfs(2). */
	down_read(&sb->s_umount);
	err = sync_filesystem(sb);
	up_read(&sb->s_umount);
	return err;
}

s64 fsload_op_fsync(struct fsload_worker *w)
{
	struct file *f;
	int err;

	f = fsload_open(w, O_RDONLY | O_LARGEFILE, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	err = vfs_fsync(f, 0);
	fsload_close_sync(f);
	return err;
}

/* As posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) between open and close. */
s64 fsload_op_drop_cache(struct fsload_worker *w)
{
	struct file *f;
	int err;

	f = fsload_open(w, O_RDONLY | O_LARGEFILE, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	err = vfs_fadvise(f, 0, 0, POSIX_FADV_DONTNEED);
	fsload_close_sync(f);
	return err;
}

s64 fsload_op_stat(struct fsload_worker *w)
{
	struct kstat st;
	struct path p;
	int err;

	err = vfs_path_lookup(w->job->dir.dentry, w->job->dir.mnt, w->e.name,
			      LOOKUP_FOLLOW | FSLOAD_LOOKUP_SCOPED, &p);
	if (err)
		return err;
	err = vfs_getattr(&p, &st, STATX_BASIC_STATS, AT_STATX_SYNC_AS_STAT);
	path_put(&p);
	return err;
}

/*
 * Look up the directory of @name, whose last component is at @off, as the
 * system calls' parent walk does: following a symlink, and it must be a
 * directory.
 */
static int fsload_parent_of(struct fsload_worker *w, char *name,
			    unsigned int off, struct path *parent)
{
	int err;

	name[off - 1] = '\0';
	err = vfs_path_lookup(w->job->dir.dentry, w->job->dir.mnt, name,
			      LOOKUP_FOLLOW | LOOKUP_DIRECTORY |
			      FSLOAD_LOOKUP_SCOPED, parent);
	name[off - 1] = '/';
	return err;
}

/* The directory of e->name (fsload_parent_of()). */
int fsload_name_parent(struct fsload_worker *w, struct path *parent)
{
	return fsload_parent_of(w, w->e.name, w->e.last_off, parent);
}

/*
 * Rename e->ren_from to e->ren_to as renameat(2) on the job directory does:
 * each name's directory walked from the job directory, then the rename in
 * that directory.  The two are one directory (fsload_rename_names());
 * only another process moving directories between the walks makes them
 * differ, and the rename then fails with EXDEV.
 */
static int fsload_rename(struct fsload_worker *w)
{
	struct fsload_engine *e = &w->e;
	unsigned int off = e->last_off;
	struct path parent, nparent;
	int err;

	err = fsload_parent_of(w, e->ren_from, off, &parent);
	if (err)
		return err;
	err = fsload_parent_of(w, e->ren_to, off, &nparent);
	if (!err) {
		if (parent.dentry == nparent.dentry &&
		    parent.mnt == nparent.mnt)
			err = fsload_rename_at(&parent, &e->ren_from[off],
					       strlen(&e->ren_from[off]),
					       &e->ren_to[off],
					       strlen(&e->ren_to[off]));
		else
			err = -EXDEV;
		path_put(&nparent);
	}
	path_put(&parent);
	return err;
}

/*
 * unlink, rmdir, mkdir or rename the file's name: walk to its directory, as the
 * system calls' parent walk does (rename: each name's), then act on the last
 * component.
 */
s64 fsload_op_dirent(struct fsload_worker *w, const struct fsload_opdesc *op)
{
	const char *last = &w->e.name[w->e.last_off];
	int len = w->e.name_len - w->e.last_off;
	struct path parent;
	int err;

	if (op->type == FSLOAD_OP_RENAME)
		return fsload_rename(w);
	err = fsload_name_parent(w, &parent);
	if (err)
		return err;
	if (op->type == FSLOAD_OP_MKDIR)
		err = fsload_mkdir(&parent, last, len, NULL);
	else
		err = fsload_remove_at(&parent, last, len,
				       op->type == FSLOAD_OP_RMDIR, NULL);
	path_put(&parent);
	return err;
}

static void fsload_bio_end_io(struct bio *bio)
{
	struct fsload_bio_ctx *c = bio->bi_private;
	struct fsload_worker *w = c->w;
	unsigned long flags;

	c->done_ns = ktime_get_ns();
	c->status = (__force int)bio->bi_status;
	bio_put(bio);
	/* The wake-up is under the lock: see fsload_worker.bio_lock. */
	spin_lock_irqsave(&w->bio_lock, flags);
	list_add_tail(&c->node, &w->bio_done);
	w->bio_inflight--;
	wake_up(&w->bio_wq);
	spin_unlock_irqrestore(&w->bio_lock, flags);
}

/*
 * Wait until at most @max of the worker's bios are in flight, then account
 * every completed one, failed ones as their own op's errors.  *@last is
 * raised to the latest completion.  Returns 0 or the first failure's
 * negative errno, its op in e.failed_op unless the phase has failed
 * already.
 */
static int fsload_bio_reap(struct fsload_worker *w, unsigned int max,
			   u64 *last)
{
	struct fsload_bio_ctx *c, *tmp;
	LIST_HEAD(done);
	int err = 0;

	spin_lock_irq(&w->bio_lock);
	wait_event_lock_irq(w->bio_wq, w->bio_inflight <= max, w->bio_lock);
	list_splice_init(&w->bio_done, &done);
	spin_unlock_irq(&w->bio_lock);

	list_for_each_entry_safe(c, tmp, &done, node) {
		if (c->status) {
			w->e.acc[c->op->type].st.errors++;
			if (!err)
				err = blk_status_to_errno((__force blk_status_t)
							  c->status);
			if (!w->e.failed_op)
				w->e.failed_op = c->op;
		} else {
			fsload_account(&w->e, c->op->type,
				       c->done_ns - c->submit_ns, c->op->block);
			/* the time series' MiB/s: a bio's bytes as reaped */
			fsload_io_done(w, c->op->block);
		}
		*last = max(*last, c->done_ns);
		list_move(&c->node, &w->bio_free);
	}
	return err;
}

/*
 * Submit one bio of op->block bytes at the op's next offset, once fewer
 * than op->depth of the worker's bios are in flight.  Its completion is
 * accounted when reaped, by a later op or at the end of the phase.
 */
s64 fsload_op_bio(struct fsload_worker *w, const struct fsload_opdesc *op)
{
	bool write = op->type == FSLOAD_OP_BIO_WRITE;
	struct fsload_bio_ctx *c;
	u32 left = op->block, len;
	unsigned int i = 0;
	struct bio *bio;
	u64 last = 0;
	int err;

	err = fsload_bio_reap(w, op->depth - 1, &last);
	if (err)
		return err;
	c = list_first_entry(&w->bio_free, struct fsload_bio_ctx, node);
	list_del(&c->node);
	c->op = op;
	c->submit_ns = ktime_get_ns();
	/* From the bio set's mempool: may sleep, never fails. */
	bio = bio_alloc(w->job->bdev.bdev, DIV_ROUND_UP(op->block, PAGE_SIZE),
			write ? REQ_OP_WRITE | REQ_SYNC : REQ_OP_READ,
			GFP_KERNEL);
	bio->bi_iter.bi_sector = fsload_bio_offset(&w->e, op) >> SECTOR_SHIFT;
	while (left) {
		len = min_t(u32, left, PAGE_SIZE);
		__bio_add_page(bio, w->pages[i++], len, 0);
		left -= len;
	}
	bio->bi_private = c;
	bio->bi_end_io = fsload_bio_end_io;
	spin_lock_irq(&w->bio_lock);
	w->bio_inflight++;
	spin_unlock_irq(&w->bio_lock);
	submit_bio(bio);
	return FSLOAD_RET_ACCOUNTED;
}

/* The end of a phase: wait for the worker's bios and account them. */
s64 fsload_drain(struct fsload_worker *w, u64 *last_ns)
{
	*last_ns = 0;
	if (!w->bios)
		return 0;
	return fsload_bio_reap(w, 0, last_ns);
}

