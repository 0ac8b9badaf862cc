/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: profiles, userspace presets that build the generic program
 * (phases of weighted operations) the module executes, and the start
 * parameters they are built from.
 */
#ifndef FSLOADCTL_PROFILE_H
#define FSLOADCTL_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/fsloadctl.h"
#include "lib/progress.h"
#include "nl/program.h"

struct results;

/* --uring-batch: its default and its limit (ops per submission). */
#define URING_BATCH_DEFAULT	16
#define URING_BATCH_MAX		1024

/*
 * fsloadctl start's parameters: the command line, over a job file's
 * [global] section, over the profile's defaults, over the built-in ones.
 */
struct params {
	const char *profile;
	const char *job;	/* --job FILE */
	const char *dir;
	const char *threads;	/* "N" or a sweep "1,2,4,8" */
	uint32_t rank;		/* of a multi-client run: thread t is its
				 * rank x threads + t (names, seeds)
				 */
	uint32_t ranks;		/* > 1: the run's ranks, in one directory */
	bool one_dir;		/* --one-dir */
	uint64_t files;
	uint64_t size;
	uint32_t block;
	uint32_t files_per_dir;
	uint32_t tree_branch;	/* directory tree's branching; 0: flat */
	uint32_t tree_depth;	/* metadata: its depth (items spread over it) */
	uint32_t first_dir;	/* the first directory holding files (job
				 * files' first-dir; metadata --leaf-only)
				 */
	const char *names;	/* --names fsload|mdtest|fsmark */
	uint8_t scheme;		/* enum fsload_names of names (params_naming()) */
	uint32_t name_bytes;	/* fsmark names: length; 0: fs_mark's 40 */
	uint32_t name_random_bytes;	/* fsmark names: random; 0: 24 */
	bool fsync;
	bool keep;
	bool detach;
	uint64_t seed;
	uint32_t progress_ms;
	bool quiet;
	const char *progress_name;	/* --progress none|line|bar */
	enum progress_mode progress;	/* of it (progress_resolve()) */
	/* profile knobs */
	const char *sync;	/* smallfiles: none|fsync|batch|final */
	uint64_t files_per_round;
	bool shared_dir;
	double stonewall;	/* seconds on every phase; 0: none */
	double rank_timeout;	/* a multi-client run's barrier wait, s */
	/* metadata: mdtest's -e, -R, -C/-T/-E/-U/-r, -Y, -N */
	uint64_t read_bytes;	/* bytes each file-read reads; 0: none */
	bool random;		/* stat and read in a random order */
	const char *phases;	/* the item phases to run; NULL: all */
	bool phase_sync;	/* each thread syncs inside each item phase */
	uint32_t stride;	/* phase k: the items of thread t + k x N */
	bool leaf_only;		/* mdtest -L: the items in the leaves only */
	bool mknod;		/* mdtest -k: file-create by mknod */
	uint32_t iterations;	/* runs of the job */
	bool direct;
	bool fallocate;
	uint32_t read_weight;
	uint32_t write_weight;
	uint64_t ops;		/* iterations per thread of a timed phase */
	double time;		/* seconds of a timed phase; 0: use ops */
	const char *age;	/* target utilisation, percent */
	const char *engine;	/* kernel, user, uring, a list; both */
	bool uring_sqpoll;	/* uring: a kernel thread submits */
	uint32_t uring_batch;	/* uring: ops per submission */
	double scale;		/* untar */
	bool sync_between;	/* untar */
	const char *device;	/* block: the device */
	const char *rw;		/* block: read|write|randread|randwrite */
	uint32_t depth;		/* block: bios in flight per thread */
	bool force;		/* block: write over a filesystem signature */
	uint64_t device_bytes;	/* block: the device's size, as read */
	const char *cpus;	/* --cpus LIST: worker i on the i-th (mod n) */
	/* measurement */
	uint32_t idle_ms;	/* idle baseline before the first phase */
	bool no_sync_tail;	/* no syncfs tail after each phase */
	uint32_t sample_ms;	/* time series interval; 0: none */
	uint32_t lat_sample;	/* time 1 op in N (1: every op) */
	double stall_sec;	/* report workers stalled this long; 0: no */
	bool stall_stop;	/* and stop the job then */
	bool series_table;	/* print the time series as tables */
	const char *plot;	/* SVG plots to PREFIX-<phase>.svg */
	uint32_t cpu_profile;	/* CPU profile's samples per second; 0 none */
	uint32_t cpu_profile_stacks;	/* per worker; 0: the module's default */
	const char *folded;	/* folded stacks to PREFIX-<phase>-<op>.folded */
	const char *flamegraph;	/* flame graphs to PREFIX-<phase>-<op>.svg */
	/* result files */
	const char *output;	/* -o FILE: also write the JSON result there */
	const char *rerun;	/* --rerun FILE (handled before parsing) */
};

/* The built-in defaults, before a profile's. */
void params_init(struct params *p);
/*
 * Settle p->scheme from p->names, and check the name options.  Returns 0,
 * or EXIT_USAGE after printing why.
 */
int params_naming(struct params *p);

struct profile;

/* How a profile's headline number is computed from a job's results. */
struct metric_spec {
	const char *label;
	const char *key;
	uint8_t op;		/* count this op type; 0: every op */
	bool mib;		/* MiB/s rather than ops/s */
	const char *phases[4];	/* time of the phases named so (prefix) */
};

/* What @pf's headline figure counts (report/metric.c computes it). */
const struct metric_spec *profile_metric_spec(const struct profile *pf);

const struct profile *profile_find(const char *name);
const char *profile_name(const struct profile *pf);
/* The profile's defaults as start options: "--files 1 --size 1G". */
const char *profile_defaults(const struct profile *pf);

/* What a profile asks of fsloadctl around its job. */
#define PF_EXTENTS	(1U << 0)	/* count extents after the job */
#define PF_AGE		(1U << 1)	/* the age profile: fills to --age */
#define PF_BLOCK	(1U << 2)	/* a block job: --device, no --dir */
unsigned int profile_flags(const struct profile *pf);

/*
 * Settle the parameters the profile derives from others, once the
 * command line is in (metadata: items per directory = items).
 * @given(name, arg) says whether option @name was given.
 */
void profile_fixup(const struct profile *pf, struct params *p,
		   bool (*given)(const char *name, void *arg), void *arg);

/*
 * Build the profile's program for @threads workers.  Returns 0, or
 * EXIT_USAGE after printing why the parameters do not make a program.
 */
int profile_build(const struct profile *pf, const struct params *p,
		  uint32_t threads, struct program *prog);

/* Program for the age profile's fill (also used before another one). */
int profile_build_age(const struct params *p, uint32_t threads,
		      struct program *prog);

/* untar: files per thread, from --scale unless --files was given. */
uint64_t untar_files(const struct params *p, uint32_t threads);

/* "smallfiles, null" */
void profile_list(FILE *f, const char *sep);
/* Profiles with their descriptions, one a line. */
void profile_help(FILE *f);
/* Each profile: description, defaults, options, phases. */
void profile_help_long(FILE *f);

/* Does the program write files (is --size meaningful)? */
bool program_has_size(const struct program *prog);
/*
 * Whether @prog writes files and every op that writes one (create,
 * append) writes @size bytes (then the header shows it).
 */
bool program_writes_size(const struct program *prog, uint64_t size);
/* Whether a write of @prog fsyncs its file before closing it. */
bool program_fsyncs(const struct program *prog);
/* Append a phase (zeroed, named); NULL when the program is full. */
struct prog_phase *program_add_phase(struct program *prog, const char *name);
/* Append an op to @ph; NULL when the phase is full. */
struct prog_op *phase_add_op(struct prog_phase *ph, uint8_t type,
			     uint32_t weight);
/* An iteration count that ends by time, not by count, for @threads. */
uint64_t program_unbounded_iterations(const struct program *prog,
				      uint32_t threads);

#endif /* FSLOADCTL_PROFILE_H */
