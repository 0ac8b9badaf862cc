/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: what fsloadctl itself looks at on the filesystem: extents of
 * the files a job left, removing a job directory, utilisation.
 */
#ifndef FSLOADCTL_FSUTIL_H
#define FSLOADCTL_FSUTIL_H

#include <stdint.h>

/*
 * Count the regular files under @dir and their extents (FS_IOC_FIEMAP
 * with FIEMAP_FLAG_SYNC and fm_extent_count 0).  Returns 0, or -1 with
 * errno (a message printed).
 */
int tree_extents(const char *dir, uint64_t *files, uint64_t *extents);

/* Remove @dir and everything below it (no symlink followed). */
int tree_remove(const char *dir);

/*
 * Utilisation of the filesystem holding @dir, in percent, as df shows
 * it: used / (used + available to unprivileged users).  Also its size
 * in bytes (used + available) when @bytes is not NULL.
 */
int fs_used_pct(const char *dir, double *pct, uint64_t *bytes);

/*
 * Between two phases (a phase with FSLOAD_PHASE_F_HOLD, untar
 * --sync-between): "sync; echo 3 > /proc/sys/vm/drop_caches", the clean
 * page cache, dentries and inodes of every filesystem dropped.  Returns 0
 * or a negative errno; *@ns the time it took.
 */
int sync_drop_caches(uint64_t *ns);

#endif /* FSLOADCTL_FSUTIL_H */
