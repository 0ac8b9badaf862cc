// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the block device sampler, a thread that reads the device's
 * own counters (/sys/class/block/X/stat) every SAMPLE_MS while a job
 * runs, on the kernel's samples' clock (CLOCK_MONOTONIC).
 */
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "lib/clock.h"
#include "nl/series.h"
#include "engine/sampler.h"

static bool dev_read(const char *dev, struct dev_sample *d)
{
	char path[128];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/sys/class/block/%s/stat", dev);
	f = fopen(path, "r");
	if (!f)
		return false;
	d->t_ns = now_ns();
	n = fscanf(f, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64,
		   &d->v[0], &d->v[1], &d->v[2], &d->v[3], &d->v[4],
		   &d->v[5], &d->v[6], &d->v[7], &d->v[8], &d->v[9],
		   &d->v[10]);
	fclose(f);
	return n == DEV_FIELDS;
}

struct dev_thread_arg {
	struct series *s;
	uint32_t ms;
};

static void *dev_thread(void *arg)
{
	struct dev_thread_arg *a = arg;
	struct series *s = a->s;
	struct timespec ts = {
		.tv_sec = a->ms / 1000,
		.tv_nsec = (long)(a->ms % 1000) * 1000000L,
	};
	struct dev_sample d, *tmp;

	free(a);
	while (!s->quit) {
		if (dev_read(s->dev, &d)) {
			pthread_mutex_lock(&s->lock);
			tmp = realloc(s->devs, (s->ndevs + 1) * sizeof(*tmp));
			if (tmp) {
				s->devs = tmp;
				s->devs[s->ndevs++] = d;
			}
			pthread_mutex_unlock(&s->lock);
		}
		nanosleep(&ts, NULL);
	}
	return NULL;
}

void series_dev_start(struct series *s, const char *dir, uint32_t ms)
{
	struct dev_thread_arg *a;
	char link[64], target[PATH_MAX];
	struct stat st;
	ssize_t n;
	char *base;

	pthread_mutex_init(&s->lock, NULL);
	s->dev[0] = '\0';
	if (!ms || !dir || stat(dir, &st))
		return;
	if (S_ISBLK(st.st_mode))
		st.st_dev = st.st_rdev;	/* a block job's device itself */
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u",
		 major(st.st_dev), minor(st.st_dev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return;		/* no block device: tmpfs, btrfs */
	target[n] = '\0';
	base = strrchr(target, '/');
	snprintf(s->dev, sizeof(s->dev), "%.63s", base ? base + 1 : target);
	a = malloc(sizeof(*a));
	if (!a)
		return;
	a->s = s;
	a->ms = ms;
	s->quit = false;
	if (pthread_create(&s->thread, NULL, dev_thread, a)) {
		free(a);
		return;
	}
	s->running = true;
}

void series_dev_stop(struct series *s)
{
	if (!s->running)
		return;
	s->quit = true;
	pthread_join(s->thread, NULL);
	s->running = false;
}

void series_free(struct series *s)
{
	unsigned int i;

	series_dev_stop(s);
	for (i = 0; i < s->nstalls; i++)
		free(s->stalls[i].stack);
	free(s->stalls);
	free(s->samples);
	free(s->devs);
	s->samples = NULL;
	s->devs = NULL;
	s->stalls = NULL;
	s->nsamples = s->ndevs = s->nstalls = 0;
}
