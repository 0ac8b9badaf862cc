// SPDX-License-Identifier: GPL-2.0
/*
 * fsload: job lifecycle.
 *
 * A job is published in fsload_jobs (an IDR) once its workers exist.  It
 * holds one reference for the IDR and one for as long as it runs.  When
 * the last worker finishes, the reaper (a work item, never a netlink
 * handler) stops and releases the workers, removes the job directory,
 * announces the end and keeps the job's results; the oldest finished jobs
 * beyond max_finished are forgotten.  Stopping is asynchronous: a request
 * only marks the job, so no netlink handler ever waits for a worker that
 * may be sleeping in the filesystem.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/idr.h>
#include <linux/kthread.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/stat.h>
#include <linux/random.h>
#include <linux/timekeeping.h>
#include <linux/netlink.h>
#include "fsload.h"
#include "compat.h"

/*
 * Protects fsload_jobs, fsload_done_list (and each job's done_node) and
 * the counters below (the job serial too).
 */
DEFINE_MUTEX(fsload_mutex);
static DEFINE_IDR(fsload_jobs);
static LIST_HEAD(fsload_done_list);	/* finished jobs, oldest first */
static unsigned int fsload_nr_running;	/* started, not reaped; READ_ONCE */
static unsigned int fsload_nr_done;	/* entries of fsload_done_list */
static u64 fsload_serial;		/* the last job's serial */

static DECLARE_WAIT_QUEUE_HEAD(fsload_reaped_wq);
struct workqueue_struct *fsload_wq;
static bool fsload_unloading;		/* WRITE_ONCE; set at module exit */

/**
 * fsload_job_alloc() - allocate an empty job holding one reference
 *
 * Context: process context.
 * Return: the job or NULL.
 */
struct fsload_job *fsload_job_alloc(void)
{
	struct fsload_job *job = kzalloc(sizeof(*job), GFP_KERNEL);

	if (!job)
		return NULL;
	refcount_set(&job->ref, 1);
	INIT_LIST_HEAD(&job->done_node);
	init_waitqueue_head(&job->wq);
	spin_lock_init(&job->lock);
	mutex_init(&job->hist_lock);
	job->cur_phase = -1;
	return job;
}

static void fsload_worker_free_buf(struct fsload_worker *w)
{
	unsigned int i;

	for (i = 0; i < w->npages; i++)
		__free_page(w->pages[i]);
	kvfree(w->pages);
	kvfree(w->bvec);
	w->pages = NULL;
	w->bvec = NULL;
	w->npages = 0;
}

/*
 * The I/O buffer is pages described by a bio_vec array: the same buffer
 * serves buffered and O_DIRECT I/O through bvec iterators.
 */
static int fsload_worker_alloc_buf(struct fsload_worker *w, u32 bytes)
{
	unsigned int n = DIV_ROUND_UP(bytes, PAGE_SIZE), i;

	w->pages = kvcalloc(n, sizeof(*w->pages), GFP_KERNEL);
	w->bvec = kvcalloc(n, sizeof(*w->bvec), GFP_KERNEL);
	if (!w->pages || !w->bvec)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		w->pages[i] = alloc_page(GFP_KERNEL);
		if (!w->pages[i])
			return -ENOMEM;
		w->npages++;
		/* Data that no filesystem can compress or dedupe away. */
		get_random_bytes(page_address(w->pages[i]), PAGE_SIZE);
		w->bvec[i].bv_page = w->pages[i];
		w->bvec[i].bv_len = PAGE_SIZE;
		w->bvec[i].bv_offset = 0;
	}
	return 0;
}

static void fsload_job_free(struct fsload_job *job)
{
	unsigned int i;

	if (job->workers) {
		for (i = 0; i < job->prog.setup.threads; i++) {
			fsload_worker_free_buf(&job->workers[i]);
			kvfree(job->workers[i].e.hist);
			kfree(job->workers[i].bios);
		}
	}
	fsload_profile_free(job);
	kfree(job->workers);
	if (job->res) {
		for (i = 0; i < job->prog.nphases; i++)
			kvfree(job->res[i].hist);
	}
	kfree(job->res);
	kvfree(job->ring);
	kvfree(job->ring_hist);
	fsload_threads_free(&job->threads0);
	kfree(job->prog.phases);
	kfree(job->prog.cpus);
	kfree(job->prog.join_dir);
	kfree(job->dir_str);
	fsload_bdev_close(&job->bdev);
	path_put(&job->dir);
	path_put(&job->parent);
	if (job->cred)
		put_cred(job->cred);
	kfree(job);
}

/**
 * fsload_job_put() - drop a reference to @job
 * @job: the job, or NULL
 *
 * Context: process context.
 */
void fsload_job_put(struct fsload_job *job)
{
	if (job && refcount_dec_and_test(&job->ref))
		fsload_job_free(job);
}

/**
 * fsload_job_get() - find job @id and take a reference
 * @id: job id
 *
 * Context: process context; takes fsload_mutex.
 * Return: the job or NULL.
 */
struct fsload_job *fsload_job_get(u32 id)
{
	struct fsload_job *job;

	mutex_lock(&fsload_mutex);
	job = idr_find(&fsload_jobs, id);
	if (job)
		refcount_inc(&job->ref);
	mutex_unlock(&fsload_mutex);
	return job;
}

/**
 * fsload_job_get_next() - the job with the lowest id >= *@id, referenced
 * @id: in: where to start; out: the id found
 *
 * Context: process context; takes fsload_mutex.
 * Return: the job or NULL when there is none.
 */
struct fsload_job *fsload_job_get_next(u32 *id)
{
	struct fsload_job *job;
	int next = *id;

	mutex_lock(&fsload_mutex);
	/* Skips the NULL entries of jobs still being started. */
	job = idr_get_next(&fsload_jobs, &next);
	if (job) {
		refcount_inc(&job->ref);
		*id = next;
	}
	mutex_unlock(&fsload_mutex);
	return job;
}

/**
 * fsload_job_stop() - ask @job to stop; returns at once
 * @job: the job
 *
 * Context: any process context; takes job->lock.
 */
void fsload_job_stop(struct fsload_job *job)
{
	unsigned int i;

	WRITE_ONCE(job->stop, true);
	spin_lock(&job->lock);
	if (job->state == FSLOAD_JOB_RUNNING)
		job->state = FSLOAD_JOB_STOPPING;
	/*
	 * A worker may sleep where only a signal wakes it, as a process
	 * would: opening a FIFO that another process put in the tree, a
	 * killable wait on an unresponsive server.  SIGKILL ends such a
	 * sleep (the operation fails); the workers allow no other signal.
	 */
	for (i = 0; !job->reaping && i < job->prog.setup.threads; i++) {
		if (job->workers[i].task)
			send_sig(SIGKILL, job->workers[i].task, 1);
	}
	spin_unlock(&job->lock);
	wake_up_all(&job->wq);
}

/**
 * fsload_job_owner_gone() - the netlink socket @portid was closed
 * @portid: its port id
 *
 * Stops the jobs that socket started without FSLOAD_JOB_F_DETACH.
 *
 * Context: process context; takes fsload_mutex.
 */
void fsload_job_owner_gone(u32 portid)
{
	struct fsload_job *job;
	int id;

	if (!portid)
		return;
	mutex_lock(&fsload_mutex);
	idr_for_each_entry(&fsload_jobs, job, id) {
		if (job->owner_portid == portid)
			fsload_job_stop(job);
	}
	mutex_unlock(&fsload_mutex);
}

/**
 * fsload_job_progress() - operations and bytes done so far
 * @job: the job
 * @ops: out: operations done, all phases, all workers
 * @bytes: out: bytes moved
 * @items: out: the items of the workers' current phases
 * @done: out: of @items, those begun
 *
 * Context: any; reads the workers' counters without locking.
 */
void fsload_job_progress(struct fsload_job *job, u64 *ops, u64 *bytes,
			 u64 *items, u64 *done)
{
	unsigned int i;

	*ops = 0;
	*bytes = 0;
	*items = 0;
	*done = 0;
	for (i = 0; i < job->prog.setup.threads; i++) {
		*ops += READ_ONCE(job->workers[i].e.ops_done);
		*bytes += READ_ONCE(job->workers[i].e.bytes_done);
		fsload_engine_items(&job->workers[i].e, items, done);
	}
}

static void fsload_job_progress_fn(struct work_struct *work)
{
	struct fsload_job *job = container_of(to_delayed_work(work),
					      struct fsload_job, progress_work);

	fsload_nl_notify(job, FSLOAD_CMD_JOB_PROGRESS_NTF);
	if (!READ_ONCE(job->stop))
		queue_delayed_work(fsload_wq, &job->progress_work,
				   msecs_to_jiffies(job->prog.progress_ms));
}

/*
 * Stop and release the workers that exist; they may not have run.  A
 * worker's task pointer is cleared before its pin is dropped: the CPU
 * profile's handler compares it with the task it interrupts
 * (fsload_profile_worker()), and a task_struct freed once unpinned may
 * be another task's next.
 */
static void fsload_job_stop_workers(struct fsload_job *job)
{
	struct task_struct *t;
	unsigned int i;

	for (i = 0; i < job->prog.setup.threads; i++) {
		struct fsload_worker *w = &job->workers[i];

		t = w->task;
		if (!t)
			continue;
		kthread_stop(t);
		WRITE_ONCE(w->task, NULL);
		put_task_struct(t);
	}
}

/*
 * How many removals the reaper may make: twice what the job can have
 * made (its creates and mkdirs, failed ones too, and the directories of
 * its file set), and some.  Entries another process keeps adding beyond
 * that stay, reported.
 */
static u64 fsload_cleanup_budget(const struct fsload_job *job)
{
	static const u8 makers[] = { FSLOAD_OP_CREATE, FSLOAD_OP_MKDIR };
	const struct fsload_program *prog = &job->prog;
	u64 n = prog->setup.threads *
		(div_u64(prog->setup.files, max(prog->setup.files_per_dir, 1U)) +
		 prog->setup.first_dir + 2);
	unsigned int p, i;

	for (p = 0; p < prog->nphases; p++) {
		for (i = 0; i < ARRAY_SIZE(makers); i++)
			n += job->res[p].sum.op[makers[i]].ops +
			     job->res[p].sum.op[makers[i]].errors;
	}
	/* Rank 0's job removes the tree of every rank's. */
	return 2 * n * prog->setup.ranks + 1024;
}

/*
 * Remove the job's tree from its pinned root, with the starter's
 * credentials: never by name from the target directory, where another
 * process may have put something else in its place.
 */
static void fsload_job_remove_dir(struct fsload_job *job)
{
	struct fsload_cleanup st = {};
	const struct cred *old;

	/* A joined directory is the job's of rank 0 to remove. */
	if ((job->prog.setup.flags & FSLOAD_JOB_F_KEEP) || job->prog.block ||
	    job->prog.join_dir)
		return;
	if (READ_ONCE(fsload_unloading)) {
		pr_notice("module unloading: left %s/%s in place\n",
			  job->dir_str, job->dir_name);
		return;
	}
	st.budget = fsload_cleanup_budget(job);
	old = override_creds(job->cred);
	fsload_tree_remove(&job->dir, &st);
	revert_creds(old);
	if (st.err)
		pr_warn("job %u: %llu entries of %s/%s left, first %s: error %d\n",
			job->id, st.left, job->dir_str, job->dir_name, st.name,
			st.err);
	spin_lock(&job->lock);
	if (st.err && !job->err) {
		job->err = st.err;
		snprintf(job->errmsg, sizeof(job->errmsg),
			 "cleanup: %llu entries of %s left, first %.64s: error %d",
			 st.left, job->dir_name, st.name, st.err);
	}
	spin_unlock(&job->lock);
}

static void fsload_job_reap(struct work_struct *work)
{
	struct fsload_job *job = container_of(work, struct fsload_job,
					      reap_work);
	struct fsload_job *old;
	bool complete = true;
	unsigned int p;

	/* No stop signals the workers once they are being released. */
	spin_lock(&job->lock);
	job->reaping = true;
	spin_unlock(&job->lock);
	fsload_job_stop_workers(job);
	fsload_profile_stop(job);
	cancel_delayed_work_sync(&job->progress_work);
	fsload_series_stop(job);
	for (p = 0; p < job->prog.setup.threads; p++)
		fsload_worker_free_buf(&job->workers[p]);
	spin_lock(&job->lock);
	job->end_ns = ktime_get_ns();
	spin_unlock(&job->lock);
	fsload_job_remove_dir(job);
	path_put(&job->dir);
	job->dir.mnt = NULL;
	job->dir.dentry = NULL;
	/* A finished job must not keep its filesystem from being unmounted. */
	path_put(&job->parent);
	job->parent.mnt = NULL;
	job->parent.dentry = NULL;
	/* Nor its device from being mounted or claimed. */
	fsload_bdev_close(&job->bdev);

	spin_lock(&job->lock);
	for (p = 0; p < job->prog.nphases; p++) {
		if (job->res[p].sum.complete != job->prog.setup.threads)
			complete = false;
	}
	if (job->err)
		job->state = FSLOAD_JOB_FAILED;
	else if (complete)
		job->state = FSLOAD_JOB_DONE;
	else
		job->state = FSLOAD_JOB_STOPPED;
	spin_unlock(&job->lock);

	/*
	 * The job stops counting against max_jobs before it is announced, so
	 * that a start sent on hearing of its end cannot be refused.
	 */
	mutex_lock(&fsload_mutex);
	WRITE_ONCE(fsload_nr_running, fsload_nr_running - 1);
	list_add_tail(&job->done_node, &fsload_done_list);
	fsload_nr_done++;
	while (fsload_nr_done > fsload_max_finished) {
		old = list_first_entry(&fsload_done_list, struct fsload_job,
				       done_node);
		list_del_init(&old->done_node);
		fsload_nr_done--;
		idr_remove(&fsload_jobs, old->id);
		fsload_job_put(old);
	}
	mutex_unlock(&fsload_mutex);
	if (!READ_ONCE(fsload_unloading))
		fsload_nl_notify(job, FSLOAD_CMD_JOB_DONE_NTF);
	wake_up_all(&fsload_reaped_wq);
	/* The reference the job held while running. */
	fsload_job_put(job);
}

/**
 * fsload_job_worker_done() - a worker has finished its phases
 * @job: its job
 *
 * The last worker to finish hands the job to the reaper.
 *
 * Context: the worker kthread.
 */
void fsload_job_worker_done(struct fsload_job *job)
{
	if (atomic_dec_and_test(&job->running))
		queue_work(fsload_wq, &job->reap_work);
}

/* A block job's worker: @depth bio contexts, all free. */
static int fsload_worker_alloc_bios(struct fsload_worker *w, u32 depth)
{
	unsigned int i;

	INIT_LIST_HEAD(&w->bio_free);
	INIT_LIST_HEAD(&w->bio_done);
	spin_lock_init(&w->bio_lock);
	init_waitqueue_head(&w->bio_wq);
	w->bios = kcalloc(depth, sizeof(*w->bios), GFP_KERNEL);
	if (!w->bios)
		return -ENOMEM;
	for (i = 0; i < depth; i++) {
		w->bios[i].w = w;
		list_add_tail(&w->bios[i].node, &w->bio_free);
	}
	return 0;
}

/* Room for one histogram per operation type the program uses. */
static u64 *fsload_hist_alloc(const struct fsload_job *job)
{
	return kvcalloc(fsload_hist_words(&job->slots), sizeof(u64),
			GFP_KERNEL);
}

static int fsload_job_alloc_workers(struct fsload_job *job)
{
	const struct fsload_program *prog = &job->prog;
	unsigned int i;

	fsload_slots_init(&job->slots, prog->phases, prog->nphases);
	job->res = kcalloc(prog->nphases, sizeof(*job->res), GFP_KERNEL);
	job->workers = kcalloc(prog->setup.threads, sizeof(*job->workers),
			       GFP_KERNEL);
	if (!job->res || !job->workers)
		return -ENOMEM;
	for (i = 0; i < prog->nphases; i++) {
		job->res[i].hist = fsload_hist_alloc(job);
		if (!job->res[i].hist)
			return -ENOMEM;
	}
	for (i = 0; i < prog->setup.threads; i++) {
		struct fsload_worker *w = &job->workers[i];

		w->job = job;
		w->index = i;
		fsload_engine_init(&w->e, &prog->setup, &job->slots, i);
		w->e.hist = fsload_hist_alloc(job);
		if (!w->e.hist ||
		    fsload_worker_alloc_buf(w, prog->max_block))
			return -ENOMEM;
		if (prog->block && fsload_worker_alloc_bios(w, prog->max_depth))
			return -ENOMEM;
	}
	return 0;
}

/* Why the job directory could not be made, for the starter. */
static void fsload_job_dir_error(struct netlink_ext_ack *extack, int err)
{
	switch (err) {
	case -EROFS:
		NL_SET_ERR_MSG(extack, "dir: read-only filesystem");
		break;
	case -EACCES:
	case -EPERM:
		NL_SET_ERR_MSG(extack,
			       "dir: no permission to create the job directory fsload-<id> in it");
		break;
	case -ENOENT:
	case -ENOTDIR:
		NL_SET_ERR_MSG(extack,
			       "dir: the filesystem made no usable directory fsload-<id> (not a filesystem for files?)");
		break;
	default:
		NL_SET_ERR_MSG(extack,
			       "dir: cannot create the job directory fsload-<id> in it");
	}
}

/*
 * Names a job directory may take: fsload-<id>, then fsload-<id>-<n>
 * where another machine's job of the same id has taken it in a directory
 * both share (NFS, a cluster filesystem).
 */
#define FSLOAD_DIR_NAME_TRIES	100

/*
 * The job's directory, DIR/fsload-<@id> (or the first free of
 * fsload-<@id>-<n>), made and pinned, its name into job->dir_name, what
 * it is (its st_ino ...) into job->dir_id; a job that joins rank 0's has
 * it pinned already (fsload_resolve_dir()).
 */
static int fsload_job_dir(struct fsload_job *job, int id,
			  struct netlink_ext_ack *extack)
{
	char *name = job->dir_name;
	unsigned int n;
	int err;

	if (job->prog.join_dir) {
		strscpy(name, job->prog.join_dir, sizeof(job->dir_name));
		return 0;
	}
	for (n = 0; n < FSLOAD_DIR_NAME_TRIES; n++) {
		if (n)
			snprintf(name, sizeof(job->dir_name), "fsload-%u-%u",
				 id, n);
		else
			snprintf(name, sizeof(job->dir_name), "fsload-%u", id);
		err = fsload_mkdir(&job->parent, name, strlen(name),
				   &job->dir);
		if (err != -EEXIST)
			break;
	}
	if (err) {
		fsload_job_dir_error(extack, err);
		return err;
	}
	fsload_dir_id(&job->dir, &job->dir_id);
	return 0;
}

/**
 * fsload_job_start() - start @job, whose program and target are set
 * @job: from fsload_job_alloc(), prog and parent filled in
 * @extack: where to explain a failure
 *
 * Creates DIR/fsload-<id> (fsload_job_dir()) with the caller's
 * credentials, the workers, and publishes the job.  On failure nothing is
 * left behind: no directory, no thread, no IDR entry; the caller still
 * owns its reference to @job.
 *
 * Context: the netlink request's sender, process context.
 * Return: 0 or a negative errno.
 */
int fsload_job_start(struct fsload_job *job, struct netlink_ext_ack *extack)
{
	unsigned int i;
	int id, err;

	mutex_lock(&fsload_mutex);
	if (fsload_nr_running >= fsload_max_jobs) {
		mutex_unlock(&fsload_mutex);
		NL_SET_ERR_MSG(extack,
			       "too many jobs running (module parameter max_jobs)");
		return -EBUSY;
	}
	id = idr_alloc_cyclic(&fsload_jobs, NULL, 1, INT_MAX, GFP_KERNEL);
	if (id >= 0) {
		WRITE_ONCE(fsload_nr_running, fsload_nr_running + 1);
		/* Ids come round again; serials do not. */
		job->serial = ++fsload_serial;
	}
	mutex_unlock(&fsload_mutex);
	if (id < 0)
		return id;
	job->id = id;

	err = fsload_job_alloc_workers(job);
	if (!err)
		err = fsload_series_alloc(job);
	if (!err)
		err = fsload_profile_alloc(job);
	if (!err)
		err = fsload_profile_start(job, extack);
	if (err)
		goto err_unpublish;
	job->cred = get_current_cred();
	err = job->prog.block ? 0 : fsload_job_dir(job, id, extack);
	if (err)
		goto err_unpublish;

	atomic_set(&job->running, job->prog.setup.threads);
	for (i = 0; i < job->prog.setup.threads; i++) {
		struct task_struct *t;

		t = kthread_create(fsload_worker_fn, &job->workers[i],
				   "fsload%u/%u", id, i);
		if (IS_ERR(t)) {
			err = PTR_ERR(t);
			NL_SET_ERR_MSG(extack, "threads: cannot create a worker");
			goto err_stop;
		}
		/* Before it first runs: kthread_bind() wants it inactive. */
		if (job->prog.ncpus)
			kthread_bind(t, job->prog.cpus[i % job->prog.ncpus]);
		get_task_struct(t);
		WRITE_ONCE(job->workers[i].task, t);
		job->workers[i].pid = task_pid_nr(t);
	}

	INIT_WORK(&job->reap_work, fsload_job_reap);
	INIT_DELAYED_WORK(&job->progress_work, fsload_job_progress_fn);
	/* Before any worker runs: the reaper may come at once. */
	fsload_series_start(job);
	job->state = FSLOAD_JOB_RUNNING;
	job->start_ns = ktime_get_ns();
	refcount_inc(&job->ref);	/* the running reference */
	mutex_lock(&fsload_mutex);
	idr_replace(&fsload_jobs, job, id);
	refcount_inc(&job->ref);	/* the IDR's reference */
	mutex_unlock(&fsload_mutex);

	/*
	 * Armed before any worker runs: a job may end, and its reaper cancel
	 * the progress work, before the last wake_up_process() returns.
	 */
	if (job->prog.progress_ms)
		queue_delayed_work(fsload_wq, &job->progress_work,
				   msecs_to_jiffies(job->prog.progress_ms));
	for (i = 0; i < job->prog.setup.threads; i++)
		wake_up_process(job->workers[i].task);
	pr_debug("job %u started in %s: %u threads\n", id, job->dir_str,
		 job->prog.setup.threads);
	return 0;

err_stop:
	/* Workers never woken never run: kthread_stop() just reaps them. */
	fsload_job_stop_workers(job);
	if (!job->prog.block && !job->prog.join_dir)
		fsload_rmdir_pinned(&job->dir);
	path_put(&job->dir);
	job->dir.mnt = NULL;
	job->dir.dentry = NULL;
err_unpublish:
	fsload_profile_stop(job);
	mutex_lock(&fsload_mutex);
	idr_remove(&fsload_jobs, id);
	WRITE_ONCE(fsload_nr_running, fsload_nr_running - 1);
	mutex_unlock(&fsload_mutex);
	wake_up_all(&fsload_reaped_wq);
	return err;
}

/**
 * fsload_jobs_init() - set up job management
 *
 * Context: module init.
 * Return: 0 or -ENOMEM.
 */
int fsload_jobs_init(void)
{
	fsload_wq = alloc_workqueue("fsload", WQ_UNBOUND, 0);
	return fsload_wq ? 0 : -ENOMEM;
}

/**
 * fsload_jobs_quiesce() - no more notifications; module exit begins
 *
 * Called before the netlink family goes away, so that no reaper sends on
 * a family that is being unregistered.
 *
 * Context: module exit.
 */
void fsload_jobs_quiesce(void)
{
	WRITE_ONCE(fsload_unloading, true);
}

/**
 * fsload_jobs_exit() - stop every job, wait for them, forget them all
 *
 * Waits for workers to notice the stop: a worker sleeping in the
 * filesystem (a frozen or hung device) delays module unload until it
 * wakes.  Job directories are left in place (see fsload_job_remove_dir()).
 *
 * Context: module exit, after netlink is unregistered.
 */
void fsload_jobs_exit(void)
{
	struct fsload_job *job;
	int id;

	fsload_jobs_quiesce();
	mutex_lock(&fsload_mutex);
	idr_for_each_entry(&fsload_jobs, job, id)
		fsload_job_stop(job);
	mutex_unlock(&fsload_mutex);
	wait_event(fsload_reaped_wq, !READ_ONCE(fsload_nr_running));
	destroy_workqueue(fsload_wq);

	idr_for_each_entry(&fsload_jobs, job, id)
		fsload_job_put(job);
	idr_destroy(&fsload_jobs);
}
