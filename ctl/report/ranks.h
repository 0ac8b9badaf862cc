/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the result of a multi-client run.  Each rank packs its job's
 * run (rank_pack()); rank 0 unpacks every rank's (rank_report_build()),
 * merges their phases into its own run, which then reports as any
 * result does (compare reads it as any), and prints the ranks' own rows
 * and each machine's environment beside it (print_ranks()).
 */
#ifndef FSLOADCTL_REPORT_RANKS_H
#define FSLOADCTL_REPORT_RANKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/job.h"

/* One rank's part, as rank 0 received it. */
struct rank_part {
	unsigned int rank;
	char *host;
	char *env_json;		/* {"fsload": ..., "environment": ...} */
	uint32_t job_id;
	uint8_t state;
	uint32_t err;
	char *error;
	char *job_dir;
	uint32_t engine;
	uint32_t threads;
	int32_t stop_from;	/* the rank whose stop it followed, or -1 */
	bool started;		/* its job started (the others are zero) */
	bool lost;		/* no part came from it (the run was ended) */
	/* --cpu-profile: its files' prefixes (on its host), or NULL */
	char *folded;
	char *flamegraph;
	struct results r;
};

struct rank_report {
	unsigned int size;
	const char *library;
	double timeout_s;
	struct rank_part *parts;
};

/*
 * Rank 0's own part @buf of @len bytes as the parts of @n ranks, the
 * others missing (NULL, 0): what rank_report_build() reports as lost.
 * Takes @buf.  0 or -ENOMEM.
 */
int rank_lone_part(void *buf, size_t len, unsigned int n, void ***bufs,
		   size_t **lens);

/*
 * This rank's job: @run (NULL or not ok: it did not start), its barriers
 * @rs, the directory or device it ran on @where, the prefixes of the
 * files its CPU profile went to (@folded, @flamegraph: NULL for none;
 * said only when it has one), into *@buf (malloc'd).  0 or -ENOMEM.
 */
int rank_pack(const struct run *run, const struct rank_sync *rs,
	      const char *where, const char *folded, const char *flamegraph,
	      char **buf, size_t *len);
/*
 * Rank 0: the @n ranks' parts from @bufs into @rr, and every rank's
 * phases merged into @run0 (rank 0's own run, which must be ok): the
 * aggregate as mdtest computes it (all ranks' ops over the slowest
 * rank's phase time; CPU summed; no CPU profile: each rank's is in its
 * own files).  0, or -EINVAL for a part that does
 * not unpack (another fsloadctl version) or a rank's other program.
 */
int rank_report_build(struct rank_report *rr, void **bufs,
		      const size_t *lens, unsigned int n, struct run *run0);
void rank_report_free(struct rank_report *rr);
/* The ranks' rows and environments (report_single() calls it). */
void print_ranks(const struct rank_report *rr);

#endif /* FSLOADCTL_REPORT_RANKS_H */
