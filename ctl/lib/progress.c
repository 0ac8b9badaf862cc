// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the progress of a running job on stderr (lib/progress.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/parse.h"
#include "lib/print.h"
#include "lib/progress.h"

#define BAR_WIDTH	20

int progress_parse(const char *name, enum progress_mode *mode)
{
	static const char *const names[] = {
		[PROGRESS_NONE] = "none",
		[PROGRESS_LINE] = "line",
		[PROGRESS_BAR] = "bar",
	};
	unsigned int i;

	for (i = PROGRESS_NONE; i <= PROGRESS_BAR; i++) {
		if (!strcmp(name, names[i])) {
			*mode = i;
			return 0;
		}
	}
	return usage_error("--progress: '%s' is not one of none, line, bar",
			   name);
}

enum progress_mode progress_resolve(enum progress_mode mode, bool json,
				    bool quiet)
{
	if (mode != PROGRESS_AUTO)
		return mode;
	if (json || quiet)
		return PROGRESS_NONE;
	return progress_wanted() ? PROGRESS_BAR : PROGRESS_LINE;
}

void progress_init(struct progress *pr, enum progress_mode mode,
		   const char *who)
{
	memset(pr, 0, sizeof(*pr));
	pr->mode = mode;
	pr->phase = -1;
	snprintf(pr->who, sizeof(pr->who), "%s", who);
}

/* @s seconds as "42 s", "3:05" or "1:02:03"; "?" when not known. */
static const char *fmt_time(char *buf, size_t len, double s)
{
	unsigned long t;

	if (isnan(s) || s < 0 || s > 1e8) {
		snprintf(buf, len, "?");
		return buf;
	}
	t = (unsigned long)(s + 0.5);
	if (t < 60)
		snprintf(buf, len, "%lu s", t);
	else if (t < 3600)
		snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
	else
		snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60,
			 t % 60);
	return buf;
}

void progress_show(struct progress *pr, const struct progress_sample *s)
{
	double pf = NAN, jf = NAN, left_p = NAN, left_j = NAN, dt;
	char bar[BAR_WIDTH + 1], tel[32], tlp[32], tlj[32], ph[96];
	unsigned int i, fill;

	if (pr->mode != PROGRESS_LINE && pr->mode != PROGRESS_BAR)
		return;
	/* a phase's start, as near as the samples tell (a time limit's) */
	if (s->phase != pr->phase) {
		pr->phase = s->phase;
		pr->phase_s = s->elapsed_s;
	}
	if (pr->mode == PROGRESS_LINE) {
		double every = PROGRESS_LINE_EVERY *
			       (s->interval_s > 0 ? s->interval_s : 1);

		if (!pr->next_line_s)
			pr->next_line_s = every;
		if (s->elapsed_s < pr->next_line_s)
			return;
		while (pr->next_line_s <= s->elapsed_s)
			pr->next_line_s += every;
	}
	/* ops/s since the last line, or over half a second of the bar */
	dt = s->elapsed_s - pr->prev_s;
	if (dt >= 0.5 || !pr->prev_s) {
		pr->rate = dt > 0 && s->ops >= pr->prev_ops ?
			   (double)(s->ops - pr->prev_ops) / dt : 0;
		pr->prev_ops = s->ops;
		pr->prev_s = s->elapsed_s;
	}
	if (s->phase >= 0 && s->nphases) {
		pf = s->items ? (double)(s->done < s->items ? s->done :
					 s->items) / (double)s->items : 0;
		if (s->items && pr->rate > 0)
			left_p = (double)(s->items - (s->done < s->items ?
					  s->done : s->items)) / pr->rate;
		/* a time limit ends the phase first when it comes first */
		if (s->limit_s > 0) {
			double in = s->elapsed_s - pr->phase_s;
			double tf = in < s->limit_s ? in / s->limit_s : 1;

			if (tf > pf)
				pf = tf;
			if (!(left_p <= s->limit_s - in))
				left_p = s->limit_s - in > 0 ?
					 s->limit_s - in : 0;
		}
		jf = ((double)s->phase + pf) / s->nphases;
		if (jf > 1)
			jf = 1;
		/* the phases so far as the rest; never before the phase's end */
		if (jf >= 0.01)
			left_j = s->elapsed_s * (1 - jf) / jf;
		if (!isnan(left_p) && !(left_j >= left_p))
			left_j = left_p;
		snprintf(ph, sizeof(ph), "phase %d/%u%s%s", s->phase + 1,
			 s->nphases, s->name ? " " : "",
			 s->name ? s->name : "");
	} else {
		snprintf(ph, sizeof(ph), "phase -/%u", s->nphases);
	}
	fmt_time(tel, sizeof(tel), s->elapsed_s);
	fmt_time(tlp, sizeof(tlp), left_p);
	fmt_time(tlj, sizeof(tlj), left_j);
	if (pr->mode == PROGRESS_LINE) {
		fprintf(stderr, "fsloadctl: %s: %s%s%s", pr->who,
			s->state ? s->state : "", s->state ? ", " : "", ph);
		if (!isnan(pf))
			fprintf(stderr, " %.0f%%", pf * 100);
		if (!isnan(pf) && s->limit_s > 0)
			fprintf(stderr, " (%llu items, %g s limit)",
				(unsigned long long)s->done, s->limit_s);
		else if (!isnan(pf) && s->items)
			fprintf(stderr, " (%llu of %llu items)",
				(unsigned long long)s->done,
				(unsigned long long)s->items);
		if (!isnan(jf))
			fprintf(stderr, ", job %.0f%%", jf * 100);
		fprintf(stderr, ", %.0f ops/s, %s", pr->rate, tel);
		if (!isnan(jf))
			fprintf(stderr, ", left: phase %s, job ~%s", tlp, tlj);
		fputc('\n', stderr);
		fflush(stderr);
		return;
	}
	fill = isnan(jf) ? 0 : (unsigned int)(jf * BAR_WIDTH);
	for (i = 0; i < BAR_WIDTH; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[BAR_WIDTH] = '\0';
	fprintf(stderr, "\r%s [%s] %s", pr->who, bar, ph);
	if (!isnan(pf))
		fprintf(stderr, " %.0f%%", pf * 100);
	if (!isnan(jf))
		fprintf(stderr, " | job %.0f%%", jf * 100);
	fprintf(stderr, " | %.0f ops/s | %s", pr->rate, tel);
	if (!isnan(jf))
		fprintf(stderr, " | ETA %s", tlj);
	fputs("\033[K", stderr);
	fflush(stderr);
	pr->drawn = true;
}

void progress_clear(struct progress *pr)
{
	if (pr->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		pr->drawn = false;
	}
}
