/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: a job's time series as text and JSON; the stall reports.
 */
#ifndef FSLOADCTL_REPORT_SERIES_H
#define FSLOADCTL_REPORT_SERIES_H

#include "nl/results.h"
#include "nl/series.h"

/* JSON: phase @pr's series (inside its object). */
void print_series_json(const struct series *s, const struct phase_result *pr);
/* Text: one compact table per phase. */
void print_series_table(const struct series *s, const struct results *r);
/* JSON: the stall reports (a "stall_reports" array). */
void print_stall_reports(const struct series *s);

#endif /* FSLOADCTL_REPORT_SERIES_H */
