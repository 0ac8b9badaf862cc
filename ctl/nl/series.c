// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a job's time series from the kernel.
 *
 * The kernel samples each job's per-type counters every SAMPLE_MS into a
 * bounded ring, which we drain with SERIES_GET while the job runs
 * (decoded here into struct series); beside it a thread samples the
 * block device's own counters (engine/sampler.c) on the same clock
 * (CLOCK_MONOTONIC), so that each interval of a phase has both what the
 * workers did and what the device did (nl/interval.c).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "nl/attrs.h"
#include "nl/decode.h"
#include "nl/fsload-nl-gen.h"
#include "nl/nl.h"
#include "nl/series.h"

/* Kernel samples */

static const struct decode_field
sample_op_fields[FSLOAD_A_SAMPLE_OP_MAX + 1] = {
	[FSLOAD_A_SAMPLE_OP_TYPE] = DEC_INT_FIELD(struct sample_op, type),
	[FSLOAD_A_SAMPLE_OP_OPS] = DEC_INT_FIELD(struct sample_op, ops),
	[FSLOAD_A_SAMPLE_OP_BYTES] = DEC_INT_FIELD(struct sample_op, bytes),
	[FSLOAD_A_SAMPLE_OP_SAMPLED] = DEC_INT_FIELD(struct sample_op, sampled),
	[FSLOAD_A_SAMPLE_OP_LAT_SUM_NS] =
		DEC_INT_FIELD(struct sample_op, lat_sum_ns),
	[FSLOAD_A_SAMPLE_OP_LAT_P50_NS] =
		DEC_INT_FIELD(struct sample_op, lat_p50_ns),
	[FSLOAD_A_SAMPLE_OP_LAT_P99_NS] =
		DEC_INT_FIELD(struct sample_op, lat_p99_ns),
};

static const struct decoder sample_op_decoder = {
	.set = &sample_op_attrs,
	.fields = sample_op_fields,
	.have_off = offsetof(struct sample_op, have),
};

/* An op without its type counts for none. */
static bool sample_op_keep(const void *elem)
{
	return ((const struct sample_op *)elem)->type;
}

static const struct decode_array sample_op_array = {
	.elem = &sample_op_decoder,
	.size = sizeof(struct sample_op),
	.off = offsetof(struct sample, op),
	.count_off = offsetof(struct sample, nops),
	.max = FSLOAD_OP_MAX,
	.keep = sample_op_keep,
};

static const struct decode_field sample_fields[FSLOAD_A_SAMPLE_MAX + 1] = {
	[FSLOAD_A_SAMPLE_SEQ] = DEC_INT_FIELD(struct sample, seq),
	[FSLOAD_A_SAMPLE_TIME_NS] = DEC_INT_FIELD(struct sample, t_ns),
	[FSLOAD_A_SAMPLE_PHASE_INDEX] = DEC_INT_FIELD(struct sample, phase),
	[FSLOAD_A_SAMPLE_IO_BYTES] = DEC_INT_FIELD(struct sample, io_bytes),
	[FSLOAD_A_SAMPLE_OP] = DEC_ARRAY_FIELD(&sample_op_array),
};

static const struct decoder sample_decoder = {
	.set = &sample_attrs,
	.fields = sample_fields,
	.have_off = DECODE_NO_HAVE,
};

/* A sample not read yet; those the ring overwrote before count as lost. */
static int sample_hook(const struct nlattr *a, const struct decoder *nest,
		       void *obj)
{
	struct series *s = obj;
	struct sample sm = { .seq = UINT64_MAX }, *tmp;

	if (decode_nest(nest, a, &sm))
		return -1;
	if (sm.seq == UINT64_MAX || sm.seq < s->next)
		return 0;
	tmp = realloc(s->samples, (s->nsamples + 1) * sizeof(*tmp));
	if (!tmp)
		return -1;
	s->samples = tmp;
	s->lost += sm.seq - s->next;
	s->samples[s->nsamples++] = sm;
	s->next = sm.seq + 1;
	return 1;
}

static const struct decode_field series_fields[FSLOAD_A_JOB_MAX + 1] = {
	[FSLOAD_A_JOB_SAMPLE] = DEC_HOOK_FIELD(sample_hook, &sample_decoder),
};

const struct decoder series_decoder = {
	.set = &job_attrs,
	.fields = series_fields,
	.have_off = DECODE_NO_HAVE,
};

static int series_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	return decode_msg(&series_decoder, nlh, data);
}

int series_drain(struct nl_ctx *nl, uint32_t id, struct series *s)
{
	nl_msg_new(nl, FSLOAD_CMD_SERIES_GET, true);
	nl_put_u32(nl, FSLOAD_A_JOB_ID, id);
	nl_put_u64(nl, FSLOAD_A_JOB_SERIES_FROM, s->next);
	return nl_request(nl, series_msg_cb, s, NL_QUIET);
}
