// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl start: build a profile's (or a job file's) program, run the
 * job -- or several: a thread sweep, iterations, aging first -- follow
 * it to its end and print the results.
 *
 * Parameters are layered: built-in defaults, then the profile's defaults
 * (start options, see workload/profile.c) or the job file's [global] section,
 * then the command line, so that every knob of a profile can be
 * overridden.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>

#include "lib/fsloadctl.h"
#include "lib/cpulist.h"
#include "lib/parse.h"
#include "lib/print.h"
#include "lib/msg.h"
#include "lib/multi.h"
#include "nl/nl.h"
#include "nl/results.h"
#include "nl/job.h"
#include "nl/request.h"
#include "workload/jobfile.h"
#include "workload/profile.h"
#include "engine/age.h"
#include "engine/blockdev.h"
#include "engine/fsutil.h"
#include "engine/run.h"
#include "engine/uengine.h"
#include "engine/wait.h"
#include "report/plot.h"
#include "report/profile.h"
#include "report/record.h"
#include "report/engines.h"
#include "report/runs.h"
#include "report/job.h"
#include "report/jobs.h"
#include "cmd/cmds.h"
#include "cmd/start-opts.h"
#include "cmd/start-ranks.h"

static void start_help(FILE *f)
{
	profile_help_long(f);
}

const struct cmd_desc start_cmd = {
	.name = "start",
	.fn = cmd_start,
	.synopsis = "--profile NAME | --job FILE [OPTIONS]",
	.desc = "Start a job, show its progress, wait for it and print the results.",
	.args = start_args,
	.help_extra = start_help,
};

static uint64_t clock_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The profile's defaults, "--files 1 --size 1G", into @p. */
static int apply_defaults(const char *defaults, struct params *p)
{
	char *copy, *argv[32], *tok, *save = NULL;
	int argc = 0, npos, ret;

	copy = strdup(defaults);
	if (!copy)
		return EXIT_SYSERR;
	argv[argc++] = (char *)"start";
	for (tok = strtok_r(copy, " ", &save); tok && argc < 31;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	/* the strings stay: ARG_STR values point into them */
	ret = parse_args(&start_cmd, NULL, p, NULL, argc, argv, NULL, 0,
			 &npos);
	return ret;
}

/*
 * A block job: the kernel engine only, on a block device, which it does
 * not write over a filesystem signature without --force.
 */
static int start_check_block(struct params *p, bool block, bool user,
			     bool age_first, const struct program *job)
{
	bool write = false;
	unsigned int i, j;

	if (!block) {
		if (p->device)
			return usage_error("--device: for the block profile only");
		return 0;
	}
	if (user)
		return usage_error("block: the user engines do not run block jobs (--engine kernel)");
	if (age_first)
		return usage_error("block: --age ages a filesystem, not a device");
	if (!p->device)
		return usage_error("block: --device is required");
	if (!job)
		write = !p->rw || !strcmp(p->rw, "write") ||
			!strcmp(p->rw, "randwrite");
	for (i = 0; job && i < job->nphases; i++)
		for (j = 0; j < job->phases[i].nops; j++)
			if (job->phases[i].ops[j].type == FSLOAD_OP_BIO_WRITE)
				write = true;
	return blockdev_probe(p->device, write, p->force, &p->device_bytes);
}

/* Start one detached job and print its id. */
static int start_detached(struct nl_ctx *nl, const struct job_req *req,
			  bool json)
{
	struct job_status js = { 0 };
	int ret;

	ret = run_start_request(nl, req, &js);
	/* The job runs: its workers are shown if it is still known. */
	if (!ret && json &&
	    job_workers_get(nl, &js, NL_QUIET) == EXIT_KERNEL &&
	    nl->err != ENOENT)
		nl_print_error(nl);
	if (!ret)
		report_job_started(&js, req->x, json);
	job_status_free(&js);
	return ret;
}

/* One start command, from its options to the reports of its jobs. */
struct start {
	struct cmd_ctx *ctx;
	struct params cli, p;
	struct job_desc desc;		/* the engines' part of @p */
	bool seen[ARRAY_SIZE(start_args)];	/* on the command line */
	bool file_given[ARRAY_SIZE(start_args)];	/* in the job file */
	struct given_ctx gc;
	const struct profile *pf;	/* --profile; NULL: --job */
	/* whose summary the report prints: a job file's name may be one */
	const struct profile *report_pf;
	struct program prog, job_prog;
	struct record_info ri;
	uint32_t counts[SWEEP_MAX];
	unsigned int ncounts, nwant, nruns;
	struct run *runs, age_run;
	struct age_report ar;
	struct job_extra x;
	bool is_age, age_first, extents, block;
	double target;			/* --age, percent */
	char *age_dir;
	struct engine_set engines;	/* --engine */
	enum engine job_engine;		/* the one of a job, and of aging */
	struct nl_ctx nl;
	int job_ret;			/* the first job's failure */
	struct start_ranks ranks;	/* a multi-client run's rank */
};

/*
 * -o FILE is --output FILE; --rerun FILE: that file's arguments, then
 * ours (@argc and @argv become those), and the file in @rerun_of.
 */
static int start_expand_args(int *argc, char ***argv, const char **rerun_of)
{
	int i, ret, nargc;
	char **nargv, *arg;

	for (i = 1; i < *argc; i++) {
		arg = (*argv)[i];
		if (!strcmp(arg, "-o"))
			(*argv)[i] = (char *)"--output";
		if (*rerun_of || (strcmp(arg, "--rerun") &&
				  strncmp(arg, "--rerun=", 8)))
			continue;
		*rerun_of = arg[7] == '=' ? arg + 8 :
			    i + 1 < *argc ? (*argv)[i + 1] : NULL;
		if (!*rerun_of)
			return usage_error("--rerun needs a result file");
		ret = record_rerun_args(*rerun_of, *argc, *argv, &nargc,
					&nargv);
		if (ret)
			return ret;
		/* the new arguments from the start: -o in them too */
		*argc = nargc;
		*argv = nargv;
		i = 0;
	}
	return 0;
}

static int unknown_profile(const char *name)
{
	if (name)
		fprintf(stderr, "fsloadctl: start: unknown profile '%s' (one of: ",
			name);
	else
		fprintf(stderr, "fsloadctl: start: --profile (one of: ");
	profile_list(stderr, ", ");
	fprintf(stderr, name ? ")\n" : ") or --job FILE is required\n");
	return EXIT_USAGE;
}

/* The parameters: built-in, the profile's or job file's, the command line. */
static int start_params(struct start *st, int argc, char **argv)
{
	struct params *p = &st->p;
	unsigned int i;
	int npos, ret;

	ret = parse_args(&start_cmd, st->ctx, &st->cli, st->seen, argc, argv,
			 NULL, 0, &npos);
	if (ret)
		return ret;
	params_init(p);
	if (st->cli.job && st->cli.profile)
		return usage_error("--profile and --job exclude each other");
	if (!st->cli.job && !st->cli.profile)
		return unknown_profile(NULL);
	if (st->cli.profile) {
		st->pf = profile_find(st->cli.profile);
		if (!st->pf)
			return unknown_profile(st->cli.profile);
		st->report_pf = st->pf;
		ret = apply_defaults(profile_defaults(st->pf), p);
		if (ret)
			return ret;
		st->is_age = profile_flags(st->pf) & PF_AGE;
		st->extents = profile_flags(st->pf) & PF_EXTENTS;
		st->block = profile_flags(st->pf) & PF_BLOCK;
	} else {
		ret = jobfile_load(st->cli.job, start_args, p, st->file_given,
				   &st->job_prog);
		if (ret)
			return ret;
		st->block = st->job_prog.block;
		st->report_pf = profile_find(st->job_prog.profile);
	}
	start_copy_given(p, &st->cli, st->seen);
	ret = params_naming(p);
	if (ret)
		return ret;
	if (st->cli.job && st->job_prog.ngroups) {
		/* the groups' threads are the job's */
		static char threads[16];
		uint32_t sum = 0;

		if (start_given("threads", &st->gc))
			return usage_error("--threads: the job file's [group] sections set the threads");
		for (i = 0; i < st->job_prog.ngroups; i++)
			sum += st->job_prog.groups[i].threads;
		snprintf(threads, sizeof(threads), "%" PRIu32, sum);
		p->threads = threads;
	}
	if (st->pf)
		profile_fixup(st->pf, p, start_given, &st->gc);
	if (!start_given("seed", &st->gc))
		p->seed = clock_seed();
	return 0;
}

/* Whether one of the engines is the kernel's. */
static bool start_has_kernel(const struct start *st)
{
	unsigned int i;

	for (i = 0; i < st->engines.n; i++) {
		if (st->engines.e[i] == ENGINE_KERNEL)
			return true;
	}
	return false;
}

/* --uring-*: for the uring engine, in their range. */
static int start_check_uring(struct start *st)
{
	unsigned int i;

	for (i = 0; i < st->engines.n; i++) {
		if (st->engines.e[i] == ENGINE_URING)
			break;
	}
	if (i == st->engines.n) {
		if (start_given("uring-sqpoll", &st->gc) ||
		    start_given("uring-batch", &st->gc))
			return usage_error("--uring-sqpoll, --uring-batch: for --engine uring");
		return 0;
	}
	if (st->p.uring_batch < 1 || st->p.uring_batch > URING_BATCH_MAX)
		return usage_error("--uring-batch: 1 to %d", URING_BATCH_MAX);
	return 0;
}

/*
 * The options' ranges (start_ranges[]), and those that depend on the
 * module's parameters or are not integers.
 */
static int start_check_ranges(struct start *st)
{
	const struct params *p = &st->p;
	uint32_t block_max = uengine_block_max();
	uint64_t stall_ms = (uint64_t)(p->stall_sec * 1000);
	struct params chk = *p;

	/* every engine's largest block: one buffer per worker */
	if (p->read_bytes > block_max)
		return usage_error("--read-bytes: %" PRIu64 " is more than %" PRIu32 " bytes, the largest read of one call (the module parameter max_block_bytes; default %d, at most %d)",
				   p->read_bytes, block_max,
				   FSLOAD_BLOCK_DEFAULT_MAX, FSLOAD_BLOCK_MAX);
	if (p->block > block_max)
		return usage_error("--block (--bs): %" PRIu32 " is more than %" PRIu32 " bytes, the largest block (the module parameter max_block_bytes; default %d, at most %d)",
				   p->block, block_max,
				   FSLOAD_BLOCK_DEFAULT_MAX, FSLOAD_BLOCK_MAX);
	if (stall_ms && (stall_ms < FSLOAD_STALL_MS_MIN ||
			 stall_ms > FSLOAD_STALL_MS_MAX))
		return usage_error("--stall-sec: %g is not 0 or %g to %d seconds",
				   p->stall_sec, FSLOAD_STALL_MS_MIN / 1000.0,
				   FSLOAD_STALL_MS_MAX / 1000);
	/* untar, age: no --files is theirs to derive (profile_fixup()) */
	if (!chk.files && !start_given("files", &st->gc) && !start_given("items", &st->gc))
		chk.files = 1;
	return check_arg_ranges(start_args, start_ranges, &chk);
}

static int start_check(struct start *st)
{
	const struct params *p = &st->p;
	struct start_ranks_opts ro;
	bool many, user;
	int ret;

	ret = start_parse_threads(p->threads, st->counts, &st->ncounts);
	if (!ret)
		ret = start_check_ranges(st);
	if (ret)
		return ret;
	if (!p->iterations)
		return usage_error("--iterations must be at least 1");
	many = st->ncounts > 1 || p->iterations > 1;
	if (st->ncounts > 1 && p->iterations > 1)
		return usage_error("--iterations and a --threads list exclude each other");
	if (p->age) {
		ret = start_parse_pct(p->age, &st->target);
		if (ret)
			return ret;
		st->age_first = !st->is_age;
	}
	if (st->is_age && many)
		return usage_error("age: no thread list or iterations");
	if (p->detach && (many || st->age_first || st->is_age || st->extents))
		return usage_error("--detach: only for a single job of a profile without extents or aging");
	ret = start_parse_engines(p->engine, st->engines.e, &st->engines.n);
	if (ret)
		return ret;
	user = st->engines.e[0] != ENGINE_KERNEL || st->engines.n > 1;
	if (user && p->detach)
		return usage_error("--detach: with the kernel engine only");
	if (st->engines.n > 1 && (st->ncounts > 1 || st->is_age))
		return usage_error("--engine %s: one job per engine and iteration (no thread list or age profile)",
				   p->engine);
	start_warn_rotation(&st->engines, p->iterations);
	ret = start_check_uring(st);
	if (ret)
		return ret;
	if (p->cpus) {
		static uint32_t cpus[FSLOAD_THREADS_MAX];

		if (cpulist_parse(p->cpus, cpus, FSLOAD_THREADS_MAX) < 0)
			return usage_error("--cpus: '%s' is not a CPU list (0,2-3)",
					   p->cpus);
	}
	ret = start_check_block(&st->p, st->block, user, st->age_first,
				st->cli.job ? &st->job_prog : NULL);
	if (ret)
		return ret;
	if (st->p.cpu_profile && !start_has_kernel(st))
		return usage_error("--cpu-profile: the kernel engine's workers only");
	if ((st->p.folded || st->p.flamegraph) && !st->p.cpu_profile)
		return usage_error("--folded, --flamegraph: need --cpu-profile");
	/* Aging runs on the first engine; each job of a list in turn. */
	st->job_engine = st->engines.e[0];
	ro.ncounts = st->ncounts;
	ro.nengines = st->engines.n;
	ro.ages = st->is_age || st->age_first;
	ro.rank_given = start_given("rank", &st->gc);
	ro.where = st->block ? st->p.device : st->p.dir;
	ret = start_ranks_check(&st->ranks, &st->p, &ro);
	if (!ret && st->p.progress_name)
		ret = progress_parse(st->p.progress_name, &st->p.progress);
	/* after the ranks': only rank 0 shows progress */
	if (!ret)
		st->p.progress = progress_resolve(st->p.progress,
						  st->ctx->json, st->p.quiet);
	return ret;
}

/* Every JSON document of start is a result file (report/record.c). */
static void start_record(struct start *st, int argc, char **argv,
			 const char *rerun_of)
{
	st->ri.argc = argc;
	st->ri.argv = argv;
	st->ri.args = start_args;
	st->ri.p = &st->p;
	st->ri.prog = &st->prog;
	st->ri.engine = st->p.engine ? st->p.engine : "kernel";
	st->ri.rerun_of = rerun_of;
	record_begin(&st->ri);
}

/* The user engines need neither the module nor netlink. */
static int start_netlink(struct start *st)
{
	int ret;

	if (!start_has_kernel(st))
		return 0;
	ret = nl_open(&st->nl, true);
	if (ret || st->p.detach)
		return ret;
	/* before the job exists: its end cannot be missed */
	ret = nl_subscribe(&st->nl);
	if (!ret)
		wait_signals_install();
	return ret;
}

/* The age profile: fill the filesystem, report that as the job. */
static int start_age_profile(struct start *st)
{
	struct params *p = &st->p;
	int ret;

	ret = run_age(&st->nl, p, st->counts[0], st->target, true, p->keep,
		      st->job_engine, &st->age_run, &st->ar);
	if (ret)
		return ret;
	if (st->ar.run)
		report_plots(&st->age_run, p->plot, p->quiet);
	if (!st->ar.run) {
		/* already there: nothing ran */
		report_age_reached(&st->ar, st->ctx->json);
		return 0;
	}
	memset(&st->prog, 0, sizeof(st->prog));
	profile_build_age(p, st->counts[0], &st->prog);
	st->x.has_size = true;
	st->x.size = p->size;
	st->x.block = p->block;
	st->x.phase_names = st->prog.phase_names;
	st->x.nphases = st->prog.nphases;
	print_set_trailer(record_trailer);
	report_single(&st->age_run, &st->x, st->pf, &st->ar, st->ctx->json);
	ret = st->age_run.ret;
	/* -o: the age profile's result file too */
	if (p->output) {
		int wret = report_write_file(p->output, &st->age_run, 1, 1, 1,
					     &st->engines, &st->x, st->pf,
					     &st->ar);

		if (wret && !ret)
			ret = wret;
	}
	print_set_trailer(NULL);
	return ret;
}

/*
 * --age before the measured job.  Returns 0 when the jobs may run, else
 * the exit code (@done: the aging failed and was reported).
 */
static int start_age_first(struct start *st, bool *done)
{
	int ret;

	ret = run_age(&st->nl, &st->p, st->counts[0], st->target, false, true,
		      st->job_engine, &st->age_run, &st->ar);
	if (ret)
		return ret;
	if (st->ar.run)
		report_plots(&st->age_run, st->p.plot, st->p.quiet);
	if (st->ar.run)
		st->age_dir = run_job_dir(&st->age_run);
	st->ar.kept = st->p.keep;
	if (st->ar.run && !st->ar.reached) {
		/* the aging failed: show why, measure nothing */
		report_single(&st->age_run, NULL, NULL, &st->ar,
			      st->ctx->json);
		*done = true;
		return st->age_run.ret ? st->age_run.ret : EXIT_JOB;
	}
	return 0;
}

/* The program of the jobs with @threads threads, and the request. */
static int start_program(struct start *st, uint32_t threads,
			 struct job_req *req)
{
	const struct params *p = &st->p;
	struct program *prog = &st->prog;
	unsigned int i;
	int ret;

	if (st->pf) {
		ret = profile_build(st->pf, p, threads, prog);
		if (ret)
			return ret;
	} else {
		*prog = st->job_prog;
		for (i = 0; i < prog->nphases; i++) {
			prog->phase_names[i] = prog->phases[i].name;
			/* --time: every timed phase's time */
			if (prog->phases[i].duration_ms && p->time > 0)
				prog->phases[i].duration_ms =
					(uint32_t)(p->time * 1000 + 0.5);
		}
	}
	st->x.has_size = program_writes_size(prog, p->size);
	st->x.size = p->size;
	st->x.block = p->block;
	st->x.fsync = p->fsync || program_fsyncs(prog);
	st->x.phase_names = prog->phase_names;
	st->x.nphases = prog->nphases;
	job_desc_init(&st->desc, p);
	req->p = &st->desc;
	req->prog = prog;
	req->threads = threads;
	req->files = prog->files ? prog->files : p->files;
	req->flags = prog->job_flags |
		     (p->shared_dir ? FSLOAD_JOB_F_SHARED_DIR : 0) |
		     (p->keep || st->extents ? FSLOAD_JOB_F_KEEP : 0) |
		     (p->detach ? FSLOAD_JOB_F_DETACH : 0);
	req->x = &st->x;
	req->engine = st->job_engine;
	start_ranks_req(&st->ranks, req);
	return 0;
}

/*
 * What tells @run's files (plots, folded stacks, flame graphs) from those
 * of the other jobs of this start, in @buf: "" for the one job of a plain
 * start, else "-t<threads>" with a --threads list, "-i<iteration, from
 * 1>" with --iterations, "-<engine>" with an engine list, in this order.
 */
static const char *run_suffix(const struct start *st, const struct run *run,
			      char *buf, size_t size)
{
	int n = 0;

	buf[0] = '\0';
	if (st->ncounts > 1)
		n += snprintf(buf + n, size - n, "-t%u", run->threads);
	if (st->p.iterations > 1)
		n += snprintf(buf + n, size - n, "-i%u", run->iteration + 1);
	if (st->engines.n > 1)
		snprintf(buf + n, size - n, "-%s", engine_name(run->engine));
	return buf;
}

/*
 * Run @req, iteration @it: once, or on each engine of the list in turn,
 * the list rotated by @it (engine_set_at()).  Returns an exit code;
 * @stop when no more jobs are to run.
 */
static int start_one(struct start *st, struct job_req *req, unsigned int it,
		     bool *stop)
{
	char sfx[64], plot[PATH_MAX], fold[PATH_MAX], flame[PATH_MAX];
	unsigned int e;
	struct run *run;
	int ret;

	for (e = 0; e < st->engines.n; e++) {
		run = &st->runs[st->nruns];
		req->engine = engine_set_at(&st->engines, it, e);
		ret = run_job(&st->nl, req, run);
		run->iteration = it;
		run->position = e;
		run_suffix(st, run, sfx, sizeof(sfx));
		if (!ret) {
			st->nruns++;
			report_plots(run, file_prefix(plot, sizeof(plot),
						      st->p.plot, sfx),
				     st->p.quiet);
			/* a rank's: its own files (start_ranks_job()) */
			if (!st->ranks.multi)
				profile_write_files(run->r.profile, &run->r,
					file_prefix(fold, sizeof(fold),
						    st->p.folded, sfx),
					file_prefix(flame, sizeof(flame),
						    st->p.flamegraph, sfx));
			if (st->extents)
				run_count_extents(run, st->p.keep);
			if (run->ret && !st->job_ret)
				st->job_ret = run->ret;
		}
		/* interrupted or failed: no more jobs */
		*stop = ret || run->ret;
		/* each rank's job ends with every rank's (the same *stop) */
		if (st->ranks.multi)
			ret = start_ranks_job(&st->ranks, &st->p,
					      ret ? NULL : run, sfx, ret, stop,
					      &st->job_ret);
		if (*stop)
			return ret;
	}
	return 0;
}

/*
 * Every job: each thread count, each iteration (or one detached job).
 * @no_report: nothing ran that a report would show.
 */
static int start_jobs(struct start *st, bool *no_report)
{
	unsigned int c, it;
	bool stop = false;
	int ret = 0;

	st->nwant = st->ncounts * st->p.iterations;
	/* a list of engines: one job on each, in every iteration */
	st->runs = calloc((size_t)st->engines.n * st->nwant, sizeof(*st->runs));
	if (!st->runs) {
		errmsg("out of memory");
		*no_report = true;
		return EXIT_SYSERR;
	}
	for (c = 0; c < st->ncounts && !stop; c++) {
		for (it = 0; it < st->p.iterations && !stop; it++) {
			struct job_req req = { 0 };

			ret = start_program(st, st->counts[c], &req);
			if (ret) {
				*no_report = true;
				return ret;
			}
			if (st->p.detach) {
				*no_report = true;
				return start_detached(&st->nl, &req,
						      st->ctx->json);
			}
			ret = start_one(st, &req, it, &stop);
		}
	}
	return ret;
}

/*
 * -o's result file, then the reports of the jobs that ran: the file first,
 * for a reader of stdout that has stopped reading (mpirun ending a run)
 * may keep the report from being written to the end.
 */
static int start_report(struct start *st, int ret)
{
	const struct age_report *ar = st->age_first ? &st->ar : NULL;

	print_set_trailer(record_trailer);
	if (st->p.output && st->nruns) {
		int wret = report_write_file(st->p.output, st->runs, st->nruns,
					     st->nwant, st->ncounts,
					     &st->engines, &st->x,
					     st->report_pf, ar);

		if (wret && !ret)
			ret = wret;
	}
	report_jobs(st->runs, st->nruns, st->nwant, st->ncounts, &st->engines,
		    &st->x, st->report_pf, ar, st->ctx->json);
	print_set_trailer(NULL);
	return ret ? ret : st->job_ret;
}

static void start_free(struct start *st)
{
	struct fsload_dir_id id;
	unsigned int i;

	if (st->age_dir && !st->p.keep) {
		status_dir_id(&st->age_run.js, &id);
		tree_remove_job(st->age_dir, &id);
	}
	free(st->age_dir);
	for (i = 0; st->runs && i < st->nruns; i++)
		run_free(&st->runs[i]);
	free(st->runs);
	start_ranks_free(&st->ranks);
	run_free(&st->age_run);
	nl_close(&st->nl);
}

int cmd_start(struct cmd_ctx *ctx, int argc, char **argv)
{
	/* large (programs), and the result file's record points into it */
	static struct start st;
	const char *rerun_of = NULL;
	bool done = false;
	int ret;

	st.ctx = ctx;
	st.gc.seen = st.seen;
	st.gc.file = st.file_given;
	ret = start_expand_args(&argc, &argv, &rerun_of);
	if (!ret)
		ret = start_params(&st, argc, argv);
	if (!ret)
		ret = start_check(&st);
	/* one rank's bad command line ends every rank */
	if (ret && multi_size() > 1)
		multi_abort(ret);
	if (ret)
		return ret;
	start_record(&st, argc, argv, rerun_of);
	ret = start_netlink(&st);
	if (ret) {
		done = true;
		goto ranks;
	}
	if (st.is_age) {
		ret = start_age_profile(&st);
		goto out;
	}
	if (st.age_first) {
		ret = start_age_first(&st, &done);
		if (ret || done)
			goto out;
	}
	ret = start_jobs(&st, &done);
ranks:
	/* a rank that ran no job still ends one with the others */
	if (st.ranks.multi && !st.ranks.jobs) {
		bool stop = true;

		ret = start_ranks_job(&st.ranks, &st.p, NULL, "", ret, &stop,
				      &st.job_ret);
	}
	if (st.ranks.silent)
		done = true;
	if (!done)
		ret = start_report(&st, ret);
out:
	start_free(&st);
	return ret;
}
