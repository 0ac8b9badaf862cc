// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a job's description for the engines, from start's
 * parameters.
 */
#include <string.h>

#include "workload/jobdesc.h"
#include "workload/profile.h"

void job_desc_init(struct job_desc *d, const struct params *p)
{
	memset(d, 0, sizeof(*d));
	d->dir = p->dir;
	d->device = p->device;
	d->rank = p->rank;
	d->ranks = p->ranks;
	d->files_per_dir = p->files_per_dir;
	d->tree_branch = p->tree_branch;
	d->first_dir = p->first_dir;
	d->scheme = p->scheme;
	d->name_bytes = p->name_bytes;
	d->name_random_bytes = p->name_random_bytes;
	d->seed = p->seed;
	d->lat_sample = p->lat_sample;
	d->no_sync_tail = p->no_sync_tail;
	d->cpus = p->cpus;
	d->progress_ms = p->progress_ms;
	d->progress = p->progress;
	d->quiet = p->quiet;
	d->idle_ms = p->idle_ms;
	d->sample_ms = p->sample_ms;
	d->series_table = p->series_table;
	d->stall_sec = p->stall_sec;
	d->stall_stop = p->stall_stop;
	d->cpu_profile = p->cpu_profile;
	d->cpu_profile_stacks = p->cpu_profile_stacks;
	d->uring_sqpoll = p->uring_sqpoll;
	d->uring_batch = p->uring_batch;
}
