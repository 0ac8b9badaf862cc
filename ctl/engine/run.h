/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: run one job to its end and collect its status and results
 * (start runs one or several: a thread sweep, iterations, aging first).
 */
#ifndef FSLOADCTL_RUN_H
#define FSLOADCTL_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "nl/job.h"
#include "engine/job.h"

struct nl_ctx;

/*
 * Start the job on @nl (open, subscribed to events), follow it with
 * progress on stderr, and collect its results into @run.  Returns 0 when
 * the job ran (whatever its end: run->ret), else an exit code (the
 * request was refused, the module went away ...).  With req->engine
 * ENGINE_USER or ENGINE_URING, fsloadctl runs it itself (uengine.h); @nl
 * is not used and may be NULL.
 */
int run_job(struct nl_ctx *nl, const struct job_req *req, struct run *run);
void run_free(struct run *run);

/* The directory of a job that ran (malloc'd), or NULL. */
char *run_job_dir(const struct run *run);

/* What a job's status says of its directory (dir-*): what is checked. */
void status_dir_id(const struct job_status *js, struct fsload_dir_id *id);

/*
 * Send @req's JOB_START (nl/job.h) and read the reply, the new job's
 * status, into @js (zeroed).  0, or an exit code after a message.
 */
int run_start_request(struct nl_ctx *nl, const struct job_req *req,
		      struct job_status *js);

/*
 * After a job whose extents fsloadctl counts (the profile's PF_EXTENTS):
 * count them into @run through its own directory, then remove it unless
 * @keep.
 */
void run_count_extents(struct run *run, bool keep);

#endif /* FSLOADCTL_RUN_H */
