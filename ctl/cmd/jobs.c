// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl status, list, stop, wait and results.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libmnl/libmnl.h>

#include "lib/fsloadctl.h"
#include "cmd/cmds.h"
#include "nl/nl.h"
#include "lib/parse.h"
#include "lib/print.h"
#include "nl/results.h"
#include "nl/job.h"
#include "engine/wait.h"

struct wait_opts {
	bool wait;
	double timeout;
	bool quiet;
};

#define WOPT(field)	offsetof(struct wait_opts, field)

/* list */

const struct cmd_desc list_cmd = {
	.name = "list",
	.fn = cmd_list,
	.desc = "List the jobs: id, state, profile, phase, ops, elapsed time, directory.",
};

struct job_list {
	struct job_status *jobs;
	unsigned int n;
};

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

static int job_cmp(const void *a, const void *b)
{
	const struct job_status *ja = a, *jb = b;

	return (ja->id > jb->id) - (ja->id < jb->id);
}

static int do_list(void)
{
	struct job_list l = { 0 };
	struct nl_ctx nl;
	unsigned int i;
	int ret;

	ret = nl_open(&nl, false);
	if (ret)
		return ret;
	nl_msg_new(&nl, FSLOAD_CMD_JOB_GET, true);
	ret = nl_request(&nl, list_cb, &l, 0);
	/* The workers are not in the status; a job forgotten since has none. */
	for (i = 0; !ret && i < l.n; i++) {
		ret = job_workers_get(&nl, &l.jobs[i], NL_QUIET);
		if (ret == EXIT_KERNEL && nl.err == ENOENT)
			ret = 0;
		else if (ret == EXIT_KERNEL)
			nl_print_error(&nl);
	}
	if (!ret) {
		qsort(l.jobs, l.n, sizeof(*l.jobs), job_cmp);
		print_begin(opt_json);
		print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
		if (l.n)
			print_job_row_titles();
		else
			print_fp("no jobs\n");
		open_json_array("jobs");
		for (i = 0; i < l.n; i++)
			print_job(NULL, &l.jobs[i], NULL, JOB_VIEW_ROW);
		close_json_array();
		print_end();
	}
	for (i = 0; i < l.n; i++)
		job_status_free(&l.jobs[i]);
	free(l.jobs);
	nl_close(&nl);
	return ret;
}

int cmd_list(int argc, char **argv)
{
	char *pos[1];
	int npos, ret;

	ret = parse_args(&list_cmd, NULL, NULL, argc, argv, pos, 0, &npos);
	return ret ? ret : do_list();
}

/* status */

const struct cmd_desc status_cmd = {
	.name = "status",
	.fn = cmd_status,
	.synopsis = "[ID]",
	.desc = "Show one job's status; without ID, list the jobs.",
};

int cmd_status(int argc, char **argv)
{
	struct job_status js = { 0 };
	struct nl_ctx nl;
	char *pos[1];
	int npos, ret;
	uint32_t id;

	ret = parse_args(&status_cmd, NULL, NULL, argc, argv, pos, 1, &npos);
	if (ret)
		return ret;
	if (!npos)
		return do_list();
	if (parse_job_id(pos[0], &id))
		return EXIT_USAGE;
	ret = nl_open(&nl, false);
	if (ret)
		return ret;
	ret = job_get(&nl, id, &js, 0);
	if (!ret) {
		print_begin(opt_json);
		print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
		print_job("job", &js, NULL, JOB_VIEW_DETAIL);
		print_end();
	}
	job_status_free(&js);
	nl_close(&nl);
	return ret;
}

/* wait, stop */

/*
 * Wait for job @id, subscribed before its state is read, and print its
 * results.  With @stop, ask it to stop first.
 */
static int wait_job(uint32_t id, const struct wait_opts *o, bool stop)
{
	struct job_status js = { 0 };
	struct waiter w;
	struct nl_ctx nl;
	int ret;

	ret = nl_open(&nl, true);
	if (ret)
		return ret;
	waiter_init(&w, &nl, !o->quiet && progress_wanted(), NULL);
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
	ret = show_job_results(&nl, id, &w.final, NULL);
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

int cmd_wait(int argc, char **argv)
{
	struct wait_opts o = { .timeout = -1 };
	char *pos[1];
	int npos, ret;
	uint32_t id;

	ret = parse_args(&wait_cmd, &o, NULL, argc, argv, pos, 1, &npos);
	if (ret)
		return ret;
	if (npos != 1)
		return usage_error("a job id is required");
	if (parse_job_id(pos[0], &id))
		return EXIT_USAGE;
	return wait_job(id, &o, false);
}

static const struct arg_desc stop_args[] = {
	{ "wait", ARG_FLAG, WOPT(wait), NULL,
	  "wait for the job to end and print its results" },
	{ "timeout", ARG_SECONDS, WOPT(timeout), "SEC",
	  "with --wait: give up after SEC seconds (exit 6)" },
	{ "quiet", ARG_FLAG, WOPT(quiet), NULL, "no progress line on stderr" },
	{ NULL },
};

const struct cmd_desc stop_cmd = {
	.name = "stop",
	.fn = cmd_stop,
	.synopsis = "ID [--wait]",
	.desc = "Ask a job to stop (it ends STOPPED, results partial).",
	.args = stop_args,
};

int cmd_stop(int argc, char **argv)
{
	struct wait_opts o = { .timeout = -1 };
	struct nl_ctx nl;
	char *pos[1];
	int npos, ret;
	uint32_t id;

	ret = parse_args(&stop_cmd, &o, NULL, argc, argv, pos, 1, &npos);
	if (ret)
		return ret;
	if (npos != 1)
		return usage_error("a job id is required");
	if (parse_job_id(pos[0], &id))
		return EXIT_USAGE;
	if (o.wait)
		return wait_job(id, &o, true);

	ret = nl_open(&nl, false);
	if (ret)
		return ret;
	ret = job_stop(&nl, id, 0);
	if (!ret) {
		print_begin(opt_json);
		print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
		print_uint(PRINT_ANY, "id", "job %" PRIu64 ": stop requested\n",
			   id);
		print_bool(PRINT_JSON, "stop_requested", NULL, true);
		print_end();
	}
	nl_close(&nl);
	return ret;
}

/* results */

const struct cmd_desc results_cmd = {
	.name = "results",
	.fn = cmd_results,
	.synopsis = "ID",
	.desc = "Print a job's status and per-phase results (partial while it runs).",
};

int cmd_results(int argc, char **argv)
{
	struct nl_ctx nl;
	char *pos[1];
	int npos, ret;
	uint32_t id;

	ret = parse_args(&results_cmd, NULL, NULL, argc, argv, pos, 1, &npos);
	if (ret)
		return ret;
	if (npos != 1)
		return usage_error("a job id is required");
	if (parse_job_id(pos[0], &id))
		return EXIT_USAGE;
	ret = nl_open(&nl, false);
	if (ret)
		return ret;
	ret = show_job_results(&nl, id, NULL, NULL);
	nl_close(&nl);
	return ret;
}
