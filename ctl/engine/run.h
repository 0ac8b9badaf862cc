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
#include "workload/profile.h"
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
 * Send the program as FSLOAD_A_JOB_PHASE nests, @phase_flags added to
 * every phase's.
 */
void put_program(struct nl_ctx *nl, const struct program *prog,
		 uint32_t phase_flags);
/* Build the JOB_START request for @req in nl's buffer. */
void put_job_request(struct nl_ctx *nl, const struct job_req *req);
/* Reply callback of JOB_START: parses into a struct job_status. */
struct nlmsghdr;
int job_start_reply_cb(const struct nlmsghdr *nlh, void *data);

#endif /* FSLOADCTL_RUN_H */
