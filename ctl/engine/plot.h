/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl start --plot: SVG plots of a job's series.
 */
#ifndef FSLOADCTL_PLOT_H
#define FSLOADCTL_PLOT_H

#include "nl/results.h"
#include "nl/series.h"

/*
 * One SVG per phase, PREFIX-<index>-<name>.svg: throughput, mean latency
 * and device activity over time.  Returns 0 or -errno.
 */
int series_plot(const struct series *s, const struct results *r,
		const char *prefix);

#endif /* FSLOADCTL_PLOT_H */
