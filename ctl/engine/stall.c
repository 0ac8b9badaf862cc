// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: stall notices, a worker the kernel saw without progress:
 * noted once each with its kernel stack, and told on stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/clock.h"
#include "nl/job.h"
#include "nl/names.h"
#include "nl/series.h"
#include "engine/stall.h"

static char *read_stack(uint32_t pid)
{
	char path[64], *buf = NULL;
	size_t len = 0;
	FILE *f, *m;
	int c;

	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/stack", pid);
	f = fopen(path, "r");
	if (!f) {
		if (asprintf(&buf, "(no stack: %s: %s)", path,
			     strerror(errno)) < 0)
			buf = NULL;
		return buf;
	}
	m = open_memstream(&buf, &len);
	if (m) {
		while ((c = fgetc(f)) != EOF)
			fputc(c, m);
		fclose(m);
	}
	fclose(f);
	return buf;
}

void series_stall_report(struct series *s, const struct job_status *js,
			 const uint32_t *pids, unsigned int npids, bool quiet)
{
	struct stall_report *r, *tmp;
	unsigned int i, k;
	uint32_t pid;
	bool known;

	for (i = 0; i < js->nstalls; i++) {
		const struct job_stall *st = &js->stalls[i];

		if (st->ended)
			continue;
		pid = st->pid ? st->pid :
		      st->thread < npids ? pids[st->thread] : 0;
		/* Report each stall once: a worker stalls again only after
		 * an end. */
		for (k = 0, known = false; k < s->nstalls; k++)
			known |= s->stalls[k].thread == st->thread &&
				 s->stalls[k].phase == st->phase &&
				 s->stalls[k].t_ns >= st->start_ns;
		if (known)
			continue;
		tmp = realloc(s->stalls, (s->nstalls + 1) * sizeof(*tmp));
		if (!tmp)
			return;
		s->stalls = tmp;
		r = &s->stalls[s->nstalls++];
		r->t_ns = now_ns();
		r->pid = pid;
		r->thread = st->thread;
		r->phase = st->phase;
		r->duration_ns = st->duration_ns;
		r->stack = pid ? read_stack(pid) :
			   strdup("(no stack: its thread id is unknown)\n");
		if (quiet)
			continue;
		fprintf(stderr, "\nfsloadctl: job %" PRIu32 ": worker %" PRIu32
			" (thread %" PRIu32 ") has made no progress in phase %"
			PRIu32 "%s%s for %.1f s; its kernel stack:\n%s",
			js->id, r->thread, r->pid, r->phase,
			st->op ? ", op " : "", st->op ? op_name(st->op) : "",
			r->duration_ns / 1e9, r->stack ? r->stack : "?\n");
	}
}
