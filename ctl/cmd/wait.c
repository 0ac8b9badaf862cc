// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl wait: wait for a job to end and print its results (also
 * stop --wait's second half).
 */
#include <errno.h>
#include <inttypes.h>

#include <libmnl/libmnl.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "lib/parse.h"
#include "lib/print.h"
#include "nl/job.h"
#include "nl/nl.h"
#include "nl/results.h"
#include "nl/request.h"
#include "engine/wait.h"
#include "report/results.h"
#include "cmd/cmds.h"

int wait_job(const struct cmd_ctx *ctx, uint32_t id, const struct wait_opts *o,
	     bool stop)
{
	struct job_status js = { 0 };
	struct waiter w;
	struct nl_ctx nl;
	int ret;

	ret = nl_open(&nl, true);
	if (ret)
		return ret;
	/* a bar on a terminal; a detached job's waiter is a script's */
	waiter_init(&w, &nl, !o->quiet && progress_wanted() ? PROGRESS_BAR :
		    PROGRESS_NONE, NULL);
	waiter_set_id(&w, id);
	ret = nl_subscribe(&nl);
	if (ret)
		goto out;
	if (stop) {
		ret = job_stop(&nl, id, NL_QUIET);
		/* ended on its own meanwhile: what --wait waits for */
		if (ret == EXIT_KERNEL && nl.err == EALREADY)
			ret = 0;
		else if (ret == EXIT_KERNEL)
			nl_print_error(&nl);
		if (ret)
			goto out;
	}
	ret = job_get(&nl, id, &js, 0);
	if (ret)
		goto out;
	waiter_status(&w, &js);
	ret = waiter_run(&w, o->timeout, false);
	if (ret == EXIT_TIMEOUT)
		errmsg("timed out after %g s: job %" PRIu32 " is still running",
		       o->timeout, id);
	if (ret)
		goto out;
	ret = show_job_results(&nl, id, &w.final, NULL, ctx->json, NULL,
			       NULL);
	/* stop --wait: a job that stopped as asked is a success */
	if (stop && ret == EXIT_JOB && w.final.state == FSLOAD_JOB_STOPPED)
		ret = EXIT_OK;
out:
	job_status_free(&js);
	waiter_fini(&w);
	nl_close(&nl);
	return ret;
}

static const struct arg_desc wait_args[] = {
	{ "timeout", ARG_SECONDS, WOPT(timeout), "SEC",
	  "give up after SEC seconds (exit 6); the job runs on" },
	{ "quiet", ARG_FLAG, WOPT(quiet), NULL, "no progress line on stderr" },
	{ NULL },
};

const struct cmd_desc wait_cmd = {
	.name = "wait",
	.fn = cmd_wait,
	.synopsis = "ID [--timeout SEC]",
	.desc = "Wait for a job to end and print its results.",
	.args = wait_args,
};

int cmd_wait(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct wait_opts o = { .timeout = -1 };
	uint32_t id;
	int ret;

	ret = parse_id_args(&wait_cmd, ctx, &o, argc, argv, &id);
	if (ret)
		return ret;
	return wait_job(ctx, id, &o, false);
}
