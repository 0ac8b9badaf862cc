// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the userspace engine's status and results, as the kernel
 * reports them (module/netlink.c): filled into the structures the
 * kernel's are parsed into, so that they print the same way; and the
 * progress line while the job runs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/uengine-int.h"
#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "lib/print.h"
#include "workload/profile.h"
#include "nl/hist.h"
#include "nl/job.h"
#include "nl/names.h"
#include "engine/fsutil.h"
#include "engine/wait.h"

static u64 ujob_ops_done(const struct ujob *job, u64 *bytes)
{
	u64 ops = 0;
	unsigned int i;

	*bytes = 0;
	for (i = 0; i < job->setup.threads; i++) {
		ops += READ_ONCE(job->workers[i].e.ops_done);
		*bytes += READ_ONCE(job->workers[i].e.bytes_done);
	}
	return ops;
}

void uprogress_draw(struct ujob *job, const struct job_req *req,
		    u64 start_ns, struct progress *pr)
{
	struct progress_sample s = { .state = "running" };
	unsigned int i;
	u64 bytes;

	pthread_mutex_lock(&job->lock);
	s.phase = job->cur_phase;
	pthread_mutex_unlock(&job->lock);
	s.nphases = job->nphases;
	s.ops = ujob_ops_done(job, &bytes);
	s.elapsed_s = (mono_ns() - start_ns) / 1e9;
	s.interval_s = req->p->progress_ms / 1e3;
	if (s.phase >= 0) {
		s.name = req->prog->phases[s.phase].name;
		s.limit_s = req->prog->phases[s.phase].duration_ms / 1e3;
		for (i = 0; i < job->setup.threads; i++)
			fsload_engine_items(&job->workers[i].e, &s.items,
					    &s.done);
	}
	progress_show(pr, &s);
}

#define JS_SET(js, attr)	((js)->have |= 1ULL << (attr))

/* The job's settings in its status, as the kernel reports them. */
static void ujob_status_settings(const struct ujob *job,
				 const struct job_req *req,
				 struct job_status *js)
{
	struct fsload_dir_id id;

	if (!dir_fd_id(job->dir_fd, &id)) {
		js->dir_ino = id.ino;
		js->dir_mode = id.mode;
		js->has_dir_btime = id.has_btime;
		js->dir_btime = id.btime_ns;
		js->dir_handle_type = id.handle_type;
		js->dir_handle_bytes = id.handle_bytes;
		memcpy(js->dir_handle, id.handle, id.handle_bytes);
		JS_SET(js, FSLOAD_A_JOB_DIR_INO);
		JS_SET(js, FSLOAD_A_JOB_DIR_MODE);
	}
	js->flags = job->setup.flags;
	JS_SET(js, FSLOAD_A_JOB_FLAGS);
	js->threads = job->setup.threads;
	JS_SET(js, FSLOAD_A_JOB_THREADS);
	if (job->setup.rank) {
		js->rank = job->setup.rank;
		JS_SET(js, FSLOAD_A_JOB_RANK);
	}
	if (job->setup.ranks > 1) {
		js->ranks = job->setup.ranks;
		JS_SET(js, FSLOAD_A_JOB_RANKS);
	}
	js->files = job->setup.files;
	JS_SET(js, FSLOAD_A_JOB_FILES);
	js->files_per_dir = job->setup.files_per_dir;
	JS_SET(js, FSLOAD_A_JOB_FILES_PER_DIR);
	if (job->setup.branch) {
		js->tree_branch = job->setup.branch;
		JS_SET(js, FSLOAD_A_JOB_TREE_BRANCH);
	}
	if (job->setup.first_dir) {
		js->first_dir = job->setup.first_dir;
		JS_SET(js, FSLOAD_A_JOB_FIRST_DIR);
	}
	js->names = job->setup.naming.scheme;
	JS_SET(js, FSLOAD_A_JOB_NAMES);
	if (job->setup.naming.scheme == FSLOAD_NAMES_FSMARK) {
		js->name_bytes = job->setup.naming.bytes;
		JS_SET(js, FSLOAD_A_JOB_NAME_BYTES);
		js->name_random_bytes = job->setup.naming.random;
		JS_SET(js, FSLOAD_A_JOB_NAME_RANDOM_BYTES);
	}
	js->seed = job->setup.seed;
	JS_SET(js, FSLOAD_A_JOB_SEED);
	js->lat_sample = job->setup.lat_sample;
	JS_SET(js, FSLOAD_A_JOB_LAT_SAMPLE);
	snprintf(js->profile, sizeof(js->profile), "%s", req->prog->profile);
	JS_SET(js, FSLOAD_A_JOB_PROFILE);
	js->user_engine = true;
	js->uring = job->uring;
	js->uring_sqpoll = job->uring && job->uring_opts.sqpoll;
	js->uring_batch = job->uring ? job->uring_opts.batch : 0;
	js->busy_ticks = job->busy_ticks;
	js->progress_ms = req->p->progress_ms;
	JS_SET(js, FSLOAD_A_JOB_PROGRESS_MS);
}

/* The job's end as its status, as the kernel reports it. */
static int ujob_status(const struct ujob *job, const struct job_req *req,
		       const char *dir, u64 elapsed_ns, struct job_status *js)
{
	unsigned int i;
	bool complete = true;
	u64 bytes;

	memset(js, 0, sizeof(*js));
	js->dir = strdup(dir);
	js->pids = calloc(job->setup.threads, sizeof(*js->pids));
	if (!js->dir || !js->pids)
		return -ENOMEM;
	JS_SET(js, FSLOAD_A_JOB_DIR);
	ujob_status_settings(job, req, js);
	for (i = 0; i < job->nphases; i++) {
		if (job->res[i].sum.complete != job->setup.threads)
			complete = false;
	}
	js->state = job->err ? FSLOAD_JOB_FAILED : complete ?
		    FSLOAD_JOB_DONE : FSLOAD_JOB_STOPPED;
	JS_SET(js, FSLOAD_A_JOB_STATE);
	if (job->err) {
		js->err = -job->err;
		JS_SET(js, FSLOAD_A_JOB_ERRNO);
		js->error_msg = strdup(job->errmsg);
		if (js->error_msg)
			JS_SET(js, FSLOAD_A_JOB_ERROR_MSG);
	}
	if (job->cur_phase >= 0) {
		js->phase_index = job->cur_phase;
		JS_SET(js, FSLOAD_A_JOB_PHASE_INDEX);
	}
	js->phases = job->nphases;
	JS_SET(js, FSLOAD_A_JOB_PHASES);
	js->elapsed_ns = elapsed_ns;
	JS_SET(js, FSLOAD_A_JOB_ELAPSED_NS);
	js->ops = ujob_ops_done(job, &bytes);
	JS_SET(js, FSLOAD_A_JOB_OPS);
	js->bytes = bytes;
	JS_SET(js, FSLOAD_A_JOB_BYTES);
	for (i = 0; i < job->setup.threads; i++)
		js->pids[i] = job->workers[i].tid;
	js->npids = job->setup.threads;
	JS_SET(js, FSLOAD_A_JOB_WORKER_PID);
	js->cpus = job->sys0.cpus ? job->sys0.cpus :
		   (u32)sysconf(_SC_NPROCESSORS_ONLN);
	JS_SET(js, FSLOAD_A_JOB_CPUS);
	js->pmu = 0;
	JS_SET(js, FSLOAD_A_JOB_PMU);
	if (job->idle_ms) {
		js->idle_ms = job->idle_ms;
		JS_SET(js, FSLOAD_A_JOB_IDLE_MS);
	}
	if (job->idle_ns) {
		js->idle_ns = job->idle_ns;
		js->idle_busy_ns = job->idle_busy_ns;
		JS_SET(js, FSLOAD_A_JOB_IDLE_NS);
		JS_SET(js, FSLOAD_A_JOB_IDLE_BUSY_NS);
	}
	if (job->overhead_ops) {
		js->overhead_ops = job->overhead_ops;
		js->overhead_ns = job->overhead_ns;
		js->op_clock = job->op_clock;
		JS_SET(js, FSLOAD_A_JOB_OVERHEAD_OPS);
		JS_SET(js, FSLOAD_A_JOB_OVERHEAD_NS);
		JS_SET(js, FSLOAD_A_JOB_OP_CLOCK);
	}
	return 0;
}

#define RES_SET(pr, attr)	((pr)->have |= 1ULL << (attr))

/* Op type @t's histogram in phase result @res as buckets. */
static int uhist_buckets(const struct ujob *job, const struct fsload_result *res,
			 unsigned int t, struct opstat *os)
{
	unsigned int slot = job->slots.slot[t];

	if (!slot)
		return 0;
	return opstat_from_hist(os, res->hist +
				(slot - 1) * FSLOAD_HIST_BUCKETS);
}

/*
 * Top thread @t as a result lists it: its name and pid are shown whenever
 * /proc gave the name (the reader is the job's starter, whom the kernel
 * engine deems privy to them: fsload_privy(), module/netlink.c).
 */
static void uthread_cpu(const struct fsload_top *t, struct thread_cpu *tc)
{
	snprintf(tc->name, sizeof(tc->name), "%s", t->comm[0] ? t->comm : "?");
	tc->named = t->comm[0];
	tc->pid = t->pid;
	tc->kernel = t->kthread;
	tc->cpu_ns = t->cpu_ns;
}

/* Phase @p's result, as the kernel reports it. */
static int ujob_result(const struct ujob *job, unsigned int p,
		       struct phase_result *pr)
{
	const struct fsload_result *res = &job->res[p];
	unsigned int t, i, n = 0;
	int err;

	memset(pr, 0, sizeof(*pr));
	pr->index = p;
	RES_SET(pr, FSLOAD_A_RES_PHASE_INDEX);
	snprintf(pr->name, sizeof(pr->name), "%s", job->phases[p].name);
	RES_SET(pr, FSLOAD_A_RES_PHASE_NAME);
	pr->threads = res->sum.threads;
	RES_SET(pr, FSLOAD_A_RES_THREADS);
	pr->complete = res->sum.complete == job->setup.threads;
	RES_SET(pr, FSLOAD_A_RES_COMPLETE);
	pr->stonewalled = !!res->sum.stonewalled;
	RES_SET(pr, FSLOAD_A_RES_STONEWALLED);
	pr->elapsed_ns = fsload_result_elapsed(res);
	RES_SET(pr, FSLOAD_A_RES_ELAPSED_NS);
	pr->start_ns = res->start_ns;
	RES_SET(pr, FSLOAD_A_RES_START_NS);
	pr->op_clock_back_steps = res->sum.clk_back;
	RES_SET(pr, FSLOAD_A_RES_OP_CLOCK_BACK_STEPS);
	/* once a thread ran the phase: the clock its ops were timed with */
	if (res->sum.threads) {
		pr->op_clock = res->sum.clk_tsc == res->sum.threads ?
			       FSLOAD_OP_CLOCK_TSC :
			       FSLOAD_OP_CLOCK_CLOCK_GETTIME;
		RES_SET(pr, FSLOAD_A_RES_OP_CLOCK);
	}
	/* the phase's course, as the kernel reports it */
	for (t = 0; t < FSLOAD_PROGRESS_MARKS && res->sum.progress[t].workers;
	     t++) {
		struct progress_mark *m = &pr->progress[pr->nprogress++];

		m->pct = (t + 1) * 100 / FSLOAD_PROGRESS_MARKS;
		m->workers = res->sum.progress[t].workers;
		m->items = res->sum.progress[t].items;
		m->elapsed_ns = fsload_elapsed(res->start_ns,
					       res->sum.progress[t].end_ns);
		RES_SET(pr, FSLOAD_A_RES_PROGRESS);
	}
	for (t = 1; t <= FSLOAD_OP_MAX; t++) {
		pr->ops += res->sum.op[t].ops;
		pr->errors += res->sum.op[t].errors;
		pr->bytes += res->sum.op[t].bytes;
		n += fsload_opstat_ran(&res->sum.op[t]);
	}
	RES_SET(pr, FSLOAD_A_RES_OPS);
	RES_SET(pr, FSLOAD_A_RES_ERRORS);
	RES_SET(pr, FSLOAD_A_RES_BYTES);
	pr->worker_cpu_ns = res->worker_cpu_ns;
	RES_SET(pr, FSLOAD_A_RES_WORKER_CPU_NS);
	if (res->measured) {
		pr->system_cpu_ns = res->sys_busy_ns;
		RES_SET(pr, FSLOAD_A_RES_SYSTEM_CPU_NS);
		if (res->tail) {
			pr->tail_ns = res->tail_ns;
			pr->tail_cpu_ns = res->tail_busy_ns;
			RES_SET(pr, FSLOAD_A_RES_TAIL_NS);
			RES_SET(pr, FSLOAD_A_RES_TAIL_CPU_NS);
		}
		if (res->ntop) {
			pr->top = calloc(res->ntop, sizeof(*pr->top));
			if (!pr->top)
				return -ENOMEM;
			for (i = 0; i < res->ntop; i++)
				uthread_cpu(&res->top[i], &pr->top[i]);
			pr->ntop = res->ntop;
			RES_SET(pr, FSLOAD_A_RES_THREAD);
		}
	}
	if (!n)
		return 0;
	pr->opstats = calloc(n, sizeof(*pr->opstats));
	if (!pr->opstats)
		return -ENOMEM;
	RES_SET(pr, FSLOAD_A_RES_OPSTAT);
	for (t = 1; t <= FSLOAD_OP_MAX; t++) {
		const struct fsload_opstat *s = &res->sum.op[t];
		struct opstat *os;

		if (!fsload_opstat_ran(s))
			continue;
		os = &pr->opstats[pr->nopstats++];
		os->type = t;
		os->ops = s->ops;
		os->errors = s->errors;
		os->misses = s->misses;
		os->bytes = s->bytes;
		os->sampled = fsload_opstat_timed(s);
		os->lat_sum_ns = s->lat_sum;
		os->lat_min_ns = os->sampled ? s->lat_min : 0;
		os->lat_max_ns = s->lat_max;
		os->have |= 1ULL << FSLOAD_A_OPSTAT_TYPE |
			    1ULL << FSLOAD_A_OPSTAT_OPS |
			    1ULL << FSLOAD_A_OPSTAT_ERRORS |
			    1ULL << FSLOAD_A_OPSTAT_MISSES |
			    1ULL << FSLOAD_A_OPSTAT_BYTES |
			    1ULL << FSLOAD_A_OPSTAT_SAMPLED |
			    1ULL << FSLOAD_A_OPSTAT_LAT_SUM_NS |
			    1ULL << FSLOAD_A_OPSTAT_LAT_MIN_NS |
			    1ULL << FSLOAD_A_OPSTAT_LAT_MAX_NS;
		err = uhist_buckets(job, res, t, os);
		if (err)
			return err;
	}
	return 0;
}

static int ujob_results(const struct ujob *job, struct results *r)
{
	unsigned int p, n = 0;
	int err;

	memset(r, 0, sizeof(*r));
	for (p = 0; p < job->nphases; p++)
		n += job->res[p].started;
	if (!n)
		return 0;
	r->phases = calloc(n, sizeof(*r->phases));
	if (!r->phases)
		return -ENOMEM;
	for (p = 0; p < job->nphases; p++) {
		if (!job->res[p].started)
			continue;
		err = ujob_result(job, p, &r->phases[r->nphases++]);
		if (err)
			return err;
	}
	return 0;
}

/* The ended job's status and results into @run.  0 or EXIT_SYSERR. */
int ujob_report(struct ujob *job, const struct job_req *req,
		const char *resolved, u64 elapsed_ns, struct run *run)
{
	if (ujob_status(job, req, resolved, elapsed_ns, &run->js) ||
	    ujob_results(job, &run->r)) {
		job_status_free(&run->js);
		results_free(&run->r);
		errmsg("out of memory");
		return EXIT_SYSERR;
	}
	run->ok = true;
	if (job->stopped_by_ranks)
		run->stopped_by_us = true;
	run->holds = job->holds;
	run->hold_ns = job->hold_ns;
	run->ret = state_exit_code(run->js.state);
	if (run->stopped_by_us && run->js.state == FSLOAD_JOB_STOPPED)
		run->ret = EXIT_OK;
	if (run->js.state != FSLOAD_JOB_STOPPED)
		run->interrupted = false;
	return 0;
}
