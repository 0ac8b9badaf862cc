// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl start's options: their table (start_args[], the help and the
 * man page's order), their ranges, which were given, and the parsing of
 * the option values that are lists (--threads, --engine, --age).
 * cmd/start.c layers the parameters, checks them together and runs the
 * jobs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/parse.h"
#include "lib/msg.h"
#include "workload/profile.h"
#include "engine/job.h"
#include "cmd/start-opts.h"

#define OPT(field)	offsetof(struct params, field)

const struct arg_desc start_args[START_NARGS] = {
	{ "profile", ARG_STR, OPT(profile), "NAME",
	  "workload preset (see the profiles below); or --job" },
	{ "job", ARG_STR, OPT(job), "FILE",
	  "run the INI job file FILE instead of a profile" },
	{ "dir", ARG_STR, OPT(dir), "DIR",
	  "target directory, resolved by the kernel in this process's context (default .)" },
	{ "threads", ARG_STR, OPT(threads), "N|LIST",
	  "worker threads (default 1); a list 1,2,4,8 runs one job per count" },
	{ "files", ARG_U64, OPT(files), "N",
	  "files per thread (default 1000)" },
	{ "items", ARG_U64, OPT(files), "N",
	  "metadata: items per thread (the same as --files)" },
	{ "size", ARG_SIZE64, OPT(size), "BYTES",
	  "bytes written per file, K/M/G suffixes (default 4096)" },
	{ "block", ARG_SIZE32, OPT(block), "BYTES",
	  "bytes per read/write call (default 4096)" },
	{ "files-per-dir", ARG_U32, OPT(files_per_dir), "N",
	  "files per subdirectory (default 1000)" },
	{ "items-per-dir", ARG_U32, OPT(files_per_dir), "N",
	  "metadata: items per directory (the same as --files-per-dir)" },
	{ "tree-branch", ARG_U32, OPT(tree_branch), "N",
	  "directories form a tree of branching factor N (mdtest -b); default flat" },
	{ "tree-depth", ARG_U32, OPT(tree_depth), "N",
	  "metadata: with --tree-branch, a tree N levels deep holds the items (mdtest -z)" },
	{ "names", ARG_STR, OPT(names), "SCHEME",
	  "file and directory names: fsload (t000/d00000/f00000000), mdtest (metadata's default), fsmark (the fsmark profile's)" },
	{ "name-bytes", ARG_U32, OPT(name_bytes), "N",
	  "--names fsmark: a file name's length (fs_mark -p; default 40)" },
	{ "name-random-bytes", ARG_U32, OPT(name_random_bytes), "N",
	  "--names fsmark: its random characters, at the end (fs_mark -r; default 24)" },
	{ "fsync", ARG_FLAG, OPT(fsync), NULL,
	  "fsync each file written before closing it" },
	{ "sync", ARG_STR, OPT(sync), "MODE",
	  "smallfiles: none, fsync (each file), batch (rounds), final (syncfs); fsmark: fs_mark's -S, 0 to 6" },
	{ "files-per-round", ARG_U64, OPT(files_per_round), "N",
	  "smallfiles --sync batch: files per round (default files-per-dir)" },
	{ "shared-dir", ARG_FLAG, OPT(shared_dir), NULL,
	  "all threads in one directory tree (default: one per thread)" },
	{ "stonewall", ARG_SECONDS, OPT(stonewall), "SEC",
	  "end every phase SEC seconds after it started (metadata)" },
	{ "read-bytes", ARG_SIZE64, OPT(read_bytes), "BYTES",
	  "metadata: bytes file-read reads from each file; 0 (default): open and close only (mdtest -e)" },
	{ "random", ARG_FLAG, OPT(random), NULL,
	  "metadata: stat and read the items in a random order (mdtest -R)" },
	{ "phases", ARG_STR, OPT(phases), "LIST",
	  "metadata: only these item phases: create, stat, read, rename, remove (mdtest -C -T -E -U -r)" },
	{ "phase-sync", ARG_FLAG, OPT(phase_sync), NULL,
	  "metadata: each thread syncs the filesystem at the end of every item phase, inside its time (mdtest -Y)" },
	{ "stride", ARG_U32, OPT(stride), "N",
	  "metadata: thread t stats and renames thread t+N's items, reads t+2N's, removes t+3N's (mdtest -N)" },
	{ "leaf-only", ARG_FLAG, OPT(leaf_only), NULL,
	  "metadata: with --tree-branch, the items in the tree's leaf directories only (mdtest -L)" },
	{ "mknod", ARG_FLAG, OPT(mknod), NULL,
	  "metadata: file-create makes each file with mknod(S_IFREG), no data (mdtest -k)" },
	{ "iterations", ARG_U32, OPT(iterations), "N",
	  "run the job N times; per phase max/min/mean/stddev of ops/s" },
	{ "direct", ARG_FLAG, OPT(direct), NULL,
	  "O_DIRECT reads and writes" },
	{ "fallocate", ARG_FLAG, OPT(fallocate), NULL,
	  "largefile: fallocate each file before writing it" },
	{ "read-weight", ARG_U32, OPT(read_weight), "R",
	  "randrw: weight of random reads (default 1)" },
	{ "write-weight", ARG_U32, OPT(write_weight), "W",
	  "randrw: weight of random writes (default 1)" },
	{ "ops", ARG_U64, OPT(ops), "N",
	  "randrw, mix: operations per thread (default 10000)" },
	{ "time", ARG_SECONDS, OPT(time), "SEC",
	  "randrw, mix: run for SEC seconds instead of --ops (job files: every timed phase)" },
	{ "age", ARG_STR, OPT(age), "PCT",
	  "fill the filesystem to PCT% used first (age profile: its target)" },
	{ "scale", ARG_SECONDS, OPT(scale), "F",
	  "untar: F times the tree's 24000 files (default 1)" },
	{ "sync-between", ARG_FLAG, OPT(sync_between), NULL,
	  "untar: before reading and removing, sync; echo 3 > /proc/sys/vm/drop_caches" },
	{ "device", ARG_STR, OPT(device), "DEV",
	  "block: the block device, resolved by the kernel in this process's context" },
	{ "rw", ARG_STR, OPT(rw), "MODE",
	  "block: write (default), read, randwrite or randread" },
	{ "bs", ARG_SIZE32, OPT(block), "BYTES",
	  "block: bytes per bio (the same as --block; default 512K)" },
	{ "depth", ARG_U32, OPT(depth), "N",
	  "block: bios in flight per thread, 1 to 128 (default 1, like dd)" },
	{ "force", ARG_FLAG, OPT(force), NULL,
	  "block: write to a device that carries a filesystem signature" },
	{ "cpus", ARG_STR, OPT(cpus), "LIST",
	  "pin worker i to the i-th CPU of LIST (0,2-3; taken in turn)" },
	{ "engine", ARG_STR, OPT(engine), "NAME[,NAME...]",
	  "kernel (default); user: the same operations from fsloadctl's threads through system calls; uring: through io_uring; a list (kernel,user,uring) runs each in turn, compared (with --iterations, the order rotated each iteration); both: kernel,user" },
	{ "uring-sqpoll", ARG_FLAG, OPT(uring_sqpoll), NULL,
	  "uring: a kernel thread per worker polls the ring (IORING_SETUP_SQPOLL); its CPU is the worker's" },
	{ "uring-batch", ARG_U32, OPT(uring_batch), "N",
	  "uring: ops submitted at once, 1 to 1024 (default 16; a phase over the directory tree: 1)" },
	{ "keep", ARG_FLAG, OPT(keep), NULL,
	  "leave the job's directory and files in place" },
	{ "detach", ARG_FLAG, OPT(detach), NULL,
	  "print the job id and exit; the job runs on" },
	{ "seed", ARG_U64, OPT(seed), "N", "random seed (default: from the clock)" },
	{ "rank", ARG_U32, OPT(rank), "R",
	  "this job is rank R of a multi-client run: thread t is R x threads + t in mdtest's names and the random seeds (default 0)" },
	{ "progress-ms", ARG_U32, OPT(progress_ms), "N",
	  "progress notification interval, 0 for none (default 1000)" },
	{ "idle-ms", ARG_U32, OPT(idle_ms), "N",
	  "measure the machine's idle CPU for N ms first, subtracted from background CPU (default 250; 0: none)" },
	{ "no-sync-tail", ARG_FLAG, OPT(no_sync_tail), NULL,
	  "do not end each phase with a timed syncfs (its tail)" },
	{ "sample-ms", ARG_U32, OPT(sample_ms), "N",
	  "time series: ops, bytes and the device's counters every N ms (default 100; 0: none)" },
	{ "lat-sample", ARG_U32, OPT(lat_sample), "N",
	  "time 1 op in N, at random (default 1: every op); latencies from the sample, counts, bytes and CPU exact" },
	{ "series", ARG_FLAG, OPT(series_table), NULL,
	  "print the time series as a table per phase" },
	{ "plot", ARG_STR, OPT(plot), "PREFIX",
	  "write an SVG plot per phase to PREFIX-<index>-<phase>.svg" },
	{ "cpu-profile", ARG_U32, OPT(cpu_profile), "HZ",
	  "sample the workers' kernel stacks HZ times per CPU second; a profile per phase and op type (0: none)" },
	{ "cpu-profile-stacks", ARG_U32, OPT(cpu_profile_stacks), "N",
	  "--cpu-profile: distinct stacks each worker keeps (default 32768, fewer for many threads); more are counted as dropped" },
	{ "folded", ARG_STR, OPT(folded), "PREFIX",
	  "--cpu-profile: write folded stacks to PREFIX-<index>-<phase>-<op>.folded" },
	{ "flamegraph", ARG_STR, OPT(flamegraph), "PREFIX",
	  "--cpu-profile: write a flame graph to PREFIX-<index>-<phase>-<op>.svg" },
	{ "one-dir", ARG_FLAG, OPT(one_dir), NULL,
	  "fsloadctl-mpi: every rank's job works in the job directory rank 0's makes, as mdtest's ranks in its test directory (--stride then reaches other ranks' items; implied by --shared-dir)" },
	{ "rank-timeout", ARG_SECONDS, OPT(rank_timeout), "SEC",
	  "fsloadctl-mpi: the longest a rank waits for the others at a barrier before every rank is ended (default 600)" },
	{ "stall-sec", ARG_SECONDS, OPT(stall_sec), "SEC",
	  "report a worker without progress for SEC seconds, with its kernel stack (default 60; 0: never)" },
	{ "stall-stop", ARG_FLAG, OPT(stall_stop), NULL,
	  "stop the job when a stall is reported" },
	{ "quiet", ARG_FLAG, OPT(quiet), NULL,
	  "no progress line or messages on stderr" },
	{ "progress", ARG_STR, OPT(progress_name), "none|line|bar",
	  "progress on stderr: none, a line every 5 s, or a bar redrawn in place (default: bar on a terminal, line elsewhere, none with --json or --quiet)" },
	{ "output", ARG_STR, OPT(output), "FILE",
	  "also write the results to FILE as a result file: JSON with the environment, every parameter and iteration (-o)" },
	{ "rerun", ARG_STR, OPT(rerun), "FILE",
	  "repeat the run that the result file FILE describes (its options, seed and job file); options given here override" },
	{ NULL },
};
_Static_assert(sizeof(start_args) / sizeof(start_args[0]) == START_NARGS,
	       "START_NARGS: start_args[]'s entries and its { NULL }");

/*
 * The numeric options' ranges: the spec's limits (the request's policy
 * and the module's checks), refused here before any request is sent.
 */
#define RANGE(name, min, max)		{ name, min, max, false }
#define RANGE_OR_0(name, min, max)	{ name, min, max, true }

const struct arg_range start_ranges[] = {
	RANGE("files", 1, FSLOAD_FILES_MAX),
	RANGE("files-per-dir", 1, FSLOAD_FILES_MAX),
	RANGE("tree-branch", 0, FSLOAD_DIRS_MAX),
	/* --name-bytes, --name-random-bytes: params_naming() */
	RANGE("block", 1, FSLOAD_BLOCK_MAX),
	/* one call of one block */
	RANGE("read-bytes", 0, FSLOAD_BLOCK_MAX),
	RANGE("read-weight", 0, FSLOAD_WEIGHT_MAX),
	RANGE("write-weight", 0, FSLOAD_WEIGHT_MAX),
	RANGE("depth", 1, FSLOAD_BIO_DEPTH_MAX),
	RANGE("rank", 0, FSLOAD_RANK_MAX),
	RANGE_OR_0("progress-ms", FSLOAD_INTERVAL_MS_MIN, FSLOAD_PROGRESS_MS_MAX),
	RANGE("idle-ms", 0, FSLOAD_IDLE_MS_MAX),
	RANGE_OR_0("sample-ms", FSLOAD_INTERVAL_MS_MIN, FSLOAD_SAMPLE_MS_MAX),
	RANGE("lat-sample", 1, FSLOAD_LAT_SAMPLE_MAX),
	RANGE("cpu-profile", 0, FSLOAD_PROFILE_HZ_MAX),
	/* 0: as many as fit */
	RANGE_OR_0("cpu-profile-stacks", 1, FSLOAD_PROFILE_STACKS_MAX),
	{ NULL, 0, 0, false },
};

/* Copy the options given on the command line from @src into @dst. */
void start_copy_given(struct params *dst, const struct params *src,
		      const bool *seen)
{
	const struct arg_desc *a;
	size_t len;

	for (a = start_args; a->name; a++) {
		if (!seen[a - start_args])
			continue;
		switch (a->type) {
		case ARG_FLAG:
			len = sizeof(bool);
			break;
		case ARG_U32:
		case ARG_SIZE32:
			len = sizeof(uint32_t);
			break;
		case ARG_U64:
		case ARG_SIZE64:
			len = sizeof(uint64_t);
			break;
		case ARG_STR:
			len = sizeof(const char *);
			break;
		case ARG_SECONDS:
			len = sizeof(double);
			break;
		default:
			continue;
		}
		memcpy((char *)dst + a->offset, (const char *)src + a->offset,
		       len);
	}
}

bool start_given(const char *name, void *arg)
{
	const struct given_ctx *g = arg;
	const struct arg_desc *a;

	for (a = start_args; a->name; a++)
		if (!strcmp(a->name, name))
			return g->seen[a - start_args] ||
			       (g->file && g->file[a - start_args]);
	return false;
}

/* "4" or "1,2,4,8" */
int start_parse_threads(const char *s, uint32_t *counts, unsigned int *n)
{
	const char *p = s;
	char *end;
	unsigned long v;

	*n = 0;
	do {
		if (*n == SWEEP_MAX)
			return usage_error("--threads: at most %d counts",
					   SWEEP_MAX);
		if (*p < '0' || *p > '9')
			return usage_error("invalid value '%s' for --threads", s);
		v = strtoul(p, &end, 10);
		if (*end && *end != ',')
			return usage_error("invalid value '%s' for --threads", s);
		if (v < 1 || v > FSLOAD_THREADS_MAX)
			return usage_error("--threads: %lu is not 1 to %d", v,
					   FSLOAD_THREADS_MAX);
		counts[(*n)++] = (uint32_t)v;
		p = end + (*end == ',');
	} while (*end);
	return 0;
}

int start_parse_pct(const char *s, double *pct)
{
	char *end;

	*pct = strtod(s, &end);
	if (end == s || (*end && strcmp(end, "%")) || !(*pct > 0) ||
	    *pct >= 100)
		return usage_error("--age: '%s' is not a percentage between 0 and 100",
				   s);
	return 0;
}

/* Add engine @e to the @n in @engines, once. */
static int add_engine(enum engine *engines, unsigned int *n, enum engine e)
{
	unsigned int i;

	for (i = 0; i < *n; i++) {
		if (engines[i] == e)
			return usage_error("--engine: %s twice", engine_name(e));
	}
	engines[(*n)++] = e;
	return 0;
}

/*
 * start --engine: engine names separated by commas (both: kernel,user),
 * each once, run in that order; EXIT_USAGE for an unknown one.
 */
int start_parse_engines(const char *s, enum engine *engines,
			unsigned int *n)
{
	unsigned int e;
	size_t len;
	int ret;

	*n = 0;
	do {
		len = strcspn(s, ",");
		if (len == 4 && !strncmp(s, "both", 4)) {
			ret = add_engine(engines, n, ENGINE_KERNEL);
			if (!ret)
				ret = add_engine(engines, n, ENGINE_USER);
		} else {
			for (e = 0; e < ENGINE_COUNT; e++) {
				if (strlen(engine_name(e)) == len &&
				    !strncmp(s, engine_name(e), len))
					break;
			}
			if (e == ENGINE_COUNT)
				return usage_error("--engine: '%.*s' is not kernel, user, uring or both",
						   (int)len, s);
			ret = add_engine(engines, n, e);
		}
		if (ret)
			return ret;
		s += len;
	} while (*s++ == ',');
	return 0;
}

/*
 * An engine list runs rotated by one each iteration (engine_set_at()):
 * over a number of iterations it does not divide, some engines run first
 * more often than others, which the order effects weigh.  Said before
 * the run, with the number that rotates evenly.
 */
void start_warn_rotation(const struct engine_set *es,
			 uint32_t iterations)
{
	char buf[256];
	size_t len = 0;
	unsigned int k;

	if (es->n < 2 || iterations < 2 || !(iterations % es->n))
		return;
	for (k = 0; k < es->n && len < sizeof(buf); k++)
		len += snprintf(buf + len, sizeof(buf) - len,
				k ? ", %s %u" : "%s runs first %u times",
				engine_name(engine_set_at(es, k, 0)),
				iterations / es->n + (k < iterations % es->n));
	warnmsg("--iterations %u is not a multiple of the %u engines: %s; --iterations %u rotates evenly",
		iterations, es->n, buf,
		(iterations / es->n + 1) * es->n);
}
