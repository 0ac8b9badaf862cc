/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: a job's time series (FSLOAD_CMD_SERIES_GET), the block
 * device's own counters sampled beside it, stall reports, and their
 * output: JSON per phase, a compact table, SVG plots.
 */
#ifndef FSLOADCTL_SERIES_H
#define FSLOADCTL_SERIES_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/fsloadctl.h"

struct decoder;
struct nl_ctx;
struct results;
struct phase_result;
struct job_status;

/* One op type of a kernel sample (FSLOAD_A_SAMPLE_OP_*). */
struct sample_op {
	uint64_t have;
	uint8_t type;
	uint64_t ops;
	uint64_t bytes;
	uint64_t sampled;	/* of ops, timed: with have's bit, else ops */
	uint64_t lat_sum_ns;
	uint64_t lat_p50_ns;	/* of the interval; 0: none */
	uint64_t lat_p99_ns;
};

/* One kernel sample: cumulative per type within its phase. */
struct sample {
	uint64_t seq;
	uint64_t t_ns;		/* CLOCK_MONOTONIC */
	uint32_t phase;
	uint64_t io_bytes;	/* all phases, as read/write calls return */
	unsigned int nops;
	struct sample_op op[FSLOAD_OP_MAX];
};

/* /sys/block/<dev>/stat at one moment (Documentation/block/stat.rst). */
enum {
	DEV_READS, DEV_READ_MERGES, DEV_READ_SECTORS, DEV_READ_TICKS,
	DEV_WRITES, DEV_WRITE_MERGES, DEV_WRITE_SECTORS, DEV_WRITE_TICKS,
	DEV_IN_FLIGHT, DEV_IO_TICKS, DEV_QUEUE_TICKS,
	DEV_FIELDS
};

struct dev_sample {
	uint64_t t_ns;		/* CLOCK_MONOTONIC */
	uint64_t v[DEV_FIELDS];
};

/* What a stall notification showed: a worker and its kernel stack. */
struct stall_report {
	uint64_t t_ns;		/* when fsloadctl heard of it */
	uint32_t pid;
	uint32_t thread;
	uint32_t phase;
	uint64_t duration_ns;
	char *stack;		/* /proc/<pid>/stack, or why not */
};

/* Everything above, for one job. */
struct series {
	uint32_t sample_ms;
	struct sample *samples;
	unsigned int nsamples;
	uint64_t next;		/* SERIES_GET from here */
	uint64_t lost;		/* samples the ring overwrote before we read */
	char dev[64];		/* the device's sysfs name, "" if none */
	struct dev_sample *devs;
	unsigned int ndevs;
	struct stall_report *stalls;
	unsigned int nstalls;

	/* The device sampler thread. */
	pthread_t thread;
	bool running;
	pthread_mutex_t lock;	/* devs, ndevs */
	volatile bool quit;
};

/*
 * The decoder of a SERIES_GET message into a struct series: the samples
 * after s->next (nl/decode.h; tests/decode_test.c checks it).
 */
extern const struct decoder series_decoder;

/* Read the samples the kernel has beyond s->next.  Returns an exit code. */
int series_drain(struct nl_ctx *nl, uint32_t id, struct series *s);

#endif /* FSLOADCTL_SERIES_H */
