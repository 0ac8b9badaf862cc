// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: extents, tree removal and utilisation, from userspace.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <linux/fiemap.h>
#include <linux/fs.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "lib/clock.h"
#include "engine/fsutil.h"
#include "engine/job.h"

/* nftw() passes no argument to its callback. */
static uint64_t ext_files, ext_total;
static bool ext_failed;		/* extents_cb() reported a failure */

static int extents_cb(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	struct fiemap fm;
	int fd, err;

	(void)st;
	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		errsys("extents: %s", path);
		ext_failed = true;
		return -1;
	}
	memset(&fm, 0, sizeof(fm));
	fm.fm_start = 0;
	fm.fm_length = FIEMAP_MAX_OFFSET;
	/* delayed allocation: map what the file will have on disk */
	fm.fm_flags = FIEMAP_FLAG_SYNC;
	fm.fm_extent_count = 0;		/* only count */
	err = ioctl(fd, FS_IOC_FIEMAP, &fm);
	if (err)
		errsys("extents: FS_IOC_FIEMAP on %s", path);
	close(fd);
	if (err) {
		ext_failed = true;
		return -1;
	}
	ext_files++;
	ext_total += fm.fm_mapped_extents;
	return 0;
}

int tree_extents(const char *dir, uint64_t *files, uint64_t *extents)
{
	int ret;

	ext_files = 0;
	ext_total = 0;
	ext_failed = false;
	/* -1 from the callback has been reported; -1 from nftw() not */
	ret = nftw(dir, extents_cb, 16, FTW_PHYS | FTW_MOUNT);
	if (ret && !ext_failed)
		errsys("extents: %s", dir);
	*files = ext_files;
	*extents = ext_total;
	return ret ? -1 : 0;
}

/* The first entry tree_remove_fd() could not remove, for its message. */
struct rm_state {
	unsigned int left;	/* entries the last sweeps left */
	int err;		/* the first failure, negative errno */
	char name[256];		/* its entry */
};

/* Directories deeper than this are not descended into. */
#define RM_DEPTH_MAX	16
/* Sweeps of one directory that each removed something. */
#define RM_SWEEPS_MAX	64

static int rm_contents_at(int dfd, dev_t dev, int depth, struct rm_state *st);

static void rm_failed(struct rm_state *st, const char *name, int err)
{
	if (!st->err) {
		st->err = err;
		snprintf(st->name, sizeof(st->name), "%s", name);
	}
}

/*
 * Remove entry @name of the directory at @dfd.  A directory is opened
 * without following a symlink, emptied unless it is on another mount,
 * and removed only if @name still is that directory.
 */
static int rm_entry_at(int dfd, const char *name, dev_t dev, int depth,
		       struct rm_state *st)
{
	struct stat s1, s2;
	int fd, err;

	if (!unlinkat(dfd, name, 0) || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -errno;
	if (depth >= RM_DEPTH_MAX)
		return -ELOOP;
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(fd, &s1))
		err = -errno;
	else if (s1.st_dev != dev)
		err = -EXDEV;
	else
		err = rm_contents_at(fd, dev, depth + 1, st);
	if (!err) {
		if (fstatat(dfd, name, &s2, AT_SYMLINK_NOFOLLOW))
			err = -errno;
		else if (s2.st_ino != s1.st_ino || s2.st_dev != s1.st_dev)
			err = -ESTALE;
		else if (unlinkat(dfd, name, AT_REMOVEDIR))
			err = -errno;
	}
	close(fd);
	return err == -ENOENT ? 0 : err;
}

/*
 * Remove what the directory at @dfd holds: sweeps through it while they
 * remove something (entries made meanwhile), at most RM_SWEEPS_MAX.
 */
static int rm_contents_at(int dfd, dev_t dev, int depth, struct rm_state *st)
{
	unsigned int sweep, removed, failed = 0;
	struct dirent *de;
	DIR *d;
	int fd, err;

	for (sweep = 0; sweep < RM_SWEEPS_MAX; sweep++) {
		fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		d = fd < 0 ? NULL : fdopendir(fd);
		if (!d) {
			err = -errno;
			if (fd >= 0)
				close(fd);
			return err;
		}
		removed = failed = 0;
		while ((de = readdir(d))) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			err = rm_entry_at(dfd, de->d_name, dev, depth, st);
			if (!err) {
				removed++;
			} else {
				failed++;
				rm_failed(st, de->d_name, err);
			}
		}
		closedir(d);
		if (!removed)
			break;
	}
	st->left += failed;
	return failed ? -ENOTEMPTY : 0;
}

int tree_remove_fd(int dfd, const char *what)
{
	struct rm_state st = { 0 };
	char link[64], where[PATH_MAX], *slash;
	struct stat s1, s2;
	ssize_t n;
	int pfd, err;

	if (fstat(dfd, &s1)) {
		errsys("cannot remove %s", what);
		return -1;
	}
	err = rm_contents_at(dfd, s1.st_dev, 0, &st);
	/* The directory itself, where it is now, if it still is there. */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", dfd);
	n = readlink(link, where, sizeof(where) - 1);
	if (!err && n > 0) {
		where[n] = '\0';
		slash = strrchr(where, '/');
		if (!slash || strstr(where, " (deleted)"))
			return 0;	/* gone already */
		*slash = '\0';
		pfd = open(slash == where ? "/" : where,
			   O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (pfd < 0 || fstatat(pfd, slash + 1, &s2, AT_SYMLINK_NOFOLLOW))
			err = -errno;
		else if (s2.st_ino != s1.st_ino || s2.st_dev != s1.st_dev)
			err = -ESTALE;
		else if (unlinkat(pfd, slash + 1, AT_REMOVEDIR))
			err = -errno;
		if (pfd >= 0)
			close(pfd);
		if (err) {
			st.left++;
			rm_failed(&st, ".", err);
		}
	}
	if (!st.err)
		return 0;
	errno = -st.err;
	errsys("cannot remove all of %s: %u entries left, first %s", what,
	       st.left, st.name);
	return -1;
}

const char *const dir_diff_msgs[] = {
	[FSLOAD_DIR_OTHER_INO] = FSLOAD_JOIN_MSG_INO,
	[FSLOAD_DIR_NOT_OWNER] = FSLOAD_JOIN_MSG_OWNER,
	[FSLOAD_DIR_OTHER_MODE] = FSLOAD_JOIN_MSG_MODE,
	[FSLOAD_DIR_OTHER_BTIME] = FSLOAD_JOIN_MSG_BTIME,
	[FSLOAD_DIR_OTHER_HANDLE] = FSLOAD_JOIN_MSG_HANDLE,
};

int dir_fd_id(int fd, struct fsload_dir_id *id)
{
	struct {
		struct file_handle fh;
		unsigned char bytes[FSLOAD_JOIN_HANDLE_MAX];
	} h;
	struct statx stx;
	int mnt_id;

	memset(id, 0, sizeof(*id));
	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
		  STATX_INO | STATX_MODE | STATX_UID | STATX_BTIME, &stx))
		return -1;
	id->ino = stx.stx_ino;
	id->mode = stx.stx_mode;
	id->uid = stx.stx_uid;
	if (stx.stx_mask & STATX_BTIME) {
		id->has_btime = true;
		id->btime_ns = (u64)stx.stx_btime.tv_sec * 1000000000 +
			       stx.stx_btime.tv_nsec;
	}
	h.fh.handle_bytes = sizeof(h.bytes);
	if (!name_to_handle_at(fd, "", &h.fh, &mnt_id, AT_EMPTY_PATH) &&
	    h.fh.handle_bytes <= sizeof(id->handle)) {
		id->handle_type = h.fh.handle_type;
		id->handle_bytes = h.fh.handle_bytes;
		memcpy(id->handle, h.fh.f_handle, h.fh.handle_bytes);
	}
	return 0;
}

int job_dir_open(const char *dir, const struct fsload_dir_id *id)
{
	struct fsload_dir_id got;
	enum fsload_dir_diff d;
	int fd;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT)
			errsys("%s", dir);
		return -1;
	}
	if (dir_fd_id(fd, &got)) {
		errsys("%s", dir);
		close(fd);
		return -1;
	}
	d = fsload_dir_differs(id, &got, geteuid());
	if (d != FSLOAD_DIR_SAME) {
		warnmsg("%s is not the job's directory any more (%s): left alone",
			dir, dir_diff_msgs[d]);
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

int tree_remove_job(const char *dir, const struct fsload_dir_id *id)
{
	int fd = job_dir_open(dir, id), ret;

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	ret = tree_remove_fd(fd, dir);
	close(fd);
	return ret;
}

int fs_used_pct(const char *dir, double *pct, uint64_t *bytes)
{
	struct statvfs sv;
	uint64_t used, avail;

	if (statvfs(dir, &sv)) {
		errsys("statfs %s", dir);
		return -1;
	}
	used = (uint64_t)(sv.f_blocks - sv.f_bfree) * sv.f_frsize;
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	*pct = used + avail ? 100.0 * used / (used + avail) : 100.0;
	if (bytes)
		*bytes = used + avail;
	return 0;
}

int sync_drop_caches(uint64_t *ns)
{
	uint64_t t0 = now_ns();
	int fd, err = 0;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "3\n", 2) != 2)
		err = -errno;
	close(fd);
	*ns = now_ns() - t0;
	return err;
}

bool read_small(int dfd, const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = openat(dfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return true;
}
