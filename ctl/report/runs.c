// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl start: reports of one or several jobs.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "lib/print.h"
#include "nl/results.h"
#include "nl/names.h"
#include "report/ranks.h"
#include "report/runs.h"
#include "report/job.h"
#include "report/metric.h"
#include "report/results.h"
#include "report/stats.h"

/* A number or, when not finite, "-" / null. */
static void print_num(const char *key, const char *fmt, int width,
		      double v)
{
	char nfmt[16];

	if (isfinite(v)) {
		print_float(PRINT_ANY, key, fmt, v);
	} else {
		snprintf(nfmt, sizeof(nfmt), " %%%ds", width);
		print_null(PRINT_ANY, key, nfmt);
	}
}

static void print_age(const struct age_report *age)
{
	if (!age || !age->present)
		return;
	open_json_object("age");
	print_float(PRINT_ANY, "target_pct", "age: target %.1f%%", age->target_pct);
	print_float(PRINT_ANY, "before_pct", ", used %.1f%%", age->before_pct);
	print_float(PRINT_ANY, "after_pct", " -> %.1f%%", age->after_pct);
	print_bool(PRINT_JSON, "reached", NULL, age->reached);
	print_bool(PRINT_JSON, "full", NULL, age->full);
	if (age->full)
		print_fp(" (filesystem full: ENOSPC)");
	if (!age->run)
		print_fp(" (already reached)");
	if (age->run) {
		print_uint(PRINT_ANY, "job_id", ", job %" PRIu64, age->run->js.id);
		print_uint(PRINT_JSON, "files_per_thread", NULL,
			   age->run->js.files);
		print_uint(PRINT_ANY, "ops", ", %" PRIu64 " ops", age->run->js.ops);
		print_uint(PRINT_JSON, "bytes", NULL, age->run->js.bytes);
		print_float(PRINT_FP, NULL, ", %.2f MiB",
			    age->run->js.bytes / (1024.0 * 1024.0));
		print_uint(PRINT_JSON, "elapsed_ns", NULL,
			   age->run->js.elapsed_ns);
	} else {
		print_null(PRINT_JSON, "job_id", NULL);
	}
	print_bool(PRINT_JSON, "kept", NULL, age->kept);
	print_fp("%s\n", age->run ? age->kept ? ", files kept" :
		 ", files removed" : "");
	close_json_object();
}

static void print_extents(const struct run *run)
{
	if (!run->has_extents)
		return;
	print_float(PRINT_ANY, "extents_per_file",
		    "extents: %.2f per file", run->ext_files ?
		    (double)run->ext_total / run->ext_files : 0.0);
	print_uint(PRINT_ANY, "extents", " (%" PRIu64 " extents", run->ext_total);
	print_uint(PRINT_ANY, "files_counted", " in %" PRIu64 " files)\n",
		   run->ext_files);
}

/* Phases held for "sync; echo 3 > drop_caches" (FSLOAD_PHASE_F_HOLD). */
static void print_holds(const struct run *run)
{
	if (!run->holds)
		return;
	print_uint(PRINT_ANY, "caches_dropped",
		   "caches dropped: before %" PRIu64 " phases", run->holds);
	print_float(PRINT_ANY, "caches_dropped_ms",
		    " (sync and drop_caches: %.1f ms, outside the phases)\n",
		    run->hold_ns / 1e6);
}

/* JSON: @v, or null when it is not finite. */
static void print_json_num(const char *key, double v)
{
	if (isfinite(v))
		print_float(PRINT_JSON, key, NULL, v);
	else
		print_null(PRINT_JSON, key, NULL);
}

static void print_summary(const struct run *run, const struct profile *pf)
{
	struct metric m;

	profile_metric(pf, &run->r, &run->js, &m);
	print_fp("\n");
	open_json_object("summary");
	print_string(PRINT_JSON, "metric", NULL, m.label);
	print_fp("summary:");
	print_num(m.key, " %.1f", 0, m.value);
	print_fp(" %s", m.label);
	print_uint(PRINT_JSON, "ops", NULL, m.ops);
	print_uint(PRINT_JSON, "elapsed_ns", NULL, m.elapsed_ns);
	if (isfinite(m.lat_avg_ns))
		print_float(PRINT_FP, NULL, ", avg latency %.3f us",
			    m.lat_avg_ns / 1000.0);
	print_json_num("lat_avg_ns", m.lat_avg_ns);
	/* For tables of runs (scripts/matrix.py): over the counted ops. */
	print_uint(PRINT_JSON, "bytes", NULL, m.bytes);
	print_json_num("lat_p50_ns", m.lat_p50_ns);
	print_json_num("lat_p99_ns", m.lat_p99_ns);
	print_json_num("cpu_ns", m.cpu_ns);
	print_fp(" (%" PRIu64 " ops in %.1f ms)\n", m.ops, m.elapsed_ns / 1e6);
	print_extents(run);
	print_holds(run);
	close_json_object();
}

void report_age_reached(const struct age_report *age, bool json)
{
	print_begin(json);
	print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
	open_json_object("age");
	print_float(PRINT_ANY, "target_pct", "age: target %.1f%%",
		    age->target_pct);
	print_float(PRINT_ANY, "before_pct", ", used %.1f%%: already reached\n",
		    age->before_pct);
	print_float(PRINT_JSON, "after_pct", NULL, age->after_pct);
	print_bool(PRINT_JSON, "reached", NULL, true);
	print_null(PRINT_JSON, "job_id", NULL);
	close_json_object();
	print_end();
}

void report_single(const struct run *run, const struct job_extra *x,
		   const struct profile *pf, const struct age_report *age,
		   bool json)
{
	print_begin(json);
	print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
	print_age(age);
	print_job("job", &run->js, x, JOB_VIEW_HEADER);
	print_results(&run->r, &run->js);
	print_summary(run, pf);
	print_ranks(run->ranks);
	print_end();
}

/* JSON only: each job's tables are there with `fsloadctl results ID`. */
static void run_members(const struct run *run)
{
	if (!print_json())
		return;
	print_job("job", &run->js, NULL, JOB_VIEW_HEADER);
	print_results(&run->r, &run->js);
	/* a multi-client run's: each rank's part of the job */
	print_ranks(run->ranks);
}

void report_sweep(const struct run *runs, unsigned int n,
		  const struct profile *pf, const struct age_report *age,
		  bool json)
{
	bool extents = false;
	struct metric m;
	unsigned int i;

	for (i = 0; i < n; i++)
		extents |= runs[i].has_extents;
	profile_metric(pf, &runs[0].r, &runs[0].js, &m);
	print_begin(json);
	print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
	print_age(age);
	print_string(PRINT_ANY, "profile", "profile %s",
		     runs[0].js.profile);
	print_string(PRINT_ANY, "metric", ", thread sweep: %s", m.label);
	print_fp(" of %" PRIu64 " files/thread\n\n", runs[0].js.files);
	print_fp("%7s %6s %-8s %12s %11s %14s %10s %11s%s\n", "threads",
		 "job", "state", "ops", "elapsed_ms", m.label, "avg_us",
		 "cpu_us/op", extents ? " extents/file" : "");
	open_json_array("sweep");
	for (i = 0; i < n; i++) {
		const struct run *run = &runs[i];

		profile_metric(pf, &run->r, &run->js, &m);
		open_json_object(NULL);
		print_uint(PRINT_ANY, "threads", "%7" PRIu64, run->threads);
		print_uint(PRINT_ANY, "job_id", " %6" PRIu64, run->js.id);
		print_string(PRINT_ANY, "state", " %-8s",
			     state_name(run->js.state));
		print_uint(PRINT_ANY, "ops", " %12" PRIu64, m.ops);
		print_uint(PRINT_JSON, "elapsed_ns", NULL, m.elapsed_ns);
		print_fp(" %11.1f", m.elapsed_ns / 1e6);
		print_num(m.key, " %14.1f", 14, m.value);
		if (isfinite(m.lat_avg_ns)) {
			print_float(PRINT_FP, NULL, " %10.3f",
				    m.lat_avg_ns / 1000.0);
			print_float(PRINT_JSON, "lat_avg_ns", NULL,
				    m.lat_avg_ns);
		} else {
			print_null(PRINT_ANY, "lat_avg_ns", " %10s");
		}
		/* The workers' CPU per op: what lock scaling costs. */
		if (isfinite(m.worker_ns_per_op)) {
			print_float(PRINT_FP, NULL, " %11.3f",
				    m.worker_ns_per_op / 1000.0);
			print_float(PRINT_JSON, "worker_ns_per_op", NULL,
				    m.worker_ns_per_op);
		} else {
			print_null(PRINT_ANY, "worker_ns_per_op", " %11s");
		}
		if (run->has_extents)
			print_float(PRINT_ANY, "extents_per_file", " %13.2f",
				    run->ext_files ? (double)run->ext_total /
				    run->ext_files : 0.0);
		print_fp("\n");
		run_members(run);
		close_json_object();
	}
	close_json_array();
	print_end();
}

/* Phase @idx of @run, NULL when it did not run. */
static const struct phase_result *run_phase(const struct run *run,
					    unsigned int idx)
{
	unsigned int i;

	for (i = 0; i < run->r.nphases; i++)
		if (run->r.phases[i].index == idx)
			return &run->r.phases[i];
	return NULL;
}

/* ops/s of phase @idx of @run, NAN when it did not run. */
static double phase_rate(const struct run *run, unsigned int idx)
{
	const struct phase_result *pr = run_phase(run, idx);

	return pr && pr->elapsed_ns ? pr->ops * 1e9 / pr->elapsed_ns : NAN;
}

/*
 * The summary row's note: in how many runs phase @idx was stonewalled,
 * had errors, or did not complete (its rate then covers part of the work).
 */
static void print_phase_note(const struct run *runs, unsigned int n,
			     unsigned int idx)
{
	unsigned int i, sw = 0, err = 0, incomplete = 0;
	const struct phase_result *pr;

	for (i = 0; i < n; i++) {
		pr = run_phase(&runs[i], idx);
		if (!pr)
			continue;
		sw += pr->complete && pr->stonewalled;
		err += pr->errors > 0;
		incomplete += !pr->complete;
	}
	print_uint(PRINT_JSON, "stonewalled_runs", NULL, sw);
	print_uint(PRINT_JSON, "error_runs", NULL, err);
	print_uint(PRINT_JSON, "incomplete_runs", NULL, incomplete);
	if (sw)
		print_fp("  stonewalled %u/%u", sw, n);
	if (err)
		print_fp("%s errors %u/%u", sw ? "," : " ", err, n);
	if (incomplete)
		print_fp("%s incomplete %u/%u", sw || err ? "," : " ",
			 incomplete, n);
}

/*
 * Phase @idx's rates over the @n runs that ran it (@v, room for @n):
 * their mean and deviation in @s, their max and min.
 */
static void phase_rates(const struct run *runs, unsigned int n,
			unsigned int idx, double *v, struct stat_sample *s,
			double *max, double *min)
{
	unsigned int i, cnt = 0;

	*max = NAN;
	*min = NAN;
	for (i = 0; i < n; i++) {
		v[cnt] = phase_rate(&runs[i], idx);
		if (!isfinite(v[cnt]))
			continue;
		if (!cnt || v[cnt] > *max)
			*max = v[cnt];
		if (!cnt || v[cnt] < *min)
			*min = v[cnt];
		cnt++;
	}
	sample_of(v, cnt, s);
}

/*
 * A multi-client run's iterations (rank 0's runs, each every rank's):
 * per phase, each iteration's aggregate rate, as mdtest's -i N has it
 * before its summary.
 */
static void print_rank_iterations(const struct run *runs, unsigned int n,
				  const struct run *ref, int name_w)
{
	unsigned int i, k;

	if (!runs[0].ranks || print_json())
		return;
	print_fp("\n%u ranks: every rank's ops over the slowest rank's time (ops/s)\n",
		 runs[0].ranks->size);
	print_fp("   %-*s", name_w, "Operation");
	for (i = 0; i < n; i++) {
		char head[32];

		snprintf(head, sizeof(head), "iteration %u", i + 1);
		print_fp(" %14s", head);
	}
	print_fp("\n");
	for (k = 0; k < ref->r.nphases; k++) {
		print_fp("   %-*s", name_w, ref->r.phases[k].name);
		for (i = 0; i < n; i++) {
			double v = phase_rate(&runs[i], ref->r.phases[k].index);

			if (isfinite(v))
				print_fp(" %14.3f", v);
			else
				print_fp(" %14s", "-");
		}
		print_fp("\n");
	}
}

void report_iterations(const struct run *runs, unsigned int n,
		       const struct profile *pf, const struct age_report *age,
		       bool json)
{
	unsigned int i, k, nph = 0;
	const struct run *ref = NULL;
	struct stat_sample s;
	double max, min, *v;
	int name_w = 9;

	(void)pf;
	for (i = 0; i < n; i++)
		if (runs[i].r.nphases > nph) {
			nph = runs[i].r.nphases;
			ref = &runs[i];
		}
	print_begin(json);
	print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
	print_age(age);
	print_string(PRINT_JSON, "profile", NULL, runs[0].js.profile);
	open_json_array("iterations");
	for (i = 0; i < n; i++) {
		open_json_object(NULL);
		print_uint(PRINT_FP, NULL, "iteration %" PRIu64, i + 1);
		print_uint(PRINT_FP, NULL, ": job %" PRIu64, runs[i].js.id);
		print_string(PRINT_FP, NULL, ", %s", state_name(runs[i].js.state));
		print_float(PRINT_FP, NULL, ", %.3f s\n",
			    runs[i].js.elapsed_ns / 1e9);
		run_members(&runs[i]);
		close_json_object();
	}
	close_json_array();

	for (k = 0; ref && k < nph; k++)
		if ((int)strlen(ref->r.phases[k].name) > name_w)
			name_w = (int)strlen(ref->r.phases[k].name);
	if (ref)
		print_rank_iterations(runs, n, ref, name_w);
	v = calloc(n ? n : 1, sizeof(*v));
	print_fp("\nSUMMARY rate (ops/s) of %u iteration%s:\n", n,
		 n == 1 ? "" : "s");
	print_fp("   %-*s %14s %14s %14s %14s\n", name_w, "Operation", "Max",
		 "Min", "Mean", "Std Dev");
	print_fp("   %-*s %14s %14s %14s %14s\n", name_w, "---------", "---",
		 "---", "----", "-------");
	open_json_array("summary");
	for (k = 0; ref && v && k < nph; k++) {
		unsigned int idx = ref->r.phases[k].index;
		char fmt[32];

		phase_rates(runs, n, idx, v, &s, &max, &min);
		open_json_object(NULL);
		snprintf(fmt, sizeof(fmt), "   %%-%ds", name_w);
		print_string(PRINT_ANY, "phase", fmt, ref->r.phases[k].name);
		print_uint(PRINT_JSON, "runs", NULL, s.n);
		print_num("max", " %14.3f", 14, max);
		print_num("min", " %14.3f", 14, min);
		print_num("mean", " %14.3f", 14, s.mean);
		/* population standard deviation, as mdtest */
		print_num("stddev", " %14.3f", 14,
			  s.n ? sd_population(&s) : NAN);
		print_phase_note(runs, n, idx);
		print_fp("\n");
		close_json_object();
	}
	close_json_array();
	free(v);
	if (!v)
		errmsg("out of memory: no summary of the iterations");
	print_end();
}
