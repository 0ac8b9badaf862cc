// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: extents, tree removal and utilisation, from userspace.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/statvfs.h>
#include <linux/fiemap.h>
#include <linux/fs.h>

#include "fsloadctl.h"
#include "fsutil.h"

/* nftw() passes no argument to its callback. */
static uint64_t ext_files, ext_total;
static bool ext_failed;		/* extents_cb() reported a failure */
static const char *rm_failed;	/* the path remove_cb() could not remove */

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

static int remove_cb(const char *path, const struct stat *st, int type,
		     struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if ((type == FTW_DP ? rmdir(path) : unlink(path)) && errno != ENOENT) {
		errsys("cannot remove %s", path);
		rm_failed = path;
		return -1;
	}
	return 0;
}

int tree_remove(const char *dir)
{
	rm_failed = NULL;
	if (nftw(dir, remove_cb, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT)) {
		if (rm_failed)
			return -1;	/* reported */
		if (errno == ENOENT)
			return 0;	/* already gone */
		errsys("cannot remove %s", dir);
		return -1;
	}
	return 0;
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
