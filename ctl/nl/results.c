// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a job's results from the kernel (RESULT_GET dump), decoded
 * into struct results; the requests for a job's status (JOB_GET) and
 * workers (WORKER_GET).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "lib/fsloadctl.h"
#include "lib/parse.h"
#include "lib/print.h"
#include "lib/msg.h"
#include "nl/attrs.h"
#include "nl/fsload-nl-gen.h"
#include "nl/nl.h"
#include "nl/results.h"
#include "nl/series.h"
#include "nl/job.h"
#include "nl/names.h"

#define HAS(s, attr)	(!!((s)->have & (1ULL << (attr))))

static int bucket_attr_cb(const struct nlattr *a, void *data)
{
	const struct attr_set *set = &bucket_attrs;
	struct hist_bucket *b = data;

	switch (mnl_attr_get_type(a)) {
	case FSLOAD_A_BUCKET_LOW_NS:
		attr_get_u64(a, set, &b->low_ns);
		break;
	case FSLOAD_A_BUCKET_HIGH_NS:
		attr_get_u64(a, set, &b->high_ns);
		break;
	case FSLOAD_A_BUCKET_COUNT:
		attr_get_u64(a, set, &b->count);
		break;
	}
	return MNL_CB_OK;
}

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

static int opstat_attr_cb(const struct nlattr *a, void *data)
{
	const struct attr_set *set = &opstat_attrs;
	unsigned int type = mnl_attr_get_type(a);
	struct opstat *os = data;
	struct hist_bucket b = { 0 };
	bool ok = false;

	switch (type) {
	case FSLOAD_A_OPSTAT_BUCKET:
		if (!attr_is_nest(a, set))
			break;
		mnl_attr_parse_nested(a, bucket_attr_cb, &b);
		/* A bucket the kernel cannot have sent is ignored. */
		if (!b.count || b.high_ns <= b.low_ns)
			break;
		if (!opstat_add_buckets(os, &b, 1))
			return MNL_CB_ERROR;
		ok = true;
		break;
	case FSLOAD_A_OPSTAT_TYPE:
		ok = attr_get_u8(a, set, &os->type);
		break;
	case FSLOAD_A_OPSTAT_OPS:
		ok = attr_get_u64(a, set, &os->ops);
		break;
	case FSLOAD_A_OPSTAT_ERRORS:
		ok = attr_get_u64(a, set, &os->errors);
		break;
	case FSLOAD_A_OPSTAT_BYTES:
		ok = attr_get_u64(a, set, &os->bytes);
		break;
	case FSLOAD_A_OPSTAT_LAT_SUM_NS:
		ok = attr_get_u64(a, set, &os->lat_sum_ns);
		break;
	case FSLOAD_A_OPSTAT_LAT_MIN_NS:
		ok = attr_get_u64(a, set, &os->lat_min_ns);
		break;
	case FSLOAD_A_OPSTAT_LAT_MAX_NS:
		ok = attr_get_u64(a, set, &os->lat_max_ns);
		break;
	}
	if (ok && type < 64)
		os->have |= 1ULL << type;
	return MNL_CB_OK;
}

static int thread_attr_cb(const struct nlattr *a, void *data)
{
	const struct attr_set *set = &thread_attrs;
	struct thread_cpu *t = data;
	uint8_t k;

	switch (mnl_attr_get_type(a)) {
	case FSLOAD_A_THREAD_NAME:
		t->named = attr_get_str(a, set, t->name, sizeof(t->name));
		break;
	case FSLOAD_A_THREAD_PID:
		attr_get_u32(a, set, &t->pid);
		break;
	case FSLOAD_A_THREAD_KERNEL:
		if (attr_get_u8(a, set, &k))
			t->kernel = k;
		break;
	case FSLOAD_A_THREAD_CPU_NS:
		attr_get_u64(a, set, &t->cpu_ns);
		break;
	}
	return MNL_CB_OK;
}

static int progress_attr_cb(const struct nlattr *a, void *data)
{
	const struct attr_set *set = &progress_attrs;
	struct progress_mark *m = data;

	switch (mnl_attr_get_type(a)) {
	case FSLOAD_A_PROGRESS_PCT:
		attr_get_u8(a, set, &m->pct);
		break;
	case FSLOAD_A_PROGRESS_WORKERS:
		attr_get_u32(a, set, &m->workers);
		break;
	case FSLOAD_A_PROGRESS_ITEMS:
		attr_get_u64(a, set, &m->items);
		break;
	case FSLOAD_A_PROGRESS_ELAPSED_NS:
		attr_get_u64(a, set, &m->elapsed_ns);
		break;
	}
	return MNL_CB_OK;
}

static int res_attr_cb(const struct nlattr *a, void *data)
{
	const struct attr_set *set = &res_attrs;
	unsigned int type = mnl_attr_get_type(a);
	struct phase_result *pr = data;
	struct opstat os = { 0 }, *tmp;
	struct thread_cpu th = { 0 }, *ttmp;
	bool ok = false;

	switch (type) {
	case FSLOAD_A_RES_WORKER_CPU_NS:
		ok = attr_get_u64(a, set, &pr->worker_cpu_ns);
		break;
	case FSLOAD_A_RES_INSTRUCTIONS:
		ok = attr_get_u64(a, set, &pr->instructions);
		break;
	case FSLOAD_A_RES_CYCLES:
		ok = attr_get_u64(a, set, &pr->cycles);
		break;
	case FSLOAD_A_RES_SYSTEM_CPU_NS:
		ok = attr_get_u64(a, set, &pr->system_cpu_ns);
		break;
	case FSLOAD_A_RES_TAIL_NS:
		ok = attr_get_u64(a, set, &pr->tail_ns);
		break;
	case FSLOAD_A_RES_START_NS:
		ok = attr_get_u64(a, set, &pr->start_ns);
		break;
	case FSLOAD_A_RES_TAIL_CPU_NS:
		ok = attr_get_u64(a, set, &pr->tail_cpu_ns);
		break;
	case FSLOAD_A_RES_THREAD:
		if (!attr_is_nest(a, set))
			break;
		mnl_attr_parse_nested(a, thread_attr_cb, &th);
		ttmp = realloc(pr->top, (pr->ntop + 1) * sizeof(*ttmp));
		if (!ttmp)
			return MNL_CB_ERROR;
		pr->top = ttmp;
		pr->top[pr->ntop++] = th;
		ok = true;
		break;
	case FSLOAD_A_RES_PROGRESS:
		if (!attr_is_nest(a, set) || pr->nprogress == FSLOAD_PROGRESS_MARKS)
			break;
		mnl_attr_parse_nested(a, progress_attr_cb,
				      &pr->progress[pr->nprogress++]);
		ok = true;
		break;
	case FSLOAD_A_RES_PHASE_INDEX:
		ok = attr_get_u32(a, set, &pr->index);
		break;
	case FSLOAD_A_RES_PHASE_NAME:
		ok = attr_get_str(a, set, pr->name, sizeof(pr->name));
		break;
	case FSLOAD_A_RES_THREADS:
		ok = attr_get_u32(a, set, &pr->threads);
		break;
	case FSLOAD_A_RES_COMPLETE:
		ok = attr_get_u8(a, set, &pr->complete);
		break;
	case FSLOAD_A_RES_STONEWALLED:
		ok = attr_get_u8(a, set, &pr->stonewalled);
		break;
	case FSLOAD_A_RES_ELAPSED_NS:
		ok = attr_get_u64(a, set, &pr->elapsed_ns);
		break;
	case FSLOAD_A_RES_OPS:
		ok = attr_get_u64(a, set, &pr->ops);
		break;
	case FSLOAD_A_RES_ERRORS:
		ok = attr_get_u64(a, set, &pr->errors);
		break;
	case FSLOAD_A_RES_BYTES:
		ok = attr_get_u64(a, set, &pr->bytes);
		break;
	case FSLOAD_A_RES_OPSTAT:
		if (!attr_is_nest(a, set))
			break;
		if (mnl_attr_parse_nested(a, opstat_attr_cb, &os) ==
		    MNL_CB_ERROR) {
			free(os.buckets);
			return MNL_CB_ERROR;
		}
		if (!HAS(&os, FSLOAD_A_OPSTAT_TYPE)) {
			free(os.buckets);
			break;	/* unusable without its type */
		}
		tmp = realloc(pr->opstats,
			      (pr->nopstats + 1) * sizeof(*tmp));
		if (!tmp) {
			free(os.buckets);
			return MNL_CB_ERROR;
		}
		pr->opstats = tmp;
		pr->opstats[pr->nopstats++] = os;
		ok = true;
		break;
	}
	if (ok && type < 64)
		pr->have |= 1ULL << type;
	return MNL_CB_OK;
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

static int results_msg_attr_cb(const struct nlattr *a, void *data)
{
	struct phase_result pr = { 0 }, *tmp;
	struct results_ctx *ctx = data;
	unsigned int i;

	if (mnl_attr_get_type(a) != FSLOAD_A_JOB_RESULT ||
	    !attr_is_nest(a, &job_attrs))
		return MNL_CB_OK;
	if (mnl_attr_parse_nested(a, res_attr_cb, &pr) == MNL_CB_ERROR)
		goto oom;
	for (i = 0; i < ctx->r->nphases; i++) {
		if (ctx->r->phases[i].index != pr.index)
			continue;
		if (!phase_merge(&ctx->r->phases[i], &pr))
			goto oom;
		phase_result_free(&pr);
		return MNL_CB_OK;
	}
	tmp = realloc(ctx->r->phases, (ctx->r->nphases + 1) * sizeof(*tmp));
	if (!tmp)
		goto oom;
	ctx->r->phases = tmp;
	ctx->r->phases[ctx->r->nphases++] = pr;
	return MNL_CB_OK;
oom:
	phase_result_free(&pr);
	return MNL_CB_ERROR;
}

static int job_id_attr_cb(const struct nlattr *a, void *data)
{
	uint32_t *id = data;

	if (mnl_attr_get_type(a) == FSLOAD_A_JOB_ID)
		attr_get_u32(a, &job_attrs, id);
	return MNL_CB_OK;
}

static int results_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	struct results_ctx *ctx = data;
	uint32_t id = ctx->id;

	if (mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN)
		return 0;
	/* each message names its job: skip any other */
	mnl_attr_parse(nlh, GENL_HDRLEN, job_id_attr_cb, &id);
	if (id != ctx->id)
		return 0;
	if (mnl_attr_parse(nlh, GENL_HDRLEN, results_msg_attr_cb, ctx) ==
	    MNL_CB_ERROR) {
		errmsg("out of memory");
		return EXIT_SYSERR;
	}
	return 0;
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

void results_free(struct results *r)
{
	unsigned int i;

	for (i = 0; i < r->nphases; i++)
		phase_result_free(&r->phases[i]);
	free(r->phases);
	memset(r, 0, sizeof(*r));
}
