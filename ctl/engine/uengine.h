/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the userspace engine (start --engine user).
 *
 * It runs a program's identical operation sequence -- the same names,
 * sizes, order, threads and seed as the kernel's workers -- from
 * fsloadctl's own threads through system calls, with the phase loop of
 * include/fsload/engine-loop.h and the choreography of engine-job.h
 * compiled for userspace, and reports it in the structures the kernel's
 * status and results are parsed into.  Comparing the two shows what the
 * system-call boundary costs.
 */
#ifndef FSLOADCTL_UENGINE_H
#define FSLOADCTL_UENGINE_H

#include <stdint.h>

#include "engine/job.h"

struct job_extra;
struct job_req;
struct profile;
struct program;

/*
 * Check that @prog, for @threads threads (of rank @rank, of @ranks in one
 * directory) of @files files
 * each in directories of @files_per_dir (a tree of @branch, 0 flat, its
 * files from directory @first_dir on), named as @scheme (enum
 * fsload_names) says, is a program the engine runs (as the kernel
 * validates a start request).  Returns 0, or EXIT_USAGE after printing
 * why not.
 */
int uengine_check(const struct program *prog, uint32_t threads,
		  uint32_t rank, uint32_t ranks, uint64_t files,
		  uint32_t files_per_dir,
		  uint32_t branch, uint32_t first_dir, uint32_t flags,
		  uint8_t scheme);

/*
 * The largest I/O block every engine takes (block_bytes, and so a read of
 * one call): the module parameter max_block_bytes where the module is
 * loaded, else its default, FSLOAD_BLOCK_DEFAULT_MAX.
 */
uint32_t uengine_block_max(void);

/*
 * Run @req in DIR/fsload-user-<pid>-<n>/ (run->job_dir; in a run in one
 * directory, on ranks but 0, rank 0's job's), following it
 * with a progress line on stderr unless quiet, and fill run->js and
 * run->r as the kernel's status and results would be.  SIGINT/SIGTERM
 * stop it (a second one kills the process).  Returns 0 when the job ran
 * (whatever its end: run->ret), else an exit code.
 */
int uengine_run(const struct job_req *req, struct run *run);

#endif /* FSLOADCTL_UENGINE_H */
