// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl results: a job's status and per-phase results.
 */
#include <libmnl/libmnl.h>

#include "lib/fsloadctl.h"
#include "lib/parse.h"
#include "nl/nl.h"
#include "nl/results.h"
#include "cmd/cmds.h"
#include "report/results.h"

const struct cmd_desc results_cmd = {
	.name = "results",
	.fn = cmd_results,
	.synopsis = "ID",
	.desc = "Print a job's status and per-phase results (partial while it runs).",
};

int cmd_results(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct nl_ctx nl;
	char *pos[1];
	int npos, ret;
	uint32_t id;

	ret = parse_args(&results_cmd, ctx, NULL, NULL, argc, argv, pos, 1, &npos);
	if (ret)
		return ret;
	if (npos != 1)
		return usage_error("a job id is required");
	if (parse_job_id(pos[0], &id))
		return EXIT_USAGE;
	ret = nl_open(&nl, false);
	if (ret)
		return ret;
	ret = show_job_results(&nl, id, NULL, NULL, ctx->json);
	nl_close(&nl);
	return ret;
}
