// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the result of a multi-client run (report/ranks.h).
 *
 * A rank's part travels as the structs themselves (every rank runs the
 * same fsloadctl: the part starts with its version and the structs'
 * sizes, and rank 0 refuses another), followed by what they point to.
 *
 * The aggregate is mdtest's: a phase's operations are every rank's, its
 * time the slowest rank's, so its rate is the total over the slowest
 * time; CPU time, instructions and cycles are summed, and so the cost
 * per op is the mean over every rank's ops.  The machine-wide figures
 * (system CPU, the other threads' CPU) are each machine's once: ranks
 * on one machine measure the same ones, so only the first rank of each
 * host adds them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/fsloadctl.h"
#include "lib/print.h"
#include "nl/names.h"
#include "engine/run.h"
#include "report/env.h"
#include "report/ranks.h"

#define RANK_MAGIC	0x46534c52U	/* "FSLR" */

/* --- packing --------------------------------------------------------- */

struct pack {
	char *buf;
	size_t len, cap;
	bool oom;
};

static void put(struct pack *pk, const void *p, size_t n)
{
	char *nb;

	if (pk->oom)
		return;
	if (pk->len + n > pk->cap) {
		size_t cap = pk->cap ? pk->cap : 4096;

		while (cap < pk->len + n)
			cap *= 2;
		nb = realloc(pk->buf, cap);
		if (!nb) {
			pk->oom = true;
			return;
		}
		pk->buf = nb;
		pk->cap = cap;
	}
	memcpy(pk->buf + pk->len, p, n);
	pk->len += n;
}

static void put_u64(struct pack *pk, uint64_t v)
{
	put(pk, &v, sizeof(v));
}

static void put_str(struct pack *pk, const char *s)
{
	uint64_t n = s ? strlen(s) + 1 : 0;

	put_u64(pk, n);
	if (n)
		put(pk, s, n);
}

/* This rank's "fsload" and "environment" members, as a JSON document. */
static char *env_json(const char *where)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	print_redirect(f);
	print_begin(true);
	env_print(where);
	print_end();
	print_redirect(NULL);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

static void put_results(struct pack *pk, const struct results *r)
{
	unsigned int i, j;

	put_u64(pk, r->nphases);
	for (i = 0; i < r->nphases; i++) {
		const struct phase_result *pr = &r->phases[i];

		put(pk, pr, sizeof(*pr));
		for (j = 0; j < pr->nopstats; j++) {
			put(pk, &pr->opstats[j], sizeof(pr->opstats[j]));
			put(pk, pr->opstats[j].buckets,
			    pr->opstats[j].nbuckets *
			    sizeof(*pr->opstats[j].buckets));
		}
		put(pk, pr->top, pr->ntop * sizeof(*pr->top));
	}
}

int rank_pack(const struct run *run, const struct rank_sync *rs,
	      const char *where, const char *folded, const char *flamegraph,
	      char **buf, size_t *len)
{
	bool prof = run && run->ok && run->r.profile;
	bool ok = run && run->ok;
	struct pack pk = { 0 };
	char host[256] = "";
	char *env;

	put_u64(&pk, RANK_MAGIC);
	put_str(&pk, FSLOADCTL_VERSION);
	put_u64(&pk, sizeof(struct phase_result));
	put_u64(&pk, sizeof(struct opstat));
	put_u64(&pk, sizeof(struct hist_bucket));
	put_u64(&pk, sizeof(struct thread_cpu));
	gethostname(host, sizeof(host) - 1);
	put_str(&pk, host);
	env = env_json(where);
	put_str(&pk, env);
	free(env);
	put_u64(&pk, ok);
	put_u64(&pk, rs ? (uint64_t)(int64_t)rs->stop_from : UINT64_MAX);
	put_str(&pk, prof ? folded : NULL);
	put_str(&pk, prof ? flamegraph : NULL);
	if (ok) {
		char *dir = run_job_dir(run);

		put_u64(&pk, run->js.id);
		put_u64(&pk, run->js.state);
		put_u64(&pk, run->js.err);
		put_str(&pk, run->js.error_msg);
		put_str(&pk, dir);
		free(dir);
		put_u64(&pk, run->engine);
		put_u64(&pk, run->js.threads);
		put_results(&pk, &run->r);
	}
	if (pk.oom) {
		free(pk.buf);
		return -ENOMEM;
	}
	*buf = pk.buf;
	*len = pk.len;
	return 0;
}

/* --- unpacking ------------------------------------------------------- */

struct unpack {
	const char *p;
	size_t left;
	bool bad;
};

static bool get(struct unpack *up, void *dst, size_t n)
{
	if (up->bad || n > up->left) {
		up->bad = true;
		memset(dst, 0, n);
		return false;
	}
	memcpy(dst, up->p, n);
	up->p += n;
	up->left -= n;
	return true;
}

static uint64_t get_u64(struct unpack *up)
{
	uint64_t v;

	get(up, &v, sizeof(v));
	return v;
}

static char *get_str(struct unpack *up)
{
	uint64_t n = get_u64(up);
	char *s;

	if (!n || up->bad)
		return NULL;
	if (n > up->left) {
		up->bad = true;
		return NULL;
	}
	s = malloc(n);
	if (!s || !get(up, s, n) || s[n - 1]) {
		free(s);
		up->bad = true;
		return NULL;
	}
	return s;
}

/* An array of @n items of @size, malloc'd (NULL when @n is 0). */
static void *get_array(struct unpack *up, uint64_t n, size_t size)
{
	void *a;

	if (!n || up->bad)
		return NULL;
	if (n > up->left / size) {
		up->bad = true;
		return NULL;
	}
	a = malloc(n * size);
	if (!a || !get(up, a, n * size)) {
		free(a);
		up->bad = true;
		return NULL;
	}
	return a;
}

static void get_results(struct unpack *up, struct results *r)
{
	uint64_t n = get_u64(up);
	unsigned int i, j;

	memset(r, 0, sizeof(*r));
	if (up->bad || n > FSLOAD_PHASES_MAX) {
		up->bad = true;
		return;
	}
	r->phases = calloc(n ? n : 1, sizeof(*r->phases));
	if (!r->phases) {
		up->bad = true;
		return;
	}
	for (i = 0; i < n && !up->bad; i++) {
		struct phase_result *pr = &r->phases[i];

		get(up, pr, sizeof(*pr));
		r->nphases = i + 1;
		pr->name[sizeof(pr->name) - 1] = '\0';
		pr->opstats = NULL;
		pr->top = NULL;
		if (pr->nopstats > FSLOAD_OP_MAX + 1) {
			pr->nopstats = pr->ntop = 0;
			up->bad = true;
			break;
		}
		pr->opstats = calloc(pr->nopstats ? pr->nopstats : 1,
				     sizeof(*pr->opstats));
		if (!pr->opstats) {
			pr->nopstats = pr->ntop = 0;
			up->bad = true;
			break;
		}
		for (j = 0; j < pr->nopstats; j++) {
			struct opstat *os = &pr->opstats[j];

			get(up, os, sizeof(*os));
			os->buckets = get_array(up, os->nbuckets,
						sizeof(*os->buckets));
			if (!os->buckets)
				os->nbuckets = 0;
		}
		pr->top = get_array(up, pr->ntop, sizeof(*pr->top));
		if (!pr->top)
			pr->ntop = 0;
		for (j = 0; j < pr->ntop; j++)
			pr->top[j].name[sizeof(pr->top[j].name) - 1] = '\0';
	}
}

static int unpack_part(struct rank_part *rp, unsigned int rank,
		       const void *buf, size_t len)
{
	struct unpack up = { buf, len, false };
	char *version;
	bool sizes_ok;

	memset(rp, 0, sizeof(*rp));
	rp->rank = rank;
	rp->stop_from = -1;
	if (!buf) {
		rp->lost = true;
		return 0;
	}
	if (get_u64(&up) != RANK_MAGIC)
		return -EINVAL;
	version = get_str(&up);
	sizes_ok = version && !strcmp(version, FSLOADCTL_VERSION) &&
		   get_u64(&up) == sizeof(struct phase_result) &&
		   get_u64(&up) == sizeof(struct opstat) &&
		   get_u64(&up) == sizeof(struct hist_bucket) &&
		   get_u64(&up) == sizeof(struct thread_cpu);
	free(version);
	if (!sizes_ok)
		return -EINVAL;
	rp->host = get_str(&up);
	rp->env_json = get_str(&up);
	rp->started = get_u64(&up);
	rp->stop_from = (int32_t)get_u64(&up);
	rp->folded = get_str(&up);
	rp->flamegraph = get_str(&up);
	if (rp->started) {
		rp->job_id = (uint32_t)get_u64(&up);
		rp->state = (uint8_t)get_u64(&up);
		rp->err = (uint32_t)get_u64(&up);
		rp->error = get_str(&up);
		rp->job_dir = get_str(&up);
		rp->engine = (uint32_t)get_u64(&up);
		rp->threads = (uint32_t)get_u64(&up);
		get_results(&up, &rp->r);
	}
	return up.bad || up.left ? -EINVAL : 0;
}

/* --- merging --------------------------------------------------------- */

/* @a's and @b's buckets (ascending by low_ns) as one array, into @a. */
static int merge_buckets(struct opstat *a, const struct opstat *b)
{
	struct hist_bucket *m;
	unsigned int i = 0, j = 0, n = 0;

	m = calloc(a->nbuckets + b->nbuckets + 1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	while (i < a->nbuckets || j < b->nbuckets) {
		if (j >= b->nbuckets ||
		    (i < a->nbuckets &&
		     a->buckets[i].low_ns < b->buckets[j].low_ns)) {
			m[n++] = a->buckets[i++];
		} else if (i >= a->nbuckets ||
			   b->buckets[j].low_ns < a->buckets[i].low_ns) {
			m[n++] = b->buckets[j++];
		} else {
			m[n] = a->buckets[i++];
			m[n++].count += b->buckets[j++].count;
		}
	}
	free(a->buckets);
	a->buckets = m;
	a->nbuckets = n;
	return 0;
}

static int merge_opstats(struct phase_result *a, const struct phase_result *b)
{
	struct opstat *os, *t;
	unsigned int i, j;

	for (j = 0; j < b->nopstats; j++) {
		const struct opstat *bo = &b->opstats[j];

		for (i = 0; i < a->nopstats; i++)
			if (a->opstats[i].type == bo->type)
				break;
		if (i == a->nopstats) {
			t = realloc(a->opstats, (i + 1) * sizeof(*t));
			if (!t)
				return -ENOMEM;
			a->opstats = t;
			a->opstats[i] = *bo;
			a->opstats[i].buckets = NULL;
			a->opstats[i].nbuckets = 0;
			a->nopstats++;
			if (merge_buckets(&a->opstats[i], bo))
				return -ENOMEM;
			continue;
		}
		os = &a->opstats[i];
		if (os->ops && bo->ops)
			os->lat_min_ns = os->lat_min_ns < bo->lat_min_ns ?
					 os->lat_min_ns : bo->lat_min_ns;
		else if (bo->ops)
			os->lat_min_ns = bo->lat_min_ns;
		if (bo->lat_max_ns > os->lat_max_ns)
			os->lat_max_ns = bo->lat_max_ns;
		os->sampled = opstat_sampled(os) + opstat_sampled(bo);
		os->have |= bo->have;
		os->ops += bo->ops;
		os->errors += bo->errors;
		os->misses += bo->misses;
		os->bytes += bo->bytes;
		os->lat_sum_ns += bo->lat_sum_ns;
		if (merge_buckets(os, bo))
			return -ENOMEM;
	}
	return 0;
}

/* The other threads of @b's machine (its first rank) into @a. */
static int merge_top(struct phase_result *a, const struct phase_result *b)
{
	struct thread_cpu *t;

	if (!b->ntop)
		return 0;
	t = realloc(a->top, (a->ntop + b->ntop) * sizeof(*t));
	if (!t)
		return -ENOMEM;
	memcpy(&t[a->ntop], b->top, b->ntop * sizeof(*t));
	a->top = t;
	a->ntop += b->ntop;
	return 0;
}

static int merge_phase(struct phase_result *a, const struct phase_result *b,
		       bool new_host)
{
	if (b->elapsed_ns > a->elapsed_ns)
		a->elapsed_ns = b->elapsed_ns;
	if (b->tail_ns > a->tail_ns)
		a->tail_ns = b->tail_ns;
	a->threads += b->threads;
	a->complete = a->complete && b->complete;
	a->stonewalled = a->stonewalled || b->stonewalled;
	a->ops += b->ops;
	a->errors += b->errors;
	a->bytes += b->bytes;
	a->worker_cpu_ns += b->worker_cpu_ns;
	a->instructions += b->instructions;
	a->cycles += b->cycles;
	a->tail_cpu_ns += b->tail_cpu_ns;
	a->prof_samples += b->prof_samples;
	a->prof_dropped += b->prof_dropped;
	a->prof_ns += b->prof_ns;
	if (new_host) {
		a->system_cpu_ns += b->system_cpu_ns;
		if (merge_top(a, b))
			return -ENOMEM;
	}
	return merge_opstats(a, b);
}

/* Whether rank @k is the first of its host among @parts. */
static bool first_of_host(const struct rank_part *parts, unsigned int k)
{
	unsigned int i;

	for (i = 0; i < k; i++)
		if (parts[i].host && parts[k].host &&
		    !strcmp(parts[i].host, parts[k].host))
			return false;
	return true;
}

/* How bad a final state is: done < stopped < failed. */
static int state_rank(uint8_t state)
{
	return state == FSLOAD_JOB_FAILED ? 2 :
	       state == FSLOAD_JOB_STOPPED ? 1 : 0;
}

/* The worst rank's state and error into rank 0's status. */
static void merge_state(struct run *run0, const struct rank_part *rp)
{
	uint8_t state = rp->started ? rp->state : FSLOAD_JOB_FAILED;
	char *msg;

	if (state_rank(state) <= state_rank(run0->js.state))
		return;
	run0->js.state = state;
	run0->js.err = rp->err;
	if (asprintf(&msg, "rank %u: %s", rp->rank,
		     rp->lost ? "no part: mpirun ended the run (a rank died or was killed; mpirun names it)" :
		     !rp->started ? "started no job (its error is on its stderr)" :
		     rp->error ? rp->error : state_name(state)) >= 0) {
		free(run0->js.error_msg);
		run0->js.error_msg = msg;
	}
}

int rank_lone_part(void *buf, size_t len, unsigned int n, void ***bufs,
		   size_t **lens)
{
	*bufs = calloc(n, sizeof(**bufs));
	*lens = calloc(n, sizeof(**lens));
	if (!*bufs || !*lens) {
		free(*bufs);
		free(*lens);
		*bufs = NULL;
		*lens = NULL;
		return -ENOMEM;
	}
	(*bufs)[0] = buf;
	(*lens)[0] = len;
	return 0;
}

int rank_report_build(struct rank_report *rr, void **bufs,
		      const size_t *lens, unsigned int n, struct run *run0)
{
	unsigned int k, i, j;
	uint32_t threads = 0;
	int err;

	rr->size = n;
	rr->parts = calloc(n, sizeof(*rr->parts));
	if (!rr->parts)
		return -ENOMEM;
	for (k = 0; k < n; k++) {
		err = unpack_part(&rr->parts[k], k, bufs[k], lens[k]);
		if (err)
			return err;
	}
	for (k = 0; k < n; k++)
		threads += rr->parts[k].threads;
	for (k = 1; k < n; k++) {
		const struct rank_part *rp = &rr->parts[k];

		merge_state(run0, rp);
		for (j = 0; j < rp->r.nphases; j++) {
			const struct phase_result *b = &rp->r.phases[j];

			for (i = 0; i < run0->r.nphases; i++)
				if (run0->r.phases[i].index == b->index)
					break;
			if (i == run0->r.nphases)
				continue;	/* rank 0's job ended before */
			if (strcmp(run0->r.phases[i].name, b->name))
				return -EINVAL;
			err = merge_phase(&run0->r.phases[i], b,
					  first_of_host(rr->parts, k));
			if (err)
				return err;
		}
	}
	/*
	 * Marks of rank 0's course alone do not describe the aggregate, nor
	 * does its CPU profile (each rank's is in its files; the samples,
	 * dropped and overhead are every rank's).
	 */
	for (i = 0; i < run0->r.nphases; i++)
		run0->r.phases[i].nprogress = 0;
	run0->r.profile = NULL;
	/*
	 * The run's exit code is the merged state's: a job stopped because
	 * another rank asked (its tick's stop, exit 0 on its own) is a
	 * run that did not complete.
	 */
	run0->ret = state_exit_code(run0->js.state);
	/* the header's threads: every rank's */
	run0->js.threads = threads;
	run0->threads = threads;
	run0->ranks = rr;
	return 0;
}

void rank_report_free(struct rank_report *rr)
{
	unsigned int k;

	for (k = 0; rr->parts && k < rr->size; k++) {
		struct rank_part *rp = &rr->parts[k];

		free(rp->host);
		free(rp->env_json);
		free(rp->error);
		free(rp->job_dir);
		free(rp->folded);
		free(rp->flamegraph);
		results_free(&rp->r);
	}
	free(rr->parts);
	rr->parts = NULL;
}

/* --- printing -------------------------------------------------------- */

static double rate(const struct phase_result *pr)
{
	return pr->elapsed_ns ? pr->ops * 1e9 / pr->elapsed_ns : NAN;
}

static void print_part(const struct rank_part *rp)
{
	unsigned int i;

	open_json_object(NULL);
	print_uint(PRINT_JSON, "rank", NULL, rp->rank);
	print_string(PRINT_JSON, "host", NULL, rp->host);
	print_bool(PRINT_JSON, "started", NULL, rp->started);
	print_bool(PRINT_JSON, "lost", NULL, rp->lost);
	if (rp->started) {
		print_uint(PRINT_JSON, "job_id", NULL, rp->job_id);
		print_string(PRINT_JSON, "state", NULL, state_name(rp->state));
		print_uint(PRINT_JSON, "errno", NULL, rp->err);
		print_string(PRINT_JSON, "error", NULL, rp->error);
		print_string(PRINT_JSON, "job_dir", NULL, rp->job_dir);
	}
	if (rp->stop_from >= 0)
		print_uint(PRINT_JSON, "stopped_by_rank", NULL,
			   (uint64_t)rp->stop_from);
	else
		print_null(PRINT_JSON, "stopped_by_rank", NULL);
	if (rp->folded || rp->flamegraph) {
		open_json_object("cpu_profile");
		print_string(PRINT_JSON, "folded", NULL, rp->folded);
		print_string(PRINT_JSON, "flamegraph", NULL, rp->flamegraph);
		close_json_object();
	}
	open_json_array("phases");
	for (i = 0; i < rp->r.nphases; i++) {
		const struct phase_result *pr = &rp->r.phases[i];

		open_json_object(NULL);
		print_string(PRINT_JSON, "name", NULL, pr->name);
		print_uint(PRINT_JSON, "threads", NULL, pr->threads);
		print_uint(PRINT_JSON, "ops", NULL, pr->ops);
		print_uint(PRINT_JSON, "errors", NULL, pr->errors);
		print_uint(PRINT_JSON, "start_ns", NULL, pr->start_ns);
		print_uint(PRINT_JSON, "elapsed_ns", NULL, pr->elapsed_ns);
		print_float(PRINT_JSON, "ops_per_sec", NULL, rate(pr));
		print_uint(PRINT_JSON, "worker_cpu_ns", NULL,
			   pr->worker_cpu_ns);
		print_bool(PRINT_JSON, "complete", NULL, pr->complete);
		print_bool(PRINT_JSON, "stonewalled", NULL, pr->stonewalled);
		close_json_object();
	}
	close_json_array();
	if (rp->env_json)
		print_json_raw("machine", rp->env_json);
	close_json_object();
}

/* A phase's rate over the ranks that ran it: min, max, mean. */
static void print_spread(const struct rank_report *rr, unsigned int index,
			 const char *name)
{
	double lo = INFINITY, hi = -INFINITY, sum = 0;
	unsigned int k, i, n = 0;

	for (k = 0; k < rr->size; k++) {
		const struct results *r = &rr->parts[k].r;

		for (i = 0; i < r->nphases; i++) {
			double v = rate(&r->phases[i]);

			/* a rank that passed the phase idle (a shared
			 * tree's directories are rank 0's) does not count */
			if (r->phases[i].index != index || !isfinite(v) ||
			    (!r->phases[i].ops && !r->phases[i].errors))
				continue;
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
			sum += v;
			n++;
		}
	}
	if (!n)
		return;
	open_json_object(NULL);
	print_string(PRINT_ANY, "name", "%-12s", name);
	print_uint(PRINT_ANY, "ranks", " %5" PRIu64, n);
	print_float(PRINT_ANY, "ops_per_sec_min", " %12.1f", lo);
	print_float(PRINT_ANY, "ops_per_sec_max", " %12.1f", hi);
	print_float(PRINT_ANY, "ops_per_sec_mean", " %12.1f\n", sum / n);
	close_json_object();
}

void print_ranks(const struct rank_report *rr)
{
	const struct results *r0;
	unsigned int k, i;

	if (!rr || !rr->parts)
		return;
	open_json_object("ranks");
	print_uint(PRINT_ANY, "size", "\n%" PRIu64 " ranks", rr->size);
	print_string(PRINT_ANY, "mpi", " (%s)", rr->library);
	print_float(PRINT_ANY, "timeout_s", ", --rank-timeout %.0f s", rr->timeout_s);
	print_string(PRINT_JSON, "aggregate", NULL,
		     "every rank's ops over the slowest rank's phase time");
	print_fp(": each phase above is every rank's ops over the slowest rank's time\n\n");
	print_fp("%-12s %4s %-16s %6s %-8s %10s %11s %12s %10s\n", "phase",
		 "rank", "host", "job", "state", "ops", "elapsed_ms",
		 "ops/s", "cpu_us/op");
	for (k = 0; k < rr->size; k++) {
		const struct rank_part *rp = &rr->parts[k];

		if (!rp->started)
			print_fp("%-12s %4u %-16s %6s %-8s\n", "-", rp->rank,
				 rp->host ? rp->host : "?", "-",
				 rp->lost ? "lost" : "no job");
		for (i = 0; i < rp->r.nphases; i++) {
			const struct phase_result *pr = &rp->r.phases[i];

			print_fp("%-12s %4u %-16.16s %6" PRIu32 " %-8s %10"
				 PRIu64 " %11.1f %12.1f", pr->name,
				 rp->rank, rp->host ? rp->host : "?",
				 rp->job_id, state_name(rp->state), pr->ops,
				 pr->elapsed_ns / 1e6, rate(pr));
			if (pr->ops)
				print_fp(" %10.2f\n",
					 pr->worker_cpu_ns / 1e3 / pr->ops);
			else
				print_fp(" %10s\n", "-");
		}
	}
	for (k = 0; k < rr->size; k++) {
		const struct rank_part *rp = &rr->parts[k];

		if (rp->stop_from >= 0)
			print_fp("rank %u's job was stopped as rank %d asked\n",
				 rp->rank, rp->stop_from);
		if (rp->folded)
			print_fp("rank %u's CPU profile: %s-*.folded on %s\n",
				 rp->rank, rp->folded, rp->host ? rp->host : "?");
		if (rp->flamegraph)
			print_fp("rank %u's flame graphs: %s-*.svg on %s\n",
				 rp->rank, rp->flamegraph,
				 rp->host ? rp->host : "?");
	}
	open_json_array("parts");
	for (k = 0; k < rr->size; k++)
		print_part(&rr->parts[k]);
	close_json_array();
	print_fp("\n%-12s %5s %12s %12s %12s\n", "phase", "ranks",
		 "ops/s_min", "ops/s_max", "ops/s_mean");
	open_json_array("phases");
	r0 = &rr->parts[0].r;
	for (i = 0; i < r0->nphases; i++)
		print_spread(rr, r0->phases[i].index, r0->phases[i].name);
	close_json_array();
	close_json_object();
}
