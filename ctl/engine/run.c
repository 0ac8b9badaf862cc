// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: run one job to its end and collect its results.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>

#include "lib/kshim.h"
#include <fsload/engine.h>

#include "lib/fsloadctl.h"
#include "lib/cpulist.h"
#include "engine/fsutil.h"
#include "nl/nl.h"
#include "lib/print.h"
#include "engine/ranks.h"
#include "engine/run.h"
#include "engine/uengine.h"
#include "engine/wait.h"
#include "lib/msg.h"
#include "lib/clock.h"
#include "nl/names.h"
#include "nl/profile.h"
#include "nl/request.h"
#include "engine/sampler.h"
#include "engine/stall.h"

void status_dir_id(const struct job_status *js,
			  struct fsload_dir_id *id)
{
	memset(id, 0, sizeof(*id));
	id->ino = js->dir_ino;
	id->mode = js->dir_mode;
	id->has_btime = js->has_dir_btime;
	id->btime_ns = js->dir_btime;
	id->handle_type = js->dir_handle_type;
	id->handle_bytes = js->dir_handle_bytes;
	memcpy(id->handle, js->dir_handle, js->dir_handle_bytes);
}

/* @req as its JOB_START request carries it. */
static void run_request(const struct job_req *req, struct job_start *s)
{
	static uint32_t cpus[FSLOAD_THREADS_MAX];
	const struct job_desc *p = req->p;
	int n;

	memset(s, 0, sizeof(*s));
	s->dir = p->dir;
	s->device = p->device;
	s->prog = req->prog;
	s->phase_flags = job_phase_flags(req);
	s->flags = req->flags;
	s->threads = req->threads;
	s->files = req->files;
	s->files_per_dir = p->files_per_dir;
	s->tree_branch = p->tree_branch;
	s->first_dir = p->first_dir;
	s->rank = p->rank;
	s->ranks = job_ranks(req);
	if (job_joins(req)) {
		s->join_dir = req->sync->join_dir;
		s->join_id = &req->sync->join_id;
	}
	s->lat_sample = p->lat_sample;
	s->names = p->scheme;
	s->name_bytes = p->name_bytes;
	s->name_random_bytes = p->name_random_bytes;
	s->seed = p->seed;
	s->progress_ms = p->progress_ms;
	s->idle_ms = p->idle_ms;
	s->sample_ms = p->sample_ms;
	s->stall_ms = (uint32_t)(p->stall_sec * 1000);
	s->cpu_profile_hz = p->cpu_profile;
	s->cpu_profile_stacks = p->cpu_profile_stacks;
	n = p->cpus ? cpulist_parse(p->cpus, cpus, FSLOAD_THREADS_MAX) : 0;
	s->cpus = cpus;
	s->ncpus = n > 0 ? (unsigned int)n : 0;
}

int run_start_request(struct nl_ctx *nl, const struct job_req *req,
		      struct job_status *js)
{
	struct job_start s;
	int ret;

	run_request(req, &s);
	job_start_put(nl, &s);
	ret = nl_request(nl, job_start_reply_cb, js, 0);
	if (!ret && !JS_HAS(js, FSLOAD_A_JOB_ID)) {
		errmsg("the kernel's reply carries no job id");
		ret = EXIT_SYSERR;
	}
	return ret;
}

/* A worker stalled: report it, with its stack; stop the job if asked. */
static void run_on_stall(void *arg, const struct job_status *js)
{
	struct run *run = arg;

	series_stall_report(&run->series, js, run->pids, run->npids, false);
	if (run->stall_stop_wanted)
		run->stall_stop = true;
}

/* What the handler of a held job needs. */
struct held_ctx {
	struct run *run;
	const struct job_req *req;
};

/*
 * The job holds before phase @phase (FSLOAD_PHASE_F_HOLD): if the phase
 * asks for it, sync and drop the caches; in a multi-client run, wait for
 * the other ranks' jobs; then resume it.  If that cannot be done, or the
 * ranks stop, stop it.
 */
static int run_on_held(void *arg, struct nl_ctx *nl, uint32_t id,
		       uint32_t phase)
{
	struct held_ctx *hc = arg;
	struct run *run = hc->run;
	uint64_t ns = 0;
	int err;

	if (phase < hc->req->prog->nphases &&
	    (hc->req->prog->phases[phase].flags & FSLOAD_PHASE_F_HOLD)) {
		err = sync_drop_caches(&ns);
		if (err) {
			errno = -err;
			errsys("job %" PRIu32 ": before phase %" PRIu32
			       ": sync; echo 3 > /proc/sys/vm/drop_caches: stopping the job",
			       id, phase + 1);
			job_stop(nl, id, NL_QUIET);
			return 0;	/* its partial results follow */
		}
		run->holds++;
		run->hold_ns += ns;
		if (!run->quiet)
			fprintf(stderr, "fsloadctl: job %" PRIu32
				": before phase %" PRIu32
				": sync, caches dropped (%.1f ms)\n", id,
				phase + 1, ns / 1e6);
	}
	if (hc->req->sync && !rank_sync_phase(hc->req->sync, phase)) {
		run->stopped_by_us = true;
		job_stop(nl, id, NL_QUIET);
		return 0;
	}
	return job_resume(nl, id, phase);
}

/* How often the time series is read while the job runs. */
#define SERIES_DRAIN_S	1.0

/*
 * Wait for the started job of @w to end: drain its time series, stop it
 * on a stall (--stall-stop) or when @req's tick says so.  0 when it
 * ended, or an exit code.
 */
static int run_wait(struct nl_ctx *nl, const struct job_req *req,
		    struct run *run, struct waiter *w)
{
	const struct job_desc *p = req->p;
	double tick_s = req->tick ? req->tick_ms / 1000.0 : -1, wait_s;
	uint64_t next_tick;
	int ret;

	next_tick = tick_s >= 0 ? now_ns() + (uint64_t)(tick_s * 1e9) : 0;
	for (;;) {
		wait_s = p->sample_ms ? SERIES_DRAIN_S : tick_s;
		if (tick_s >= 0 && (wait_s < 0 || tick_s < wait_s))
			wait_s = tick_s;
		ret = waiter_run(w, wait_s, true);
		if (ret != EXIT_TIMEOUT)
			return ret;
		if (p->sample_ms)
			series_drain(nl, w->id, &run->series);
		if (run->stall_stop && !run->stopped_by_us) {
			run->stopped_by_us = true;
			fprintf(stderr, "fsloadctl: stopping job %" PRIu32
				" (--stall-stop)\n", w->id);
			ret = job_stop(nl, w->id, NL_QUIET);
			if (ret && ret != EXIT_KERNEL)
				return ret;
		}
		if (tick_s < 0 || now_ns() < next_tick)
			continue;
		next_tick = now_ns() + (uint64_t)(tick_s * 1e9);
		if (!run->stopped_by_us && req->tick(req->tick_arg)) {
			run->stopped_by_us = true;
			ret = job_stop(nl, w->id, NL_QUIET);
			/* a job that has just ended cannot be stopped */
			if (ret && ret != EXIT_KERNEL)
				return ret;
			tick_s = -1;
		}
	}
}

/*
 * The ended job's status (or the final one if it is forgotten), results,
 * time series into @run, and the exit code it calls for.
 * 0 or an exit code.
 */
static int run_collect(struct nl_ctx *nl, const struct job_req *req,
		       struct run *run, struct waiter *w)
{
	const struct job_desc *p = req->p;
	int ret;

	ret = job_get(nl, w->id, &run->js, NL_QUIET);
	if (ret == EXIT_KERNEL && nl->err == ENOENT &&
	    JS_HAS(&w->final, FSLOAD_A_JOB_ID)) {
		job_status_move(&run->js, &w->final);
	} else if (ret) {
		if (ret == EXIT_KERNEL)
			nl_print_error(nl);
		return ret;
	}
	ret = results_get(nl, w->id, &run->r);
	if (ret)
		return ret;
	series_dev_stop(&run->series);
	if (p->sample_ms) {
		series_drain(nl, w->id, &run->series);
		run->r.series = &run->series;
		run->r.series_table = p->series_table;
	}
	if (JS_HAS(&run->js, FSLOAD_A_JOB_CPU_PROFILE_HZ)) {
		profile_from_status(&run->profile, &run->js);
		ret = profile_get(nl, w->id, &run->profile);
		if (ret)
			warnmsg("job %" PRIu32 ": no CPU profile", w->id);
		else
			run->r.profile = &run->profile;
	}
	run->ok = true;
	run->ret = state_is_final(run->js.state) ?
		   state_exit_code(run->js.state) : EXIT_OK;
	if (run->js.state == FSLOAD_JOB_STOPPED && !run->stopped_by_us)
		run->interrupted = true;
	/* a stop of ours ends an aging fill (0); --stall-stop's does not */
	if (run->stopped_by_us && !run->stall_stop &&
	    run->js.state == FSLOAD_JOB_STOPPED)
		run->ret = EXIT_OK;
	return 0;
}

int run_job(struct nl_ctx *nl, const struct job_req *req, struct run *run)
{
	const struct job_desc *p = req->p;
	struct job_status js = { 0 };
	struct held_ctx hc = { run, req };
	struct waiter w;
	unsigned int i;
	int ret;

	if (req->engine != ENGINE_KERNEL) {
		ret = uengine_run(req, run);
		run->engine = req->engine;
		return ret;
	}
	memset(run, 0, sizeof(*run));
	run->threads = req->threads;
	/* A run in one directory: the other ranks join rank 0's. */
	if (job_joins(req) && rank_sync_join_get(req->sync))
		return EXIT_SYSERR;
	waiter_init(&w, nl, p->progress, req->x);
	for (i = 0; i < req->prog->nphases && i < FSLOAD_PHASES_MAX; i++)
		w.limit_s[i] = req->prog->phases[i].duration_ms / 1e3;

	ret = run_start_request(nl, req, &js);
	if (ret)
		goto out;
	if (req->sync && req->sync->join) {
		struct fsload_dir_id id;

		status_dir_id(&js, &id);
		rank_sync_join_put(req->sync, js.dir_name, &id);
	}
	/* Its workers' thread ids, for the stacks of stalls (best effort). */
	if (!job_workers_get(nl, &js, NL_QUIET)) {
		run->pids = js.pids;
		run->npids = js.npids;
		js.pids = NULL;
		js.npids = 0;
	}
	if (!p->quiet)
		fprintf(stderr, "fsloadctl: job %" PRIu32 " started (%s, %" PRIu32
			" thread%s, %s %s)\n", js.id, req->prog->profile,
			req->threads, req->threads == 1 ? "" : "s",
			req->prog->block ? "on" : "in",
			req->prog->block ? p->device : p->dir);
	waiter_set_id(&w, js.id);
	waiter_status(&w, &js);
	waiter_refresh(&w);
	w.on_stall = run_on_stall;
	w.stall_arg = run;
	w.on_held = run_on_held;
	w.held_arg = &hc;
	run->quiet = p->quiet;
	run->stall_stop_wanted = p->stall_stop;
	run->series.sample_ms = p->sample_ms;
	/* The device under the directory, or the block job's device. */
	series_dev_start(&run->series, req->prog->block ? p->device : p->dir,
			 p->sample_ms);
	ret = run_wait(nl, req, run, &w);
	if (!ret)
		ret = run_collect(nl, req, run, &w);
out:
	job_status_free(&js);
	waiter_fini(&w);
	return ret;
}

void run_free(struct run *run)
{
	job_status_free(&run->js);
	results_free(&run->r);
	series_free(&run->series);
	profile_free(&run->profile);
	free(run->pids);
	run->pids = NULL;
	run->npids = 0;
	free(run->job_dir);
	run->job_dir = NULL;
	run->ok = false;
}

char *run_job_dir(const struct run *run)
{
	char *s;

	if (run->engine != ENGINE_KERNEL)
		return run->job_dir ? strdup(run->job_dir) : NULL;
	/* the kernel's name, or before it said it, fsload-<id> */
	if (!run->js.dir ||
	    (run->js.dir_name ?
	     asprintf(&s, "%s/%s", run->js.dir, run->js.dir_name) :
	     asprintf(&s, "%s/fsload-%" PRIu32, run->js.dir, run->js.id)) < 0)
		return NULL;
	return s;
}

void run_count_extents(struct run *run, bool keep)
{
	char *dir = run_job_dir(run), fdpath[64];
	struct fsload_dir_id id;
	int fd;

	if (!dir)
		return;
	/* Through the job's own directory, never what took its name. */
	status_dir_id(&run->js, &id);
	fd = job_dir_open(dir, &id);
	if (fd >= 0) {
		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d/.", fd);
		if (!tree_extents(fdpath, &run->ext_files, &run->ext_total))
			run->has_extents = true;
		if (!keep)
			tree_remove_fd(fd, dir);
		close(fd);
	}
	free(dir);
}
