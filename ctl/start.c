// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl start: build a profile's program, start the job, follow it
 * to its end and print the results.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>

#include "fsloadctl.h"
#include "nl.h"
#include "parse.h"
#include "print.h"
#include "profile.h"
#include "results.h"
#include "cmds.h"
#include "status.h"
#include "wait.h"

struct start_opts {
	const char *profile;
	const char *dir;
	uint32_t threads;
	uint64_t files;
	uint64_t size;
	uint32_t block;
	uint32_t files_per_dir;
	bool fsync;
	bool keep;
	bool detach;
	uint64_t seed;
	uint32_t progress_ms;
	bool quiet;
};

#define OPT(field)	offsetof(struct start_opts, field)

static const struct arg_desc start_args[] = {
	{ "profile", ARG_STR, OPT(profile), "NAME",
	  "workload preset (required): smallfiles, null" },
	{ "dir", ARG_STR, OPT(dir), "DIR",
	  "target directory, resolved by the kernel in this process's context (default .)" },
	{ "threads", ARG_U32, OPT(threads), "N", "worker threads (default 1)" },
	{ "files", ARG_U64, OPT(files), "N",
	  "files per thread (default 1000)" },
	{ "size", ARG_SIZE64, OPT(size), "BYTES",
	  "bytes written per file, K/M/G suffixes (default 4096)" },
	{ "block", ARG_SIZE32, OPT(block), "BYTES",
	  "bytes per read/write call (default 4096)" },
	{ "files-per-dir", ARG_U32, OPT(files_per_dir), "N",
	  "files per subdirectory (default 1000)" },
	{ "fsync", ARG_FLAG, OPT(fsync), NULL, "fsync each file written" },
	{ "keep", ARG_FLAG, OPT(keep), NULL,
	  "leave the job's directory and files in place" },
	{ "detach", ARG_FLAG, OPT(detach), NULL,
	  "print the job id and exit; the job runs on" },
	{ "seed", ARG_U64, OPT(seed), "N", "random seed (default: from the clock)" },
	{ "progress-ms", ARG_U32, OPT(progress_ms), "N",
	  "progress notification interval, 0 for none (default 1000)" },
	{ "quiet", ARG_FLAG, OPT(quiet), NULL,
	  "no progress line or messages on stderr" },
	{ NULL },
};

const struct cmd_desc start_cmd = {
	.name = "start",
	.fn = cmd_start,
	.synopsis = "--profile NAME [OPTIONS]",
	.desc = "Start a job, show its progress, wait for it and print the results.",
	.args = start_args,
};

static int put_program(struct nl_ctx *nl, const struct program *prog)
{
	unsigned int i, j;

	for (i = 0; i < prog->nphases; i++) {
		const struct prog_phase *ph = &prog->phases[i];
		struct nlattr *pn, *on;

		pn = nl_nest_start(nl, FSLOAD_A_JOB_PHASE);
		nl_put_strz(nl, FSLOAD_A_PHASE_NAME, ph->name);
		nl_put_u8(nl, FSLOAD_A_PHASE_ORDER, ph->order);
		if (ph->iterations)
			nl_put_u64(nl, FSLOAD_A_PHASE_ITERATIONS,
				   ph->iterations);
		for (j = 0; j < ph->nops; j++) {
			const struct prog_op *op = &ph->ops[j];

			on = nl_nest_start(nl, FSLOAD_A_PHASE_OP);
			nl_put_u8(nl, FSLOAD_A_OP_TYPE, op->type);
			nl_put_u32(nl, FSLOAD_A_OP_WEIGHT, op->weight);
			if (op->params & OPP_SIZE)
				nl_put_u64(nl, FSLOAD_A_OP_SIZE_BYTES,
					   op->size);
			if (op->params & OPP_BLOCK)
				nl_put_u32(nl, FSLOAD_A_OP_BLOCK_BYTES,
					   op->block);
			if (op->params & OPP_FSYNC)
				nl_put_u32(nl, FSLOAD_A_OP_FLAGS, op->flags);
			nl_nest_end(nl, on);
		}
		nl_nest_end(nl, pn);
	}
	return 0;
}

static int start_reply_cb(const struct nlmsghdr *nlh, void *data)
{
	return job_status_parse(nlh, data);
}

static uint64_t clock_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int cmd_start(int argc, char **argv)
{
	struct start_opts o = {
		.dir = ".",
		.threads = 1,
		.files = 1000,
		.size = 4096,
		.block = 4096,
		.files_per_dir = 1000,
		.progress_ms = 1000,
	};
	bool seen[ARRAY_SIZE(start_args)] = { false };
	struct profile_params pp;
	struct job_status js = { 0 };
	static struct program prog;
	struct job_extra x = { 0 };
	struct waiter w;
	struct nl_ctx nl;
	char *pos[1];
	int npos, ret;
	uint32_t flags = 0;

	ret = parse_args(&start_cmd, &o, seen, argc, argv, pos, 0, &npos);
	if (ret)
		return ret;
	if (!o.profile) {
		fprintf(stderr, "fsloadctl: start: --profile is required (one of: ");
		profile_list(stderr, ", ");
		fprintf(stderr, ")\n");
		return EXIT_USAGE;
	}
	pp.size = o.size;
	pp.block = o.block;
	pp.fsync = o.fsync;
	pp.keep = o.keep;
	if (profile_build(o.profile, &pp, &prog)) {
		fprintf(stderr, "fsloadctl: start: unknown profile '%s' (one of: ",
			o.profile);
		profile_list(stderr, ", ");
		fprintf(stderr, ")\n");
		return EXIT_USAGE;
	}
	if (!arg_seen(&start_cmd, seen, "seed"))
		o.seed = clock_seed();
	if (o.keep)
		flags |= FSLOAD_JOB_F_KEEP;
	if (o.detach)
		flags |= FSLOAD_JOB_F_DETACH;
	x.has_size = program_has_size(&prog);
	x.size = o.size;
	x.block = o.block;
	x.fsync = o.fsync;
	x.phase_names = prog.phase_names;
	x.nphases = prog.nphases;

	ret = nl_open(&nl, true);
	if (ret)
		return ret;
	waiter_init(&w, &nl, !o.quiet && !o.detach && progress_wanted(),
		    &x);
	if (!o.detach) {
		/* before the job exists: its end cannot be missed */
		ret = nl_subscribe(&nl);
		if (ret)
			goto out;
		wait_signals_install();
	}

	nl_msg_new(&nl, FSLOAD_CMD_JOB_START, false);
	nl_put_strz(&nl, FSLOAD_A_JOB_DIR, o.dir);
	nl_put_u32(&nl, FSLOAD_A_JOB_FLAGS, flags);
	nl_put_u32(&nl, FSLOAD_A_JOB_THREADS, o.threads);
	nl_put_u64(&nl, FSLOAD_A_JOB_FILES, o.files);
	nl_put_u32(&nl, FSLOAD_A_JOB_FILES_PER_DIR, o.files_per_dir);
	nl_put_u64(&nl, FSLOAD_A_JOB_SEED, o.seed);
	nl_put_strz(&nl, FSLOAD_A_JOB_PROFILE, prog.profile);
	nl_put_u32(&nl, FSLOAD_A_JOB_PROGRESS_MS, o.progress_ms);
	put_program(&nl, &prog);
	ret = nl_request(&nl, start_reply_cb, &js, 0);
	if (ret)
		goto out;
	if (!JS_HAS(&js, FSLOAD_A_JOB_ID)) {
		errmsg("the kernel's reply carries no job id");
		ret = EXIT_SYSERR;
		goto out;
	}

	if (o.detach) {
		print_begin(opt_json);
		print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
		print_uint(PRINT_ANY, "id", "job %" PRIu64 " started\n",
			   js.id);
		if (opt_json)
			print_job("job", &js, &x, JOB_VIEW_HEADER);
		print_end();
		ret = EXIT_OK;
		goto out;
	}

	if (!o.quiet)
		fprintf(stderr, "fsloadctl: job %" PRIu32 " started (%s in %s)\n",
			js.id, prog.profile, o.dir);
	waiter_set_id(&w, js.id);
	waiter_status(&w, &js);
	ret = waiter_run(&w, -1, true);
	if (ret)
		goto out;
	ret = show_job_results(&nl, w.id, &w.final, &x);
out:
	job_status_free(&js);
	waiter_fini(&w);
	nl_close(&nl);
	return ret;
}
