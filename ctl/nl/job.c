// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a job's status from the kernel, decoded into struct
 * job_status, and the workers of a job; the JOB_START request, encoded
 * from struct job_start (its reply is a status).
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>

#include "lib/kshim.h"
#include <fsload/engine.h>

#include "lib/fsloadctl.h"
#include "nl/attrs.h"
#include "nl/decode.h"
#include "nl/fsload-nl-gen.h"
#include "nl/job.h"
#include "nl/names.h"
#include "nl/nl.h"
#include "nl/program.h"

static const struct decode_field stall_fields[FSLOAD_A_STALL_MAX + 1] = {
	[FSLOAD_A_STALL_THREAD] = DEC_INT_FIELD(struct job_stall, thread),
	[FSLOAD_A_STALL_PID] = DEC_INT_FIELD(struct job_stall, pid),
	[FSLOAD_A_STALL_PHASE_INDEX] = DEC_INT_FIELD(struct job_stall, phase),
	[FSLOAD_A_STALL_OP] = DEC_INT_FIELD(struct job_stall, op),
	[FSLOAD_A_STALL_START_NS] = DEC_INT_FIELD(struct job_stall, start_ns),
	[FSLOAD_A_STALL_DURATION_NS] =
		DEC_INT_FIELD(struct job_stall, duration_ns),
	[FSLOAD_A_STALL_ENDED] = DEC_BOOL_FIELD(struct job_stall, ended),
};

static const struct decoder stall_decoder = {
	.set = &stall_attrs,
	.fields = stall_fields,
	.have_off = DECODE_NO_HAVE,
};

static const struct decode_array stall_array = {
	.elem = &stall_decoder,
	.size = sizeof(struct job_stall),
	.off = offsetof(struct job_status, stalls),
	.count_off = offsetof(struct job_status, nstalls),
};

static const struct decode_field group_fields[FSLOAD_A_GROUP_MAX + 1] = {
	[FSLOAD_A_GROUP_NAME] = DEC_STR_FIELD(struct job_group, name),
	[FSLOAD_A_GROUP_THREADS] = DEC_INT_FIELD(struct job_group, threads),
};

static const struct decoder group_decoder = {
	.set = &group_attrs,
	.fields = group_fields,
	.have_off = DECODE_NO_HAVE,
};

static const struct decode_array group_array = {
	.elem = &group_decoder,
	.size = sizeof(struct job_group),
	.off = offsetof(struct job_status, groups),
	.count_off = offsetof(struct job_status, ngroups),
	.max = FSLOAD_GROUPS_MAX,
};

/* The job directory's birth time, and that it has one. */
static int decode_dir_btime(const struct nlattr *a,
			    const struct decoder *nest __attribute__((unused)),
			    void *obj)
{
	struct job_status *js = obj;

	js->dir_btime = mnl_attr_get_u64(a);
	js->has_dir_btime = true;
	return 1;
}

/* The job directory's file handle: at most FSLOAD_JOIN_HANDLE_MAX bytes. */
static int decode_dir_handle(const struct nlattr *a,
			     const struct decoder *nest __attribute__((unused)),
			     void *obj)
{
	struct job_status *js = obj;
	uint16_t len = mnl_attr_get_payload_len(a);

	if (!len || len > sizeof(js->dir_handle))
		return 0;
	memcpy(js->dir_handle, mnl_attr_get_payload(a), len);
	js->dir_handle_bytes = len;
	return 1;
}

static const struct decode_field status_fields[FSLOAD_A_JOB_MAX + 1] = {
	[FSLOAD_A_JOB_ID] = DEC_INT_FIELD(struct job_status, id),
	[FSLOAD_A_JOB_DIR] = DEC_STRDUP_FIELD(struct job_status, dir),
	[FSLOAD_A_JOB_DEVICE] = DEC_STRDUP_FIELD(struct job_status, device),
	[FSLOAD_A_JOB_DEVICE_BYTES] =
		DEC_INT_FIELD(struct job_status, device_bytes),
	[FSLOAD_A_JOB_DIR_INO] = DEC_INT_FIELD(struct job_status, dir_ino),
	[FSLOAD_A_JOB_DIR_MODE] = DEC_INT_FIELD(struct job_status, dir_mode),
	[FSLOAD_A_JOB_DIR_BTIME] = DEC_HOOK_FIELD(decode_dir_btime, NULL),
	[FSLOAD_A_JOB_DIR_HANDLE_TYPE] =
		DEC_INT_FIELD(struct job_status, dir_handle_type),
	[FSLOAD_A_JOB_DIR_HANDLE] = DEC_HOOK_FIELD(decode_dir_handle, NULL),
	[FSLOAD_A_JOB_FLAGS] = DEC_INT_FIELD(struct job_status, flags),
	[FSLOAD_A_JOB_THREADS] = DEC_INT_FIELD(struct job_status, threads),
	[FSLOAD_A_JOB_FILES] = DEC_INT_FIELD(struct job_status, files),
	[FSLOAD_A_JOB_FILES_PER_DIR] =
		DEC_INT_FIELD(struct job_status, files_per_dir),
	[FSLOAD_A_JOB_TREE_BRANCH] =
		DEC_INT_FIELD(struct job_status, tree_branch),
	[FSLOAD_A_JOB_FIRST_DIR] =
		DEC_INT_FIELD(struct job_status, first_dir),
	[FSLOAD_A_JOB_RANK] = DEC_INT_FIELD(struct job_status, rank),
	[FSLOAD_A_JOB_RANKS] = DEC_INT_FIELD(struct job_status, ranks),
	[FSLOAD_A_JOB_DIR_NAME] = DEC_STRDUP_FIELD(struct job_status, dir_name),
	[FSLOAD_A_JOB_NAMES] = DEC_INT_FIELD(struct job_status, names),
	[FSLOAD_A_JOB_NAME_BYTES] =
		DEC_INT_FIELD(struct job_status, name_bytes),
	[FSLOAD_A_JOB_NAME_RANDOM_BYTES] =
		DEC_INT_FIELD(struct job_status, name_random_bytes),
	[FSLOAD_A_JOB_HELD] = DEC_INT_FIELD(struct job_status, held),
	[FSLOAD_A_JOB_LAT_SAMPLE] =
		DEC_INT_FIELD(struct job_status, lat_sample),
	[FSLOAD_A_JOB_SEED] = DEC_INT_FIELD(struct job_status, seed),
	[FSLOAD_A_JOB_PROFILE] = DEC_STR_FIELD(struct job_status, profile),
	[FSLOAD_A_JOB_PROGRESS_MS] =
		DEC_INT_FIELD(struct job_status, progress_ms),
	[FSLOAD_A_JOB_STATE] = DEC_INT_FIELD(struct job_status, state),
	[FSLOAD_A_JOB_ERRNO] = DEC_INT_FIELD(struct job_status, err),
	[FSLOAD_A_JOB_ERROR_MSG] =
		DEC_STRDUP_FIELD(struct job_status, error_msg),
	[FSLOAD_A_JOB_PHASE_INDEX] =
		DEC_INT_FIELD(struct job_status, phase_index),
	[FSLOAD_A_JOB_PHASES] = DEC_INT_FIELD(struct job_status, phases),
	[FSLOAD_A_JOB_ELAPSED_NS] =
		DEC_INT_FIELD(struct job_status, elapsed_ns),
	[FSLOAD_A_JOB_OPS] = DEC_INT_FIELD(struct job_status, ops),
	[FSLOAD_A_JOB_BYTES] = DEC_INT_FIELD(struct job_status, bytes),
	[FSLOAD_A_JOB_PHASE_ITEMS] =
		DEC_INT_FIELD(struct job_status, phase_items),
	[FSLOAD_A_JOB_PHASE_ITEMS_DONE] =
		DEC_INT_FIELD(struct job_status, phase_items_done),
	[FSLOAD_A_JOB_GROUP] = DEC_ARRAY_FIELD(&group_array),
	[FSLOAD_A_JOB_OWNER_PORTID] =
		DEC_INT_FIELD(struct job_status, owner_portid),
	[FSLOAD_A_JOB_IDLE_MS] = DEC_INT_FIELD(struct job_status, idle_ms),
	[FSLOAD_A_JOB_CPUS] = DEC_INT_FIELD(struct job_status, cpus),
	[FSLOAD_A_JOB_PMU] = DEC_INT_FIELD(struct job_status, pmu),
	[FSLOAD_A_JOB_IDLE_NS] = DEC_INT_FIELD(struct job_status, idle_ns),
	[FSLOAD_A_JOB_IDLE_BUSY_NS] =
		DEC_INT_FIELD(struct job_status, idle_busy_ns),
	[FSLOAD_A_JOB_OVERHEAD_OPS] =
		DEC_INT_FIELD(struct job_status, overhead_ops),
	[FSLOAD_A_JOB_OVERHEAD_NS] =
		DEC_INT_FIELD(struct job_status, overhead_ns),
	[FSLOAD_A_JOB_OP_CLOCK] = DEC_INT_FIELD(struct job_status, op_clock),
	[FSLOAD_A_JOB_SAMPLE_MS] = DEC_INT_FIELD(struct job_status, sample_ms),
	[FSLOAD_A_JOB_STALL_MS] = DEC_INT_FIELD(struct job_status, stall_ms),
	[FSLOAD_A_JOB_STALL] = DEC_ARRAY_FIELD(&stall_array),
	[FSLOAD_A_JOB_CPU_PROFILE_HZ] =
		DEC_INT_FIELD(struct job_status, cpu_profile_hz),
	[FSLOAD_A_JOB_CPU_PROFILE_STACKS] =
		DEC_INT_FIELD(struct job_status, cpu_profile_stacks),
	[FSLOAD_A_JOB_CPU_PROFILE_CLOCK] =
		DEC_INT_FIELD(struct job_status, cpu_profile_clock),
	[FSLOAD_A_JOB_CPU_PROFILE_PERIOD] =
		DEC_INT_FIELD(struct job_status, cpu_profile_period),
};

const struct decoder job_status_decoder = {
	.set = &job_attrs,
	.fields = status_fields,
	.have_off = offsetof(struct job_status, have),
};

int job_status_parse(const struct nlmsghdr *nlh, struct job_status *js)
{
	return decode_msg(&job_status_decoder, nlh, js);
}

/* One FSLOAD_A_WORKER_* nest. */
struct worker_info {
	uint64_t have;
	uint32_t index, pid, cpu;
};

#define WI_HAS(wi, attr)	(!!((wi)->have & (1ULL << (attr))))

static const struct decode_field worker_fields[FSLOAD_A_WORKER_MAX + 1] = {
	[FSLOAD_A_WORKER_INDEX] = DEC_INT_FIELD(struct worker_info, index),
	[FSLOAD_A_WORKER_PID] = DEC_INT_FIELD(struct worker_info, pid),
	[FSLOAD_A_WORKER_CPU] = DEC_INT_FIELD(struct worker_info, cpu),
};

static const struct decoder worker_decoder = {
	.set = &worker_attrs,
	.fields = worker_fields,
	.have_off = offsetof(struct worker_info, have),
};

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

/* A worker's thread id and CPU go by its index, in two lists. */
static int worker_hook(const struct nlattr *a, const struct decoder *nest,
		       void *obj)
{
	struct job_status *js = obj;
	struct worker_info wi = { 0 };

	if (decode_nest(nest, a, &wi))
		return -1;
	/* Thread directories have 3 digits: no more workers than that. */
	if (!WI_HAS(&wi, FSLOAD_A_WORKER_INDEX) ||
	    wi.index >= FSLOAD_THREADS_MAX)
		return 0;
	if (WI_HAS(&wi, FSLOAD_A_WORKER_PID)) {
		if (!worker_slot(&js->pids, &js->npids, wi.index))
			return -1;
		js->pids[wi.index] = wi.pid;
	} else {
		/* Left out for a requester not privy to them. */
		js->pids_hidden = true;
	}
	if (WI_HAS(&wi, FSLOAD_A_WORKER_CPU)) {
		if (!worker_slot(&js->worker_cpus, &js->nworker_cpus,
				 wi.index))
			return -1;
		js->worker_cpus[wi.index] = wi.cpu;
	}
	return 0;
}

static const struct decode_field workers_fields[FSLOAD_A_JOB_MAX + 1] = {
	[FSLOAD_A_JOB_WORKER] = DEC_HOOK_FIELD(worker_hook, &worker_decoder),
};

const struct decoder job_workers_decoder = {
	.set = &job_attrs,
	.fields = workers_fields,
	.have_off = DECODE_NO_HAVE,
};

int job_workers_parse(const struct nlmsghdr *nlh, struct job_status *js)
{
	return decode_msg(&job_workers_decoder, nlh, js);
}

void job_status_free(struct job_status *js)
{
	free(js->dir);
	free(js->device);
	free(js->dir_name);
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

/* The directory of rank 0's job to join, and what it is (join-*). */
static void put_join(struct nl_ctx *nl, const char *dir,
		     const struct fsload_dir_id *id)
{
	nl_put_strz(nl, FSLOAD_A_JOB_JOIN_DIR, dir);
	nl_put_u64(nl, FSLOAD_A_JOB_JOIN_INO, id->ino);
	nl_put_u32(nl, FSLOAD_A_JOB_JOIN_MODE, id->mode);
	if (id->has_btime)
		nl_put_u64(nl, FSLOAD_A_JOB_JOIN_BTIME, id->btime_ns);
	if (id->handle_bytes) {
		nl_put_u32(nl, FSLOAD_A_JOB_JOIN_HANDLE_TYPE, id->handle_type);
		nl_put_bytes(nl, FSLOAD_A_JOB_JOIN_HANDLE, id->handle,
			     id->handle_bytes);
	}
}

void job_start_put(struct nl_ctx *nl, const struct job_start *s)
{
	unsigned int i;

	nl_msg_new(nl, FSLOAD_CMD_JOB_START, false);
	if (s->prog->block)
		nl_put_strz(nl, FSLOAD_A_JOB_DEVICE, s->device);
	else
		nl_put_strz(nl, FSLOAD_A_JOB_DIR, s->dir);
	nl_put_u32(nl, FSLOAD_A_JOB_FLAGS, s->flags);
	nl_put_u32(nl, FSLOAD_A_JOB_THREADS, s->threads);
	nl_put_u64(nl, FSLOAD_A_JOB_FILES, s->files);
	nl_put_u32(nl, FSLOAD_A_JOB_FILES_PER_DIR, s->files_per_dir);
	if (s->tree_branch)
		nl_put_u32(nl, FSLOAD_A_JOB_TREE_BRANCH, s->tree_branch);
	if (s->first_dir)
		nl_put_u32(nl, FSLOAD_A_JOB_FIRST_DIR, s->first_dir);
	if (s->rank)
		nl_put_u32(nl, FSLOAD_A_JOB_RANK, s->rank);
	if (s->ranks > 1)
		nl_put_u32(nl, FSLOAD_A_JOB_RANKS, s->ranks);
	if (s->join_dir)
		put_join(nl, s->join_dir, s->join_id);
	if (s->lat_sample != 1)
		nl_put_u32(nl, FSLOAD_A_JOB_LAT_SAMPLE, s->lat_sample);
	nl_put_u8(nl, FSLOAD_A_JOB_NAMES, s->names);
	if (s->name_bytes)
		nl_put_u32(nl, FSLOAD_A_JOB_NAME_BYTES, s->name_bytes);
	if (s->name_random_bytes)
		nl_put_u32(nl, FSLOAD_A_JOB_NAME_RANDOM_BYTES,
			   s->name_random_bytes);
	nl_put_u64(nl, FSLOAD_A_JOB_SEED, s->seed);
	nl_put_strz(nl, FSLOAD_A_JOB_PROFILE, s->prog->profile);
	nl_put_u32(nl, FSLOAD_A_JOB_PROGRESS_MS, s->progress_ms);
	nl_put_u32(nl, FSLOAD_A_JOB_IDLE_MS, s->idle_ms);
	nl_put_u32(nl, FSLOAD_A_JOB_SAMPLE_MS, s->sample_ms);
	nl_put_u32(nl, FSLOAD_A_JOB_STALL_MS, s->stall_ms);
	if (s->cpu_profile_hz)
		nl_put_u32(nl, FSLOAD_A_JOB_CPU_PROFILE_HZ, s->cpu_profile_hz);
	if (s->cpu_profile_hz && s->cpu_profile_stacks)
		nl_put_u32(nl, FSLOAD_A_JOB_CPU_PROFILE_STACKS,
			   s->cpu_profile_stacks);
	program_put(nl, s->prog, s->phase_flags);
	for (i = 0; i < s->ncpus; i++)
		nl_put_u32(nl, FSLOAD_A_JOB_WORKER_CPU, s->cpus[i]);
}

int job_start_reply_cb(const struct nlmsghdr *nlh, void *data)
{
	return job_status_parse(nlh, data);
}
