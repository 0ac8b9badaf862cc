/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: what fsloadctl itself looks at on the filesystem: extents of
 * the files a job left, removing a job directory, utilisation.
 */
#ifndef FSLOADCTL_FSUTIL_H
#define FSLOADCTL_FSUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Count the regular files under @dir and their extents (FS_IOC_FIEMAP
 * with FIEMAP_FLAG_SYNC and fm_extent_count 0).  Returns 0, or -1 with
 * errno (a message printed).
 */
int tree_extents(const char *dir, uint64_t *files, uint64_t *extents);

/*
 * Remove the tree at the directory open at @dfd, and the directory itself
 * from wherever it is now: no symlink followed, no mount crossed, a
 * directory removed only if its name still is the one emptied.  @what
 * names it in messages.  Returns 0, or -1 with a message.
 */
int tree_remove_fd(int dfd, const char *what);

struct fsload_dir_id;

/*
 * What is said of a directory that is not the job's, by what differs
 * (enum fsload_dir_diff): the join-* attribute's name first.
 */
extern const char *const dir_diff_msgs[];

/*
 * What directory @fd is, as the module finds it (struct fsload_dir_id):
 * statx(2) and name_to_handle_at(2) call the vfs_getattr() and
 * exportfs_encode_fh() it calls.  0, or -1 with errno.
 */
int dir_fd_id(int fd, struct fsload_dir_id *id);

/*
 * Open the job directory @dir (O_RDONLY | O_DIRECTORY, no symlink
 * followed) only if it still is the job's, @id (its dir-* attributes):
 * the check a joining rank makes, fsload_dir_differs(), for this
 * process's euid.  Returns the descriptor, or -1 with errno (ENOENT:
 * gone; otherwise a message printed).
 */
int job_dir_open(const char *dir, const struct fsload_dir_id *id);

/*
 * Remove a job's kept tree at @dir, only if @dir still is the job's
 * directory, @id (job_dir_open()): never what another process put in its
 * place.  Returns 0 (also when @dir is gone), or -1 with a message.
 */
int tree_remove_job(const char *dir, const struct fsload_dir_id *id);

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

/*
 * A small file's text (a /proc file), @path relative to @dfd, into @buf
 * of @len bytes, NUL-terminated (truncated to fit); false if unreadable
 * or empty.
 */
bool read_small(int dfd, const char *path, char *buf, size_t len);

#endif /* FSLOADCTL_FSUTIL_H */
