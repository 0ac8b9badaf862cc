// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl start, one rank of a multi-client run (cmd/start-ranks.h):
 * the options it may have, its jobs' barriers, and after each job, in
 * lockstep with every rank's, the gathering of every rank's part to
 * rank 0.
 *
 * Every rank runs the same jobs: one, or one per --iterations and
 * --engine list entry (each thread count of a --threads list).  After
 * each, the ranks pass their last barrier (engine/ranks.c), which also
 * says whether any rank's job failed or was stopped: then no rank runs
 * another.  Rank 0 merges each job's parts into its own run of it, so
 * the iterations' report and summary are over the aggregate (mdtest's
 * -i N: its SUMMARY over each iteration's rate of every rank's ops).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "lib/multi.h"
#include "lib/parse.h"
#include "workload/profile.h"
#include "engine/ranks.h"
#include "engine/run.h"
#include "engine/wait.h"
#include "report/profile.h"
#include "report/ranks.h"
#include "cmd/start-ranks.h"

/* The jobs a rank runs: rank 0's, which every rank's must be. */
struct ranks_jobs {
	uint32_t counts;
	uint32_t iterations;
	uint32_t engines;
};

/*
 * Every rank runs the jobs rank 0 runs, each in lockstep with the
 * others' (an MPMD command line may give ranks other options).
 */
static int ranks_same_jobs(const struct params *p,
			   const struct start_ranks_opts *o)
{
	struct ranks_jobs mine = { o->ncounts, p->iterations, o->nengines };
	struct ranks_jobs r0 = mine;
	int err = multi_bcast(&r0, sizeof(r0), p->rank_timeout);

	if (err) {
		errmsg("rank %u: rank 0's jobs: %s: ending every rank",
		       multi_rank(), err == -ETIMEDOUT ?
		       "not told within --rank-timeout" : "MPI failed");
		multi_abort(EXIT_SYSERR);
	}
	if (r0.counts != mine.counts || r0.iterations != mine.iterations ||
	    r0.engines != mine.engines)
		return usage_error("rank %u: --iterations %u, %u --threads counts, %u engines; rank 0's: %u, %u, %u: every rank runs the same jobs",
				   multi_rank(), mine.iterations, mine.counts,
				   mine.engines, r0.iterations, r0.counts,
				   r0.engines);
	return 0;
}

/*
 * --cpu-profile: each rank's profile is its own machine's, in its own
 * files, named with its rank: PREFIX-rank<R>-<index>-<phase>-<op>.
 */
static int ranks_profile(struct start_ranks *sr, const struct params *p)
{
	if (!p->cpu_profile)
		return 0;
	if (!p->folded && !p->flamegraph)
		return usage_error("--cpu-profile: in a multi-client run each rank writes its own profile: --folded PREFIX or --flamegraph PREFIX (rank R's files: PREFIX-rankR-*)");
	if ((p->folded && asprintf(&sr->folded, "%s-rank%u", p->folded,
				   multi_rank()) < 0) ||
	    (p->flamegraph && asprintf(&sr->flamegraph, "%s-rank%u",
				       p->flamegraph, multi_rank()) < 0)) {
		sr->folded = NULL;
		sr->flamegraph = NULL;
		errmsg("out of memory");
		return EXIT_SYSERR;
	}
	return 0;
}

/*
 * fsloadctl-mpi, one rank of several: its jobs each in lockstep with
 * every rank's, reported by rank 0 alone (the others print nothing but
 * their errors).
 */
static int ranks_check(struct start_ranks *sr, struct params *p,
		       const struct start_ranks_opts *o)
{
	int ret;

	/*
	 * Aging fills a filesystem to a target once: ranks on one shared
	 * filesystem would race each other to it, each measuring the
	 * others' writes, and ranks on several would age each their own.
	 */
	if (o->ages)
		return usage_error("a multi-client run does not age: each rank would fill its filesystem to the target at once (--age, the age profile): age it first with fsloadctl start --profile age");
	if (p->detach)
		return usage_error("--detach: every rank waits for its job in a multi-client run");
	if (!(p->rank_timeout > 0))
		return usage_error("--rank-timeout: more than 0 seconds");
	if (o->rank_given)
		return usage_error("--rank: a multi-client run's ranks are MPI's");
	ret = ranks_profile(sr, p);
	if (!ret)
		ret = ranks_same_jobs(p, o);
	if (ret)
		return ret;
	/* mdtest's names carry the rank */
	p->rank = multi_rank();
	sr->multi = true;
	sr->where = o->where;
	rank_sync_init(&sr->rsync, p->rank_timeout);
	/*
	 * One directory, rank 0's job's, for every rank's job (one tree with
	 * --shared-dir): the others join it, and rank 0's removes it once
	 * every rank's job is past its last phase (its end's hold).
	 */
	if (p->one_dir || p->shared_dir) {
		sr->rsync.join = true;
		p->ranks = multi_size();
	}
	if (multi_rank())
		p->quiet = true;
	return 0;
}

int start_ranks_check(struct start_ranks *sr, struct params *p,
		      const struct start_ranks_opts *o)
{
	if (multi_size() <= 1 && p->one_dir)
		return usage_error("--one-dir: in a multi-client run only (mpirun fsloadctl-mpi)");
	return multi_size() > 1 ? ranks_check(sr, p, o) : 0;
}

void start_ranks_req(struct start_ranks *sr, struct job_req *req)
{
	if (!sr->multi)
		return;
	if (sr->rsync.join)
		req->flags |= FSLOAD_JOB_F_HOLD_END;
	req->sync = &sr->rsync;
	req->tick = rank_sync_tick;
	req->tick_arg = &sr->rsync;
	req->tick_ms = RANK_TICK_MS;
}

/*
 * Rank 0: this job's parts @bufs into a report of its own, merged into
 * @run.  0, or -ENOENT when rank 0 ran no job, -EINVAL, -ENOMEM.
 */
static int ranks_build(struct start_ranks *sr, const struct params *p,
		       struct run *run, void **bufs, const size_t *lens)
{
	struct rank_report **rrs, *rr;
	int err;

	if (!run || !run->ok) {
		errmsg("rank 0 ran no job: no result of the ranks");
		return -ENOENT;
	}
	rrs = realloc(sr->rr, (sr->nrr + 1) * sizeof(*rrs));
	if (!rrs)
		return -ENOMEM;
	sr->rr = rrs;
	rr = calloc(1, sizeof(*rr));
	if (!rr)
		return -ENOMEM;
	rrs[sr->nrr++] = rr;
	rr->library = multi_library();
	rr->timeout_s = p->rank_timeout;
	err = rank_report_build(rr, bufs, lens, multi_size(), run);
	if (err == -EINVAL)
		errmsg("a rank's part does not match rank 0's (another fsloadctl version, or another program)");
	return err;
}

int start_ranks_job(struct start_ranks *sr, const struct params *p,
		    struct run *run, const char *suffix, int ret, bool *stop,
		    int *job_ret)
{
	char fold[PATH_MAX], flame[PATH_MAX];
	const char *folded = file_prefix(fold, sizeof(fold), sr->folded,
					 suffix);
	const char *flamegraph = file_prefix(flame, sizeof(flame),
					     sr->flamegraph, suffix);
	bool ok = !ret && !*stop && run && run->ok &&
		  run->js.state == FSLOAD_JOB_DONE;
	void **bufs = NULL;
	size_t *lens = NULL, len;
	unsigned int k;
	char *buf;
	int err;

	sr->jobs++;
	if (run && run->ok)
		profile_write_files(run->r.profile, &run->r, folded,
				    flamegraph);
	/*
	 * mpirun's SIGTERM: a rank died (or was killed) and every rank is
	 * killed in a moment (Open MPI's odls_base_sigkill_timeout, 1 s by
	 * default), no collective call would complete: rank 0 reports its
	 * own part at once, the others' as lost.
	 */
	if (wait_sigterm_seen()) {
		*stop = true;
		if (multi_rank()) {
			sr->silent = true;
			return EXIT_OK;
		}
		err = rank_pack(run, &sr->rsync, sr->where, folded,
				flamegraph, &buf, &len);
		if (!err)
			err = rank_lone_part(buf, len, multi_size(), &bufs,
					     &lens);
		if (err)
			free(buf);
		goto report;
	}
	rank_sync_join_done(&sr->rsync);
	*stop = rank_sync_end(&sr->rsync, !ok);
	err = rank_pack(run, &sr->rsync, sr->where, folded, flamegraph,
			&buf, &len);
	if (!err) {
		err = multi_gather(buf, len, p->rank_timeout, &bufs, &lens);
		free(buf);
	}
	rank_sync_next(&sr->rsync);
report:
	if (err) {
		errmsg("rank %u: gathering the ranks' results: %s: ending every rank",
		       multi_rank(), strerror(-err));
		multi_abort(EXIT_SYSERR);
	}
	/*
	 * Rank 0's result says how every rank's job ended, and its exit
	 * status is the run's: mpirun ends every rank as soon as one
	 * exits with another status than 0, rank 0 still writing.
	 */
	if (multi_rank()) {
		sr->silent = true;
		return EXIT_OK;
	}
	err = ranks_build(sr, p, run, bufs, lens);
	if (err == -ENOMEM)
		errmsg("out of memory");
	for (k = 0; k < multi_size(); k++)
		free(bufs[k]);
	free(bufs);
	free(lens);
	if (err) {
		*stop = true;
		/* an earlier job's report still stands */
		if (err != -ENOENT || sr->jobs == 1)
			sr->silent = true;
		return ret ? ret : EXIT_SYSERR;
	}
	if (run->ret && !*job_ret)
		*job_ret = run->ret;
	return ret;
}

void start_ranks_free(struct start_ranks *sr)
{
	unsigned int k;

	for (k = 0; k < sr->nrr; k++) {
		rank_report_free(sr->rr[k]);
		free(sr->rr[k]);
	}
	free(sr->rr);
	free(sr->folded);
	free(sr->flamegraph);
}
