/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: a job's CPU profile (FSLOAD_CMD_PROFILE_GET): distinct
 * kernel stacks per phase and op type, with their sample counts.
 */
#ifndef FSLOADCTL_NL_PROFILE_H
#define FSLOADCTL_NL_PROFILE_H

#include <stdint.h>

struct decoder;
struct job_status;
struct nl_ctx;

/* One stack (FSLOAD_A_PROFILE_STACK_*). */
struct prof_stack {
	uint32_t phase;
	uint8_t op;		/* enum fsload_op */
	uint64_t samples;
	char *frames;		/* outermost first, ";" between; malloc'd */
};

/* A job's profile: its stacks as the kernel sent them (per worker). */
struct cpu_profile {
	uint8_t clock;		/* enum fsload_profile_clock */
	uint64_t period;	/* ns or cycles per sample */
	uint32_t hz;
	struct prof_stack *stacks;
	unsigned int nstacks;
};

/*
 * The decoder of a PROFILE_GET message into a struct cpu_profile (its
 * stacks; nl/decode.h; tests/decode_test.c checks it).
 */
extern const struct decoder profile_decoder;

/* Start @p (zeroed) as the profile of the job @js says. */
void profile_from_status(struct cpu_profile *p, const struct job_status *js);

/*
 * The stacks of job @id into @p (profile_from_status() first), once the
 * job has ended.  Returns an exit code.
 */
int profile_get(struct nl_ctx *nl, uint32_t id, struct cpu_profile *p);
void profile_free(struct cpu_profile *p);

#endif /* FSLOADCTL_NL_PROFILE_H */
