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
#include "workload/profile.h"
#include "engine/run.h"
#include "report/engines.h"
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

/* The run of the reference engine: the kernel's, else the first. */
static unsigned int reference(const struct run *runs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (runs[i].engine == ENGINE_KERNEL)
			return i;
	}
	return 0;
}

/*
 * One engine's row of a phase, text and JSON; the ratios against @ref
 * (none for the reference itself).
 */
static void print_side(const char *phase, int name_w, const char *engine,
		       const struct engine_side *s,
		       const struct engine_side *ref)
{
	char fmt[16];

	snprintf(fmt, sizeof(fmt), "%%-%ds", name_w);
	print_fp(fmt, phase);
	open_json_object(engine);
	print_fp(" %-7s", engine);
	if (s->pr) {
		print_uint(PRINT_ANY, "ops", " %11" PRIu64, s->pr->ops);
		print_uint(PRINT_JSON, "errors", NULL, s->pr->errors);
		print_uint(PRINT_JSON, "elapsed_ns", NULL, s->pr->elapsed_ns);
		print_uint(PRINT_JSON, "worker_cpu_ns", NULL,
			   s->pr->worker_cpu_ns);
	} else {
		print_null(PRINT_ANY, "ops", " %11s");
	}
	print_col("cpu_ns_per_op", 10, 0, s->cpu_per_op);
	if (s != ref)
		print_col("cpu_ratio", 8, 2, ratio(s->cpu_per_op,
						   ref->cpu_per_op));
	else
		print_fp(" %8s", "-");
	print_col(NULL, 10, 3, s->lat_avg / 1000.0);
	print_float(PRINT_JSON, "lat_avg_ns", NULL, s->lat_avg);
	if (s != ref)
		print_col("lat_ratio", 8, 2, ratio(s->lat_avg, ref->lat_avg));
	else
		print_fp(" %8s", "-");
	print_fp("\n");
	close_json_object();
}

/*
 * Per phase: ops, CPU/op and mean latency of each engine, and the ratios
 * to the reference's.
 */
static void print_comparison(const struct run *runs, unsigned int n,
			     unsigned int ref_i)
{
	const struct results *ref = &runs[ref_i].r;
	struct engine_side sides[ENGINE_COUNT];
	unsigned int i, e, same = 0;
	bool all_phases = true;
	int name_w = 5;

	for (e = 0; e < n; e++) {
		if (runs[e].r.nphases > ref->nphases)
			ref = &runs[e].r;
		all_phases &= runs[e].r.nphases == runs[ref_i].r.nphases;
	}
	for (i = 0; i < ref->nphases; i++)
		if ((int)strlen(ref->phases[i].name) > name_w)
			name_w = (int)strlen(ref->phases[i].name);
	print_fp("\nper phase, against the %s engine (cpu: worker CPU ns per op; lat: mean latency us; x: engine/%s):\n",
		 engine_name(runs[ref_i].engine),
		 engine_name(runs[ref_i].engine));
	print_fp("%-*s %-7s %11s %10s %8s %10s %8s\n", name_w, "phase",
		 "engine", "ops", "cpu", "cpu_x", "lat", "lat_x");
	open_json_array("comparison");
	for (i = 0; i < ref->nphases; i++) {
		uint32_t index = ref->phases[i].index;
		bool eq = true;

		for (e = 0; e < n; e++) {
			side_of(&runs[e].r, index, &sides[e]);
			eq &= sides[e].pr && sides[0].pr &&
			      sides[e].pr->ops == sides[0].pr->ops &&
			      sides[e].pr->errors == sides[0].pr->errors;
		}
		same += eq;
		open_json_object(NULL);
		print_uint(PRINT_JSON, "index", NULL, index);
		print_string(PRINT_JSON, "phase", NULL, ref->phases[i].name);
		print_bool(PRINT_JSON, "same_ops", NULL, eq);
		for (e = 0; e < n; e++)
			print_side(ref->phases[i].name, name_w,
				   engine_name(runs[e].engine), &sides[e],
				   &sides[ref_i]);
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

/* The profile's summary metric of each engine, and its ratio. */
static void print_metric(const struct run *runs, unsigned int n,
			 unsigned int ref_i, const struct profile *pf)
{
	struct metric m[ENGINE_COUNT];
	unsigned int e;

	for (e = 0; e < n; e++)
		profile_metric(pf, &runs[e].r, &runs[e].js, &m[e]);
	open_json_object("summary");
	print_string(PRINT_ANY, "metric", "summary: %s", m[ref_i].label);
	print_string(PRINT_JSON, "reference", NULL,
		     engine_name(runs[ref_i].engine));
	for (e = 0; e < n; e++) {
		print_fp("%s", e ? "," : "");
		print_col(engine_name(runs[e].engine), 0, 1, m[e].value);
		print_fp(" %s", engine_name(runs[e].engine));
	}
	open_json_object("ratio");
	for (e = 0; e < n; e++) {
		if (e == ref_i)
			continue;
		print_fp("%s", e == (ref_i ? 0 : 1) ? ";" : ",");
		print_col(engine_name(runs[e].engine), 0, 2,
			  ratio(m[e].value, m[ref_i].value));
		print_fp(" %s/%s", engine_name(runs[e].engine),
			 engine_name(runs[ref_i].engine));
	}
	print_fp("\n");
	close_json_object();
	close_json_object();
}

void report_engines(const struct run *runs, unsigned int n,
		    const struct engine_set *es, const struct job_extra *x,
		    const struct profile *pf, bool json)
{
	unsigned int i;

	print_begin(json);
	print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
	open_json_array("engines");
	for (i = 0; i < es->n; i++)
		print_string(PRINT_JSON, NULL, NULL, engine_name(es->e[i]));
	close_json_array();
	for (i = 0; i < n; i++) {
		print_fp("%s== %s engine ==\n", i ? "\n" : "",
			 engine_name(runs[i].engine));
		open_json_object(engine_name(runs[i].engine));
		print_job("job", &runs[i].js, x, JOB_VIEW_HEADER);
		print_results(&runs[i].r, &runs[i].js);
		close_json_object();
	}
	if (n >= 2) {
		i = reference(runs, n);
		print_comparison(runs, n, i);
		print_metric(runs, n, i, pf);
	} else {
		print_fp("\nonly the %s engine ran: no comparison\n",
			 engine_name(es->e[0]));
	}
	print_end();
}
