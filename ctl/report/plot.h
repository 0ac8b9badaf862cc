/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl start --plot: SVG plots of a job's series.
 */
#ifndef FSLOADCTL_PLOT_H
#define FSLOADCTL_PLOT_H

#include <stdbool.h>

#include "nl/results.h"
#include "nl/series.h"

/*
 * One SVG per phase, PREFIX-<index>-<name>.svg: throughput, mean latency
 * and device activity over time.  Returns 0 or -errno.
 */
int series_plot(const struct series *s, const struct results *r,
		const char *prefix);

struct run;

/*
 * --plot PREFIX: the plots of @run, a job that kept a time series (the
 * kernel engine's with --sample-ms), saying where unless @quiet; a
 * failure is a warning.  Nothing without @prefix.
 */
void report_plots(const struct run *run, const char *prefix, bool quiet);

#endif /* FSLOADCTL_PLOT_H */
