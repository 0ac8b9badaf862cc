// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: job status parsing and printing.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "lib/fsloadctl.h"
#include "nl/attrs.h"
#include "lib/print.h"
#include "nl/job.h"
#include "lib/msg.h"
#include "nl/names.h"

static int stall_attr_cb(const struct nlattr *a, void *data)
{
	const struct attr_set *set = &stall_attrs;
	struct job_stall *st = data;
	uint8_t v;

	switch (mnl_attr_get_type(a)) {
	case FSLOAD_A_STALL_THREAD:
		attr_get_u32(a, set, &st->thread);
		break;
	case FSLOAD_A_STALL_PID:
		attr_get_u32(a, set, &st->pid);
		break;
	case FSLOAD_A_STALL_PHASE_INDEX:
		attr_get_u32(a, set, &st->phase);
		break;
	case FSLOAD_A_STALL_OP:
		attr_get_u8(a, set, &st->op);
		break;
	case FSLOAD_A_STALL_START_NS:
		attr_get_u64(a, set, &st->start_ns);
		break;
	case FSLOAD_A_STALL_DURATION_NS:
		attr_get_u64(a, set, &st->duration_ns);
		break;
	case FSLOAD_A_STALL_ENDED:
		if (attr_get_u8(a, set, &v))
			st->ended = v;
		break;
	}
	return MNL_CB_OK;
}

static int group_attr_cb(const struct nlattr *a, void *data)
{
	struct job_status *js = data;
	unsigned int g = js->ngroups;

	switch (mnl_attr_get_type(a)) {
	case FSLOAD_A_GROUP_NAME:
		attr_get_str(a, &group_attrs, js->groups[g].name,
			     sizeof(js->groups[g].name));
		break;
	case FSLOAD_A_GROUP_THREADS:
		attr_get_u32(a, &group_attrs, &js->groups[g].threads);
		break;
	}
	return MNL_CB_OK;
}

static int status_attr_cb(const struct nlattr *a, void *data)
{
	struct job_status *js = data;
	unsigned int type = mnl_attr_get_type(a);
	const struct attr_set *set = &job_attrs;
	struct job_stall *st;
	bool ok = false;
	char *s;

	switch (type) {
	case FSLOAD_A_JOB_ID:
		ok = attr_get_u32(a, set, &js->id);
		break;
	case FSLOAD_A_JOB_DIR:
		s = attr_dup_str(a, set);
		if (s) {
			free(js->dir);
			js->dir = s;
			ok = true;
		}
		break;
	case FSLOAD_A_JOB_DEVICE:
		s = attr_dup_str(a, set);
		if (s) {
			free(js->device);
			js->device = s;
			ok = true;
		}
		break;
	case FSLOAD_A_JOB_DEVICE_BYTES:
		ok = attr_get_u64(a, set, &js->device_bytes);
		break;
	case FSLOAD_A_JOB_DIR_INO:
		ok = attr_get_u64(a, set, &js->dir_ino);
		break;
	case FSLOAD_A_JOB_FLAGS:
		ok = attr_get_u32(a, set, &js->flags);
		break;
	case FSLOAD_A_JOB_THREADS:
		ok = attr_get_u32(a, set, &js->threads);
		break;
	case FSLOAD_A_JOB_FILES:
		ok = attr_get_u64(a, set, &js->files);
		break;
	case FSLOAD_A_JOB_FILES_PER_DIR:
		ok = attr_get_u32(a, set, &js->files_per_dir);
		break;
	case FSLOAD_A_JOB_TREE_BRANCH:
		ok = attr_get_u32(a, set, &js->tree_branch);
		break;
	case FSLOAD_A_JOB_HELD:
		ok = attr_get_u32(a, set, &js->held);
		break;
	case FSLOAD_A_JOB_SEED:
		ok = attr_get_u64(a, set, &js->seed);
		break;
	case FSLOAD_A_JOB_PROFILE:
		ok = attr_get_str(a, set, js->profile, sizeof(js->profile));
		break;
	case FSLOAD_A_JOB_PROGRESS_MS:
		ok = attr_get_u32(a, set, &js->progress_ms);
		break;
	case FSLOAD_A_JOB_STATE:
		ok = attr_get_u8(a, set, &js->state);
		break;
	case FSLOAD_A_JOB_ERRNO:
		ok = attr_get_u32(a, set, &js->err);
		break;
	case FSLOAD_A_JOB_ERROR_MSG:
		s = attr_dup_str(a, set);
		if (s) {
			free(js->error_msg);
			js->error_msg = s;
			ok = true;
		}
		break;
	case FSLOAD_A_JOB_PHASE_INDEX:
		ok = attr_get_u32(a, set, &js->phase_index);
		break;
	case FSLOAD_A_JOB_PHASES:
		ok = attr_get_u32(a, set, &js->phases);
		break;
	case FSLOAD_A_JOB_ELAPSED_NS:
		ok = attr_get_u64(a, set, &js->elapsed_ns);
		break;
	case FSLOAD_A_JOB_OPS:
		ok = attr_get_u64(a, set, &js->ops);
		break;
	case FSLOAD_A_JOB_BYTES:
		ok = attr_get_u64(a, set, &js->bytes);
		break;
	case FSLOAD_A_JOB_GROUP:
		if (!attr_is_nest(a, set) || js->ngroups == FSLOAD_GROUPS_MAX)
			break;
		mnl_attr_parse_nested(a, group_attr_cb, js);
		js->ngroups++;
		ok = true;
		break;
	case FSLOAD_A_JOB_OWNER_PORTID:
		ok = attr_get_u32(a, set, &js->owner_portid);
		break;
	case FSLOAD_A_JOB_IDLE_MS:
		ok = attr_get_u32(a, set, &js->idle_ms);
		break;
	case FSLOAD_A_JOB_CPUS:
		ok = attr_get_u32(a, set, &js->cpus);
		break;
	case FSLOAD_A_JOB_PMU:
		ok = attr_get_u8(a, set, &js->pmu);
		break;
	case FSLOAD_A_JOB_IDLE_NS:
		ok = attr_get_u64(a, set, &js->idle_ns);
		break;
	case FSLOAD_A_JOB_IDLE_BUSY_NS:
		ok = attr_get_u64(a, set, &js->idle_busy_ns);
		break;
	case FSLOAD_A_JOB_OVERHEAD_OPS:
		ok = attr_get_u64(a, set, &js->overhead_ops);
		break;
	case FSLOAD_A_JOB_OVERHEAD_NS:
		ok = attr_get_u64(a, set, &js->overhead_ns);
		break;
	case FSLOAD_A_JOB_SAMPLE_MS:
		ok = attr_get_u32(a, set, &js->sample_ms);
		break;
	case FSLOAD_A_JOB_STALL_MS:
		ok = attr_get_u32(a, set, &js->stall_ms);
		break;
	case FSLOAD_A_JOB_STALL:
		if (!attr_is_nest(a, set))
			break;
		st = realloc(js->stalls, (js->nstalls + 1) * sizeof(*st));
		if (!st)
			return MNL_CB_ERROR;
		js->stalls = st;
		st = &js->stalls[js->nstalls++];
		memset(st, 0, sizeof(*st));
		mnl_attr_parse_nested(a, stall_attr_cb, st);
		ok = true;
		break;
	default:
		/* a request-only attribute, or one from a newer module */
		break;
	}
	if (ok && type < 64)
		js->have |= 1ULL << type;
	return MNL_CB_OK;
}

int job_status_parse(const struct nlmsghdr *nlh, struct job_status *js)
{
	if (mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN)
		return 0;
	if (mnl_attr_parse(nlh, GENL_HDRLEN, status_attr_cb, js) ==
	    MNL_CB_ERROR) {
		errmsg("out of memory");
		return EXIT_SYSERR;
	}
	return 0;
}

/* One FSLOAD_A_WORKER_* nest. */
struct worker_info {
	uint32_t index, pid, cpu;
	bool has_index, has_pid, has_cpu;
};

static int worker_attr_cb(const struct nlattr *a, void *data)
{
	const struct attr_set *set = &worker_attrs;
	struct worker_info *wi = data;

	switch (mnl_attr_get_type(a)) {
	case FSLOAD_A_WORKER_INDEX:
		wi->has_index = attr_get_u32(a, set, &wi->index);
		break;
	case FSLOAD_A_WORKER_PID:
		wi->has_pid = attr_get_u32(a, set, &wi->pid);
		break;
	case FSLOAD_A_WORKER_CPU:
		wi->has_cpu = attr_get_u32(a, set, &wi->cpu);
		break;
	}
	return MNL_CB_OK;
}

/* Room for worker @i in *@v (of *@n), new entries zeroed; false: ENOMEM. */
static bool worker_slot(uint32_t **v, unsigned int *n, uint32_t i)
{
	uint32_t *t;

	if (i < *n)
		return true;
	t = realloc(*v, (i + 1) * sizeof(*t));
	if (!t)
		return false;
	memset(t + *n, 0, (i + 1 - *n) * sizeof(*t));
	*v = t;
	*n = i + 1;
	return true;
}

static int workers_attr_cb(const struct nlattr *a, void *data)
{
	struct job_status *js = data;
	struct worker_info wi = { 0 };

	if (mnl_attr_get_type(a) != FSLOAD_A_JOB_WORKER ||
	    !attr_is_nest(a, &job_attrs))
		return MNL_CB_OK;
	mnl_attr_parse_nested(a, worker_attr_cb, &wi);
	/* Thread directories have 3 digits: no more workers than that. */
	if (!wi.has_index || wi.index >= FSLOAD_THREADS_MAX)
		return MNL_CB_OK;
	if (wi.has_pid) {
		if (!worker_slot(&js->pids, &js->npids, wi.index))
			return MNL_CB_ERROR;
		js->pids[wi.index] = wi.pid;
	}
	if (wi.has_cpu) {
		if (!worker_slot(&js->worker_cpus, &js->nworker_cpus,
				 wi.index))
			return MNL_CB_ERROR;
		js->worker_cpus[wi.index] = wi.cpu;
	}
	return MNL_CB_OK;
}

int job_workers_parse(const struct nlmsghdr *nlh, struct job_status *js)
{
	if (mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN)
		return 0;
	if (mnl_attr_parse(nlh, GENL_HDRLEN, workers_attr_cb, js) ==
	    MNL_CB_ERROR) {
		errmsg("out of memory");
		return EXIT_SYSERR;
	}
	return 0;
}

void job_status_free(struct job_status *js)
{
	free(js->dir);
	free(js->device);
	free(js->worker_cpus);
	free(js->error_msg);
	free(js->pids);
	free(js->stalls);
	memset(js, 0, sizeof(*js));
}

void job_status_move(struct job_status *dst, struct job_status *src)
{
	job_status_free(dst);
	*dst = *src;
	memset(src, 0, sizeof(*src));
}

/*
 * The uapi does not say whether FSLOAD_A_JOB_PHASE_INDEX counts from 0
 * or 1; fsload counts phases from 0 (as FSLOAD_A_RES_PHASE_INDEX), and
 * people from 1.
 */
const char *job_phase_str(const struct job_status *js, char *buf, size_t len)
{
	if (!JS_HAS(js, FSLOAD_A_JOB_PHASE_INDEX) ||
	    !JS_HAS(js, FSLOAD_A_JOB_PHASES))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%" PRIu32 "/%" PRIu32,
			 js->phase_index + 1, js->phases);
	return buf;
}

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
	} else {
		print_null(PRINT_JSON, "overhead_ops", NULL);
		print_null(PRINT_JSON, "overhead_ns", NULL);
		print_null(PRINT_ANY, "overhead_ns_per_op",
			   ", engine overhead %s");
	}
	print_fp("\n");
}

void print_job_row_titles(void)
{
	print_fp("%5s  %-9s  %-12s  %7s  %12s  %9s  %s\n", "id", "state",
		 "profile", "phase", "ops", "elapsed_s", "dir");
}

void print_job(const char *key, const struct job_status *js,
	       const struct job_extra *x, enum job_view view)
{
	char ebuf[32], pbuf[32];
	unsigned int i;

	open_json_object(key);
	if (js->user_engine && view != JOB_VIEW_ROW)
		print_fp("user engine:");
	print_attr_uint(js, FSLOAD_A_JOB_ID, "id",
		       VIEW("job %" PRIu64 ":", "job %" PRIu64 ":",
			    "%5" PRIu64), js->id);
	print_string(PRINT_JSON, "engine", NULL,
		     js->user_engine ? "user" : "kernel");
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

	open_json_object("flags");
	print_bool(PRINT_JSON, "keep", NULL, js->flags & FSLOAD_JOB_F_KEEP);
	print_bool(PRINT_JSON, "detach", NULL,
		   js->flags & FSLOAD_JOB_F_DETACH);
	close_json_object();

	print_attr_uint(js, FSLOAD_A_JOB_THREADS, "threads",
		       VIEW(" threads %" PRIu64 ",", " threads %" PRIu64 ",",
			    NULL), js->threads);
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
	if (x && x->has_size && view != JOB_VIEW_ROW) {
		print_uint(PRINT_FP, NULL, " size %" PRIu64 ",", x->size);
		print_string(PRINT_FP, NULL, " fsync %s,",
			     x->fsync ? "on" : "off");
	}
	print_attr_uint(js, FSLOAD_A_JOB_SEED, "seed",
		       VIEW(" seed %" PRIu64 ",", " seed %" PRIu64 ",", NULL),
		       js->seed);
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

	if (view != JOB_VIEW_ROW)
		print_job_measurement(js);
	print_attr_uint(js, FSLOAD_A_JOB_SAMPLE_MS, "sample_ms", NULL,
			js->sample_ms);
	print_attr_uint(js, FSLOAD_A_JOB_STALL_MS, "stall_ms", NULL,
			js->stall_ms);
	open_json_array("stalls");
	for (i = 0; i < js->nstalls; i++) {
		const struct job_stall *st = &js->stalls[i];

		open_json_object(NULL);
		print_uint(PRINT_JSON, "thread", NULL, st->thread);
		print_uint(PRINT_JSON, "pid", NULL, st->pid);
		print_uint(PRINT_JSON, "phase_index", NULL, st->phase);
		print_string(PRINT_JSON, "op", NULL,
			     st->op ? op_name(st->op) : NULL);
		print_uint(PRINT_JSON, "start_ns", NULL, st->start_ns);
		print_uint(PRINT_JSON, "duration_ns", NULL, st->duration_ns);
		print_bool(PRINT_JSON, "ended", NULL, st->ended);
		if (view != JOB_VIEW_ROW)
			print_fp("stall: worker %" PRIu32 " (thread %" PRIu32
				 ") in phase %" PRIu32 ": no progress for %.1f s%s\n",
				 st->thread, st->pid, st->phase,
				 st->duration_ns / 1e9,
				 st->ended ? ", then moved again" : "");
		close_json_object();
	}
	close_json_array();

	open_json_array("worker_pids");
	if (view != JOB_VIEW_ROW)
		print_fp("workers:");
	for (i = 0; i < js->npids; i++)
		print_uint(view != JOB_VIEW_ROW ? PRINT_ANY : PRINT_JSON,
			   NULL, " %" PRIu64, js->pids[i]);
	if (view != JOB_VIEW_ROW)
		print_fp("%s\n", js->npids ? "" : " -");
	close_json_array();

	/* thread groups: their names and threads, workers in that order */
	open_json_array("groups");
	if (view != JOB_VIEW_ROW && js->ngroups)
		print_fp("groups:");
	for (i = 0; i < js->ngroups; i++) {
		open_json_object(NULL);
		print_string(view != JOB_VIEW_ROW ? PRINT_ANY : PRINT_JSON,
			     "name", " %s", js->groups[i].name);
		print_uint(view != JOB_VIEW_ROW ? PRINT_ANY : PRINT_JSON,
			   "threads", " %" PRIu64, js->groups[i].threads);
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
		print_uint(view != JOB_VIEW_ROW ? PRINT_ANY : PRINT_JSON,
			   NULL, " %" PRIu64, js->worker_cpus[i]);
	if (view != JOB_VIEW_ROW && js->nworker_cpus)
		print_fp("\n");
	close_json_array();

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
