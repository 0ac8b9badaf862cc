// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the userspace engine's threads, as the kernel's
 * module/worker.c: the hooks of the job's choreography (engine-job.h,
 * compiled here): the barriers, the holds, how the machine is measured
 * and the phase loop calibrated as a phase opens and closes, the run of
 * a phase by the job's backend (its loop: uloop.h) and the merge of its
 * results.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/uengine-int.h"
#include "lib/cpulist.h"
#include "engine/fsutil.h"
#include "engine/ranks.h"
#include "nl/names.h"

/* Stop the job: the workers end at their next check. */
void ujob_stop(struct ujob *job)
{
	WRITE_ONCE(job->stop, true);
	pthread_mutex_lock(&job->lock);
	pthread_cond_broadcast(&job->cond);
	pthread_mutex_unlock(&job->lock);
}

/* engine-job.h's: record the first failure of the job and stop it. */
static void fsload_fail(struct fsload_worker *w, const char *phase,
			const char *what, int err);

/* The engine-job.h hooks that record a failure, open and close a phase. */

static inline const char *fsload_fail_where(struct fsload_worker *w)
{
	return w->e.name;
}

static inline void fsload_stop(struct fsload_worker *w)
{
	ujob_stop(w->job);
}

static inline const struct fsload_phase *
fsload_job_phase(struct fsload_worker *w, unsigned int p)
{
	return &w->job->phases[p];
}

static inline void fsload_job_lock(struct fsload_worker *w)
{
	pthread_mutex_lock(&w->job->lock);
}

static inline void fsload_job_unlock(struct fsload_worker *w)
{
	pthread_mutex_unlock(&w->job->lock);
}

static inline void *fsload_zalloc(size_t size)
{
	return calloc(1, size);
}

static inline void fsload_free(void *p)
{
	free(p);
}

static inline void fsload_sys_snap_job(struct fsload_worker *w,
				       struct fsload_sys *s)
{
	usys_snap(w->job, s);
}

static inline u32 fsload_idle_ms(struct fsload_worker *w)
{
	return w->job->idle_ms;
}

/* Wait @ms or until the job stops. */
static void fsload_idle_wait(struct fsload_worker *w, u32 ms)
{
	struct ujob *job = w->job;
	struct timespec ts;

	udeadline(&ts, ms);
	pthread_mutex_lock(&job->lock);
	while (!READ_ONCE(job->stop) &&
	       pthread_cond_timedwait(&job->cond, &job->lock, &ts) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&job->lock);
}

/* The op clock when not the TSC: clock_gettime() (fsload_now()). */
#define FSLOAD_OP_CLOCK_NOW	FSLOAD_OP_CLOCK_CLOCK_GETTIME

static u64 fsload_overhead(struct fsload_worker *w, struct fsload_phase *ph)
{
	return w->job->backend->overhead(w, ph);
}

/* A TSC found unusable since leaves the ops' clock (uclock.c). */
static inline void fsload_phase_prepare(struct fsload_worker *w,
					unsigned int p)
{
	(void)w;
	(void)p;
	uengine_clock_check();
}

static inline void fsload_threads_open(struct fsload_worker *w)
{
	struct ujob *job = w->job;

	free(job->threads0);
	job->threads0 = utsnap_take(&job->nthreads0);
}

static unsigned int fsload_threads_close(struct fsload_worker *w,
					 struct fsload_top *top)
{
	struct ujob *job = w->job;
	unsigned int ntop = 0;

	if (job->threads0)
		ntop = utop_threads(job, top);
	free(job->threads0);
	job->threads0 = NULL;
	return ntop;
}

static s64 fsload_phase_sync(struct fsload_worker *w, const char **what)
{
	(void)what;
	return w->job->backend->syncfs(w);
}

/* The kernel's tracepoints; userspace has perf's syscall events. */
static inline void fsload_phase_opened(struct fsload_worker *w,
				       unsigned int p)
{
	(void)w;
	(void)p;
}

static inline void fsload_phase_closed(struct fsload_worker *w,
				       unsigned int p, u64 t1, u64 t2)
{
	(void)w;
	(void)p;
	(void)t1;
	(void)t2;
}

/*
 * Before phase @p, with every other thread waiting: a phase of the
 * program with FSLOAD_PHASE_F_HOLD has the caches dropped first, as
 * fsloadctl does for the kernel's job (run.c), a failure stopping the
 * job; in a multi-client run, the phase then waits for the other ranks'
 * jobs, and so does the end (@p the number of phases) of a job with
 * FSLOAD_JOB_F_HOLD_END.  Returns false when the job is stopping.
 */
static bool fsload_hold(struct fsload_worker *w, unsigned int p)
{
	struct ujob *job = w->job;
	u64 ns = 0;
	int err;

	if (READ_ONCE(job->stop))
		return false;
	/* after the last phase: the job's hold, with FSLOAD_JOB_F_HOLD_END */
	if (p == job->nphases && !(job->setup.flags & FSLOAD_JOB_F_HOLD_END))
		return true;
	if (p < job->nphases &&
	    (job->prog->phases[p].flags & FSLOAD_PHASE_F_HOLD)) {
		err = sync_drop_caches(&ns);
		if (err) {
			w->e.name[0] = '\0';
			fsload_fail(w, job->phases[p].name,
				    "sync; echo 3 > /proc/sys/vm/drop_caches",
				    err);
			return false;
		}
		job->holds++;
		job->hold_ns += ns;
	}
	if (job->sync && !rank_sync_phase(job->sync, p)) {
		job->stopped_by_ranks = true;
		ujob_stop(job);
	}
	return !READ_ONCE(job->stop);
}

static bool fsload_barrier_arrive(struct fsload_worker *w, unsigned int gen)
{
	struct ujob *job = w->job;
	bool last;

	pthread_mutex_lock(&job->lock);
	last = ++job->arrived == job->setup.threads * (gen + 1);
	pthread_mutex_unlock(&job->lock);
	return last;
}

static void fsload_barrier_pass(struct fsload_worker *w, unsigned int gen)
{
	struct ujob *job = w->job;

	pthread_mutex_lock(&job->lock);
	job->barrier_gen = gen + 1;
	pthread_cond_broadcast(&job->cond);
	pthread_mutex_unlock(&job->lock);
}

static bool fsload_barrier_wait(struct fsload_worker *w, unsigned int gen)
{
	struct ujob *job = w->job;
	bool passed;

	pthread_mutex_lock(&job->lock);
	while (job->barrier_gen <= gen && !READ_ONCE(job->stop))
		pthread_cond_wait(&job->cond, &job->lock);
	passed = job->barrier_gen > gen;
	pthread_mutex_unlock(&job->lock);
	return passed;
}

static void ujob_merge(struct fsload_worker *w, unsigned int p,
		       enum fsload_run_end end, u64 end_ns, u64 cpu_ns)
{
	struct ujob *job = w->job;
	struct fsload_result *res = &job->res[p];
	unsigned int i;

	pthread_mutex_lock(&job->lock);
	fsload_phase_sum_add(&res->sum, &w->e, end, end_ns);
	res->worker_cpu_ns += cpu_ns;
	for (i = 0; i < fsload_hist_words(&job->slots); i++)
		res->hist[i] += w->e.hist[i];
	pthread_mutex_unlock(&job->lock);
}

static bool fsload_run_phase(struct fsload_worker *w, unsigned int p)
{
	struct ujob *job = w->job;
	const struct fsload_phase *ph = &job->phases[p];
	const struct ubackend *b = job->backend;
	enum fsload_run_end end;
	u64 end_ns, c0, c1, start_ns;

	pthread_mutex_lock(&job->lock);
	start_ns = job->res[p].start_ns;
	pthread_mutex_unlock(&job->lock);
	if (b->phase_begin)
		b->phase_begin(w, ph);
	c0 = thread_cpu_ns();
	end = b->run(w, ph, p, start_ns, &end_ns);
	c1 = thread_cpu_ns();
	if (b->helpers_cpu_ns)
		c1 += b->helpers_cpu_ns(w);
	ujob_merge(w, p, end, end_ns, c1 - c0);
	if (end == FSLOAD_RUN_FAILED)
		fsload_fail(w, ph->name, op_name(w->e.failed_op->type),
			    w->e.err);
	return end == FSLOAD_RUN_DONE || end == FSLOAD_RUN_STONEWALLED;
}

/* mkdir e->name, a directory of the thread's tree; EEXIST is fine if @ok. */
static int fsload_mkdir_name(struct fsload_worker *w, bool ok)
{
	if (!mkdirat(w->job->dir_fd, w->e.name, 0755) || (errno == EEXIST && ok))
		return 0;
	return neg_errno();
}

/* mkdir the thread's tree root, t<index> (t000 when shared; test-dir.0-0). */
static int fsload_mkdir_root(struct fsload_worker *w)
{
	int err = 0;

	w->e.name[w->e.root_len] = '\0';
	if (mkdirat(w->job->dir_fd, w->e.name, 0755))
		err = neg_errno();
	w->e.name[w->e.root_len] = '/';
	return err;
}

/* The job around the phase loop, shared with the kernel's workers. */
#include <fsload/engine-job.h>

/*
 * The backend's state of the thread (--engine uring: its ring), made by
 * the thread.  False when it cannot: the job has failed.
 */
static bool uworker_init(struct fsload_worker *w)
{
	struct ujob *job = w->job;
	char why[128];
	int err;

	if (!job->backend->thread_init)
		return true;
	err = job->backend->thread_init(w, why, sizeof(why));
	if (!err)
		return true;
	pthread_mutex_lock(&job->lock);
	if (!job->err) {
		job->err = err;
		snprintf(job->errmsg, sizeof(job->errmsg),
			 "thread %u: %s: %s", w->index, job->backend->what,
			 why);
	}
	pthread_mutex_unlock(&job->lock);
	ujob_stop(job);
	return false;
}

static void *uworker_fn(void *data)
{
	struct fsload_worker *w = data;
	struct ujob *job = w->job;

	w->tid = gettid();
	if (uworker_init(w))
		fsload_engine_job(w, &w->e, job->phases, job->nphases, true,
				  job->setup.flags & FSLOAD_JOB_F_SHARED_DIR);
	if (job->backend->thread_exit)
		job->backend->thread_exit(w);
	pthread_mutex_lock(&job->lock);
	job->running--;
	pthread_cond_broadcast(&job->cond);
	pthread_mutex_unlock(&job->lock);
	return NULL;
}

/*
 * Start worker @i's thread, bound to the i-th (mod n) CPU of @cpus
 * (--cpus) from its first instruction, as the kernel binds its workers.
 */
int uworker_start(struct fsload_worker *w, const char *cpus, unsigned int i)
{
	static uint32_t list[FSLOAD_THREADS_MAX];
	pthread_attr_t attr;
	cpu_set_t set;
	int n, err;

	n = cpus ? cpulist_parse(cpus, list, FSLOAD_THREADS_MAX) : 0;
	if (n <= 0)
		return pthread_create(&w->thread, NULL, uworker_fn, w);
	CPU_ZERO(&set);
	CPU_SET(list[i % n], &set);
	err = pthread_attr_init(&attr);
	if (err)
		return err;
	err = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (!err)
		err = pthread_create(&w->thread, &attr, uworker_fn, w);
	pthread_attr_destroy(&attr);
	return err;
}
