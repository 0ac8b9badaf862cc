// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a job's time series as text (a table per phase) and JSON,
 * and the stall reports.
 */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "lib/print.h"
#include "nl/interval.h"
#include "nl/names.h"
#include "nl/results.h"
#include "nl/series.h"
#include "report/series.h"

static void json_array(const char *key, const struct interval *iv,
		       unsigned int n, size_t off, int prec)
{
	unsigned int i;
	double v;

	open_json_array(key);
	for (i = 0; i < n; i++) {
		v = *(const double *)((const char *)&iv[i] + off);
		if (isfinite(v))
			print_float(PRINT_JSON, NULL, prec ? "%.3f" : "%.0f",
				    v);
		else
			print_null(PRINT_JSON, NULL, NULL);
	}
	close_json_array();
}

/* An object of one array per op type of @pr, from the array at @off. */
static void json_per_type(const char *key, const struct phase_result *pr,
			  const struct interval *iv, unsigned int n, size_t off)
{
	unsigned int t;

	open_json_object(key);
	for (t = 1; t <= FSLOAD_OP_MAX; t++)
		if (phase_has(pr, t))
			json_array(op_name(t), iv, n, off + t * sizeof(double),
				   1);
	close_json_object();
}

void print_series_json(const struct series *s, const struct phase_result *pr)
{
	struct interval *iv;
	unsigned int n;

	if (!s || !s->sample_ms) {
		print_null(PRINT_JSON, "series", NULL);
		return;
	}
	iv = phase_intervals(s, pr, &n);
	if (!iv)
		return;
	open_json_object("series");
	print_uint(PRINT_JSON, "interval_ms", NULL, s->sample_ms);
	print_uint(PRINT_JSON, "lost_samples", NULL, s->lost);
	json_array("t_ms", iv, n, offsetof(struct interval, t_ms), 1);
	json_array("mib_per_sec", iv, n, offsetof(struct interval, mib), 1);
	json_per_type("ops_per_sec", pr, iv, n, offsetof(struct interval, ops));
	json_per_type("lat_avg_us", pr, iv, n, offsetof(struct interval, lat_us));
	json_per_type("lat_p50_us", pr, iv, n, offsetof(struct interval, p50_us));
	json_per_type("lat_p99_us", pr, iv, n, offsetof(struct interval, p99_us));
	if (s->dev[0] && intervals_dev(iv, n)) {
		open_json_object("device");
		print_string(PRINT_JSON, "name", NULL, s->dev);
		json_array("reads_per_sec", iv, n,
			   offsetof(struct interval, rd_s), 1);
		json_array("writes_per_sec", iv, n,
			   offsetof(struct interval, wr_s), 1);
		json_array("read_mib_per_sec", iv, n,
			   offsetof(struct interval, rd_mib), 1);
		json_array("write_mib_per_sec", iv, n,
			   offsetof(struct interval, wr_mib), 1);
		json_array("read_req_kib", iv, n,
			   offsetof(struct interval, rd_kib), 1);
		json_array("write_req_kib", iv, n,
			   offsetof(struct interval, wr_kib), 1);
		json_array("in_flight", iv, n,
			   offsetof(struct interval, in_flight), 0);
		json_array("util_percent", iv, n,
			   offsetof(struct interval, util), 1);
		close_json_object();
	} else {
		print_null(PRINT_JSON, "device", NULL);
	}
	close_json_object();
	free(iv);
}

void print_series_table(const struct series *s, const struct results *r)
{
	const struct phase_result *pr;
	struct interval *iv;
	unsigned int i, k, n, t;
	double ops, lat_n, lat;

	if (print_json() || !s || !s->sample_ms)
		return;
	for (i = 0; i < r->nphases; i++) {
		pr = &r->phases[i];
		iv = phase_intervals(s, pr, &n);
		if (!iv)
			continue;
		print_fp("\nseries of %s, every %" PRIu32 " ms%s%s:\n",
			 pr->name, s->sample_ms, s->dev[0] ? ", device " : "",
			 s->dev);
		print_fp("%9s %11s %9s %10s %10s %9s %9s %8s %8s %6s\n",
			 "t_ms", "ops/s", "MiB/s", "lat_us", "p99_us",
			 "dev_r/s", "dev_w/s", "dev_wMiB", "inflight", "util%");
		for (k = 0; k < n; k++) {
			ops = 0;
			lat = 0;
			lat_n = 0;
			for (t = 1; t <= FSLOAD_OP_MAX; t++) {
				ops += iv[k].ops[t];
				if (isfinite(iv[k].lat_us[t])) {
					lat += iv[k].lat_us[t] * iv[k].ops[t];
					lat_n += iv[k].ops[t];
				}
			}
			print_fp("%9.0f %11.1f %9.2f", iv[k].t_ms, ops,
				 iv[k].mib);
			if (lat_n)
				print_fp(" %10.3f", lat / lat_n);
			else
				print_fp(" %10s", "-");
			if (isfinite(iv[k].p99_max_us))
				print_fp(" %10.3f", iv[k].p99_max_us);
			else
				print_fp(" %10s", "-");
			if (iv[k].dev)
				print_fp(" %9.1f %9.1f %8.2f %8.0f %6.1f\n",
					 iv[k].rd_s, iv[k].wr_s, iv[k].wr_mib,
					 iv[k].in_flight, iv[k].util);
			else
				print_fp(" %9s %9s %8s %8s %6s\n", "-", "-",
					 "-", "-", "-");
		}
		free(iv);
	}
}

void print_stall_reports(const struct series *s)
{
	unsigned int i;

	open_json_array("stall_reports");
	for (i = 0; s && i < s->nstalls; i++) {
		open_json_object(NULL);
		print_uint(PRINT_JSON, "thread", NULL, s->stalls[i].thread);
		print_uint(PRINT_JSON, "pid", NULL, s->stalls[i].pid);
		print_uint(PRINT_JSON, "phase_index", NULL,
			   s->stalls[i].phase);
		print_uint(PRINT_JSON, "duration_ns", NULL,
			   s->stalls[i].duration_ns);
		print_string(PRINT_JSON, "stack", NULL, s->stalls[i].stack);
		close_json_object();
	}
	close_json_array();
}
