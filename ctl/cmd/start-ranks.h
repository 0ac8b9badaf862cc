/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl start, one rank of a multi-client run (fsloadctl-mpi): what
 * its options may be, its job's barriers, and after the job every rank's
 * part gathered to rank 0 (cmd/start.c parses and sequences; the ranks:
 * lib/multi.h, engine/ranks.h, report/ranks.h).
 */
#ifndef FSLOADCTL_START_RANKS_H
#define FSLOADCTL_START_RANKS_H

#include <stdbool.h>

#include "engine/job.h"
#include "report/ranks.h"

struct params;

struct start_ranks {
	bool multi;			/* one rank of several (lib/multi.h) */
	struct rank_sync rsync;		/* its barriers */
	struct rank_report rr;		/* rank 0: every rank's part */
};

/* What of a start command the ranks' checks look at. */
struct start_ranks_opts {
	unsigned int ncounts;		/* --threads counts */
	unsigned int nengines;		/* --engine list */
	bool ages;			/* --age, the age profile */
	bool rank_given;		/* --rank */
};

/*
 * The options of a multi-client run (and --one-dir's refusal without
 * one); on one rank of several, @sr set up and @p made this rank's.  0
 * or EXIT_USAGE.
 */
int start_ranks_check(struct start_ranks *sr, struct params *p,
		      const struct start_ranks_opts *o);
/* A job's request @req as one rank's: its barriers, its tick, its flags. */
void start_ranks_req(struct start_ranks *sr, struct job_req *req);
/*
 * After this rank's job @run (NULL: none ran) or its failure to start
 * one (@ret): the ranks' last barrier, then every rank's part to rank 0,
 * which merges them into @run to report; @where: the directory or device
 * it ran on.  *@done when this rank reports nothing: every rank but 0,
 * and rank 0 without a job; *@job_ret gets @run's failure.  Returns the
 * exit code: rank 0's for the run, 0 on the others.
 */
int start_ranks_end(struct start_ranks *sr, const struct params *p,
		    const char *where, struct run *run, int ret, int *job_ret,
		    bool *done);
void start_ranks_free(struct start_ranks *sr);

#endif /* FSLOADCTL_START_RANKS_H */
