// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl start --engine kernel,user,uring (both: kernel,user): the
 * report of each engine's run of the same program, each in full, then
 * side by side per phase with the ratio of each engine to the reference
 * (the kernel engine when it ran, else the first) of the workers' CPU per
 * operation and of the mean latency: what the system-call boundary, or
 * io_uring's batching of it, costs on this filesystem.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/parse.h"
#include "lib/print.h"
#include "nl/results.h"
#include "nl/job.h"
#include "nl/names.h"
#include "workload/profile.h"
#include "engine/run.h"
#include "report/engines.h"
#include "report/ranks.h"
#include "report/job.h"
#include "report/metric.h"
#include "report/results.h"

/* What the comparison takes from one engine's run of a phase. */
struct engine_side {
	const struct phase_result *pr;	/* NULL: the phase did not run */
	double cpu_per_op;		/* worker CPU ns per op; NAN */
	double lat_avg;			/* mean latency, ns; NAN */
};

static void side_of(const struct results *r, uint32_t index, struct engine_side *s)
{
	uint64_t n = 0, lat_sum = 0;
	unsigned int i;

	s->pr = results_phase(r, index);
	s->cpu_per_op = NAN;
	s->lat_avg = NAN;
	if (!s->pr)
		return;
	for (i = 0; i < s->pr->nopstats; i++) {
		n += opstat_sampled(&s->pr->opstats[i]);
		lat_sum += s->pr->opstats[i].lat_sum_ns;
	}
	if (s->pr->ops && RES_HAS(s->pr, FSLOAD_A_RES_WORKER_CPU_NS))
		s->cpu_per_op = (double)s->pr->worker_cpu_ns / s->pr->ops;
	if (n)
		s->lat_avg = (double)lat_sum / n;
}

/* A mean of finite values: sum and count. */
struct mean {
	double sum;
	unsigned int n;
};

static void mean_add(struct mean *m, double v)
{
	if (isfinite(v)) {
		m->sum += v;
		m->n++;
	}
}

static double mean_of(const struct mean *m)
{
	return m->n ? m->sum / m->n : NAN;
}

/* Where an engine ran in its iteration: first, or after another. */
enum { ORDER_FIRST, ORDER_LATER, ORDER_ALL, ORDER_N };

static const char *const order_key[ORDER_ALL] = { "first", "later" };

/* One engine's runs of a phase, over the iterations. */
struct engine_agg {
	enum engine engine;
	struct engine_side one;		/* its first run's: ops, errors */
	unsigned int runs[ORDER_N];	/* runs that ran the phase */
	struct mean cpu[ORDER_N], lat[ORDER_N];
};

static void agg_of(const struct run *runs, unsigned int n, enum engine e,
		   uint32_t index, struct engine_agg *a)
{
	struct engine_side s;
	unsigned int i, o;

	memset(a, 0, sizeof(*a));
	a->engine = e;
	a->one.cpu_per_op = NAN;
	a->one.lat_avg = NAN;
	for (i = 0; i < n; i++) {
		if (runs[i].engine != e)
			continue;
		side_of(&runs[i].r, index, &s);
		if (!s.pr)
			continue;
		if (!a->runs[ORDER_ALL])
			a->one = s;
		o = runs[i].position ? ORDER_LATER : ORDER_FIRST;
		a->runs[o]++;
		a->runs[ORDER_ALL]++;
		mean_add(&a->cpu[o], s.cpu_per_op);
		mean_add(&a->cpu[ORDER_ALL], s.cpu_per_op);
		mean_add(&a->lat[o], s.lat_avg);
		mean_add(&a->lat[ORDER_ALL], s.lat_avg);
	}
}

static double ratio(double v, double ref)
{
	return isfinite(v) && isfinite(ref) && ref > 0 ? v / ref : NAN;
}

/*
 * A number in a text column of @width, and JSON's @key (none if NULL),
 * null when not finite.
 */
static void print_col(const char *key, int width, int prec, double v)
{
	enum output_type t = key ? PRINT_ANY : PRINT_FP;
	char fmt[16];

	if (isfinite(v)) {
		snprintf(fmt, sizeof(fmt), " %%%d.%df", width, prec);
		print_float(t, key, fmt, v);
	} else {
		snprintf(fmt, sizeof(fmt), " %%%ds", width);
		print_null(t, key, fmt);
	}
}

/* The iterations the runs are of: 1 + the last one's. */
static unsigned int iterations_of(const struct run *runs, unsigned int n)
{
	return n ? runs[n - 1].iteration + 1 : 0;
}

/* Whether engine @e ran (a run of it is among the @n). */
static bool engine_ran(const struct run *runs, unsigned int n, enum engine e)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (runs[i].engine == e)
			return true;
	}
	return false;
}

/* The reference engine: the kernel's when it ran, else the list's first. */
static enum engine reference(const struct run *runs, unsigned int n,
			     const struct engine_set *es)
{
	return engine_ran(runs, n, ENGINE_KERNEL) ? ENGINE_KERNEL : es->e[0];
}

/*
 * One engine's row of a phase, text and JSON; the ratios against @ref
 * (none for the reference itself).  Over several iterations (@multi):
 * the means over its runs, and those where it ran first and later, with
 * the ratio later/first (its order effect).
 */
static void print_side(const char *phase, int name_w,
		       const struct engine_agg *a,
		       const struct engine_agg *ref, bool multi)
{
	double cpu = mean_of(&a->cpu[ORDER_ALL]);
	double lat = mean_of(&a->lat[ORDER_ALL]);
	const struct phase_result *pr = a->one.pr;
	char fmt[16];
	unsigned int o;

	snprintf(fmt, sizeof(fmt), "%%-%ds", name_w);
	print_fp(fmt, phase);
	open_json_object(engine_name(a->engine));
	print_fp(" %-7s", engine_name(a->engine));
	if (pr) {
		print_uint(PRINT_ANY, "ops", " %11" PRIu64, pr->ops);
		print_uint(PRINT_JSON, "errors", NULL, pr->errors);
		if (!multi) {
			print_uint(PRINT_JSON, "elapsed_ns", NULL,
				   pr->elapsed_ns);
			print_uint(PRINT_JSON, "worker_cpu_ns", NULL,
				   pr->worker_cpu_ns);
		}
	} else {
		print_null(PRINT_ANY, "ops", " %11s");
	}
	print_col("cpu_ns_per_op", 10, 0, cpu);
	if (a != ref)
		print_col("cpu_ratio", 8, 2,
			  ratio(cpu, mean_of(&ref->cpu[ORDER_ALL])));
	else
		print_fp(" %8s", "-");
	print_col(NULL, 10, 3, lat / 1000.0);
	print_float(PRINT_JSON, "lat_avg_ns", NULL, lat);
	if (a != ref)
		print_col("lat_ratio", 8, 2,
			  ratio(lat, mean_of(&ref->lat[ORDER_ALL])));
	else
		print_fp(" %8s", "-");
	if (multi) {
		print_uint(PRINT_JSON, "runs", NULL, a->runs[ORDER_ALL]);
		for (o = ORDER_FIRST; o < ORDER_ALL; o++) {
			open_json_object(order_key[o]);
			print_uint(PRINT_JSON, "runs", NULL, a->runs[o]);
			print_float(PRINT_JSON, "cpu_ns_per_op", NULL,
				    mean_of(&a->cpu[o]));
			print_float(PRINT_JSON, "lat_avg_ns", NULL,
				    mean_of(&a->lat[o]));
			close_json_object();
		}
		print_col("cpu_order_ratio", 8, 3,
			  ratio(mean_of(&a->cpu[ORDER_LATER]),
				mean_of(&a->cpu[ORDER_FIRST])));
		print_col("lat_order_ratio", 8, 3,
			  ratio(mean_of(&a->lat[ORDER_LATER]),
				mean_of(&a->lat[ORDER_FIRST])));
	}
	print_fp("\n");
	close_json_object();
}

/* Whether run @r's phase @index has the ops and errors of @s's. */
static bool same_ops(const struct run *r, uint32_t index,
		     const struct phase_result *s)
{
	const struct phase_result *pr = results_phase(&r->r, index);

	return pr && s && pr->ops == s->ops && pr->errors == s->errors;
}

/*
 * Per phase: ops, CPU/op and mean latency of each engine (means over the
 * iterations), and the ratios to the reference's; with several
 * iterations, each engine's order effect.
 */
static void print_comparison(const struct run *runs, unsigned int n,
			     const struct engine_set *es, enum engine ref_e)
{
	const struct results *ref = &runs[0].r;
	struct engine_agg aggs[ENGINE_COUNT];
	bool multi = iterations_of(runs, n) > 1;
	unsigned int i, e, k, na, ref_i = 0, same = 0;
	bool all_phases = true;
	int name_w = 5;

	for (i = 0; i < n; i++) {
		if (runs[i].r.nphases > ref->nphases)
			ref = &runs[i].r;
		all_phases &= runs[i].r.nphases == runs[0].r.nphases;
	}
	for (i = 0; i < ref->nphases; i++)
		if ((int)strlen(ref->phases[i].name) > name_w)
			name_w = (int)strlen(ref->phases[i].name);
	print_fp("\nper phase, against the %s engine (cpu: worker CPU ns per op; lat: mean latency us; x: engine/%s",
		 engine_name(ref_e), engine_name(ref_e));
	if (multi)
		print_fp("; means over the iterations; ord: later/first, the engine's mean when it ran after another over its mean when it ran first");
	print_fp("):\n");
	print_fp("%-*s %-7s %11s %10s %8s %10s %8s", name_w, "phase",
		 "engine", "ops", "cpu", "cpu_x", "lat", "lat_x");
	if (multi)
		print_fp(" %8s %8s", "cpu_ord", "lat_ord");
	print_fp("\n");
	open_json_array("comparison");
	for (i = 0; i < ref->nphases; i++) {
		uint32_t index = ref->phases[i].index;
		const struct phase_result *first = results_phase(&runs[0].r,
								 index);
		bool eq = true;

		for (k = 0; k < n; k++)
			eq &= same_ops(&runs[k], index, first);
		na = 0;
		for (e = 0; e < es->n; e++) {
			if (!engine_ran(runs, n, es->e[e]))
				continue;
			if (es->e[e] == ref_e)
				ref_i = na;
			agg_of(runs, n, es->e[e], index, &aggs[na++]);
		}
		same += eq;
		open_json_object(NULL);
		print_uint(PRINT_JSON, "index", NULL, index);
		print_string(PRINT_JSON, "phase", NULL, ref->phases[i].name);
		print_bool(PRINT_JSON, "same_ops", NULL, eq);
		for (e = 0; e < na; e++)
			print_side(ref->phases[i].name, name_w, &aggs[e],
				   &aggs[ref_i], multi);
		if (!eq)
			print_fp("%-*s (ops differ)\n", name_w, "");
		close_json_object();
	}
	close_json_array();
	print_bool(PRINT_JSON, "same_ops", NULL,
		   same == ref->nphases && all_phases);
	print_fp("identical operation counts: %s\n",
		 same == ref->nphases && all_phases ? "yes" : "no");
}

/*
 * The profile's summary metric of each engine (its mean over the
 * iterations), and its ratio to the reference's.
 */
static void print_metric(const struct run *runs, unsigned int n,
			 const struct engine_set *es, enum engine ref_e,
			 const struct profile *pf)
{
	struct mean m[ENGINE_COUNT] = { { 0 } };
	const char *label = NULL;
	struct metric one;
	unsigned int i, e;
	bool sep = false;

	for (i = 0; i < n; i++) {
		profile_metric(pf, &runs[i].r, &runs[i].js, &one);
		mean_add(&m[runs[i].engine], one.value);
		if (!label || runs[i].engine == ref_e)
			label = one.label;
	}
	open_json_object("summary");
	print_string(PRINT_ANY, "metric", "summary: %s", label);
	print_string(PRINT_JSON, "reference", NULL, engine_name(ref_e));
	for (e = 0; e < es->n; e++) {
		if (!engine_ran(runs, n, es->e[e]))
			continue;
		print_fp("%s", sep ? "," : "");
		sep = true;
		print_col(engine_name(es->e[e]), 0, 1, mean_of(&m[es->e[e]]));
		print_fp(" %s", engine_name(es->e[e]));
	}
	open_json_object("ratio");
	sep = false;
	for (e = 0; e < es->n; e++) {
		if (es->e[e] == ref_e || !engine_ran(runs, n, es->e[e]))
			continue;
		print_fp("%s", sep ? "," : ";");
		sep = true;
		print_col(engine_name(es->e[e]), 0, 2,
			  ratio(mean_of(&m[es->e[e]]), mean_of(&m[ref_e])));
		print_fp(" %s/%s", engine_name(es->e[e]), engine_name(ref_e));
	}
	print_fp("\n");
	close_json_object();
	close_json_object();
}

/*
 * The order the engines ran in, per iteration (JSON "order"); with
 * several iterations, one line each in the text, and how often each
 * engine ran first.
 */
static void print_order(const struct run *runs, unsigned int n,
			const struct engine_set *es, unsigned int niter)
{
	unsigned int i, e, first;

	open_json_array("order");
	for (i = 0; i < n; i++) {
		if (!runs[i].position) {
			if (i)
				close_json_array();
			open_json_array(NULL);
			if (niter > 1)
				print_fp("iteration %u:",
					 runs[i].iteration + 1);
		}
		print_string(PRINT_JSON, NULL, NULL,
			     engine_name(runs[i].engine));
		if (niter > 1) {
			print_fp("%s %s (", runs[i].position ? "," : "",
				 engine_name(runs[i].engine));
			if (runs[i].js.id)
				print_fp("job %u, ", (unsigned int)runs[i].js.id);
			print_fp("%s, %.3f s)", state_name(runs[i].js.state),
				 runs[i].js.elapsed_ns / 1e9);
			if (i + 1 == n || !runs[i + 1].position)
				print_fp("\n");
		}
	}
	if (n)
		close_json_array();
	close_json_array();
	if (niter <= 1)
		return;
	print_fp("ran first:");
	for (e = 0; e < es->n; e++) {
		first = 0;
		for (i = 0; i < n; i++)
			first += runs[i].engine == es->e[e] && !runs[i].position;
		print_fp("%s %s %u", e ? "," : "", engine_name(es->e[e]),
			 first);
	}
	print_fp(" of %u iterations (the list rotated by one each iteration)\n",
		 niter);
}

/* Each engine's runs in full: one, or its iterations' (JSON only). */
static void print_runs(const struct run *runs, unsigned int n,
		       const struct engine_set *es, const struct job_extra *x,
		       unsigned int niter)
{
	unsigned int i, e;

	if (niter <= 1) {
		for (i = 0; i < n; i++) {
			print_fp("%s== %s engine ==\n", i ? "\n" : "",
				 engine_name(runs[i].engine));
			open_json_object(engine_name(runs[i].engine));
			print_uint(PRINT_JSON, "position", NULL,
				   runs[i].position + 1);
			print_job("job", &runs[i].js, x, JOB_VIEW_HEADER);
			print_results(&runs[i].r, &runs[i].js);
			/* a multi-client run's: each rank's part */
			print_ranks(runs[i].ranks);
			close_json_object();
		}
		return;
	}
	if (!print_json())
		return;
	for (e = 0; e < es->n; e++) {
		if (!engine_ran(runs, n, es->e[e]))
			continue;
		open_json_object(engine_name(es->e[e]));
		open_json_array("iterations");
		for (i = 0; i < n; i++) {
			if (runs[i].engine != es->e[e])
				continue;
			open_json_object(NULL);
			print_uint(PRINT_JSON, "iteration", NULL,
				   runs[i].iteration + 1);
			print_uint(PRINT_JSON, "position", NULL,
				   runs[i].position + 1);
			print_job("job", &runs[i].js, x, JOB_VIEW_HEADER);
			print_results(&runs[i].r, &runs[i].js);
			/* a multi-client run's: each rank's part */
			print_ranks(runs[i].ranks);
			close_json_object();
		}
		close_json_array();
		close_json_object();
	}
}

void report_engines(const struct run *runs, unsigned int n,
		    const struct engine_set *es, const struct job_extra *x,
		    const struct profile *pf, bool json)
{
	unsigned int i, ran = 0, niter = iterations_of(runs, n);
	enum engine ref_e = reference(runs, n, es);

	print_begin(json);
	print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
	open_json_array("engines");
	for (i = 0; i < es->n; i++)
		print_string(PRINT_JSON, NULL, NULL, engine_name(es->e[i]));
	close_json_array();
	print_order(runs, n, es, niter);
	print_runs(runs, n, es, x, niter);
	for (i = 0; i < es->n; i++)
		ran += engine_ran(runs, n, es->e[i]);
	if (ran >= 2) {
		print_comparison(runs, n, es, ref_e);
		print_metric(runs, n, es, ref_e, pf);
	} else {
		print_fp("\nonly the %s engine ran: no comparison\n",
			 engine_name(runs[0].engine));
	}
	print_end();
}
