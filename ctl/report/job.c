// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a job's status, as text (header, status ID, list's row)
 * and JSON.
 */
#include <inttypes.h>
#include <stdio.h>

#include "lib/fsloadctl.h"
#include "lib/print.h"
#include "nl/job.h"
#include "nl/names.h"
#include "report/env.h"
#include "report/job.h"

/* Format for @view, NULL when the field is not in that text view. */
#define VIEW(hdr, detail, row) \
	(view == JOB_VIEW_HEADER ? (hdr) : view == JOB_VIEW_DETAIL ? (detail) : (row))

static void print_attr_uint(const struct job_status *js, unsigned int attr,
			   const char *key, const char *fmt, uint64_t v)
{
	if (JS_HAS(js, attr))
		print_uint(PRINT_ANY, key, fmt, v);
	else
		print_null(PRINT_JSON, key, NULL);
}

/*
 * The machine and the harness: CPUs, PMU, the idle baseline and the
 * engine's own per-op cost (what every figure includes).
 */
static void print_job_measurement(const struct job_status *js)
{
	bool idle = JS_HAS(js, FSLOAD_A_JOB_IDLE_NS) && js->idle_ns;
	bool oh = JS_HAS(js, FSLOAD_A_JOB_OVERHEAD_OPS) && js->overhead_ops;
	double idle_pct = idle && js->cpus ?
		100.0 * js->idle_busy_ns / ((double)js->idle_ns * js->cpus) : 0;

	print_attr_uint(js, FSLOAD_A_JOB_CPUS, "cpus", "cpus %" PRIu64,
			js->cpus);
	if (JS_HAS(js, FSLOAD_A_JOB_PMU))
		print_bool(PRINT_JSON, "pmu", NULL, js->pmu);
	else
		print_null(PRINT_JSON, "pmu", NULL);
	print_fp(", PMU %s", !JS_HAS(js, FSLOAD_A_JOB_PMU) ? "-" :
		 js->pmu ? "yes" : "none (instructions, cycles: n/a)");
	/*
	 * The busy time of all CPUs (system, tail, idle baseline): the
	 * kernel's idle time (kernel engine, module/measure.c), the CPUs'
	 * run time in /proc/schedstat or, without it, /proc/stat's ticks
	 * (user engine); ns but for the ticks.
	 */
	print_string(PRINT_JSON, "system_cpu_from", NULL,
		     !js->user_engine ? "kernel_idle" :
		     js->busy_ticks ? "ticks" : "schedstat");
	if (js->busy_ticks)
		print_fp(", busy time in ticks");
	print_attr_uint(js, FSLOAD_A_JOB_IDLE_MS, "idle_ms", NULL,
			js->idle_ms);
	if (idle) {
		print_uint(PRINT_JSON, "idle_ns", NULL, js->idle_ns);
		print_uint(PRINT_JSON, "idle_busy_ns", NULL, js->idle_busy_ns);
		print_fp(", idle baseline %.2f%% busy over %.0f ms", idle_pct,
			 js->idle_ns / 1e6);
	} else {
		print_null(PRINT_JSON, "idle_ns", NULL);
		print_null(PRINT_JSON, "idle_busy_ns", NULL);
		print_fp(", no idle baseline");
	}
	if (oh) {
		print_uint(PRINT_JSON, "overhead_ops", NULL, js->overhead_ops);
		print_uint(PRINT_JSON, "overhead_ns", NULL, js->overhead_ns);
		print_float(PRINT_ANY, "overhead_ns_per_op",
			    ", engine overhead %.1f ns/op",
			    (double)js->overhead_ns / js->overhead_ops);
		if (JS_HAS(js, FSLOAD_A_JOB_OP_CLOCK))
			print_string(PRINT_ANY, "op_clock", " (clock %s)",
				     op_clock_name(js->op_clock));
		else
			print_null(PRINT_JSON, "op_clock", NULL);
	} else {
		print_null(PRINT_JSON, "overhead_ops", NULL);
		print_null(PRINT_JSON, "overhead_ns", NULL);
		print_null(PRINT_ANY, "overhead_ns_per_op",
			   ", engine overhead %s");
		print_null(PRINT_JSON, "op_clock", NULL);
	}
	if (JS_HAS(js, FSLOAD_A_JOB_CPU_PROFILE_HZ)) {
		open_json_object("cpu_profile");
		print_uint(PRINT_ANY, "hz", ", CPU profile %" PRIu64 " Hz",
			   js->cpu_profile_hz);
		print_uint(PRINT_JSON, "stacks", NULL, js->cpu_profile_stacks);
		print_string(PRINT_ANY, "clock", " (%s",
			     js->cpu_profile_clock ==
			     FSLOAD_PROFILE_CLOCK_CYCLES ? "cycles" :
			     "cpu-clock");
		print_uint(PRINT_ANY, "period", ", period %" PRIu64 ")",
			   js->cpu_profile_period);
		close_json_object();
	}
	print_fp("\n");
	/*
	 * Text only (JSON: environment.cpu of a result file): the CPU the
	 * figures are of; under QEMU's instruction clock its string flags
	 * decide whether memset and friends count per byte (rep stosb).
	 */
	if (!print_json()) {
		struct env_cpu cpu;
		char line[512];

		env_cpu_read(&cpu);
		env_cpu_line(&cpu, line, sizeof(line));
		print_fp("cpu: %s\n", line);
	}
}

void print_job_row_titles(void)
{
	print_fp("%5s  %-9s  %-12s  %7s  %12s  %9s  %s\n", "id", "state",
		 "profile", "phase", "ops", "elapsed_s", "dir");
}

/* Id, engine, state (list), profile, and where the job works. */
static void print_job_identity(const struct job_status *js,
			       enum job_view view)
{
	char pbuf[32];

	if (js->user_engine && view != JOB_VIEW_ROW)
		print_fp("%s engine:", js->uring ? "uring" : "user");
	print_attr_uint(js, FSLOAD_A_JOB_ID, "id",
		       VIEW("job %" PRIu64 ":", "job %" PRIu64 ":",
			    "%5" PRIu64), js->id);
	print_string(PRINT_JSON, "engine", NULL,
		     js->uring ? "uring" : js->user_engine ? "user" : "kernel");
	if (js->uring) {
		/* null in the JSON of the other engines: no such option */
		print_uint(PRINT_JSON, "uring_batch", NULL, js->uring_batch);
		print_bool(PRINT_JSON, "uring_sqpoll", NULL, js->uring_sqpoll);
		if (view != JOB_VIEW_ROW)
			print_fp(" batch %" PRIu32 "%s,", js->uring_batch,
				 js->uring_sqpoll ? ", sqpoll" : "");
	} else {
		print_null(PRINT_JSON, "uring_batch", NULL);
		print_null(PRINT_JSON, "uring_sqpoll", NULL);
	}
	if (view == JOB_VIEW_ROW)
		print_string(PRINT_ANY, "state", "  %-9s",
			     JS_HAS(js, FSLOAD_A_JOB_STATE) ?
			     state_name(js->state) : NULL);
	print_string(PRINT_ANY, "profile",
		     VIEW(" profile %s,", " profile %s,", "  %-12s"),
		     js->have & (1ULL << FSLOAD_A_JOB_PROFILE) ?
		     js->profile : NULL);
	if (view == JOB_VIEW_ROW) {
		print_fp("  %7s", job_phase_str(js, pbuf, sizeof(pbuf)));
		print_fp("  %12" PRIu64, js->ops);
		print_fp("  %9.1f", js->elapsed_ns / 1e9);
	}
	if (js->device) {
		print_string(PRINT_ANY, "device",
			     VIEW(" device %s,", " device %s,", "  %s\n"),
			     js->device);
		if (view != JOB_VIEW_ROW)
			print_attr_uint(js, FSLOAD_A_JOB_DEVICE_BYTES,
					"device_bytes", " %" PRIu64 " bytes,",
					js->device_bytes);
	} else {
		print_string(PRINT_ANY, "dir",
			     VIEW(" dir %s,", " dir %s,", "  %s\n"), js->dir);
	}
}

/* Flags, threads, files, size, seed; the state (not in list's row). */
static void print_job_params(const struct job_status *js,
			     const struct job_extra *x, enum job_view view)
{
	open_json_object("flags");
	print_bool(PRINT_JSON, "keep", NULL, js->flags & FSLOAD_JOB_F_KEEP);
	print_bool(PRINT_JSON, "detach", NULL,
		   js->flags & FSLOAD_JOB_F_DETACH);
	close_json_object();

	print_attr_uint(js, FSLOAD_A_JOB_THREADS, "threads",
		       VIEW(" threads %" PRIu64 ",", " threads %" PRIu64 ",",
			    NULL), js->threads);
	/* absent: 0, a job on its own; said in text when not */
	print_uint(PRINT_JSON, "rank", NULL, js->rank);
	if (js->rank && view != JOB_VIEW_ROW)
		print_fp(" rank %" PRIu32 ",", js->rank);
	print_attr_uint(js, FSLOAD_A_JOB_FILES, "files_per_thread",
		       VIEW(" files/thread %" PRIu64 ",",
			    " files/thread %" PRIu64 ",", NULL), js->files);
	print_attr_uint(js, FSLOAD_A_JOB_FILES_PER_DIR, "files_per_dir",
		       VIEW(" files/dir %" PRIu64 ",",
			    " files/dir %" PRIu64 ",", NULL),
		       js->files_per_dir);
	print_attr_uint(js, FSLOAD_A_JOB_TREE_BRANCH, "tree_branch",
		       VIEW(" tree branch %" PRIu64 ",",
			    " tree branch %" PRIu64 ",", NULL),
		       js->tree_branch);
	print_attr_uint(js, FSLOAD_A_JOB_FIRST_DIR, "first_dir",
		       VIEW(" first dir %" PRIu64 ",",
			    " first dir %" PRIu64 ",", NULL),
		       js->first_dir);
	print_string(PRINT_ANY, "names",
		     VIEW(" names %s,", " names %s,", NULL),
		     JS_HAS(js, FSLOAD_A_JOB_NAMES) ? names_name(js->names) :
		     NULL);
	/* fsmark names only */
	print_attr_uint(js, FSLOAD_A_JOB_NAME_BYTES, "name_bytes",
			VIEW(" name bytes %" PRIu64 ",",
			     " name bytes %" PRIu64 ",", NULL),
			js->name_bytes);
	print_attr_uint(js, FSLOAD_A_JOB_NAME_RANDOM_BYTES, "name_random_bytes",
			VIEW(" random %" PRIu64 ",", " random %" PRIu64 ",",
			     NULL), js->name_random_bytes);
	if (x && x->has_size && view != JOB_VIEW_ROW) {
		print_uint(PRINT_FP, NULL, " size %" PRIu64 ",", x->size);
		print_string(PRINT_FP, NULL, " fsync %s,",
			     x->fsync ? "on" : "off");
	}
	print_attr_uint(js, FSLOAD_A_JOB_SEED, "seed",
		       VIEW(" seed %" PRIu64 ",", " seed %" PRIu64 ",", NULL),
		       js->seed);
	/* every op timed (1) is not said in text */
	print_attr_uint(js, FSLOAD_A_JOB_LAT_SAMPLE, "lat_sample",
			view != JOB_VIEW_ROW && js->lat_sample > 1 ?
			" lat sample 1/%" PRIu64 "," : NULL, js->lat_sample);
	if (view != JOB_VIEW_ROW) {
		if (js->flags & FSLOAD_JOB_F_KEEP)
			print_fp(" keep,");
		if (js->flags & FSLOAD_JOB_F_DETACH)
			print_fp(" detached,");
		print_string(PRINT_ANY, "state", " state %s",
			     JS_HAS(js, FSLOAD_A_JOB_STATE) ?
			     state_name(js->state) : NULL);
		print_attr_uint(js, FSLOAD_A_JOB_HELD, "held_before_phase",
				", held before phase %" PRIu64, js->held);
		print_fp("\n");
	}
}

/* The error, the phase (status ID), the totals so far. */
static void print_job_progress(const struct job_status *js,
			       const struct job_extra *x, enum job_view view)
{
	char ebuf[32], pbuf[32];

	print_uint(PRINT_JSON, "errno", NULL, js->err);
	print_string(PRINT_JSON, "error", NULL, js->error_msg);
	if (view != JOB_VIEW_ROW &&
	    (js->err || js->error_msg || js->state == FSLOAD_JOB_FAILED))
		print_fp("error: %s: %s\n",
			 js->err ? errno_name((int)js->err, ebuf, sizeof(ebuf)) :
			 "-", js->error_msg ? js->error_msg : "-");

	if (view == JOB_VIEW_DETAIL) {
		print_fp("phase %s", job_phase_str(js, pbuf, sizeof(pbuf)));
		if (x && js->phase_index < x->nphases &&
		    JS_HAS(js, FSLOAD_A_JOB_PHASE_INDEX))
			print_fp(" (%s)", x->phase_names[js->phase_index]);
		print_fp(",");
	}
	print_attr_uint(js, FSLOAD_A_JOB_ELAPSED_NS, "elapsed_ns", NULL,
		       js->elapsed_ns);
	print_attr_uint(js, FSLOAD_A_JOB_OPS, "ops", NULL, js->ops);
	print_attr_uint(js, FSLOAD_A_JOB_BYTES, "bytes", NULL, js->bytes);
	if (view != JOB_VIEW_ROW)
		print_fp("%selapsed %.3f s, %" PRIu64 " ops, %.2f MiB\n",
			 view == JOB_VIEW_DETAIL ? " " : "",
			 js->elapsed_ns / 1e9, js->ops,
			 js->bytes / (1024.0 * 1024.0));
}

/* The workers the kernel saw without progress. */
static void print_job_stalls(const struct job_status *js, enum job_view view)
{
	unsigned int i;

	print_attr_uint(js, FSLOAD_A_JOB_SAMPLE_MS, "sample_ms", NULL,
			js->sample_ms);
	print_attr_uint(js, FSLOAD_A_JOB_STALL_MS, "stall_ms", NULL,
			js->stall_ms);
	open_json_array("stalls");
	for (i = 0; i < js->nstalls; i++) {
		const struct job_stall *st = &js->stalls[i];

		open_json_object(NULL);
		print_uint(PRINT_JSON, "thread", NULL, st->thread);
		/* 0: left out, for a requester not privy to it */
		if (st->pid)
			print_uint(PRINT_JSON, "pid", NULL, st->pid);
		else
			print_null(PRINT_JSON, "pid", NULL);
		print_uint(PRINT_JSON, "phase_index", NULL, st->phase);
		print_string(PRINT_JSON, "op", NULL,
			     st->op ? op_name(st->op) : NULL);
		print_uint(PRINT_JSON, "start_ns", NULL, st->start_ns);
		print_uint(PRINT_JSON, "duration_ns", NULL, st->duration_ns);
		print_bool(PRINT_JSON, "ended", NULL, st->ended);
		if (view != JOB_VIEW_ROW && st->pid)
			print_fp("stall: worker %" PRIu32 " (thread %" PRIu32
				 ") in phase %" PRIu32 ": no progress for %.1f s%s\n",
				 st->thread, st->pid, st->phase,
				 st->duration_ns / 1e9,
				 st->ended ? ", then moved again" : "");
		else if (view != JOB_VIEW_ROW)
			print_fp("stall: worker %" PRIu32 " in phase %" PRIu32
				 ": no progress for %.1f s%s\n",
				 st->thread, st->phase, st->duration_ns / 1e9,
				 st->ended ? ", then moved again" : "");
		close_json_object();
	}
	close_json_array();
}

/* The workers' thread ids, the thread groups, the pinned CPUs. */
static void print_job_workers(const struct job_status *js,
			      enum job_view view)
{
	enum output_type t = view != JOB_VIEW_ROW ? PRINT_ANY : PRINT_JSON;
	unsigned int i;

	/* Hidden: only the job's starter or an administrator sees them. */
	if (js->pids_hidden && !js->npids) {
		print_null(PRINT_JSON, "worker_pids", NULL);
		if (view != JOB_VIEW_ROW)
			print_fp("workers: thread ids hidden (not your job)\n");
	} else {
		open_json_array("worker_pids");
		if (view != JOB_VIEW_ROW)
			print_fp("workers:");
		for (i = 0; i < js->npids; i++)
			print_uint(t, NULL, " %" PRIu64, js->pids[i]);
		if (view != JOB_VIEW_ROW)
			print_fp("%s\n", js->npids ? "" : " -");
		close_json_array();
	}

	/* thread groups: their names and threads, workers in that order */
	open_json_array("groups");
	if (view != JOB_VIEW_ROW && js->ngroups)
		print_fp("groups:");
	for (i = 0; i < js->ngroups; i++) {
		open_json_object(NULL);
		print_string(t, "name", " %s", js->groups[i].name);
		print_uint(t, "threads", " %" PRIu64, js->groups[i].threads);
		close_json_object();
	}
	if (view != JOB_VIEW_ROW && js->ngroups)
		print_fp("\n");
	close_json_array();

	/* pinned workers: the CPU of each, in thread order */
	open_json_array("worker_cpus");
	if (view != JOB_VIEW_ROW && js->nworker_cpus)
		print_fp("pinned to CPUs:");
	for (i = 0; i < js->nworker_cpus; i++)
		print_uint(t, NULL, " %" PRIu64, js->worker_cpus[i]);
	if (view != JOB_VIEW_ROW && js->nworker_cpus)
		print_fp("\n");
	close_json_array();
}

void print_job(const char *key, const struct job_status *js,
	       const struct job_extra *x, enum job_view view)
{
	open_json_object(key);
	print_job_identity(js, view);
	print_job_params(js, x, view);
	print_job_progress(js, x, view);
	if (view != JOB_VIEW_ROW)
		print_job_measurement(js);
	print_job_stalls(js, view);
	print_job_workers(js, view);
	if (view != JOB_VIEW_HEADER) {
		print_attr_uint(js, FSLOAD_A_JOB_PHASE_INDEX, "phase_index",
			       NULL, js->phase_index);
		print_attr_uint(js, FSLOAD_A_JOB_PHASES, "phases", NULL,
			       js->phases);
		print_attr_uint(js, FSLOAD_A_JOB_PROGRESS_MS, "progress_ms",
			       NULL, js->progress_ms);
		print_attr_uint(js, FSLOAD_A_JOB_OWNER_PORTID, "owner_portid",
			       view == JOB_VIEW_DETAIL && js->owner_portid ?
			       "owner: netlink port %" PRIu64
			       " (the job stops when it closes)\n" : NULL,
			       js->owner_portid);
	}
	close_json_object();
}

void report_job_started(const struct job_status *js,
			const struct job_extra *x, bool json)
{
	print_begin(json);
	print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
	print_uint(PRINT_ANY, "id", "job %" PRIu64 " started\n", js->id);
	if (json)
		print_job("job", js, x, JOB_VIEW_HEADER);
	print_end();
}
