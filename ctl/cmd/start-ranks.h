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
	bool silent;			/* this rank reports nothing */
	struct rank_sync rsync;		/* its barriers */
	const char *where;		/* the directory or device */
	/* --cpu-profile: this rank's files' prefixes (PREFIX-rank<R>) */
	char *folded, *flamegraph;
	unsigned int jobs;		/* jobs ended (every rank's) */
	struct rank_report **rr;	/* rank 0: each job's ranks' parts */
	unsigned int nrr;
};

/* What of a start command the ranks' checks look at. */
struct start_ranks_opts {
	unsigned int ncounts;		/* --threads counts */
	unsigned int nengines;		/* --engine list */
	bool ages;			/* --age, the age profile */
	bool rank_given;		/* --rank */
	const char *where;		/* the directory or device */
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
 * After each job of this rank, @run (NULL: it did not start; @ret its
 * failure), in lockstep with every rank's: its CPU profile's files (the
 * names carry the rank, then @suffix: what tells the jobs of one start
 * apart), the ranks' last barrier, then every rank's part
 * to rank 0, which merges them into @run, to be reported as any job's.
 * *@stop: in, this rank runs no more jobs; out, no rank does (the same
 * on every rank).  @sr->silent when this rank reports nothing: every
 * rank but 0, and rank 0 without a job to report; *@job_ret gets @run's
 * failure.  Returns the exit code: rank 0's for the run, 0 on the others.
 */
int start_ranks_job(struct start_ranks *sr, const struct params *p,
		    struct run *run, const char *suffix, int ret, bool *stop,
		    int *job_ret);
void start_ranks_free(struct start_ranks *sr);

#endif /* FSLOADCTL_START_RANKS_H */
