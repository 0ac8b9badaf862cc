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
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "nl/attrs.h"
#include "nl/fsload-nl-gen.h"
#include "nl/nl.h"
#include "nl/series.h"

/* Kernel samples */

static int sample_op_cb(const struct nlattr *a, void *data)
{
	struct sample *sm = data;
	unsigned int i = sm->nops;

	switch (mnl_attr_get_type(a)) {
	case FSLOAD_A_SAMPLE_OP_TYPE:
		attr_get_u8(a, &sample_op_attrs, &sm->op[i].type);
		break;
	case FSLOAD_A_SAMPLE_OP_OPS:
		attr_get_u64(a, &sample_op_attrs, &sm->op[i].ops);
		break;
	case FSLOAD_A_SAMPLE_OP_BYTES:
		attr_get_u64(a, &sample_op_attrs, &sm->op[i].bytes);
		break;
	case FSLOAD_A_SAMPLE_OP_LAT_SUM_NS:
		attr_get_u64(a, &sample_op_attrs, &sm->op[i].lat_sum_ns);
		break;
	case FSLOAD_A_SAMPLE_OP_LAT_P50_NS:
		attr_get_u64(a, &sample_op_attrs, &sm->op[i].lat_p50_ns);
		break;
	case FSLOAD_A_SAMPLE_OP_LAT_P99_NS:
		attr_get_u64(a, &sample_op_attrs, &sm->op[i].lat_p99_ns);
		break;
	}
	return MNL_CB_OK;
}

static int sample_cb(const struct nlattr *a, void *data)
{
	struct sample *sm = data;

	switch (mnl_attr_get_type(a)) {
	case FSLOAD_A_SAMPLE_SEQ:
		attr_get_u64(a, &sample_attrs, &sm->seq);
		break;
	case FSLOAD_A_SAMPLE_TIME_NS:
		attr_get_u64(a, &sample_attrs, &sm->t_ns);
		break;
	case FSLOAD_A_SAMPLE_PHASE_INDEX:
		attr_get_u32(a, &sample_attrs, &sm->phase);
		break;
	case FSLOAD_A_SAMPLE_IO_BYTES:
		attr_get_u64(a, &sample_attrs, &sm->io_bytes);
		break;
	case FSLOAD_A_SAMPLE_OP:
		if (!attr_is_nest(a, &sample_attrs) || sm->nops >= FSLOAD_OP_MAX)
			break;
		memset(&sm->op[sm->nops], 0, sizeof(sm->op[0]));
		mnl_attr_parse_nested(a, sample_op_cb, sm);
		if (sm->op[sm->nops].type)
			sm->nops++;
		break;
	}
	return MNL_CB_OK;
}

static int series_msg_attr_cb(const struct nlattr *a, void *data)
{
	struct series *s = data;
	struct sample sm = { 0 }, *tmp;

	if (mnl_attr_get_type(a) != FSLOAD_A_JOB_SAMPLE ||
	    !attr_is_nest(a, &job_attrs))
		return MNL_CB_OK;
	sm.seq = UINT64_MAX;
	mnl_attr_parse_nested(a, sample_cb, &sm);
	if (sm.seq == UINT64_MAX || sm.seq < s->next)
		return MNL_CB_OK;
	tmp = realloc(s->samples, (s->nsamples + 1) * sizeof(*tmp));
	if (!tmp)
		return MNL_CB_ERROR;
	s->samples = tmp;
	s->lost += sm.seq - s->next;
	s->samples[s->nsamples++] = sm;
	s->next = sm.seq + 1;
	return MNL_CB_OK;
}

static int series_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	if (mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN)
		return 0;
	if (mnl_attr_parse(nlh, GENL_HDRLEN, series_msg_attr_cb, data) ==
	    MNL_CB_ERROR) {
		errmsg("out of memory");
		return EXIT_SYSERR;
	}
	return 0;
}

int series_drain(struct nl_ctx *nl, uint32_t id, struct series *s)
{
	nl_msg_new(nl, FSLOAD_CMD_SERIES_GET, true);
	nl_put_u32(nl, FSLOAD_A_JOB_ID, id);
	nl_put_u64(nl, FSLOAD_A_JOB_SERIES_FROM, s->next);
	return nl_request(nl, series_msg_cb, s, NL_QUIET);
}
