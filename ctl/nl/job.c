// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a job's status from the kernel, decoded into struct
 * job_status, and the workers of a job.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "nl/attrs.h"
#include "nl/fsload-nl-gen.h"
#include "nl/job.h"
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
