// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl stop: ask a job to stop, and with --wait wait for its end.
 */
#include <inttypes.h>

#include <libmnl/libmnl.h>

#include "lib/fsloadctl.h"
#include "lib/parse.h"
#include "lib/print.h"
#include "nl/nl.h"
#include "nl/request.h"
#include "engine/wait.h"
#include "cmd/cmds.h"

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

int cmd_stop(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct wait_opts o = { .timeout = -1 };
	struct nl_ctx nl;
	uint32_t id;
	int ret;

	ret = parse_id_args(&stop_cmd, ctx, &o, argc, argv, &id);
	if (ret)
		return ret;
	if (o.wait)
		return wait_job(ctx, id, &o, true);

	ret = nl_open(&nl, false);
	if (ret)
		return ret;
	ret = job_stop(&nl, id, 0);
	if (!ret) {
		print_begin(ctx->json);
		print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
		print_uint(PRINT_ANY, "id", "job %" PRIu64 ": stop requested\n",
			   id);
		print_bool(PRINT_JSON, "stop_requested", NULL, true);
		print_end();
	}
	nl_close(&nl);
	return ret;
}
