// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl results: a job's status and per-phase results.
 */
#include <stddef.h>

#include <libmnl/libmnl.h>

#include "lib/fsloadctl.h"
#include "lib/parse.h"
#include "nl/nl.h"
#include "nl/results.h"
#include "report/results.h"
#include "cmd/cmds.h"

struct results_opts {
	const char *folded;
	const char *flamegraph;
};

#define ROPT(f)	offsetof(struct results_opts, f)

static const struct arg_desc results_args[] = {
	{ "folded", ARG_STR, ROPT(folded), "PREFIX",
	  "a job run with --cpu-profile: write folded stacks to PREFIX-<index>-<phase>-<op>.folded" },
	{ "flamegraph", ARG_STR, ROPT(flamegraph), "PREFIX",
	  "a job run with --cpu-profile: write a flame graph to PREFIX-<index>-<phase>-<op>.svg" },
	{ NULL },
};

const struct cmd_desc results_cmd = {
	.name = "results",
	.fn = cmd_results,
	.synopsis = "ID [OPTIONS]",
	.desc = "Print a job's status and per-phase results (partial while it runs).",
	.args = results_args,
};

int cmd_results(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct results_opts o = { 0 };
	struct nl_ctx nl;
	uint32_t id;
	int ret;

	ret = parse_id_args(&results_cmd, ctx, &o, argc, argv, &id);
	if (ret)
		return ret;
	ret = nl_open(&nl, false);
	if (ret)
		return ret;
	ret = show_job_results(&nl, id, NULL, NULL, ctx->json, o.folded,
			       o.flamegraph);
	nl_close(&nl);
	return ret;
}
