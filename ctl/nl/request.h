/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the requests about jobs that exist.
 */
#ifndef FSLOADCTL_REQUEST_H
#define FSLOADCTL_REQUEST_H

#include <stdint.h>

#include "nl/job.h"
#include "nl/nl.h"

/* Every job's status (JOB_GET dump), in the kernel's order. */
struct job_list {
	struct job_status *jobs;
	unsigned int n;
};
int jobs_get(struct nl_ctx *nl, struct job_list *l);

/*
 * Fetch the status of job @id (JOB_GET do) into @js, and its workers
 * (job_workers_get()) unless @flags has NL_POLL.
 */
int job_get(struct nl_ctx *nl, uint32_t id, struct job_status *js,
	    unsigned int flags);
/* Fetch the workers of @js's job (WORKER_GET dump) into @js. */
int job_workers_get(struct nl_ctx *nl, struct job_status *js,
		    unsigned int flags);

/* JOB_STOP for @id. */
int job_stop(struct nl_ctx *nl, uint32_t id, unsigned int flags);
/* End the hold of job @id before @phase (the phase it announced). */
int job_resume(struct nl_ctx *nl, uint32_t id, uint32_t phase);

#endif /* FSLOADCTL_REQUEST_H */
