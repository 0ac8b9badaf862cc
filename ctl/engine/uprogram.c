// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the userspace engine's program, as the kernel's start
 * request parser makes it (module/program.c): the job file's or profile's
 * program converted to the phases the loop runs, refused where the
 * kernel refuses it, by the same checks (include/fsload/program.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/uengine-int.h"
#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "workload/profile.h"

/*
 * The job file's key (and the profiles' option) of an op's and a phase's
 * attributes, for the shared checks' refusals (include/fsload/program.h).
 */
static const char *const op_keys[FSLOAD_A_OP_MAX + 1] = {
	[FSLOAD_A_OP_TYPE] = "op",
	[FSLOAD_A_OP_WEIGHT] = "weight",
	[FSLOAD_A_OP_SIZE_BYTES] = "size",
	[FSLOAD_A_OP_BLOCK_BYTES] = "block",
	[FSLOAD_A_OP_FLAGS] = "flags",
	[FSLOAD_A_OP_PREFIX] = "prefix",
	[FSLOAD_A_OP_DEPTH] = "depth",
	[FSLOAD_A_OP_GROUP] = "group",
};

static const char *const phase_keys[FSLOAD_A_PHASE_MAX + 1] = {
	[FSLOAD_A_PHASE_NAME] = "name",
	[FSLOAD_A_PHASE_ORDER] = "order",
	[FSLOAD_A_PHASE_ITERATIONS] = "iterations",
	[FSLOAD_A_PHASE_OP] = "op",
	[FSLOAD_A_PHASE_DURATION_MS] = "time",
	[FSLOAD_A_PHASE_FLAGS] = "continue, hold, dirs, timed-sync",
	[FSLOAD_A_PHASE_PREFIX] = "prefix",
	[FSLOAD_A_PHASE_FIRST] = "first",
	[FSLOAD_A_PHASE_STRIDE] = "stride",
};

/* The start options of the job's attributes that fsload_check_tree() names. */
static const char *const job_keys[FSLOAD_A_JOB_MAX + 1] = {
	[FSLOAD_A_JOB_FILES] = "--files",
	[FSLOAD_A_JOB_FILES_PER_DIR] = "--files-per-dir",
	[FSLOAD_A_JOB_TREE_BRANCH] = "--tree-branch",
	[FSLOAD_A_JOB_FIRST_DIR] = "first-dir",
};

/* A refusal of phase @ph (its op @op, from 1; 0: the phase's own). */
static int bad_program(const char *ph, unsigned int op,
		       const struct fsload_refusal *r)
{
	const char *key = op ? op_keys[r->attr] : phase_keys[r->attr];

	if (op)
		errmsg("user engine: phase %s, op %u%s%s%s: %s", ph, op,
		       key ? " (" : "", key ?: "", key ? ")" : "", r->msg);
	else
		errmsg("user engine: phase %s%s%s%s: %s", ph,
		       key ? " (" : "", key ?: "", key ? ")" : "", r->msg);
	return EXIT_USAGE;
}

uint32_t uengine_block_max(void)
{
	unsigned long long v = FSLOAD_BLOCK_DEFAULT_MAX;
	FILE *f;

	/* the module's, where it is loaded: one limit for every engine */
	f = fopen("/sys/module/fsload/parameters/max_block_bytes", "r");
	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = FSLOAD_BLOCK_DEFAULT_MAX;
		fclose(f);
	}
	return v < FSLOAD_BLOCK_MAX ? (uint32_t)v : FSLOAD_BLOCK_MAX;
}

/* What the checks need of the job; @threads: one rank's. */
void ushape(const struct program *prog, u32 threads, u64 files,
	    u32 flags, struct fsload_job_shape *js)
{
	*js = (struct fsload_job_shape){
		.files = files,
		.max_file_bytes = U64_MAX,
		.max_block_bytes = uengine_block_max(),
		.threads = threads,
		.flags = flags,
		.ngroups = prog->ngroups ? prog->ngroups : 1,
		.block = prog->block,
	};
}

/*
 * Op @po as the module has it from put_program()'s request into @od, and
 * the attributes the request has in *@has.
 */
static void uprog_op(const struct prog_op *po, struct fsload_opdesc *od,
		     u32 *has)
{
	const struct fsload_op_type *t = fsload_op_type(po->type);

	*has = BIT(FSLOAD_A_OP_TYPE) | BIT(FSLOAD_A_OP_WEIGHT);
	od->type = po->type;
	od->weight = po->weight;
	od->size = t->params & FSLOAD_OPP_SIZE ? po->size : 0;
	od->block = t->params & FSLOAD_OPP_BLOCK ? po->block : 4096;
	od->flags = po->flags;
	od->prefix = po->prefix;
	od->depth = t->params & FSLOAD_OPP_BIO && po->depth ? po->depth : 1;
	od->group = po->group ? po->group - 1 : FSLOAD_GROUP_ALL;
	if (t->params & FSLOAD_OPP_SIZE)
		*has |= BIT(FSLOAD_A_OP_SIZE_BYTES);
	if (t->params & FSLOAD_OPP_BLOCK)
		*has |= BIT(FSLOAD_A_OP_BLOCK_BYTES);
	if (po->flags)
		*has |= BIT(FSLOAD_A_OP_FLAGS);
	if (po->prefix || (po->type == FSLOAD_OP_RENAME &&
			   !(po->flags & FSLOAD_OP_F_ROTATE)))
		*has |= BIT(FSLOAD_A_OP_PREFIX);
	if ((t->params & FSLOAD_OPP_BIO) && po->depth)
		*has |= BIT(FSLOAD_A_OP_DEPTH);
	if (po->group)
		*has |= BIT(FSLOAD_A_OP_GROUP);
}

/* Phase @i of @prog as the module has it from the request, into @ph. */
static u32 uprog_phase(const struct program *prog, unsigned int i,
		       u32 phase_flags, u64 files, struct fsload_phase *ph)
{
	const struct prog_phase *pp = &prog->phases[i];
	u32 has = BIT(FSLOAD_A_PHASE_NAME) | BIT(FSLOAD_A_PHASE_ORDER);

	memset(ph, 0, sizeof(*ph));
	snprintf(ph->name, sizeof(ph->name), "%s", pp->name);
	ph->order = pp->order ? pp->order : FSLOAD_ORDER_SEQUENTIAL;
	ph->prefix = pp->prefix ? pp->prefix : 'f';
	ph->flags = pp->flags | program_phase_flags(prog, i, phase_flags);
	ph->first = pp->first;
	ph->stride = pp->stride;
	ph->duration_ns = pp->duration_ms * 1000000ULL;
	ph->iterations = pp->iterations ? pp->iterations : files;
	if (pp->iterations)
		has |= BIT(FSLOAD_A_PHASE_ITERATIONS);
	if (pp->prefix)
		has |= BIT(FSLOAD_A_PHASE_PREFIX);
	if (ph->flags)
		has |= BIT(FSLOAD_A_PHASE_FLAGS);
	return has;
}

/*
 * Make @out[] from @prog as the module does from the request that
 * put_program() builds, refusing what it refuses (the shared checks of
 * include/fsload/program.h), in the job @js.  @phase_flags are added to
 * every phase.
 */
int uprog_convert(const struct program *prog,
		  const struct fsload_job_shape *js,
		  u32 phase_flags, struct fsload_phase *out, u32 *max_block)
{
	struct fsload_refusal r;
	unsigned int i, j;
	u32 has;

	*max_block = 0;
	for (i = 0; i < prog->nphases; i++) {
		const struct prog_phase *pp = &prog->phases[i];
		struct fsload_phase *ph = &out[i];

		has = uprog_phase(prog, i, phase_flags, js->files, ph);
		if (fsload_check_phase(js, ph, has, pp->nops, &r))
			return bad_program(ph->name, 0, &r);
		for (j = 0; j < pp->nops; j++) {
			struct fsload_opdesc *od = &ph->ops[j];

			uprog_op(&pp->ops[j], od, &has);
			if (fsload_check_op(js, ph, od, has, &r))
				return bad_program(ph->name, j + 1, &r);
			ph->weight_total += od->weight;
			*max_block = max(*max_block, od->block);
		}
		ph->nops = pp->nops;
		if (fsload_check_phase_ops(ph, &r))
			return bad_program(ph->name, 0, &r);
		fsload_phase_groups(ph, js->ngroups);
	}
	return 0;
}

int uengine_check(const struct program *prog, uint32_t threads,
		  uint32_t rank, uint32_t ranks, uint64_t files,
		  uint32_t files_per_dir,
		  uint32_t branch, uint32_t first_dir, uint32_t flags,
		  uint8_t scheme)
{
	static struct fsload_phase phases[FSLOAD_PHASES_MAX];
	struct fsload_tree_shape t;
	struct fsload_job_shape js;
	struct fsload_refusal r;
	u32 max_block;

	if (!threads || threads > FSLOAD_THREADS_MAX) {
		errmsg("user engine: threads: 1 to %d", FSLOAD_THREADS_MAX);
		return EXIT_USAGE;
	}
	if (!fsload_rank_fits(rank, threads)) {
		errmsg("user engine: " FSLOAD_RANK_RANGE);
		return EXIT_USAGE;
	}
	if (!fsload_ranks_fit(rank, ranks, threads,
			      flags & FSLOAD_JOB_F_SHARED_DIR, scheme)) {
		errmsg("user engine: " FSLOAD_RANKS_RANGE);
		return EXIT_USAGE;
	}
	t = (struct fsload_tree_shape){
		.files = files,
		.files_per_dir = files_per_dir,
		/* the run's threads, in one directory */
		.threads = fsload_run_threads(threads, ranks),
		.branch = branch,
		.first_dir = first_dir,
		.flags = flags,
		.scheme = scheme,
		.block = prog->block,
	};
	if (fsload_check_tree(&t, &r)) {
		errmsg("user engine (%s): %s", job_keys[r.attr] ?: "?", r.msg);
		return EXIT_USAGE;
	}
	if (!prog->nphases || prog->nphases > FSLOAD_PHASES_MAX) {
		errmsg("user engine: 1 to %d phases", FSLOAD_PHASES_MAX);
		return EXIT_USAGE;
	}
	ushape(prog, threads, files, flags, &js);
	return uprog_convert(prog, &js, 0, phases, &max_block);
}
