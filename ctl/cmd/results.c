// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl results: a job's status and per-phase results.
 */
#include <libmnl/libmnl.h>

#include "lib/fsloadctl.h"
#include "lib/parse.h"
#include "nl/nl.h"
#include "nl/results.h"
#include "report/results.h"
#include "cmd/cmds.h"

const struct cmd_desc results_cmd = {
	.name = "results",
	.fn = cmd_results,
	.synopsis = "ID",
	.desc = "Print a job's status and per-phase results (partial while it runs).",
};

int cmd_results(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct nl_ctx nl;
	uint32_t id;
	int ret;

	ret = parse_id_args(&results_cmd, ctx, NULL, argc, argv, &id);
	if (ret)
		return ret;
	ret = nl_open(&nl, false);
	if (ret)
		return ret;
	ret = show_job_results(&nl, id, NULL, NULL, ctx->json);
	nl_close(&nl);
	return ret;
}
