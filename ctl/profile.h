/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: profiles, userspace presets that build the generic program
 * (phases of weighted operations) the module executes.
 */
#ifndef FSLOADCTL_PROFILE_H
#define FSLOADCTL_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fsloadctl.h"

/* Which FSLOAD_A_OP_* parameters an operation carries. */
#define OPP_SIZE	(1U << 0)	/* FSLOAD_A_OP_SIZE_BYTES = --size */
#define OPP_BLOCK	(1U << 1)	/* FSLOAD_A_OP_BLOCK_BYTES = --block */
#define OPP_FSYNC	(1U << 2)	/* FSLOAD_OP_F_FSYNC when --fsync */

struct prog_op {
	uint8_t type;		/* enum fsload_op */
	uint32_t weight;
	unsigned int params;	/* OPP_*: attributes sent */
	uint64_t size;
	uint32_t block;
	uint32_t flags;		/* enum fsload_op_flags */
};

struct prog_phase {
	const char *name;
	uint8_t order;		/* enum fsload_phase_order */
	uint64_t iterations;	/* per thread; 0: the default (files) */
	unsigned int nops;
	struct prog_op ops[FSLOAD_PHASE_OPS_MAX];
};

/* A program, ready to be sent as FSLOAD_A_JOB_PHASE nests. */
struct program {
	const char *profile;
	unsigned int nphases;
	struct prog_phase phases[FSLOAD_PHASES_MAX];
	const char *phase_names[FSLOAD_PHASES_MAX];
};

/* Parameters from the command line that profiles use. */
struct profile_params {
	uint64_t size;		/* bytes per file written */
	uint32_t block;		/* bytes per read/write call */
	bool fsync;
	bool keep;		/* --keep: leave the files; no removing phase */
};

/* Build profile @name's program; -1 if there is no such profile. */
int profile_build(const char *name, const struct profile_params *pp,
		  struct program *prog);
/* "smallfiles, null" */
void profile_list(FILE *f, const char *sep);
/* Profiles with their descriptions, one a line. */
void profile_help(FILE *f);

/* Does the program write files (is --size meaningful)? */
bool program_has_size(const struct program *prog);

#endif /* FSLOADCTL_PROFILE_H */
