// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl status: one job's status in detail, or the list of jobs.
 */
#include <libmnl/libmnl.h>

#include "lib/fsloadctl.h"
#include "lib/parse.h"
#include "lib/print.h"
#include "nl/job.h"
#include "nl/nl.h"
#include "nl/results.h"
#include "nl/request.h"
#include "report/job.h"
#include "cmd/cmds.h"

const struct cmd_desc status_cmd = {
	.name = "status",
	.fn = cmd_status,
	.synopsis = "[ID]",
	.desc = "Show one job's status; without ID, list the jobs.",
};

int cmd_status(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct job_status js = { 0 };
	struct nl_ctx nl;
	char *pos[1];
	int npos, ret;
	uint32_t id;

	ret = parse_args(&status_cmd, ctx, NULL, NULL, argc, argv, pos, 1, &npos);
	if (ret)
		return ret;
	if (!npos)
		return list_jobs(ctx);
	if (parse_job_id(pos[0], &id))
		return EXIT_USAGE;
	ret = nl_open(&nl, false);
	if (ret)
		return ret;
	ret = job_get(&nl, id, &js, 0);
	if (!ret) {
		print_begin(ctx->json);
		print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
		print_job("job", &js, NULL, JOB_VIEW_DETAIL);
		print_end();
	}
	job_status_free(&js);
	nl_close(&nl);
	return ret;
}
