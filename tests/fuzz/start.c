// SPDX-License-Identifier: GPL-2.0
/*
 * fsload_fuzz start: a detached job of the phases given on the command
 * line, for the fault tests, which tamper with a job's tree during such a
 * pause; prints its id.
 */
#include "fuzz.h"

#include <stdlib.h>

#include "lib/kshim.h"
#include <fsload/engine.h>

/*
 * fsload_fuzz start --dir DIR [--files N] [--files-per-dir N]
 *	[--threads N] [--keep] [--sample-ms N] [--cpu-profile HZ] PHASE...
 * PHASE is OP or OP@MS: OP over the file set, or OP until MS ms have
 * passed (a pause, with null).  The job is detached; prints its id.
 */
int run_start(int argc, char **argv)
{
	struct fixed_phase *phases = calloc(argc, sizeof(*phases));
	char (*names)[FSLOAD_NAME_MAX] = calloc(argc, sizeof(*names));
	struct fixed_job j = {
		.dir = opt.dir, .flags = FSLOAD_JOB_F_DETACH,
		.threads = opt.threads,
		.fpd = opt.sockets,	/* --files-per-dir, see main() */
		.files = opt.count, .phases = phases, .nphases = argc,
		.sample_ms = opt.sample_ms, .profile_hz = opt.profile_hz,
	};
	struct nsock s = { .fd = -1 };
	char msg[160] = "";
	int i, id;

	if (!phases || !names || nsock_open(&s))
		return 1;
	if (opt.keep)
		j.flags |= FSLOAD_JOB_F_KEEP;
	for (i = 0; i < argc; i++) {
		char *at;
		int t;

		snprintf(names[i], sizeof(names[i]), "%s", argv[i]);
		at = strchr(names[i], '@');
		if (at)
			*at = '\0';
		for (t = 1; t <= FSLOAD_OP_MAX; t++)
			if (!strcmp(fsload_op_name(t), names[i]))
				phases[i].op = t;
		if (!phases[i].op) {
			fprintf(stderr, "fsload_fuzz start: unknown op '%s'\n",
				names[i]);
			return 2;
		}
		phases[i].name = argv[i];
		if (at) {
			phases[i].iterations = 1000000000000ULL;
			phases[i].duration_ms = atoi(at + 1);
		}
	}
	id = start_fixed_job(&s, &j, msg, sizeof(msg));
	if (id < 0) {
		fprintf(stderr, "fsload_fuzz start: %s: %s\n", strerror(-id),
			msg);
		return 3;
	}
	printf("%d\n", id);
	free(phases);
	free(names);
	nsock_close(&s);
	return 0;
}
