// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the userspace engine's job, as the kernel's module/job.c: its
 * setup from the request, its directory, its threads started and waited
 * for (stopped on a signal or the caller's tick, with a progress line),
 * its report, and its removal.  The engine's entry: uengine_run().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/uengine-int.h"
#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "lib/print.h"
#include "workload/profile.h"
#include "nl/job.h"
#include "engine/fsutil.h"
#include "engine/ranks.h"
#include "engine/wait.h"

static volatile sig_atomic_t usignals;

static void uengine_on_signal(int sig)
{
	wait_sigterm_note(sig);
	if (++usignals >= 2) {
		/* second Ctrl-C: die, leaving the job directory */
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

static void ujob_free(struct ujob *job)
{
	unsigned int i;

	if (job->workers) {
		for (i = 0; i < job->setup.threads; i++) {
			free(job->workers[i].buf);
			free(job->workers[i].e.hist);
		}
	}
	free(job->workers);
	if (job->res) {
		for (i = 0; i < job->nphases; i++)
			free(job->res[i].hist);
	}
	free(job->res);
	free(job->phases);
	free(job->threads0);
	if (job->dir_fd >= 0)
		close(job->dir_fd);
	if (job->sync_fd >= 0)
		close(job->sync_fd);
	pthread_mutex_destroy(&job->lock);
	pthread_cond_destroy(&job->cond);
}

/* A thread's I/O buffer: aligned for O_DIRECT, incompressible data. */
static void *ubuf_alloc(u32 bytes)
{
	size_t len = ((size_t)bytes + 4095) & ~(size_t)4095;
	size_t done = 0;
	ssize_t n;
	void *buf;

	if (posix_memalign(&buf, 4096, len))
		return NULL;
	while (done < len) {
		n = getrandom((char *)buf + done, len - done, 0);
		if (n <= 0 && errno != EINTR) {
			free(buf);
			return NULL;
		}
		if (n > 0)
			done += n;
	}
	return buf;
}

static int ujob_alloc(struct ujob *job)
{
	size_t hist = fsload_hist_words(&job->slots);
	unsigned int i;

	job->res = calloc(job->nphases, sizeof(*job->res));
	job->workers = calloc(job->setup.threads, sizeof(*job->workers));
	if (!job->res || !job->workers)
		return -ENOMEM;
	for (i = 0; i < job->nphases; i++) {
		job->res[i].hist = calloc(hist, sizeof(u64));
		if (!job->res[i].hist)
			return -ENOMEM;
	}
	for (i = 0; i < job->setup.threads; i++) {
		struct fsload_worker *w = &job->workers[i];

		w->job = job;
		w->index = i;
		fsload_engine_init(&w->e, &job->setup, &job->slots, i);
		w->e.hist = calloc(hist, sizeof(u64));
		w->buf = ubuf_alloc(job->max_block);
		if (!w->e.hist || !w->buf)
			return -ENOMEM;
	}
	return 0;
}

/* mkdir DIR/fsload-user-<pid>-<n>, a name no other run has taken. */
static int ujob_mkdir(int parent_fd, char *name, size_t len)
{
	static unsigned int seq;
	unsigned int tries;

	for (tries = 0; tries < 1000; tries++) {
		snprintf(name, len, "fsload-user-%d-%u", (int)getpid(), seq++);
		if (!mkdirat(parent_fd, name, 0755))
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* The job of @req, before its directory: its settings, phases and slots. */
static int ujob_setup(struct ujob *job, const struct job_req *req)
{
	const struct job_desc *p = req->p;
	struct fsload_job_shape js;
	unsigned int i;

	job->setup.threads = req->threads;
	job->setup.rank = p->rank;
	job->setup.ranks = job_ranks(req);
	job->setup.ngroups = req->prog->ngroups ? req->prog->ngroups : 1;
	for (i = 0; i < req->prog->ngroups; i++)
		job->setup.group_threads[i] = req->prog->groups[i].threads;
	if (!req->prog->ngroups)
		job->setup.group_threads[0] = req->threads;
	job->setup.files = req->files;
	job->setup.files_per_dir = p->files_per_dir;
	job->setup.branch = p->tree_branch;
	job->setup.first_dir = p->first_dir;
	job->setup.lat_sample = p->lat_sample;
	job->setup.naming.scheme = p->scheme;
	job->setup.naming.bytes = p->name_bytes ?: FSLOAD_FSMARK_NAME_BYTES;
	job->setup.naming.random = p->name_random_bytes ?: FSLOAD_FSMARK_RANDOM_BYTES;
	job->setup.seed = p->seed;
	job->setup.flags = req->flags;
	job->idle_ms = p->idle_ms;
	job->uring = req->engine == ENGINE_URING;
	job->uring_opts.sqpoll = p->uring_sqpoll;
	job->uring_opts.batch = p->uring_batch;
	job->backend = job->uring ? &ubackend_uring : &ubackend_sync;
	/* the scheduler's ns where the kernel has them, its ticks else */
	job->busy_ticks = !usys_read_schedstat(&job->sys0);
	job->prog = req->prog;
	job->sync = req->sync;
	job->nphases = req->prog->nphases;
	job->phases = calloc(job->nphases, sizeof(*job->phases));
	if (!job->phases)
		goto oom;
	ushape(req->prog, req->threads, job->setup.files, req->flags, &js);
	if (uprog_convert(req->prog, &js, job_phase_flags(req),
			  job->phases, &job->max_block))
		return EXIT_USAGE;
	fsload_slots_init(&job->slots, job->phases, job->nphases);
	if (ujob_alloc(job))
		goto oom;
	return 0;
oom:
	errmsg("out of memory");
	return EXIT_SYSERR;
}

/*
 * The job of a rank but 0 of a run in one directory: it works in rank
 * 0's job's directory (the kernel's join_dir), looked up in the target
 * without following a symlink or crossing a mount, and only if it is
 * still the directory rank 0's job made: as the module, by
 * fsload_dir_differs(), for the starter (its euid, which the user
 * engine's files are made with).
 */
static int ujob_join_dir(struct ujob *job, const struct job_req *req,
			 int parent_fd, const char *resolved, struct run *run)
{
	struct rank_sync *rs = req->sync;
	struct fsload_dir_id id;
	enum fsload_dir_diff d;
	struct stat pst, st;

	if (rank_sync_join_get(rs))
		return EXIT_SYSERR;
	if (asprintf(&run->job_dir, "%s/%s", resolved, rs->join_dir) < 0) {
		run->job_dir = NULL;
		errmsg("out of memory");
		return EXIT_SYSERR;
	}
	job->dir_fd = openat(parent_fd, rs->join_dir,
			     O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (job->dir_fd < 0) {
		errsys("rank %" PRIu32 ": rank 0's job directory %s",
		       req->p->rank, run->job_dir);
		return EXIT_SYSERR;
	}
	if (fstat(parent_fd, &pst) || fstat(job->dir_fd, &st)) {
		errsys("%s", run->job_dir);
		return EXIT_SYSERR;
	}
	if (st.st_dev != pst.st_dev) {
		errmsg("rank %" PRIu32 ": %s: a mount point, not rank 0's job directory",
		       req->p->rank, run->job_dir);
		return EXIT_SYSERR;
	}
	if (dir_fd_id(job->dir_fd, &id)) {
		errsys("%s", run->job_dir);
		return EXIT_SYSERR;
	}
	d = fsload_dir_differs(&rs->join_id, &id, geteuid());
	if (d != FSLOAD_DIR_SAME) {
		errmsg("rank %" PRIu32 ": %s: %s", req->p->rank, run->job_dir,
		       dir_diff_msgs[d]);
		return EXIT_SYSERR;
	}
	job->sync_fd = openat(job->dir_fd, ".",
			      O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (job->sync_fd < 0) {
		errsys("%s", run->job_dir);
		return EXIT_SYSERR;
	}
	return 0;
}

/*
 * As the kernel: the target directory @parent_fd (@resolved) must exist;
 * the job's is new.  Makes it, names it in @run->job_dir and opens it.
 * 0, or an exit code with nothing left behind but what out_rm removes.
 */
static int ujob_make_job_dir(struct ujob *job, const struct job_req *req,
			     int parent_fd, const char *resolved,
			     struct run *run)
{
	struct rank_sync *rs = req->sync;
	char name[64];
	int err;

	if (job_joins(req))
		return ujob_join_dir(job, req, parent_fd, resolved, run);
	err = ujob_mkdir(parent_fd, name, sizeof(name));
	if (err) {
		errno = -err;
		errsys("cannot make a job directory in %s", req->p->dir);
		return EXIT_SYSERR;
	}
	if (asprintf(&run->job_dir, "%s/%s", resolved, name) < 0) {
		run->job_dir = NULL;
		unlinkat(parent_fd, name, AT_REMOVEDIR);
		errmsg("out of memory");
		return EXIT_SYSERR;
	}
	job->dir_fd = openat(parent_fd, name,
			     O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	job->sync_fd = openat(parent_fd, name,
			      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (job->dir_fd < 0 || job->sync_fd < 0) {
		errsys("%s", run->job_dir);
		return EXIT_SYSERR;
	}
	if (rs && rs->join) {
		struct fsload_dir_id id;

		if (dir_fd_id(job->dir_fd, &id)) {
			errsys("%s", run->job_dir);
			return EXIT_SYSERR;
		}
		rank_sync_join_put(rs, name, &id);
	}
	return 0;
}

/* The signal handlers the job replaces while it runs. */
struct usig_saved {
	struct sigaction old_int, old_term;
};

/*
 * Start @job's workers, with SIGINT and SIGTERM blocked in them: signals
 * go to this thread, which stops the job.  A worker that cannot be
 * created fails the job as a failed start would.
 */
static void ujob_start_workers(struct ujob *job, const struct job_req *req,
			       struct usig_saved *saved)
{
	struct sigaction sa;
	sigset_t block, old_mask;
	unsigned int i;
	int err;

	usignals = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = uengine_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &saved->old_int);
	sigaction(SIGTERM, &sa, &saved->old_term);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old_mask);
	for (i = 0; i < job->setup.threads; i++) {
		struct fsload_worker *w = &job->workers[i];

		pthread_mutex_lock(&job->lock);
		job->running++;
		pthread_mutex_unlock(&job->lock);
		err = uworker_start(w, req->p->cpus, i);
		if (err) {
			pthread_mutex_lock(&job->lock);
			job->running--;
			/* As a failed start: no thread runs a phase. */
			job->err = -err;
			snprintf(job->errmsg, sizeof(job->errmsg),
				 "thread %u: cannot create it", i);
			pthread_mutex_unlock(&job->lock);
			ujob_stop(job);
			break;
		}
		w->created = true;
	}
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
}

/*
 * Until @job's workers have all returned: stop it on a signal or when
 * @req's tick says so, draw the progress line; then join them and put
 * the signal handlers back.  Returns the time they had all ended.
 */
static u64 ujob_wait(struct ujob *job, const struct job_req *req,
		      struct run *run, u64 start_ns,
		      const struct usig_saved *saved)
{
	const struct job_desc *p = req->p;
	bool progress = (p->progress == PROGRESS_LINE ||
			 p->progress == PROGRESS_BAR) && p->progress_ms;
	unsigned int i, poll_ms = UENGINE_POLL_MS;
	u64 last_draw = 0, last_tick, end_ns;
	struct progress pr;

	progress_init(&pr, progress ? p->progress : PROGRESS_NONE,
		      job->uring ? "uring engine" : "user engine");

	if (req->tick && req->tick_ms)
		poll_ms = min(poll_ms, req->tick_ms);
	if (progress)
		poll_ms = min(poll_ms, p->progress_ms);
	last_tick = mono_ns();
	pthread_mutex_lock(&job->lock);
	while (job->running) {
		struct timespec ts;
		u64 now;

		udeadline(&ts, poll_ms);
		pthread_cond_timedwait(&job->cond, &job->lock, &ts);
		if (!job->running)
			break;
		pthread_mutex_unlock(&job->lock);
		now = mono_ns();
		if (usignals && !READ_ONCE(job->stop))
			ujob_stop(job);
		if (req->tick && !run->stopped_by_us &&
		    now - last_tick >= req->tick_ms * 1000000ULL) {
			last_tick = now;
			if (req->tick(req->tick_arg)) {
				run->stopped_by_us = true;
				ujob_stop(job);
			}
		}
		if (progress && now - last_draw >= p->progress_ms * 1000000ULL) {
			last_draw = now;
			uprogress_draw(job, req, start_ns, &pr);
		}
		pthread_mutex_lock(&job->lock);
	}
	pthread_mutex_unlock(&job->lock);
	for (i = 0; i < job->setup.threads; i++) {
		if (job->workers[i].created)
			pthread_join(job->workers[i].thread, NULL);
	}
	end_ns = mono_ns();
	progress_clear(&pr);
	if (usignals)
		run->interrupted = true;
	sigaction(SIGINT, &saved->old_int, NULL);
	sigaction(SIGTERM, &saved->old_term, NULL);
	return end_ns;
}

int uengine_run(const struct job_req *req, struct run *run)
{
	const struct job_desc *p = req->p;
	struct ujob job = {
		.dir_fd = -1,
		.sync_fd = -1,
		.cur_phase = -1,
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.cond = PTHREAD_COND_INITIALIZER,
	};
	struct usig_saved saved;
	char *resolved = NULL;
	u64 start_ns, end_ns;
	int parent_fd = -1, ret;

	memset(run, 0, sizeof(*run));
	run->threads = req->threads;
	ret = uengine_check(req->prog, req->threads, p->rank, job_ranks(req),
			    req->files,
			    p->files_per_dir, p->tree_branch, p->first_dir,
			    req->flags, p->scheme);
	if (!ret && req->engine == ENGINE_URING) {
		struct uring_opts o = {
			.sqpoll = p->uring_sqpoll,
			.batch = p->uring_batch,
		};

		ret = ubackend_uring_check(&o);
	}
	if (ret)
		return ret;
	ret = ujob_setup(&job, req);
	if (ret)
		goto out;

	resolved = realpath(p->dir, NULL);
	parent_fd = open(p->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (parent_fd < 0 || !resolved) {
		errsys("%s", p->dir);
		ret = EXIT_USAGE;
		goto out;
	}
	uengine_clock_init();
	start_ns = mono_ns();
	ret = ujob_make_job_dir(&job, req, parent_fd, resolved, run);
	if (ret)
		goto out_rm;

	ujob_start_workers(&job, req, &saved);
	if (!p->quiet)
		fprintf(stderr, "fsloadctl: %s engine started (%s, %" PRIu32
			" thread%s, in %s)\n", job.uring ? "uring" : "user",
			req->prog->profile,
			req->threads, req->threads == 1 ? "" : "s", p->dir);
	end_ns = ujob_wait(&job, req, run, start_ns, &saved);
	ret = ujob_report(&job, req, resolved, end_ns - start_ns, run);

out_rm:
	/*
	 * From the directory it holds: never what took its name; rank 0's
	 * job's, which it joined, is rank 0's to remove.
	 */
	if (!(req->flags & FSLOAD_JOB_F_KEEP) && job.dir_fd >= 0 &&
	    !job_joins(req))
		tree_remove_fd(job.dir_fd, run->job_dir);
	if (job.dir_fd >= 0)
		close(job.dir_fd);
	if (job.sync_fd >= 0)
		close(job.sync_fd);
	job.dir_fd = job.sync_fd = -1;
out:
	if (parent_fd >= 0)
		close(parent_fd);
	free(resolved);
	ujob_free(&job);
	return ret;
}
