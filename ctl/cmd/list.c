// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl list: every job's status, one row each.
 */
#include <errno.h>
#include <stdlib.h>

#include <libmnl/libmnl.h>

#include "lib/fsloadctl.h"
#include "lib/parse.h"
#include "lib/print.h"
#include "nl/job.h"
#include "nl/nl.h"
#include "nl/request.h"
#include "report/job.h"
#include "cmd/cmds.h"

const struct cmd_desc list_cmd = {
	.name = "list",
	.fn = cmd_list,
	.desc = "List the jobs: id, state, profile, phase, ops, elapsed time, directory.",
};

static int job_cmp(const void *a, const void *b)
{
	const struct job_status *ja = a, *jb = b;

	return (ja->id > jb->id) - (ja->id < jb->id);
}

int list_jobs(const struct cmd_ctx *ctx)
{
	struct job_list l = { 0 };
	struct nl_ctx nl;
	unsigned int i;
	int ret;

	ret = nl_open(&nl, false);
	if (ret)
		return ret;
	ret = jobs_get(&nl, &l);
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
		print_begin(ctx->json);
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

int cmd_list(struct cmd_ctx *ctx, int argc, char **argv)
{
	char *pos[1];
	int npos, ret;

	ret = parse_args(&list_cmd, ctx, NULL, NULL, argc, argv, pos, 0, &npos);
	return ret ? ret : list_jobs(ctx);
}
