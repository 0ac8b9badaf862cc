// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl start, one rank of a multi-client run (cmd/start-ranks.h):
 * the options it may have, its job's barriers, and the gathering of
 * every rank's part to rank 0 after the job.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "lib/parse.h"
#include "lib/multi.h"
#include "engine/ranks.h"
#include "engine/run.h"
#include "engine/wait.h"
#include "report/ranks.h"
#include "cmd/start-ranks.h"

/*
 * fsloadctl-mpi, one rank of several: one job a rank, reported by rank 0
 * alone (the others print nothing but their errors).
 */
static int ranks_check(struct start_ranks *sr, struct params *p,
		       const struct start_ranks_opts *o)
{
	if (o->ncounts > 1 || p->iterations > 1 || o->nengines > 1)
		return usage_error("a multi-client run is one job on each rank: no --threads list, --iterations or --engine list");
	if (o->ages)
		return usage_error("a multi-client run does not age (--age, the age profile)");
	if (p->detach)
		return usage_error("--detach: every rank waits for its job in a multi-client run");
	if (p->cpu_profile)
		return usage_error("--cpu-profile: not in a multi-client run");
	if (!(p->rank_timeout > 0))
		return usage_error("--rank-timeout: more than 0 seconds");
	if (o->rank_given)
		return usage_error("--rank: a multi-client run's ranks are MPI's");
	/* mdtest's names carry the rank */
	p->rank = multi_rank();
	sr->multi = true;
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

int start_ranks_end(struct start_ranks *sr, const struct params *p,
		    const char *where, struct run *run, int ret, int *job_ret,
		    bool *done)
{
	bool ok = !ret && run && run->ok && run->js.state == FSLOAD_JOB_DONE;
	void **bufs = NULL;
	size_t *lens = NULL, len;
	unsigned int k;
	char *buf;
	int err;

	/*
	 * mpirun's SIGTERM: a rank died (or was killed) and every rank is
	 * killed in a moment (Open MPI's odls_base_sigkill_timeout, 1 s by
	 * default), no collective call would complete: rank 0 reports its
	 * own part at once, the others' as lost.
	 */
	if (wait_sigterm_seen()) {
		if (multi_rank()) {
			*done = true;
			return EXIT_OK;
		}
		err = rank_pack(run, &sr->rsync, where, &buf, &len);
		if (!err)
			err = rank_lone_part(buf, len, multi_size(), &bufs,
					     &lens);
		if (err)
			free(buf);
		goto report;
	}
	rank_sync_join_done(&sr->rsync);
	rank_sync_end(&sr->rsync, !ok);
	err = rank_pack(run, &sr->rsync, where, &buf, &len);
	if (!err) {
		err = multi_gather(buf, len, p->rank_timeout, &bufs, &lens);
		free(buf);
	}
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
		*done = true;
		return EXIT_OK;
	}
	if (!run || !run->ok) {
		errmsg("rank 0 ran no job: no result of the ranks");
		err = -ENOENT;
	} else {
		sr->rr.library = multi_library();
		sr->rr.timeout_s = p->rank_timeout;
		err = rank_report_build(&sr->rr, bufs, lens, multi_size(), run);
		if (err == -EINVAL)
			errmsg("a rank's part does not match rank 0's (another fsloadctl version, or another program)");
		else if (err)
			errmsg("out of memory");
	}
	for (k = 0; k < multi_size(); k++)
		free(bufs[k]);
	free(bufs);
	free(lens);
	if (err) {
		*done = true;
		return ret ? ret : EXIT_SYSERR;
	}
	if (run->ret && !*job_ret)
		*job_ret = run->ret;
	return ret;
}

void start_ranks_free(struct start_ranks *sr)
{
	rank_report_free(&sr->rr);
}
