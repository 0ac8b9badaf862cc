// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl version: the tool's version and protocol, and the loaded
 * module's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <libmnl/libmnl.h>

#include "lib/fsloadctl.h"
#include "lib/parse.h"
#include "lib/print.h"
#include "nl/nl.h"
#include "cmd/cmds.h"

const struct cmd_desc version_cmd = {
	.name = "version",
	.fn = cmd_version,
	.desc = "Show fsloadctl's version and the loaded module's protocol version.",
};

int cmd_version(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct nl_ctx nl;
	char *pos[1];
	int npos, ret;
	FILE *f;
	char modver[64] = "";

	ret = parse_args(&version_cmd, ctx, NULL, NULL, argc, argv, pos, 0, &npos);
	if (ret)
		return ret;
	f = fopen("/sys/module/fsload/version", "r");
	if (f) {
		if (fgets(modver, sizeof(modver), f))
			modver[strcspn(modver, "\n")] = '\0';
		fclose(f);
	}
	ret = nl_open(&nl, false);

	print_begin(ctx->json);
	print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
	print_string(PRINT_ANY, "fsloadctl", "fsloadctl %s", FSLOADCTL_VERSION);
	print_uint(PRINT_ANY, "protocol", " (protocol %" PRIu64 ")\n",
		   FSLOAD_FAMILY_VERSION);
	if (!ret) {
		print_uint(PRINT_ANY, "module_protocol",
			   "fsload module: protocol %" PRIu64, nl.family_version);
		print_uint(PRINT_ANY, "family_id", ", family id %" PRIu64,
			   nl.family);
		print_string(modver[0] ? PRINT_ANY : PRINT_JSON,
			     "module_version", ", version %s",
			     modver[0] ? modver : NULL);
		print_fp("\n");
		nl_close(&nl);
	} else {
		print_null(PRINT_JSON, "module_protocol", NULL);
	}
	print_end();
	/* the tool's version is shown either way; the status says the rest */
	return ret;
}
