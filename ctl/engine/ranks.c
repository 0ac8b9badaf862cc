// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a job's barriers in a multi-client run.
 *
 * Every rank's job holds before each phase; the phase opens when every
 * rank's job is there (one MPI_Iallreduce per phase, which also says
 * whether any rank asks to stop).  A job that fails, or is stopped, has
 * its rank ask the others to stop at once (multi_alert(), polled by each
 * job's tick).  A rank whose job has ended (or never started: no module
 * on its machine, a bad directory) goes on passing the barriers of the
 * others, as a stop if its job failed, until no rank's job is left: the
 * last barrier, which every rank passes once, after its job.  A barrier
 * the others do not reach within --rank-timeout ends every rank's
 * process (MPI_Abort): each job then ends as its owner's socket closes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/kshim.h"
#include <fsload/engine.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "lib/multi.h"
#include "engine/ranks.h"
#include "engine/wait.h"

void rank_sync_init(struct rank_sync *rs, double timeout_s)
{
	multi_set_ended(wait_sigterm_seen);
	memset(rs, 0, sizeof(*rs));
	rs->timeout_s = timeout_s;
	rs->stop_from = -1;
}

/*
 * One barrier, before phase @phase (or after the job: -1): whether any
 * rank asks to stop, and in @any_more whether any rank's job goes on.
 * No return on a failure.
 */
static bool rank_barrier(struct rank_sync *rs, bool stop, int phase,
			 bool *any_more)
{
	bool any_stop = false;
	int err;

	err = multi_sync(stop, phase >= 0, rs->timeout_s, &any_stop,
			 any_more);
	if (err == -EINTR) {
		/* mpirun ends the run (start_ranks() reports what it has) */
		*any_more = false;
		return true;
	}
	if (err) {
		if (phase >= 0)
			errmsg("rank %u: before phase %d: %s: ending every rank",
			       multi_rank(), phase + 1, err == -ETIMEDOUT ?
			       "the other ranks did not arrive within --rank-timeout" :
			       "MPI failed");
		else
			errmsg("rank %u: after its job: %s: ending every rank",
			       multi_rank(), err == -ETIMEDOUT ?
			       "the other ranks' jobs did not end within --rank-timeout" :
			       "MPI failed");
		multi_abort(EXIT_SYSERR);
	}
	rs->passed++;
	return any_stop;
}

bool rank_sync_phase(struct rank_sync *rs, unsigned int phase)
{
	bool more;

	if (!rank_barrier(rs, false, (int)phase, &more))
		return true;
	if (rs->stop_from < 0)
		rs->stop_from = multi_alerted();
	return false;
}

/* What rank 0 tells the others of its job's directory. */
struct rank_join {
	char dir[FSLOAD_JOIN_DIR_MAX];	/* "": rank 0 made none */
	struct fsload_dir_id id;
};

static void rank_join_bcast(struct rank_sync *rs, struct rank_join *j)
{
	int err = multi_bcast(j, sizeof(*j), rs->timeout_s);

	if (err == -EINTR) {
		/* mpirun ends the run: nothing to join */
		j->dir[0] = '\0';
		return;
	}
	if (err) {
		errmsg("rank %u: rank 0's job directory: %s: ending every rank",
		       multi_rank(), err == -ETIMEDOUT ?
		       "not told within --rank-timeout" : "MPI failed");
		multi_abort(EXIT_SYSERR);
	}
}

void rank_sync_join_put(struct rank_sync *rs, const char *name,
			const struct fsload_dir_id *id)
{
	struct rank_join j;

	if (!rs->join || rs->join_sent || multi_rank())
		return;
	rs->join_sent = true;
	memset(&j, 0, sizeof(j));
	if (name) {
		snprintf(j.dir, sizeof(j.dir), "%s", name);
		j.id = *id;
		snprintf(rs->join_dir, sizeof(rs->join_dir), "%s", name);
		rs->join_id = *id;
	}
	rank_join_bcast(rs, &j);
}

int rank_sync_join_get(struct rank_sync *rs)
{
	struct rank_join j;

	memset(&j, 0, sizeof(j));
	if (rs->join_sent)
		return rs->join_dir[0] ? 0 : -ENOENT;
	rs->join_sent = true;
	rank_join_bcast(rs, &j);
	j.dir[sizeof(j.dir) - 1] = '\0';
	if (!j.dir[0]) {
		errmsg("rank %u: rank 0 made no job directory to work in",
		       multi_rank());
		return -ENOENT;
	}
	/* one name in the target directory, as the kernel wants it */
	if (!fsload_one_name(j.dir)) {
		errmsg("rank %u: rank 0's job directory '%s' is not one name",
		       multi_rank(), j.dir);
		return -EINVAL;
	}
	if (j.id.handle_bytes > sizeof(j.id.handle)) {
		errmsg("rank %u: rank 0's job directory's file handle is too long",
		       multi_rank());
		return -EINVAL;
	}
	memcpy(rs->join_dir, j.dir, sizeof(j.dir));
	rs->join_id = j.id;
	return 0;
}

void rank_sync_join_done(struct rank_sync *rs)
{
	if (!rs->join || rs->join_sent)
		return;
	if (multi_rank())
		rank_sync_join_get(rs);
	else
		rank_sync_join_put(rs, NULL, NULL);
}

bool rank_sync_tick(void *arg)
{
	struct rank_sync *rs = arg;
	int from = multi_alerted();

	if (from < 0)
		return false;
	if (rs->stop_from < 0)
		rs->stop_from = from;
	return true;
}

bool rank_sync_end(struct rank_sync *rs, bool failed)
{
	bool more = true, stop = false;

	if (failed)
		multi_alert();
	/* the last barrier's: every rank is there, each with its failure */
	while (more)
		stop = rank_barrier(rs, failed, -1, &more);
	return stop;
}

void rank_sync_next(struct rank_sync *rs)
{
	rs->stop_from = -1;
	rs->join_sent = false;
	memset(rs->join_dir, 0, sizeof(rs->join_dir));
	memset(&rs->join_id, 0, sizeof(rs->join_id));
}
