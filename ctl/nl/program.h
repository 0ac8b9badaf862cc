/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: a program (phases of weighted operations, thread groups) as
 * JOB_START carries it, and its encoding as FSLOAD_A_JOB_PHASE and
 * FSLOAD_A_JOB_GROUP nests.  Profiles and job files build it
 * (workload/), the engines run it.
 */
#ifndef FSLOADCTL_PROGRAM_H
#define FSLOADCTL_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/fsloadctl.h"

struct nl_ctx;

struct prog_op {
	uint8_t type;		/* enum fsload_op */
	uint32_t weight;
	uint64_t size;		/* bytes per file (sent for ops that take it) */
	uint32_t block;		/* bytes per I/O call (sent for I/O ops) */
	uint32_t flags;		/* enum fsload_op_flags */
	char prefix;		/* rename: the new first letter */
	uint32_t depth;		/* bio ops: bios in flight; 0: 1 */
	uint8_t group;		/* + 1: its thread group; 0: every group */
};

struct prog_phase {
	char name[FSLOAD_NAME_MAX];
	uint8_t order;		/* enum fsload_phase_order */
	uint64_t iterations;	/* per thread; 0: the default (files) */
	uint32_t duration_ms;	/* stonewall; 0: none */
	uint32_t flags;		/* enum fsload_phase_flags */
	char prefix;		/* first letter of the names; 0: 'f' */
	uint64_t first;		/* sequential order starts here */
	uint32_t stride;	/* items of thread (t + stride) % threads */
	unsigned int nops;
	struct prog_op ops[FSLOAD_PHASE_OPS_MAX];
};

/* A program, ready to be sent as FSLOAD_A_JOB_PHASE nests. */
struct program {
	char profile[FSLOAD_NAME_MAX];	/* label sent with the job */
	uint32_t job_flags;	/* FSLOAD_JOB_F_SHARED_DIR from the profile */
	bool block;		/* a block job: on --device, not --dir */
	unsigned int ngroups;	/* thread groups; 0: one of all the threads */
	struct {
		char name[FSLOAD_NAME_MAX];
		uint32_t threads;
	} groups[FSLOAD_GROUPS_MAX];
	uint64_t files;		/* per thread; 0: --files */
	unsigned int nphases;
	struct prog_phase phases[FSLOAD_PHASES_MAX];
	const char *phase_names[FSLOAD_PHASES_MAX];
};

/*
 * The phase flags phase @i of @prog runs with, @flags the job's: without
 * the sync tail (FSLOAD_PHASE_F_SYNC) before a phase whose ops are all
 * fsync or syncfs, as that phase is there to time the writeback the tail
 * would do first.
 */
uint32_t program_phase_flags(const struct program *prog, unsigned int i,
			     uint32_t flags);
/*
 * Put @prog's phases (FSLOAD_A_JOB_PHASE nests, @phase_flags added to
 * every phase's as program_phase_flags() says) and thread groups
 * (FSLOAD_A_JOB_GROUP) into nl's message.
 */
void program_put(struct nl_ctx *nl, const struct program *prog,
		 uint32_t phase_flags);

#endif /* FSLOADCTL_PROGRAM_H */
