/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsload: every kernel-version difference, and nowhere else.
 *
 * Branch points (see the project's kernel-compat notes): 6.2
 * (genl_dumpit_info carries a genl_info), 6.3 (idmapped mounts take a
 * struct mnt_idmap), 6.5, 6.7, 6.9 and 6.10 (opening and releasing a
 * block device), 6.8 (vfs_iter_write takes the write reference),
 * 6.12 (vfs_path_lookup in namei.h), 6.15 (vfs_mkdir returns a dentry),
 * 6.16 (lookup_one takes a qstr), 6.17 and 6.18 (struct renamedata),
 * 6.19 (delegated_inode argument on mkdir, rmdir and create; vfs_create
 * loses its directory and want_excl; a failed vfs_mkdir unlocks the
 * parent).
 *
 * The test suite runs on Debian's 6.1, 6.12 and 7.3 (make check-all); the
 * branches for the versions in between follow the kernel's porting notes
 * and are compile-checked only where Debian ships headers.  The version
 * checks assume upstream's APIs: a distribution kernel that backports one
 * of these changes needs a feature test here instead.
 */
#ifndef _FSLOAD_COMPAT_H
#define _FSLOAD_COMPAT_H

#include <linux/version.h>
#include <linux/fs.h>
#include <linux/file.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/blkdev.h>
#include <linux/exportfs.h>
#include <net/genetlink.h>

#define FSLOAD_KV_GE(a, b) (LINUX_VERSION_CODE >= KERNEL_VERSION(a, b, 0))

/* Leases and delegations left linux/fs.h for linux/filelock.h in 6.3. */
#if FSLOAD_KV_GE(6, 3)
#include <linux/filelock.h>
#endif

/* A trace event's string: __assign_str() lost its source argument in 6.10. */
#if FSLOAD_KV_GE(6, 10)
#define FSLOAD_ASSIGN_STR(dst, src)	__assign_str(dst)
#else
#define FSLOAD_ASSIGN_STR(dst, src)	__assign_str(dst, src)
#endif

#if !FSLOAD_KV_GE(6, 1)
#error "fsload needs Linux 6.1 or newer"
#endif

/* The mount's idmapping, as the VFS's directory operations want it. */
#if FSLOAD_KV_GE(6, 3)
#define FSLOAD_IDMAP(mnt)	mnt_idmap(mnt)
#else
#define FSLOAD_IDMAP(mnt)	mnt_user_ns(mnt)
#endif

#if !FSLOAD_KV_GE(6, 12)
/* Exported since 2.6 but declared only in fs/internal.h before 6.12. */
int vfs_path_lookup(struct dentry *dentry, struct vfsmount *mnt,
		    const char *name, unsigned int flags, struct path *path);
#endif

/*
 * Look up @name in @parent, whose inode the caller holds locked, with the
 * permission check a path walk makes on the last directory.
 */
static inline struct dentry *fsload_lookup_locked(const struct path *parent,
						  const char *name, int len)
{
#if FSLOAD_KV_GE(6, 16)
	struct qstr q = QSTR_INIT(name, len);

	return lookup_one(FSLOAD_IDMAP(parent->mnt), &q, parent->dentry);
#else
	return lookup_one_len(name, parent->dentry, len);
#endif
}

/*
 * Make a directory at the negative @dentry, in @parent whose inode the
 * caller holds locked.  Returns the new directory's dentry (to be dput()
 * by the caller) or an ERR_PTR; on error @dentry has been released, as
 * 6.15's vfs_mkdir() does.  The parent stays locked either way: the caller
 * unlocks it.
 */
static inline struct dentry *fsload_vfs_mkdir(const struct path *parent,
					      struct dentry *dentry,
					      umode_t mode)
{
	struct inode *dir = d_inode(parent->dentry);
#if FSLOAD_KV_GE(6, 19)
	struct dentry *de;

	de = vfs_mkdir(FSLOAD_IDMAP(parent->mnt), dir, dentry, mode, NULL);
	/*
	 * From 6.19 a failed vfs_mkdir() also unlocks the parent (it ends
	 * the start_creating() it assumes): take the lock again, so that the
	 * caller's lock/lookup/unlock stays balanced on every kernel.
	 */
	if (IS_ERR(de))
		inode_lock_nested(dir, I_MUTEX_PARENT);
	return de;
#elif FSLOAD_KV_GE(6, 15)
	return vfs_mkdir(FSLOAD_IDMAP(parent->mnt), dir, dentry, mode);
#else
	int err = vfs_mkdir(FSLOAD_IDMAP(parent->mnt), dir, dentry, mode);

	if (err) {
		dput(dentry);
		return ERR_PTR(err);
	}
	return dentry;
#endif
}

/*
 * A delegation (nfsd's lease on a file or, from 6.19, a directory) that an
 * unlink, rmdir or rename must break: the VFS hands back the inode, the
 * caller drops its locks, waits for the break and retries, as the system
 * calls do.  6.19 wrapped the inode pointer in struct delegated_inode.
 */
struct fsload_deleg {
#if FSLOAD_KV_GE(6, 19)
	struct delegated_inode di;
#else
	struct inode *inode;
#endif
};

#if FSLOAD_KV_GE(6, 19)
#define FSLOAD_DELEG(d)		(&(d)->di)
#define FSLOAD_DELEG_PENDING(d)	is_delegated(&(d)->di)
#else
#define FSLOAD_DELEG(d)		(&(d)->inode)
#define FSLOAD_DELEG_PENDING(d)	(!!(d)->inode)
#endif

/*
 * After the caller has unlocked: 0 when there was no delegation to break
 * or it has been broken (then retry), or a negative errno.  Sets *@retry.
 */
static inline int fsload_deleg_break(struct fsload_deleg *d, bool *retry)
{
	int err;

	*retry = false;
	if (!FSLOAD_DELEG_PENDING(d))
		return 0;
	err = break_deleg_wait(FSLOAD_DELEG(d));
	*retry = !err;
	return err;
}

static inline int fsload_vfs_rmdir(const struct path *parent,
				   struct dentry *dentry,
				   struct fsload_deleg *d)
{
#if FSLOAD_KV_GE(6, 19)
	return vfs_rmdir(FSLOAD_IDMAP(parent->mnt), d_inode(parent->dentry),
			 dentry, FSLOAD_DELEG(d));
#else
	return vfs_rmdir(FSLOAD_IDMAP(parent->mnt), d_inode(parent->dentry),
			 dentry);
#endif
}

static inline int fsload_vfs_unlink(const struct path *parent,
				    struct dentry *dentry,
				    struct fsload_deleg *d)
{
	return vfs_unlink(FSLOAD_IDMAP(parent->mnt), d_inode(parent->dentry),
			  dentry, FSLOAD_DELEG(d));
}

/*
 * Make a regular file at the negative @dentry in the directory @parent
 * (locked), as mknodat(2) with S_IFREG does: vfs_create(), exclusive.
 * From 6.19 it finds the directory itself and may hand back a delegation
 * to break.
 */
static inline int fsload_vfs_create(const struct path *parent,
				    struct dentry *dentry, umode_t mode,
				    struct fsload_deleg *d)
{
#if FSLOAD_KV_GE(6, 19)
	return vfs_create(FSLOAD_IDMAP(parent->mnt), dentry, mode,
			  FSLOAD_DELEG(d));
#else
	return vfs_create(FSLOAD_IDMAP(parent->mnt), d_inode(parent->dentry),
			  dentry, mode, true);
#endif
}

/* Rename @old to @new, both in the directory @parent (locked). */
static inline int fsload_vfs_rename(const struct path *parent,
				    struct dentry *old, struct dentry *new,
				    struct fsload_deleg *d)
{
	struct renamedata rd = {
#if FSLOAD_KV_GE(6, 18)
		.mnt_idmap = FSLOAD_IDMAP(parent->mnt),
#elif FSLOAD_KV_GE(6, 3)
		.old_mnt_idmap = FSLOAD_IDMAP(parent->mnt),
		.new_mnt_idmap = FSLOAD_IDMAP(parent->mnt),
#else
		.old_mnt_userns = FSLOAD_IDMAP(parent->mnt),
		.new_mnt_userns = FSLOAD_IDMAP(parent->mnt),
#endif
#if FSLOAD_KV_GE(6, 17)
		.old_parent = parent->dentry,
		.new_parent = parent->dentry,
#else
		.old_dir = d_inode(parent->dentry),
		.new_dir = d_inode(parent->dentry),
#endif
		.old_dentry = old,
		.new_dentry = new,
		.delegated_inode = FSLOAD_DELEG(d),
	};

	return vfs_rename(&rd);
}

/*
 * Close @file now, in the calling kthread, as close(2) would: flush, then
 * the final fput.  A kthread's plain fput() would defer ->release and the
 * final iput to a workqueue, out of the measured operation.
 */
static inline void fsload_close_sync(struct file *file)
{
	get_file(file);
	filp_close(file, NULL);
	__fput_sync(file);
}

/*
 * Write from an iov_iter as write(2) does.  vfs_iter_write() takes the
 * filesystem's write reference itself from 6.8 on.
 */
static inline ssize_t fsload_iter_write(struct file *file,
					struct iov_iter *iter, loff_t *pos)
{
#if FSLOAD_KV_GE(6, 8)
	return vfs_iter_write(file, iter, pos, 0);
#else
	ssize_t ret;

	file_start_write(file);
	ret = vfs_iter_write(file, iter, pos, 0);
	file_end_write(file);
	return ret;
#endif
}

/*
 * A block device opened by a job: for writing, exclusively with the job as
 * holder (so that a mounted device, or one another holder has claimed,
 * gives -EBUSY); for reading only, shared and read-only.
 */
struct fsload_bdev {
	struct block_device *bdev;
#if FSLOAD_KV_GE(6, 9)
	struct file *file;
#elif FSLOAD_KV_GE(6, 7)
	struct bdev_handle *handle;
#elif FSLOAD_KV_GE(6, 5)
	void *holder;
#else
	fmode_t mode;
#endif
};

/*
 * Open the block device at @path, resolved in the caller's context (its
 * root, cwd and mount namespace: call it from the request handler).
 * Returns 0 or a negative errno: -ENOTBLK when @path is not a block
 * device, -EBUSY when an exclusive open is refused.
 */
static inline int fsload_bdev_open(struct fsload_bdev *b, const char *path,
				   bool write, void *holder)
{
#if FSLOAD_KV_GE(6, 5)
	blk_mode_t mode = BLK_OPEN_READ | (write ? BLK_OPEN_WRITE : 0);
#endif

	if (!write)
		holder = NULL;
#if FSLOAD_KV_GE(6, 9)
	b->file = bdev_file_open_by_path(path, mode, holder, NULL);
	if (IS_ERR(b->file))
		return PTR_ERR(b->file);
	b->bdev = file_bdev(b->file);
#elif FSLOAD_KV_GE(6, 7)
	b->handle = bdev_open_by_path(path, mode, holder, NULL);
	if (IS_ERR(b->handle))
		return PTR_ERR(b->handle);
	b->bdev = b->handle->bdev;
#elif FSLOAD_KV_GE(6, 5)
	b->holder = holder;
	b->bdev = blkdev_get_by_path(path, mode, holder, NULL);
	if (IS_ERR(b->bdev))
		return PTR_ERR(b->bdev);
#else
	b->mode = FMODE_READ | (write ? FMODE_WRITE | FMODE_EXCL : 0);
	b->bdev = blkdev_get_by_path(path, b->mode, holder);
	if (IS_ERR(b->bdev))
		return PTR_ERR(b->bdev);
#endif
	return 0;
}

/*
 * Close what fsload_bdev_open() opened, giving up an exclusive claim now
 * (a mount right after the job must not find the device busy).
 */
static inline void fsload_bdev_close(struct fsload_bdev *b)
{
	if (!b->bdev)
		return;
#if FSLOAD_KV_GE(6, 10)
	bdev_fput(b->file);
#elif FSLOAD_KV_GE(6, 9)
	/* Not a deferred fput: the claim ends in the final release. */
	__fput_sync(b->file);
#elif FSLOAD_KV_GE(6, 7)
	bdev_release(b->handle);
#elif FSLOAD_KV_GE(6, 5)
	blkdev_put(b->bdev, b->holder);
#else
	blkdev_put(b->bdev, b->mode);
#endif
	b->bdev = NULL;
}

/*
 * The op a family's pre_doit and post_doit are given: from 6.2 the
 * kernel splits each genl_ops into a do and a dump half and passes the
 * do half; 6.1 passes the genl_ops itself.  Both carry internal_flags.
 */
#if FSLOAD_KV_GE(6, 2)
#define fsload_genl_split_ops genl_split_ops
#else
#define fsload_genl_split_ops genl_ops
#endif

/* The request attributes of a dump, parsed with the command's policy. */
static inline struct nlattr **fsload_dump_attrs(struct netlink_callback *cb)
{
#if FSLOAD_KV_GE(6, 2)
	return genl_dumpit_info(cb)->info.attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * The file handle of @dentry into @buf (@len bytes), as name_to_handle_at(2)
 * without flags makes it: its type, or -EOPNOTSUPP where that refuses
 * (a filesystem that cannot decode handles), -EOVERFLOW where it is
 * longer.  No version difference: exportfs_encode_fh() takes the same
 * arguments from 6.1 to 7.x (its last, 0 here, was named connectable in
 * 6.1 and is a flags word later), and name_to_handle_at(2)'s test, open
 * coded in 6.1, is exportfs_can_encode_fh(nop, 0) later: the same, here.
 */
static inline int fsload_encode_fh(struct dentry *dentry, void *buf,
				   unsigned int *len)
{
	const struct export_operations *nop = dentry->d_sb->s_export_op;
	int dwords = *len / 4, type;

	if (!IS_ENABLED(CONFIG_EXPORTFS) || !nop || !nop->fh_to_dentry)
		return -EOPNOTSUPP;
	type = exportfs_encode_fh(dentry, buf, &dwords, 0);
	if (type == FILEID_INVALID || type == -ENOSPC || dwords * 4 > *len)
		return -EOVERFLOW;
	if (type < 0)
		return type;
	*len = dwords * 4;
	return type;
}

#endif /* _FSLOAD_COMPAT_H */
