// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a program's encoding in JOB_START (FSLOAD_A_JOB_PHASE and
 * FSLOAD_A_JOB_GROUP nests); the module's program.c decodes it, the user
 * engine's uprogram.c takes it as the module has it.
 */
#include <stdbool.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

#include "lib/kshim.h"
#include <fsload/engine.h>

#include "lib/fsloadctl.h"
#include "nl/nl.h"
#include "nl/program.h"

uint32_t program_phase_flags(const struct program *prog, unsigned int i,
			     uint32_t flags)
{
	const struct prog_phase *next;
	unsigned int j;

	if (!(flags & FSLOAD_PHASE_F_SYNC) || i + 1 >= prog->nphases)
		return flags;
	next = &prog->phases[i + 1];
	for (j = 0; j < next->nops; j++)
		if (next->ops[j].type != FSLOAD_OP_FSYNC &&
		    next->ops[j].type != FSLOAD_OP_SYNCFS)
			return flags;
	return next->nops ? flags & ~FSLOAD_PHASE_F_SYNC : flags;
}

/* What op type @type takes (the op table, include/fsload/engine.h). */
static bool op_takes(uint8_t type, unsigned int params)
{
	return fsload_op_type(type)->params & params;
}

void program_put(struct nl_ctx *nl, const struct program *prog,
		 uint32_t phase_flags)
{
	unsigned int i, j;
	uint32_t flags;

	for (i = 0; i < prog->nphases; i++) {
		const struct prog_phase *ph = &prog->phases[i];
		struct nlattr *pn, *on;

		pn = nl_nest_start(nl, FSLOAD_A_JOB_PHASE);
		nl_put_strz(nl, FSLOAD_A_PHASE_NAME, ph->name);
		nl_put_u8(nl, FSLOAD_A_PHASE_ORDER,
			  ph->order ? ph->order : FSLOAD_ORDER_SEQUENTIAL);
		if (ph->iterations)
			nl_put_u64(nl, FSLOAD_A_PHASE_ITERATIONS,
				   ph->iterations);
		if (ph->duration_ms)
			nl_put_u32(nl, FSLOAD_A_PHASE_DURATION_MS,
				   ph->duration_ms);
		flags = ph->flags | program_phase_flags(prog, i, phase_flags);
		if (flags)
			nl_put_u32(nl, FSLOAD_A_PHASE_FLAGS, flags);
		if (ph->prefix)
			nl_put_u8(nl, FSLOAD_A_PHASE_PREFIX,
				  (uint8_t)ph->prefix);
		if (ph->first)
			nl_put_u64(nl, FSLOAD_A_PHASE_FIRST, ph->first);
		if (ph->stride)
			nl_put_u32(nl, FSLOAD_A_PHASE_STRIDE, ph->stride);
		for (j = 0; j < ph->nops; j++) {
			const struct prog_op *op = &ph->ops[j];

			on = nl_nest_start(nl, FSLOAD_A_PHASE_OP);
			nl_put_u8(nl, FSLOAD_A_OP_TYPE, op->type);
			nl_put_u32(nl, FSLOAD_A_OP_WEIGHT, op->weight);
			if (op_takes(op->type, FSLOAD_OPP_SIZE))
				nl_put_u64(nl, FSLOAD_A_OP_SIZE_BYTES,
					   op->size);
			if (op_takes(op->type, FSLOAD_OPP_BLOCK))
				nl_put_u32(nl, FSLOAD_A_OP_BLOCK_BYTES,
					   op->block);
			if (op->flags)
				nl_put_u32(nl, FSLOAD_A_OP_FLAGS, op->flags);
			/* a rename names its new letter, unless it rotates */
			if (op->prefix || (op->type == FSLOAD_OP_RENAME &&
					   !(op->flags & FSLOAD_OP_F_ROTATE)))
				nl_put_u8(nl, FSLOAD_A_OP_PREFIX,
					  (uint8_t)op->prefix);
			if (op_takes(op->type, FSLOAD_OPP_BIO) && op->depth)
				nl_put_u32(nl, FSLOAD_A_OP_DEPTH, op->depth);
			if (op->group)
				nl_put_u8(nl, FSLOAD_A_OP_GROUP, op->group - 1);
			nl_nest_end(nl, on);
		}
		nl_nest_end(nl, pn);
	}
	for (i = 0; i < prog->ngroups; i++) {
		struct nlattr *g = nl_nest_start(nl, FSLOAD_A_JOB_GROUP);

		nl_put_strz(nl, FSLOAD_A_GROUP_NAME, prog->groups[i].name);
		nl_put_u32(nl, FSLOAD_A_GROUP_THREADS, prog->groups[i].threads);
		nl_nest_end(nl, g);
	}
}
