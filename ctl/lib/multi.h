/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the ranks of a multi-client run.  fsloadctl-mpi is one rank
 * of `mpirun -np N fsloadctl-mpi start ...` (lib/multi-mpi.c); plain
 * fsloadctl is the one rank of a run of one (lib/multi.c), with no MPI in
 * it.  Every collective call ends within its timeout, so that no rank
 * waits forever for one that hangs.
 */
#ifndef FSLOADCTL_MULTI_H
#define FSLOADCTL_MULTI_H

#include <stdbool.h>
#include <stddef.h>

/* Before anything else in main(); 0 or an exit code. */
int multi_init(int *argc, char ***argv);
/* At the end of main(). */
void multi_finish(void);

unsigned int multi_rank(void);
unsigned int multi_size(void);
/* The MPI library's name and version, or NULL in plain fsloadctl. */
const char *multi_library(void);

/*
 * Every rank arrives; @any_stop says whether any of them asked to stop,
 * @any_more whether any will call again (@more).  0, or -ETIMEDOUT when
 * the others did not arrive within @timeout_s, or -EIO when MPI failed.
 */
int multi_sync(bool stop, bool more, double timeout_s, bool *any_stop,
	       bool *any_more);

/*
 * Rank 0's @len bytes at @buf to every other rank's @buf (@len the same
 * on every rank).  0, -ETIMEDOUT or -EIO.
 */
int multi_bcast(void *buf, size_t len, double timeout_s);

/*
 * Rank 0 receives each rank's @len bytes at @buf: (*@bufs)[r] and
 * (*@lens)[r], malloc'd, for r < multi_size(); the others get NULL.  0,
 * -ETIMEDOUT, -EIO or -ENOMEM.
 */
int multi_gather(const void *buf, size_t len, double timeout_s,
		 void ***bufs, size_t **lens);

/* Ask the other ranks to stop their jobs now (a failure, an interrupt). */
void multi_alert(void);
/* The first rank that asked this one to stop, or -1. */
int multi_alerted(void);

/*
 * @ended says when the run is being ended from outside (mpirun's
 * SIGTERM): a collective call then returns -EINTR instead of waiting for
 * ranks that may be gone.
 */
void multi_set_ended(bool (*ended)(void));

/* End every rank's process at once (MPI_Abort); never returns. */
void multi_abort(int code) __attribute__((noreturn));

#endif /* FSLOADCTL_MULTI_H */
