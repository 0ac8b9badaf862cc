// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: start's parameters and questions asked of a program.
 *
 * What does not depend on the profile: the built-in parameters and the
 * naming options (before any profile's defaults), and what fsloadctl
 * asks of a built program, whichever profile or job file built it.  The
 * profiles and the helpers that append phases and ops are in
 * workload/profile.c; the declarations in workload/profile.h.
 */
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/parse.h"
#include "lib/kshim.h"
#include <fsload/engine.h>
#include "nl/fsload-nl-gen.h"
#include "workload/profile.h"

void params_init(struct params *p)
{
	memset(p, 0, sizeof(*p));
	p->dir = ".";
	p->threads = "1";
	p->engine = "kernel";
	p->files = 1000;
	p->size = 4096;
	p->block = 4096;
	p->files_per_dir = 1000;
	p->progress_ms = 1000;
	p->idle_ms = 250;
	p->sample_ms = 100;
	p->lat_sample = 1;
	p->stall_sec = 60;
	p->rank_timeout = 600;
	p->iterations = 1;
	p->read_weight = 1;
	p->write_weight = 1;
	p->scale = 1.0;
	p->depth = 1;
	p->uring_batch = URING_BATCH_DEFAULT;
}

int params_naming(struct params *p)
{
	unsigned int i;

	p->scheme = FSLOAD_NAMES_FSLOAD;
	if (p->names) {
		for (i = 0; i < ARRAY_SIZE(fsload_names_names); i++)
			if (fsload_names_names[i] &&
			    !strcmp(p->names, fsload_names_names[i]))
				break;
		if (i == ARRAY_SIZE(fsload_names_names))
			return usage_error("--names: '%s' is not fsload, mdtest or fsmark",
					   p->names);
		p->scheme = (uint8_t)i;
	}
	if (p->scheme != FSLOAD_NAMES_FSMARK &&
	    (p->name_bytes || p->name_random_bytes))
		return usage_error("--name-bytes, --name-random-bytes: only with --names fsmark");
	if ((p->name_bytes && (p->name_bytes < FSLOAD_NAME_RANDOM_BYTES_MIN ||
			       p->name_bytes > FSLOAD_NAME_BYTES_MAX)) ||
	    (p->name_random_bytes &&
	     (p->name_random_bytes < FSLOAD_NAME_RANDOM_BYTES_MIN ||
	      p->name_random_bytes > FSLOAD_NAME_BYTES_MAX)))
		return usage_error("--name-bytes, --name-random-bytes: %d to %d",
				   FSLOAD_NAME_RANDOM_BYTES_MIN,
				   FSLOAD_NAME_BYTES_MAX);
	if ((p->name_random_bytes ?: FSLOAD_FSMARK_RANDOM_BYTES) >
	    (p->name_bytes ?: FSLOAD_FSMARK_NAME_BYTES))
		return usage_error("--name-random-bytes: more than --name-bytes");
	return 0;
}

/*
 * Bytes one operation of @op moves, as the kernel bounds them
 * (FSLOAD_A_OP_SIZE_BYTES): a random or bio op's block, not its size
 * (the file's, the device region's).
 */
static uint64_t op_bytes(const struct prog_op *op)
{
	switch (op->type) {
	case FSLOAD_OP_WRITE_RANDOM:
	case FSLOAD_OP_READ_RANDOM:
	case FSLOAD_OP_BIO_WRITE:
	case FSLOAD_OP_BIO_READ:
		return op->block;
	default:
		return op->size;
	}
}

uint64_t program_unbounded_iterations(const struct program *prog,
				      uint32_t threads)
{
	uint64_t max_size = 1, n = 1ULL << 40;
	unsigned int i, j;

	/* The kernel refuses bytes per op x iterations x threads past 2^64. */
	for (i = 0; i < prog->nphases; i++)
		for (j = 0; j < prog->phases[i].nops; j++)
			if (op_bytes(&prog->phases[i].ops[j]) > max_size)
				max_size = op_bytes(&prog->phases[i].ops[j]);
	if (n > UINT64_MAX / max_size / (threads ? threads : 1))
		n = UINT64_MAX / max_size / (threads ? threads : 1);
	return n ? n : 1;
}

bool program_writes_size(const struct program *prog, uint64_t size)
{
	unsigned int i, j;
	bool any = false;

	for (i = 0; i < prog->nphases; i++)
		for (j = 0; j < prog->phases[i].nops; j++) {
			const struct prog_op *op = &prog->phases[i].ops[j];

			if (op->type != FSLOAD_OP_CREATE &&
			    op->type != FSLOAD_OP_APPEND)
				continue;
			if (op->size != size)
				return false;
			any = true;
		}
	return any;
}

bool program_fsyncs(const struct program *prog)
{
	unsigned int i, j;

	for (i = 0; i < prog->nphases; i++)
		for (j = 0; j < prog->phases[i].nops; j++)
			if (prog->phases[i].ops[j].flags & FSLOAD_OP_F_FSYNC)
				return true;
	return false;
}

bool program_has_size(const struct program *prog)
{
	unsigned int i, j;

	for (i = 0; i < prog->nphases; i++)
		for (j = 0; j < prog->phases[i].nops; j++)
			switch (prog->phases[i].ops[j].type) {
			case FSLOAD_OP_CREATE:
			case FSLOAD_OP_APPEND:
			case FSLOAD_OP_WRITE_RANDOM:
				return true;
			}
	return false;
}
