// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a job's results from the kernel (RESULT_GET dump), decoded
 * into struct results; the requests for a job's status (JOB_GET) and
 * workers (WORKER_GET).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/parse.h"
#include "lib/print.h"
#include "nl/attrs.h"
#include "nl/decode.h"
#include "nl/fsload-nl-gen.h"
#include "nl/nl.h"
#include "nl/results.h"
#include "nl/series.h"
#include "nl/job.h"
#include "nl/names.h"

#define HAS(s, attr)	(!!((s)->have & (1ULL << (attr))))

static const struct decode_field bucket_fields[FSLOAD_A_BUCKET_MAX + 1] = {
	[FSLOAD_A_BUCKET_LOW_NS] = DEC_INT_FIELD(struct hist_bucket, low_ns),
	[FSLOAD_A_BUCKET_HIGH_NS] = DEC_INT_FIELD(struct hist_bucket, high_ns),
	[FSLOAD_A_BUCKET_COUNT] = DEC_INT_FIELD(struct hist_bucket, count),
};

static const struct decoder bucket_decoder = {
	.set = &bucket_attrs,
	.fields = bucket_fields,
	.have_off = DECODE_NO_HAVE,
};

/* A bucket the kernel cannot have sent is ignored. */
static bool bucket_keep(const void *elem)
{
	const struct hist_bucket *b = elem;

	return b->count && b->high_ns > b->low_ns;
}

static const struct decode_array bucket_array = {
	.elem = &bucket_decoder,
	.size = sizeof(struct hist_bucket),
	.off = offsetof(struct opstat, buckets),
	.count_off = offsetof(struct opstat, nbuckets),
	.keep = bucket_keep,
};

static const struct decode_field opstat_fields[FSLOAD_A_OPSTAT_MAX + 1] = {
	[FSLOAD_A_OPSTAT_TYPE] = DEC_INT_FIELD(struct opstat, type),
	[FSLOAD_A_OPSTAT_OPS] = DEC_INT_FIELD(struct opstat, ops),
	[FSLOAD_A_OPSTAT_ERRORS] = DEC_INT_FIELD(struct opstat, errors),
	[FSLOAD_A_OPSTAT_MISSES] = DEC_INT_FIELD(struct opstat, misses),
	[FSLOAD_A_OPSTAT_BYTES] = DEC_INT_FIELD(struct opstat, bytes),
	[FSLOAD_A_OPSTAT_SAMPLED] = DEC_INT_FIELD(struct opstat, sampled),
	[FSLOAD_A_OPSTAT_LAT_SUM_NS] = DEC_INT_FIELD(struct opstat, lat_sum_ns),
	[FSLOAD_A_OPSTAT_LAT_MIN_NS] = DEC_INT_FIELD(struct opstat, lat_min_ns),
	[FSLOAD_A_OPSTAT_LAT_MAX_NS] = DEC_INT_FIELD(struct opstat, lat_max_ns),
	[FSLOAD_A_OPSTAT_BUCKET] = DEC_ARRAY_FIELD(&bucket_array),
};

static const struct decoder opstat_decoder = {
	.set = &opstat_attrs,
	.fields = opstat_fields,
	.have_off = offsetof(struct opstat, have),
};

/* Unusable without its type. */
static bool opstat_keep(const void *elem)
{
	return HAS((const struct opstat *)elem, FSLOAD_A_OPSTAT_TYPE);
}

static void opstat_release(void *elem)
{
	free(((struct opstat *)elem)->buckets);
}

static const struct decode_array opstat_array = {
	.elem = &opstat_decoder,
	.size = sizeof(struct opstat),
	.off = offsetof(struct phase_result, opstats),
	.count_off = offsetof(struct phase_result, nopstats),
	.keep = opstat_keep,
	.release = opstat_release,
};

/* The name of a thread is given to a privileged reader only. */
static int thread_name_hook(const struct nlattr *a,
			    const struct decoder *nest, void *obj)
{
	struct thread_cpu *t = obj;

	(void)nest;
	decode_str(a, t->name, sizeof(t->name));
	t->named = true;
	return 1;
}

static const struct decode_field thread_fields[FSLOAD_A_THREAD_MAX + 1] = {
	[FSLOAD_A_THREAD_NAME] = DEC_HOOK_FIELD(thread_name_hook, NULL),
	[FSLOAD_A_THREAD_PID] = DEC_INT_FIELD(struct thread_cpu, pid),
	[FSLOAD_A_THREAD_KERNEL] = DEC_BOOL_FIELD(struct thread_cpu, kernel),
	[FSLOAD_A_THREAD_CPU_NS] = DEC_INT_FIELD(struct thread_cpu, cpu_ns),
};

static const struct decoder thread_decoder = {
	.set = &thread_attrs,
	.fields = thread_fields,
	.have_off = DECODE_NO_HAVE,
};

static const struct decode_array thread_array = {
	.elem = &thread_decoder,
	.size = sizeof(struct thread_cpu),
	.off = offsetof(struct phase_result, top),
	.count_off = offsetof(struct phase_result, ntop),
};

static const struct decode_field progress_fields[FSLOAD_A_PROGRESS_MAX + 1] = {
	[FSLOAD_A_PROGRESS_PCT] = DEC_INT_FIELD(struct progress_mark, pct),
	[FSLOAD_A_PROGRESS_WORKERS] =
		DEC_INT_FIELD(struct progress_mark, workers),
	[FSLOAD_A_PROGRESS_ITEMS] = DEC_INT_FIELD(struct progress_mark, items),
	[FSLOAD_A_PROGRESS_ELAPSED_NS] =
		DEC_INT_FIELD(struct progress_mark, elapsed_ns),
};

static const struct decoder progress_decoder = {
	.set = &progress_attrs,
	.fields = progress_fields,
	.have_off = DECODE_NO_HAVE,
};

static const struct decode_array progress_array = {
	.elem = &progress_decoder,
	.size = sizeof(struct progress_mark),
	.off = offsetof(struct phase_result, progress),
	.count_off = offsetof(struct phase_result, nprogress),
	.max = FSLOAD_PROGRESS_MARKS,
};

static const struct decode_field res_fields[FSLOAD_A_RES_MAX + 1] = {
	[FSLOAD_A_RES_WORKER_CPU_NS] =
		DEC_INT_FIELD(struct phase_result, worker_cpu_ns),
	[FSLOAD_A_RES_INSTRUCTIONS] =
		DEC_INT_FIELD(struct phase_result, instructions),
	[FSLOAD_A_RES_CYCLES] = DEC_INT_FIELD(struct phase_result, cycles),
	[FSLOAD_A_RES_SYSTEM_CPU_NS] =
		DEC_INT_FIELD(struct phase_result, system_cpu_ns),
	[FSLOAD_A_RES_TAIL_NS] = DEC_INT_FIELD(struct phase_result, tail_ns),
	[FSLOAD_A_RES_START_NS] = DEC_INT_FIELD(struct phase_result, start_ns),
	[FSLOAD_A_RES_TAIL_CPU_NS] =
		DEC_INT_FIELD(struct phase_result, tail_cpu_ns),
	[FSLOAD_A_RES_THREAD] = DEC_ARRAY_FIELD(&thread_array),
	[FSLOAD_A_RES_PROGRESS] = DEC_ARRAY_FIELD(&progress_array),
	[FSLOAD_A_RES_PROFILE_SAMPLES] =
		DEC_INT_FIELD(struct phase_result, prof_samples),
	[FSLOAD_A_RES_PROFILE_DROPPED] =
		DEC_INT_FIELD(struct phase_result, prof_dropped),
	[FSLOAD_A_RES_PROFILE_NS] = DEC_INT_FIELD(struct phase_result, prof_ns),
	[FSLOAD_A_RES_OP_CLOCK] = DEC_INT_FIELD(struct phase_result, op_clock),
	[FSLOAD_A_RES_OP_CLOCK_BACK_STEPS] =
		DEC_INT_FIELD(struct phase_result, op_clock_back_steps),
	[FSLOAD_A_RES_PHASE_INDEX] = DEC_INT_FIELD(struct phase_result, index),
	[FSLOAD_A_RES_PHASE_NAME] = DEC_STR_FIELD(struct phase_result, name),
	[FSLOAD_A_RES_THREADS] = DEC_INT_FIELD(struct phase_result, threads),
	[FSLOAD_A_RES_COMPLETE] = DEC_INT_FIELD(struct phase_result, complete),
	[FSLOAD_A_RES_STONEWALLED] =
		DEC_INT_FIELD(struct phase_result, stonewalled),
	[FSLOAD_A_RES_ELAPSED_NS] =
		DEC_INT_FIELD(struct phase_result, elapsed_ns),
	[FSLOAD_A_RES_OPS] = DEC_INT_FIELD(struct phase_result, ops),
	[FSLOAD_A_RES_ERRORS] = DEC_INT_FIELD(struct phase_result, errors),
	[FSLOAD_A_RES_BYTES] = DEC_INT_FIELD(struct phase_result, bytes),
	[FSLOAD_A_RES_OPSTAT] = DEC_ARRAY_FIELD(&opstat_array),
};

static const struct decoder res_decoder = {
	.set = &res_attrs,
	.fields = res_fields,
	.have_off = offsetof(struct phase_result, have),
};

/* Append @n buckets to @os; false when out of memory. */
static bool opstat_add_buckets(struct opstat *os, const struct hist_bucket *b,
			       unsigned int n)
{
	struct hist_bucket *tmp;

	if (!n)
		return true;
	tmp = realloc(os->buckets, (os->nbuckets + n) * sizeof(*tmp));
	if (!tmp)
		return false;
	memcpy(tmp + os->nbuckets, b, n * sizeof(*tmp));
	os->buckets = tmp;
	os->nbuckets += n;
	return true;
}

struct results_ctx {
	uint32_t id;
	struct results *r;
};

static void phase_result_free(struct phase_result *pr)
{
	unsigned int i;

	for (i = 0; i < pr->nopstats; i++)
		free(pr->opstats[i].buckets);
	free(pr->opstats);
	free(pr->top);
}

/*
 * A later message of a phase already seen carries more histogram buckets
 * of its op types: move them into @dst.
 */
static bool phase_merge(struct phase_result *dst, struct phase_result *src)
{
	struct opstat *d, *tmp;
	unsigned int i, j;

	for (i = 0; i < src->nopstats; i++) {
		struct opstat *s = &src->opstats[i];

		for (j = 0, d = NULL; j < dst->nopstats && !d; j++) {
			if (dst->opstats[j].type == s->type)
				d = &dst->opstats[j];
		}
		if (d) {
			if (!opstat_add_buckets(d, s->buckets, s->nbuckets))
				return false;
			continue;
		}
		tmp = realloc(dst->opstats, (dst->nopstats + 1) * sizeof(*tmp));
		if (!tmp)
			return false;
		dst->opstats = tmp;
		dst->opstats[dst->nopstats++] = *s;
		s->buckets = NULL;
	}
	return true;
}

/* A phase's result: a new phase, or more buckets of one already seen. */
static int result_hook(const struct nlattr *a, const struct decoder *nest,
		       void *obj)
{
	struct phase_result pr = { 0 }, *tmp;
	struct results *r = obj;
	unsigned int i;

	if (decode_nest(nest, a, &pr))
		goto oom;
	for (i = 0; i < r->nphases; i++) {
		if (r->phases[i].index != pr.index)
			continue;
		if (!phase_merge(&r->phases[i], &pr))
			goto oom;
		phase_result_free(&pr);
		return 1;
	}
	tmp = realloc(r->phases, (r->nphases + 1) * sizeof(*tmp));
	if (!tmp)
		goto oom;
	r->phases = tmp;
	r->phases[r->nphases++] = pr;
	return 1;
oom:
	phase_result_free(&pr);
	return -1;
}

static const struct decode_field results_fields[FSLOAD_A_JOB_MAX + 1] = {
	[FSLOAD_A_JOB_RESULT] = DEC_HOOK_FIELD(result_hook, &res_decoder),
};

const struct decoder results_decoder = {
	.set = &job_attrs,
	.fields = results_fields,
	.have_off = DECODE_NO_HAVE,
};

/* The job a message names. */
struct job_ref {
	uint32_t id;
};

static const struct decode_field job_ref_fields[FSLOAD_A_JOB_MAX + 1] = {
	[FSLOAD_A_JOB_ID] = DEC_INT_FIELD(struct job_ref, id),
};

const struct decoder results_job_ref_decoder = {
	.set = &job_attrs,
	.fields = job_ref_fields,
	.have_off = DECODE_NO_HAVE,
};

static int results_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	struct results_ctx *ctx = data;
	struct job_ref job = { .id = ctx->id };

	/* each message names its job: skip any other */
	decode_msg(&results_job_ref_decoder, nlh, &job);
	if (job.id != ctx->id)
		return 0;
	return decode_msg(&results_decoder, nlh, ctx->r);
}

static int phase_cmp(const void *a, const void *b)
{
	const struct phase_result *pa = a, *pb = b;

	return (pa->index > pb->index) - (pa->index < pb->index);
}

int results_get(struct nl_ctx *nl, uint32_t id, struct results *r)
{
	struct results_ctx ctx = { .id = id, .r = r };
	int ret;

	memset(r, 0, sizeof(*r));
	nl_msg_new(nl, FSLOAD_CMD_RESULT_GET, true);
	nl_put_u32(nl, FSLOAD_A_JOB_ID, id);
	ret = nl_request(nl, results_msg_cb, &ctx, 0);
	if (ret) {
		results_free(r);
		return ret;
	}
	qsort(r->phases, r->nphases, sizeof(*r->phases), phase_cmp);
	return 0;
}

const struct phase_result *results_phase(const struct results *r,
					 uint32_t index)
{
	unsigned int i;

	for (i = 0; i < r->nphases; i++) {
		if (r->phases[i].index == index)
			return &r->phases[i];
	}
	return NULL;
}

void results_free(struct results *r)
{
	unsigned int i;

	for (i = 0; i < r->nphases; i++)
		phase_result_free(&r->phases[i]);
	free(r->phases);
	memset(r, 0, sizeof(*r));
}
