// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl start --plot: one SVG per phase of a job's series, written
 * by start after each job that kept one.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "nl/interval.h"
#include "nl/names.h"
#include "nl/results.h"
#include "nl/series.h"
#include "lib/msg.h"
#include "engine/job.h"
#include "report/plot.h"

#define SVG_W		960
#define SVG_PANEL_H	180
#define SVG_LEFT	70
#define SVG_RIGHT	20
#define SVG_TOP		40

static const char *const svg_colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
};

/* A round step (1, 2 or 5 x 10^k) that cuts 0..@max in about 4 to 8. */
static double svg_step(double max)
{
	double step = pow(10, floor(log10(max / 5)));

	if (max / step > 25)
		step *= 5;
	else if (max / step > 10)
		step *= 2;
	return step;
}

/* The ticks, labels and grid lines of both axes of a panel. */
static void svg_axes(FILE *f, int y0, int w, int h, double tmax, double vmax)
{
	double step, v;
	int x, y;

	step = svg_step(vmax);
	for (v = 0; v <= vmax * (1 + 1e-9); v += step) {
		y = y0 + h - (int)(v / vmax * h + 0.5);
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			"stroke=\"#ddd\"/>\n<line x1=\"%d\" y1=\"%d\" "
			"x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>\n",
			SVG_LEFT, y, SVG_LEFT + w, y, SVG_LEFT - 4, y,
			SVG_LEFT, y);
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" "
			"text-anchor=\"end\">%.4g</text>\n", SVG_LEFT - 6,
			y + 4, v);
	}
	step = svg_step(tmax);
	for (v = 0; v <= tmax * (1 + 1e-9); v += step) {
		x = SVG_LEFT + (int)(v / tmax * w + 0.5);
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			"stroke=\"#999\"/>\n", x, y0 + h, x, y0 + h + 4);
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" "
			"text-anchor=\"middle\">%.4g</text>\n", x,
			y0 + h + 15, v);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" "
		"text-anchor=\"end\">t (ms)</text>\n", SVG_LEFT - 12,
		y0 + h + 15);
}

/* One panel: lines of @nl series over the intervals' times. */
static void svg_panel(FILE *f, int y0, const char *title,
		      const struct interval *iv, unsigned int n,
		      const size_t *off, const char *const *names,
		      unsigned int nl)
{
	double tmax = n ? iv[n - 1].t_ms : 1, vmax = 0, v, x, y;
	int w = SVG_W - SVG_LEFT - SVG_RIGHT, h = SVG_PANEL_H - 30;
	unsigned int i, k;

	for (k = 0; k < nl; k++)
		for (i = 0; i < n; i++) {
			v = *(const double *)((const char *)&iv[i] + off[k]);
			if (isfinite(v) && v > vmax)
				vmax = v;
		}
	if (vmax <= 0)
		vmax = 1;
	if (tmax <= 0)
		tmax = 1;
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"13\">%s</text>\n",
		SVG_LEFT, y0 - 6, title);
	svg_axes(f, y0, w, h, tmax, vmax);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"fill=\"none\" stroke=\"#999\"/>\n", SVG_LEFT, y0, w, h);
	for (k = 0; k < nl; k++) {
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"1.5\" points=\"",
			svg_colors[k % ARRAY_SIZE(svg_colors)]);
		for (i = 0; i < n; i++) {
			v = *(const double *)((const char *)&iv[i] + off[k]);
			if (!isfinite(v))
				continue;
			x = SVG_LEFT + iv[i].t_ms / tmax * w;
			y = y0 + h - v / vmax * h;
			fprintf(f, "%.1f,%.1f ", x, y);
		}
		fprintf(f, "\"/>\n<text x=\"%d\" y=\"%d\" font-size=\"11\" "
			"fill=\"%s\">%s</text>\n", SVG_LEFT + 8 + 130 * k,
			y0 + 14, svg_colors[k % ARRAY_SIZE(svg_colors)],
			names[k]);
	}
}

static int plot_phase(const struct series *s, const struct phase_result *pr,
		      const char *prefix)
{
	size_t off[3 * FSLOAD_OP_MAX + 2];
	const char *names[3 * FSLOAD_OP_MAX + 2];
	char lnames[3 * FSLOAD_OP_MAX][32];
	char path[PATH_MAX], title[160];
	struct interval *iv;
	unsigned int n, t, k = 0;
	int y;
	FILE *f;

	iv = phase_intervals(s, pr, &n);
	if (!iv)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s-%" PRIu32 "-%s.svg", prefix,
		 pr->index, pr->name);
	f = fopen(path, "w");
	if (!f) {
		free(iv);
		return -errno;
	}
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" font-family=\"sans-serif\">\n", SVG_W,
		SVG_TOP + 3 * SVG_PANEL_H + 10);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"15\">phase %s: every "
		"%" PRIu32 " ms%s%s</text>\n", SVG_LEFT, pr->name,
		s->sample_ms, s->dev[0] ? ", device " : "", s->dev);
	for (t = 1; t <= FSLOAD_OP_MAX; t++) {
		if (!phase_has(pr, t))
			continue;
		off[k] = offsetof(struct interval, ops) + t * sizeof(double);
		names[k++] = op_name(t);
	}
	off[k] = offsetof(struct interval, mib);
	names[k] = "MiB/s";
	y = SVG_TOP + 20;
	svg_panel(f, y, "throughput (ops/s per op type; MiB/s)", iv, n, off,
		  names, k + 1);
	for (t = 1, k = 0; t <= FSLOAD_OP_MAX && k + 3 <= ARRAY_SIZE(off);
	     t++) {
		if (!phase_has(pr, t))
			continue;
		off[k] = offsetof(struct interval, lat_us) + t * sizeof(double);
		snprintf(lnames[k], sizeof(lnames[k]), "%s mean", op_name(t));
		names[k] = lnames[k];
		k++;
		off[k] = offsetof(struct interval, p50_us) + t * sizeof(double);
		snprintf(lnames[k], sizeof(lnames[k]), "%s p50", op_name(t));
		names[k] = lnames[k];
		k++;
		off[k] = offsetof(struct interval, p99_us) + t * sizeof(double);
		snprintf(lnames[k], sizeof(lnames[k]), "%s p99", op_name(t));
		names[k] = lnames[k];
		k++;
	}
	y += SVG_PANEL_H;
	svg_panel(f, y, "latency per interval (us): mean, p50, p99", iv, n,
		  off, names, k);
	off[0] = offsetof(struct interval, wr_mib);
	off[1] = offsetof(struct interval, rd_mib);
	off[2] = offsetof(struct interval, util);
	off[3] = offsetof(struct interval, in_flight);
	names[0] = "write MiB/s";
	names[1] = "read MiB/s";
	names[2] = "util %";
	names[3] = "in flight";
	snprintf(title, sizeof(title), "device %s (from /sys/block/*/stat)",
		 s->dev[0] ? s->dev : "(none)");
	y += SVG_PANEL_H;
	svg_panel(f, y, title, iv, intervals_dev(iv, n) ? n : 0, off, names,
		  4);
	fprintf(f, "</svg>\n");
	free(iv);
	return fclose(f) ? -errno : 0;
}

int series_plot(const struct series *s, const struct results *r,
		const char *prefix)
{
	unsigned int i;
	int err;

	for (i = 0; i < r->nphases; i++) {
		err = plot_phase(s, &r->phases[i], prefix);
		if (err)
			return err;
	}
	return 0;
}

void report_plots(const struct run *run, const char *prefix, bool quiet)
{
	int ret;

	/* the kernel engine's jobs keep a series (run_collect()) */
	if (!prefix || !run->ok || !run->series.sample_ms)
		return;
	ret = series_plot(&run->series, &run->r, prefix);
	if (ret)
		warnmsg("cannot write the plots %s-*.svg: %s", prefix,
			strerror(-ret));
	else if (!quiet)
		fprintf(stderr, "fsloadctl: plots in %s-*.svg\n", prefix);
}
