// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the requests about jobs that exist: their status, workers,
 * stop and resume.  (Results and series are dumped beside their
 * decoders, nl/results.c and nl/series.c; JOB_START beside the
 * status decoder, nl/job.c.)
 */
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "nl/job.h"
#include "nl/nl.h"
#include "nl/request.h"

static int list_cb(const struct nlmsghdr *nlh, void *data)
{
	struct job_list *l = data;
	struct job_status *tmp;

	tmp = realloc(l->jobs, (l->n + 1) * sizeof(*tmp));
	if (!tmp) {
		errmsg("out of memory");
		return EXIT_SYSERR;
	}
	l->jobs = tmp;
	memset(&l->jobs[l->n], 0, sizeof(*tmp));
	return job_status_parse(nlh, &l->jobs[l->n++]);
}

int jobs_get(struct nl_ctx *nl, struct job_list *l)
{
	nl_msg_new(nl, FSLOAD_CMD_JOB_GET, true);
	return nl_request(nl, list_cb, l, 0);
}

static int status_cb(const struct nlmsghdr *nlh, void *data)
{
	return job_status_parse(nlh, data);
}

static int workers_cb(const struct nlmsghdr *nlh, void *data)
{
	return job_workers_parse(nlh, data);
}

int job_workers_get(struct nl_ctx *nl, struct job_status *js,
		    unsigned int flags)
{
	free(js->pids);
	free(js->worker_cpus);
	js->pids = js->worker_cpus = NULL;
	js->npids = js->nworker_cpus = 0;
	js->pids_hidden = false;
	nl_msg_new(nl, FSLOAD_CMD_WORKER_GET, true);
	nl_put_u32(nl, FSLOAD_A_JOB_ID, js->id);
	return nl_request(nl, workers_cb, js, flags);
}

int job_get(struct nl_ctx *nl, uint32_t id, struct job_status *js,
	    unsigned int flags)
{
	int ret;

	nl_msg_new(nl, FSLOAD_CMD_JOB_GET, false);
	nl_put_u32(nl, FSLOAD_A_JOB_ID, id);
	ret = nl_request(nl, status_cb, js, flags);
	if (!ret && !JS_HAS(js, FSLOAD_A_JOB_ID) && !(flags & NL_POLL)) {
		/* acked, but the reply was dropped (receive buffer full) */
		errmsg("the kernel's reply was lost (receive buffer overrun)");
		ret = EXIT_SYSERR;
	}
	/* A status to show: its workers too (not in the status). */
	if (!ret && !(flags & NL_POLL))
		ret = job_workers_get(nl, js, flags);
	return ret;
}

int job_stop(struct nl_ctx *nl, uint32_t id, unsigned int flags)
{
	nl_msg_new(nl, FSLOAD_CMD_JOB_STOP, false);
	nl_put_u32(nl, FSLOAD_A_JOB_ID, id);
	return nl_request(nl, NULL, NULL, flags);
}

int job_resume(struct nl_ctx *nl, uint32_t id, uint32_t phase)
{
	nl_msg_new(nl, FSLOAD_CMD_JOB_RESUME, false);
	nl_put_u32(nl, FSLOAD_A_JOB_ID, id);
	nl_put_u32(nl, FSLOAD_A_JOB_HELD, phase);
	return nl_request(nl, NULL, NULL, 0);
}
