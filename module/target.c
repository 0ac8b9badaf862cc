// SPDX-License-Identifier: GPL-2.0
/*
 * fsload: where a job runs - its directory, resolved and pinned, or its
 * block device, opened - found in the context of the request's sender.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/math64.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include "fsload.h"
#include "compat.h"

/*
 * Kernel interfaces that look like filesystems: a mkdir there makes a
 * cgroup, a config item, a resctrl group ..., and files cannot be
 * created.  A job refuses them rather than act on the kernel.
 */
static const char *const fsload_pseudo_fs[] = {
	"proc", "sysfs", "cgroup", "cgroup2", "configfs", "debugfs",
	"tracefs", "securityfs", "bpf", "devpts", "pstore", "efivarfs",
	"selinuxfs", "smackfs", "apparmorfs", "nsfs", "binfmt_misc",
	"fusectl", "resctrl", "rpc_pipefs", "nfsd", "mqueue",
};

static bool fsload_is_pseudo_fs(const struct super_block *sb)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fsload_pseudo_fs); i++) {
		if (!strcmp(sb->s_type->name, fsload_pseudo_fs[i]))
			return true;
	}
	return false;
}

/* Why rank 0's job directory could not be joined, for the starter. */
static void fsload_join_error(struct netlink_ext_ack *extack,
			      const struct nlattr *a, int err)
{
	switch (err) {
	case -ENOENT:
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "join_dir: no such directory in dir (is dir on a filesystem every rank shares?)");
		break;
	case -ENOTDIR:
	case -ELOOP:
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "join_dir: not a directory (a symlink is not followed)");
		break;
	case -EXDEV:
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "join_dir: a mount point, not rank 0's job directory");
		break;
	case -EACCES:
	case -EPERM:
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "join_dir: no permission to look it up");
		break;
	default:
		NL_SET_ERR_MSG_ATTR(extack, a, "join_dir: cannot look it up");
	}
}

/**
 * fsload_dir_id() - what directory @dir is (struct fsload_dir_id)
 * @dir: the directory
 * @id: filled in: its inode number, mode, owner (in the caller's user
 *	namespace), birth time and file handle where it has them
 *
 * What statx(2) and name_to_handle_at(2) give the user engine, from the
 * functions they call.
 *
 * Context: process context, the request's sender's.
 * Return: 0 or a negative errno of vfs_getattr().
 */
int fsload_dir_id(const struct path *dir, struct fsload_dir_id *id)
{
	unsigned int len = sizeof(id->handle);
	struct kstat st;
	int err, type;

	memset(id, 0, sizeof(*id));
	err = vfs_getattr(dir, &st,
			  STATX_INO | STATX_MODE | STATX_UID | STATX_BTIME,
			  AT_STATX_SYNC_AS_STAT);
	if (err)
		return err;
	id->ino = st.ino;
	id->mode = st.mode;
	id->uid = from_kuid(current_user_ns(), st.uid);
	if (st.result_mask & STATX_BTIME) {
		id->has_btime = true;
		id->btime_ns = (u64)timespec64_to_ns(&st.btime);
	}
	type = fsload_encode_fh(dir->dentry, id->handle, &len);
	if (type >= 0) {
		id->handle_type = type;
		id->handle_bytes = len;
	}
	return 0;
}

/* A directory that is not the one rank 0's job made: which attribute says so. */
static int fsload_join_differs(struct genl_info *info, enum fsload_dir_diff d)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;

	switch (d) {
	case FSLOAD_DIR_SAME:
		return 0;
	case FSLOAD_DIR_OTHER_INO:
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_JOIN_INO],
				    FSLOAD_JOIN_MSG_INO);
		break;
	case FSLOAD_DIR_NOT_OWNER:
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_JOIN_DIR],
				    FSLOAD_JOIN_MSG_OWNER);
		return -EPERM;
	case FSLOAD_DIR_OTHER_MODE:
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_JOIN_MODE],
				    FSLOAD_JOIN_MSG_MODE);
		break;
	case FSLOAD_DIR_OTHER_BTIME:
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_JOIN_BTIME],
				    FSLOAD_JOIN_MSG_BTIME);
		break;
	case FSLOAD_DIR_OTHER_HANDLE:
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_JOIN_HANDLE],
				    FSLOAD_JOIN_MSG_HANDLE);
		break;
	}
	return -ESTALE;
}

/*
 * Pin the directory of rank 0's job that @job joins, in its target: no
 * symlink followed, no mount crossed, and only the directory rank 0's
 * job made (fsload_dir_differs(): its inode number, mode, birth time and
 * file handle, owned by the starter), so that nothing that took its name
 * is joined.
 */
static int fsload_join_dir(struct fsload_job *job, struct genl_info *info)
{
	const struct nlattr *a = info->attrs[FSLOAD_A_JOB_JOIN_DIR];
	struct fsload_dir_id *id = &job->dir_id;
	u32 fsuid = from_kuid(current_user_ns(), current_fsuid());
	int err;

	err = fsload_lookup_dir(&job->parent, job->prog.join_dir, &job->dir);
	if (err) {
		fsload_join_error(info->extack, a, err);
		return err;
	}
	err = fsload_dir_id(&job->dir, id);
	if (err)
		fsload_join_error(info->extack, a, err);
	else
		err = fsload_join_differs(info,
					  fsload_dir_differs(&job->prog.join_id,
							     id, fsuid));
	if (err) {
		path_put(&job->dir);
		job->dir.mnt = NULL;
		job->dir.dentry = NULL;
		memset(id, 0, sizeof(*id));
	}
	return err;
}

/**
 * fsload_resolve_dir() - resolve and pin a job's target directory
 * @job: the job; sets job->parent and job->dir_str
 * @info: the JOB_START request, with DIR
 *
 * The path resolves in the sender's context (its root, cwd and mount
 * namespace); kernel interfaces that look like filesystems are refused.
 * A job that joins rank 0's job directory has it pinned here (job->dir).
 *
 * Context: process context, the sender's.
 * Return: 0, or a negative errno with an extack message.
 */
int fsload_resolve_dir(struct fsload_job *job, struct genl_info *info)
{
	const struct nlattr *a = info->attrs[FSLOAD_A_JOB_DIR];
	char *buf, *p;
	int err;

	err = kern_path(nla_data(a), LOOKUP_FOLLOW | LOOKUP_DIRECTORY,
			&job->parent);
	if (err) {
		if (err == -ENOTDIR)
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "dir: not a directory");
		else
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "dir: cannot resolve the path");
		return err;
	}
	if (fsload_is_pseudo_fs(job->parent.dentry->d_sb)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "dir: a kernel interface (proc, sysfs, cgroup ...), not a filesystem for files");
		return -EOPNOTSUPP;
	}
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	p = d_path(&job->parent, buf, PATH_MAX);
	job->dir_str = kstrdup(IS_ERR(p) ? (char *)nla_data(a) : p,
			       GFP_KERNEL);
	kfree(buf);
	if (!job->dir_str)
		return -ENOMEM;
	return job->prog.join_dir ? fsload_join_dir(job, info) : 0;
}

/**
 * fsload_open_device() - open a block job's device, fit its bio ops to it
 * @job: the job; sets job->bdev, job->dev_bytes and job->dir_str
 * @info: the JOB_START request, with DEVICE
 *
 * The device opens in the sender's context (its root, cwd and mount
 * namespace resolve the path), then the bio ops are fitted to it: blocks
 * of the device's logical block size, regions within it (0: all of it,
 * rounded down to whole blocks).
 *
 * Context: process context, the sender's.
 * Return: 0, or a negative errno with an extack message.
 */
int fsload_open_device(struct fsload_job *job, struct genl_info *info)
{
	const struct nlattr *a = info->attrs[FSLOAD_A_JOB_DEVICE];
	struct fsload_program *prog = &job->prog;
	unsigned int p, i, lbs;
	u32 rem;
	int err;

	err = fsload_bdev_open(&job->bdev, nla_data(a), prog->bio_write, job);
	if (err) {
		job->bdev.bdev = NULL;
		if (err == -EBUSY)
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "device: busy (mounted, or claimed by another holder); writing needs an exclusive open");
		else if (err == -ENOTBLK)
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "device: not a block device");
		else
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "device: cannot open it");
		return err;
	}
	job->dev_bytes = bdev_nr_bytes(job->bdev.bdev);
	lbs = bdev_logical_block_size(job->bdev.bdev);
	for (p = 0; p < prog->nphases; p++) {
		for (i = 0; i < prog->phases[p].nops; i++) {
			struct fsload_opdesc *od = &prog->phases[p].ops[i];

			if (!(fsload_op_type(od->type)->params & FSLOAD_OPP_BIO))
				continue;
			if (od->block % lbs) {
				NL_SET_ERR_MSG_ATTR(info->extack, a,
						    "device: a bio op's block_bytes is not a multiple of its logical block size");
				return -EINVAL;
			}
			if (od->size > job->dev_bytes) {
				NL_SET_ERR_MSG_ATTR(info->extack, a,
						    "device: a bio op's size_bytes is beyond its end");
				return -ERANGE;
			}
			if (!od->size)
				od->size = job->dev_bytes;
			/* whole blocks */
			div_u64_rem(od->size, od->block, &rem);
			od->size -= rem;
			if (od->size < od->block) {
				NL_SET_ERR_MSG_ATTR(info->extack, a,
						    "device: smaller than a bio op's block");
				return -EINVAL;
			}
		}
	}
	job->dir_str = kstrdup(nla_data(a), GFP_KERNEL);
	return job->dir_str ? 0 : -ENOMEM;
}
