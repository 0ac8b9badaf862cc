// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: profiles.
 *
 * A profile is a table of phases, each a list of weighted operations and
 * the command line parameters they take.  To add a profile, add an entry
 * to profiles[]; the kernel needs no change.
 */
#include <stdio.h>
#include <string.h>

#include "fsloadctl.h"
#include "profile.h"

struct op_tmpl {
	uint8_t type;		/* enum fsload_op; 0 ends the list */
	uint32_t weight;
	unsigned int params;	/* OPP_* */
};

struct phase_tmpl {
	const char *name;	/* NULL ends the list */
	uint8_t order;
	struct op_tmpl ops[FSLOAD_PHASE_OPS_MAX];
	bool removes;		/* removes the file set: left out by --keep */
};

struct profile {
	const char *name;
	const char *desc;
	const struct phase_tmpl *phases;
};

#define SEQ	FSLOAD_ORDER_SEQUENTIAL

static const struct profile profiles[] = {
	{
		.name = "smallfiles",
		.desc = "fs_mark-style: create, stat, read, unlink each file (--keep: no unlink)",
		.phases = (const struct phase_tmpl[]) {
			{ .name = "create", .order = SEQ, .ops = {
				{ FSLOAD_OP_CREATE, 1,
				  OPP_SIZE | OPP_BLOCK | OPP_FSYNC } } },
			{ .name = "stat", .order = SEQ,
			  .ops = { { FSLOAD_OP_STAT, 1, 0 } } },
			{ .name = "read", .order = SEQ,
			  .ops = { { FSLOAD_OP_READ, 1, OPP_BLOCK } } },
			{ .name = "unlink", .order = SEQ,
			  .ops = { { FSLOAD_OP_UNLINK, 1, 0 } },
			  .removes = true },
			{ .name = NULL },
		},
	},
	{
		.name = "null",
		.desc = "no-op operations: the engine's own per-op cost",
		.phases = (const struct phase_tmpl[]) {
			{ .name = "null", .order = SEQ,
			  .ops = { { FSLOAD_OP_NULL, 1, 0 } } },
			{ .name = NULL },
		},
	},
};

int profile_build(const char *name, const struct profile_params *pp,
		  struct program *prog)
{
	const struct profile *p = NULL;
	const struct phase_tmpl *pt;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(profiles); i++)
		if (!strcmp(profiles[i].name, name))
			p = &profiles[i];
	if (!p)
		return -1;

	memset(prog, 0, sizeof(*prog));
	prog->profile = p->name;
	for (pt = p->phases; pt->name && prog->nphases < FSLOAD_PHASES_MAX;
	     pt++) {
		struct prog_phase *ph = &prog->phases[prog->nphases];

		if (pt->removes && pp->keep)
			continue;
		prog->phase_names[prog->nphases++] = pt->name;
		ph->name = pt->name;
		ph->order = pt->order;
		for (j = 0; j < FSLOAD_PHASE_OPS_MAX && pt->ops[j].type; j++) {
			const struct op_tmpl *ot = &pt->ops[j];
			struct prog_op *op = &ph->ops[ph->nops++];

			op->type = ot->type;
			op->weight = ot->weight;
			op->params = ot->params;
			op->size = pp->size;
			op->block = pp->block;
			if ((ot->params & OPP_FSYNC) && pp->fsync)
				op->flags |= FSLOAD_OP_F_FSYNC;
		}
	}
	return 0;
}

void profile_list(FILE *f, const char *sep)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++)
		fprintf(f, "%s%s", i ? sep : "", profiles[i].name);
}

void profile_help(FILE *f)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++)
		fprintf(f, "  %-24s %s\n", profiles[i].name, profiles[i].desc);
}

bool program_has_size(const struct program *prog)
{
	unsigned int i, j;

	for (i = 0; i < prog->nphases; i++)
		for (j = 0; j < prog->phases[i].nops; j++)
			if (prog->phases[i].ops[j].params & OPP_SIZE)
				return true;
	return false;
}
