// SPDX-License-Identifier: GPL-2.0
/*
 * fsload: what a job did over time, and workers that stopped moving.
 *
 * Every SAMPLE_MS a work item sums the workers' own per-type counters
 * (never a shared hot counter: each worker writes only its own) into one
 * sample of a bounded ring, which fsloadctl drains with SERIES_GET while
 * the job runs; a sample that is not drained in time is overwritten, and
 * the gap shows in the sequence numbers.  The same work item watches for
 * stalls: a worker inside a phase whose operation count has not moved for
 * STALL_MS is recorded (thread, phase, since when) and announced with
 * JOB_STALL_NTF; it is reported until it moves again, then kept with its
 * end in the job's status.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include "fsload.h"
#include "compat.h"
#include "trace.h"

/*
 * u64 words of one sample (fsload.h): time, phase, bytes moved by the
 * workers' read and write calls so far, then per slot ops, bytes and the
 * sum of latencies (their mean over an interval comes from differences),
 * and the interval's median and 99th percentile latency.
 */
static unsigned int fsload_sample_words(const struct fsload_job *job)
{
	return fsload_sample_op(job->slots.n + 1);
}

/**
 * fsload_series_alloc() - allocate the job's sample ring
 * @job: the job, its program and slots set
 *
 * Context: process context.
 * Return: 0 or -ENOMEM.
 */
int fsload_series_alloc(struct fsload_job *job)
{
	if (!job->prog.sample_ms)
		return 0;
	job->ring_cap = clamp(READ_ONCE(fsload_max_samples), FSLOAD_SAMPLES_MIN,
			      FSLOAD_SAMPLES_MAX);
	/* One more: the sample being summed, so that a tick never allocates. */
	job->ring = kvcalloc((job->ring_cap + 1) * fsload_sample_words(job),
			     sizeof(u64), GFP_KERNEL);
	job->ring_hist = kvcalloc(2 * fsload_hist_words(&job->slots),
				  sizeof(u64), GFP_KERNEL);
	job->ring_hist_phase = -1;
	return job->ring && job->ring_hist ? 0 : -ENOMEM;
}

/*
 * Put the median and 99th percentile latency of each slot's operations
 * since the last sample into @v, from the workers' histograms: their sum
 * now, less their sum then.  A histogram's buckets are its worker's own,
 * read without a lock: a count a moment old only moves an operation to
 * the next interval.
 */
static void fsload_sample_percentiles(struct fsload_job *job, int phase,
				      u64 *v)
{
	size_t words = fsload_hist_words(&job->slots), k;
	u64 *prev = job->ring_hist, *cur = prev + words;
	unsigned int i, s;

	/* A new phase's histograms started from zero. */
	if (phase != job->ring_hist_phase) {
		memset(prev, 0, words * sizeof(u64));
		job->ring_hist_phase = phase;
	}
	memset(cur, 0, words * sizeof(u64));
	for (i = 0; i < job->prog.setup.threads; i++) {
		const u64 *h = job->workers[i].e.hist;

		for (k = 0; k < words; k++)
			/* The worker's own; a moment old is fine. */
			cur[k] += data_race(h[k]);
	}
	for (s = 1; s <= job->slots.n; s++) {
		const u64 *c = cur + (s - 1) * FSLOAD_HIST_BUCKETS;
		const u64 *p = prev + (s - 1) * FSLOAD_HIST_BUCKETS;
		unsigned int o = fsload_sample_op(s);

		/* Parts per million; 0, "none", when the slot had no operation. */
		v[o + 3] = fsload_hist_quantile(c, p, 500000);
		v[o + 4] = fsload_hist_quantile(c, p, 990000);
	}
}

/* A worker's operations (done and failed) in the current phase so far. */
static u64 fsload_worker_count(const struct fsload_worker *w)
{
	unsigned int t;
	u64 n = 0;

	for (t = 1; t <= FSLOAD_OP_MAX; t++)
		/* The worker's own counters: a value a moment old is fine. */
		n += data_race(w->e.acc[t].st.ops + w->e.acc[t].st.errors);
	return n;
}

/* The stall of @w has ended at @now. */
static void fsload_stall_end(struct fsload_job *job, struct fsload_worker *w,
			     u64 now)
{
	unsigned int i;

	spin_lock(&job->lock);
	for (i = 0; i < job->nstalls; i++) {
		if (job->stalls[i].thread == w->index && !job->stalls[i].end_ns)
			job->stalls[i].end_ns = now;
	}
	spin_unlock(&job->lock);
	w->stalled = false;
}

/* Record that @w has not moved since w->still_since; true if new. */
static bool fsload_stall_begin(struct fsload_job *job,
			       struct fsload_worker *w, int phase)
{
	const struct fsload_phase *ph = &job->prog.phases[phase];
	struct fsload_stall *s;
	bool added = false;

	w->stalled = true;
	spin_lock(&job->lock);
	if (job->nstalls < FSLOAD_STALLS_MAX) {
		s = &job->stalls[job->nstalls++];
		s->thread = w->index;
		s->pid = w->pid;
		s->phase = phase;
		s->op = ph->nops == 1 ? ph->ops[0].type : 0;
		s->start_ns = w->still_since;
		s->end_ns = 0;
		added = true;
		trace_fsload_stall(job->id, w->index, w->pid, phase,
				   ktime_get_ns() - w->still_since);
	}
	spin_unlock(&job->lock);
	return added;
}

/* Any worker that has not moved for the job's stall time; true if new. */
static bool fsload_stall_check(struct fsload_job *job, u64 now)
{
	u64 limit = (u64)job->prog.stall_ms * NSEC_PER_MSEC, n;
	bool news = false;
	unsigned int i;
	int phase;

	for (i = 0; i < job->prog.setup.threads; i++) {
		struct fsload_worker *w = &job->workers[i];

		/* phase + 1 while inside a phase's loop, 0 outside. */
		phase = READ_ONCE(w->in_phase) - 1;
		n = fsload_worker_count(w);
		if (phase < 0 || n != w->still_ops || phase != w->still_phase) {
			if (w->stalled)
				fsload_stall_end(job, w, now);
			w->still_ops = n;
			w->still_phase = phase;
			w->still_since = now;
			continue;
		}
		if (!w->stalled && now - w->still_since >= limit)
			news |= fsload_stall_begin(job, w, phase);
	}
	return news;
}

/*
 * Take one sample: the workers' counters in the current phase.  Summed in
 * the ring's scratch sample: only the series work item and, once it is
 * cancelled, fsload_series_stop() sample, never both at once.
 */
static void fsload_sample(struct fsload_job *job, u64 now)
{
	unsigned int words = fsload_sample_words(job), i, t, s;
	size_t hwords = fsload_hist_words(&job->slots);
	u64 *v = job->ring + job->ring_cap * words, *o, ops;
	unsigned int seq;
	bool kept;
	int phase;

	spin_lock(&job->lock);
	phase = job->cur_phase;
	seq = job->phase_seq;
	spin_unlock(&job->lock);
	/* Odd: a phase is opening, its counters are being zeroed. */
	if (phase < 0 || (seq & 1))
		return;
	memset(v, 0, words * sizeof(u64));
	v[0] = now;
	v[1] = phase;
	for (i = 0; i < job->prog.setup.threads; i++) {
		const struct fsload_worker *w = &job->workers[i];

		v[2] += READ_ONCE(w->io_bytes);
		for (t = 1; t <= FSLOAD_OP_MAX; t++) {
			s = job->slots.slot[t];
			if (!s)
				continue;
			o = v + fsload_sample_op(s);
			/* The worker's own; a moment old is fine. */
			ops = data_race(w->e.acc[t].st.ops);
			o[0] += ops;
			/* As above. */
			o[1] += data_race(w->e.acc[t].st.bytes);
			/* As above. */
			o[2] += data_race(w->e.acc[t].st.lat_sum);
			/* As above; counted on since ops was read. */
			o[5] += ops - min(ops, data_race(w->e.acc[t].st.untimed));
		}
	}
	fsload_sample_percentiles(job, phase, v);
	spin_lock(&job->lock);
	/*
	 * A phase that began to open meanwhile (even one not yet published
	 * in cur_phase) zeroed counters: this sample mixes two phases, and
	 * is dropped.
	 */
	kept = job->phase_seq == seq;
	if (kept) {
		memcpy(job->ring + (job->ring_head % job->ring_cap) * words, v,
		       words * sizeof(u64));
		job->ring_head++;
	}
	spin_unlock(&job->lock);
	/* The next interval starts here (or, dropped, from the phase start). */
	if (kept)
		memcpy(job->ring_hist, job->ring_hist + hwords,
		       hwords * sizeof(u64));
	else
		job->ring_hist_phase = -1;
}

static void fsload_series_fn(struct work_struct *work)
{
	struct fsload_job *job = container_of(to_delayed_work(work),
					      struct fsload_job, series_work);
	u64 now = ktime_get_ns();
	unsigned int ms;

	if (job->ring)
		fsload_sample(job, now);
	if (job->prog.stall_ms && fsload_stall_check(job, now))
		fsload_nl_notify(job, FSLOAD_CMD_JOB_STALL_NTF);
	if (READ_ONCE(job->stop) && !job->prog.stall_ms)
		return;
	ms = job->prog.sample_ms ? job->prog.sample_ms :
	     clamp(job->prog.stall_ms / 4, 10U, 1000U);
	queue_delayed_work(fsload_wq, &job->series_work, msecs_to_jiffies(ms));
}

/**
 * fsload_series_start() - start sampling and stall watching, if asked
 * @job: the job, about to run
 *
 * Context: process context.
 */
void fsload_series_start(struct fsload_job *job)
{
	u64 now = ktime_get_ns();
	unsigned int i;

	/*
	 * No worker has been seen yet: the first look at each only notes its
	 * count (a phase no worker can be in), so a stall is timed from a
	 * moment the sampler saw, never from boot.
	 */
	for (i = 0; i < job->prog.setup.threads; i++) {
		job->workers[i].still_phase = INT_MIN;
		job->workers[i].still_since = now;
	}
	INIT_DELAYED_WORK(&job->series_work, fsload_series_fn);
	if (job->prog.sample_ms || job->prog.stall_ms)
		queue_delayed_work(fsload_wq, &job->series_work, 0);
}

/**
 * fsload_series_stop() - stop sampling; the ring stays for SERIES_GET
 * @job: the job, its workers stopped
 *
 * One last sample of the counters as the workers left them.
 *
 * Context: process context (the reaper).
 */
void fsload_series_stop(struct fsload_job *job)
{
	cancel_delayed_work_sync(&job->series_work);
	if (job->ring)
		fsload_sample(job, ktime_get_ns());
}

/**
 * fsload_series_copy() - samples from sequence number @from on
 * @job: the job
 * @from: the first wanted; older ones no longer held are skipped
 * @buf: room for @max samples of fsload_series_words() u64 each
 * @max: samples wanted at most
 * @first: out: the sequence number of buf's first sample
 *
 * Context: process context; takes job->lock.
 * Return: the number of samples copied.
 */
unsigned int fsload_series_copy(struct fsload_job *job, u64 from, u64 *buf,
				unsigned int max, u64 *first)
{
	unsigned int words = fsload_sample_words(job), n = 0;
	u64 seq;

	spin_lock(&job->lock);
	seq = from;
	if (job->ring_head > job->ring_cap &&
	    seq < job->ring_head - job->ring_cap)
		seq = job->ring_head - job->ring_cap;
	*first = seq;
	for (; seq < job->ring_head && n < max; seq++, n++)
		memcpy(buf + n * words,
		       job->ring + (seq % job->ring_cap) * words,
		       words * sizeof(u64));
	spin_unlock(&job->lock);
	return n;
}

/**
 * fsload_series_words() - u64 words per sample of @job
 * @job: the job
 *
 * Return: 3 + 3 x the op types the program uses.
 */
unsigned int fsload_series_words(const struct fsload_job *job)
{
	return fsload_sample_words(job);
}
