// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a job's CPU profile from the kernel (PROFILE_GET), decoded
 * into struct cpu_profile.  The kernel symbolises the frames (%ps).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "nl/attrs.h"
#include "nl/decode.h"
#include "nl/fsload-nl-gen.h"
#include "nl/job.h"
#include "nl/nl.h"
#include "nl/profile.h"

static const struct decode_field
stack_fields[FSLOAD_A_PROFILE_STACK_MAX + 1] = {
	[FSLOAD_A_PROFILE_STACK_PHASE_INDEX] =
		DEC_INT_FIELD(struct prof_stack, phase),
	[FSLOAD_A_PROFILE_STACK_OP] = DEC_INT_FIELD(struct prof_stack, op),
	[FSLOAD_A_PROFILE_STACK_SAMPLES] =
		DEC_INT_FIELD(struct prof_stack, samples),
	[FSLOAD_A_PROFILE_STACK_FRAMES] =
		DEC_STRDUP_FIELD(struct prof_stack, frames),
};

static const struct decoder stack_decoder = {
	.set = &profile_stack_attrs,
	.fields = stack_fields,
	.have_off = DECODE_NO_HAVE,
};

/* A stack without frames or samples counts for none. */
static bool stack_keep(const void *elem)
{
	const struct prof_stack *s = elem;

	return s->frames && s->samples;
}

static void stack_release(void *elem)
{
	free(((struct prof_stack *)elem)->frames);
}

static const struct decode_array stack_array = {
	.elem = &stack_decoder,
	.size = sizeof(struct prof_stack),
	.off = offsetof(struct cpu_profile, stacks),
	.count_off = offsetof(struct cpu_profile, nstacks),
	.keep = stack_keep,
	.release = stack_release,
};

static const struct decode_field profile_fields[FSLOAD_A_JOB_MAX + 1] = {
	[FSLOAD_A_JOB_PROFILE_STACK] = DEC_ARRAY_FIELD(&stack_array),
};

const struct decoder profile_decoder = {
	.set = &job_attrs,
	.fields = profile_fields,
	.have_off = DECODE_NO_HAVE,
};

static int profile_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	return decode_msg(&profile_decoder, nlh, data);
}

void profile_from_status(struct cpu_profile *p, const struct job_status *js)
{
	p->hz = js->cpu_profile_hz;
	p->clock = js->cpu_profile_clock;
	p->period = js->cpu_profile_period;
}

int profile_get(struct nl_ctx *nl, uint32_t id, struct cpu_profile *p)
{
	nl_msg_new(nl, FSLOAD_CMD_PROFILE_GET, true);
	nl_put_u32(nl, FSLOAD_A_JOB_ID, id);
	return nl_request(nl, profile_msg_cb, p, 0);
}

void profile_free(struct cpu_profile *p)
{
	unsigned int i;

	for (i = 0; i < p->nstacks; i++)
		free(p->stacks[i].frames);
	free(p->stacks);
	p->stacks = NULL;
	p->nstacks = 0;
}
