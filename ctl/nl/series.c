// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a job's time series and stalls.
 *
 * The kernel samples each job's per-type counters every SAMPLE_MS into a
 * bounded ring, which we drain with SERIES_GET while the job runs; beside
 * it a thread samples the block device's own counters (/sys/block/X/stat)
 * on the same clock (CLOCK_MONOTONIC), so that each interval of a phase
 * has both what the workers did and what the device did.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "lib/fsloadctl.h"
#include "nl/attrs.h"
#include "nl/nl.h"
#include "lib/print.h"
#include "nl/results.h"
#include "nl/series.h"
#include "nl/job.h"
#include "lib/msg.h"
#include "lib/clock.h"
#include "nl/names.h"

#define MIB	(1024.0 * 1024.0)

/* Kernel samples */

static int sample_op_cb(const struct nlattr *a, void *data)
{
	struct sample *sm = data;
	unsigned int i = sm->nops;

	switch (mnl_attr_get_type(a)) {
	case FSLOAD_A_SAMPLE_OP_TYPE:
		attr_get_u8(a, &sample_op_attrs, &sm->op[i].type);
		break;
	case FSLOAD_A_SAMPLE_OP_OPS:
		attr_get_u64(a, &sample_op_attrs, &sm->op[i].ops);
		break;
	case FSLOAD_A_SAMPLE_OP_BYTES:
		attr_get_u64(a, &sample_op_attrs, &sm->op[i].bytes);
		break;
	case FSLOAD_A_SAMPLE_OP_LAT_SUM_NS:
		attr_get_u64(a, &sample_op_attrs, &sm->op[i].lat_sum_ns);
		break;
	case FSLOAD_A_SAMPLE_OP_LAT_P50_NS:
		attr_get_u64(a, &sample_op_attrs, &sm->op[i].lat_p50_ns);
		break;
	case FSLOAD_A_SAMPLE_OP_LAT_P99_NS:
		attr_get_u64(a, &sample_op_attrs, &sm->op[i].lat_p99_ns);
		break;
	}
	return MNL_CB_OK;
}

static int sample_cb(const struct nlattr *a, void *data)
{
	struct sample *sm = data;

	switch (mnl_attr_get_type(a)) {
	case FSLOAD_A_SAMPLE_SEQ:
		attr_get_u64(a, &sample_attrs, &sm->seq);
		break;
	case FSLOAD_A_SAMPLE_TIME_NS:
		attr_get_u64(a, &sample_attrs, &sm->t_ns);
		break;
	case FSLOAD_A_SAMPLE_PHASE_INDEX:
		attr_get_u32(a, &sample_attrs, &sm->phase);
		break;
	case FSLOAD_A_SAMPLE_IO_BYTES:
		attr_get_u64(a, &sample_attrs, &sm->io_bytes);
		break;
	case FSLOAD_A_SAMPLE_OP:
		if (!attr_is_nest(a, &sample_attrs) || sm->nops >= FSLOAD_OP_MAX)
			break;
		memset(&sm->op[sm->nops], 0, sizeof(sm->op[0]));
		mnl_attr_parse_nested(a, sample_op_cb, sm);
		if (sm->op[sm->nops].type)
			sm->nops++;
		break;
	}
	return MNL_CB_OK;
}

static int series_msg_attr_cb(const struct nlattr *a, void *data)
{
	struct series *s = data;
	struct sample sm = { 0 }, *tmp;

	if (mnl_attr_get_type(a) != FSLOAD_A_JOB_SAMPLE ||
	    !attr_is_nest(a, &job_attrs))
		return MNL_CB_OK;
	sm.seq = UINT64_MAX;
	mnl_attr_parse_nested(a, sample_cb, &sm);
	if (sm.seq == UINT64_MAX || sm.seq < s->next)
		return MNL_CB_OK;
	tmp = realloc(s->samples, (s->nsamples + 1) * sizeof(*tmp));
	if (!tmp)
		return MNL_CB_ERROR;
	s->samples = tmp;
	s->lost += sm.seq - s->next;
	s->samples[s->nsamples++] = sm;
	s->next = sm.seq + 1;
	return MNL_CB_OK;
}

static int series_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	if (mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN)
		return 0;
	if (mnl_attr_parse(nlh, GENL_HDRLEN, series_msg_attr_cb, data) ==
	    MNL_CB_ERROR) {
		errmsg("out of memory");
		return EXIT_SYSERR;
	}
	return 0;
}

int series_drain(struct nl_ctx *nl, uint32_t id, struct series *s)
{
	nl_msg_new(nl, FSLOAD_CMD_SERIES_GET, true);
	nl_put_u32(nl, FSLOAD_A_JOB_ID, id);
	nl_put_u64(nl, FSLOAD_A_JOB_SERIES_FROM, s->next);
	return nl_request(nl, series_msg_cb, s, NL_QUIET);
}

/* The block device */

static uint64_t mono_ns(void)
{
	return now_ns();
}

static bool dev_read(const char *dev, struct dev_sample *d)
{
	char path[128];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/sys/class/block/%s/stat", dev);
	f = fopen(path, "r");
	if (!f)
		return false;
	d->t_ns = mono_ns();
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

/* Stalls */

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
			 bool quiet)
{
	struct stall_report *r, *tmp;
	unsigned int i, k;
	bool known;

	for (i = 0; i < js->nstalls; i++) {
		const struct job_stall *st = &js->stalls[i];

		if (st->ended)
			continue;
		/* Report each stall once: a worker stalls again only after
		 * an end. */
		for (k = 0, known = false; k < s->nstalls; k++)
			known |= s->stalls[k].pid == st->pid &&
				 s->stalls[k].phase == st->phase &&
				 s->stalls[k].t_ns >= st->start_ns;
		if (known)
			continue;
		tmp = realloc(s->stalls, (s->nstalls + 1) * sizeof(*tmp));
		if (!tmp)
			return;
		s->stalls = tmp;
		r = &s->stalls[s->nstalls++];
		r->t_ns = mono_ns();
		r->pid = st->pid;
		r->thread = st->thread;
		r->phase = st->phase;
		r->duration_ns = st->duration_ns;
		r->stack = read_stack(st->pid);
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

/* Intervals of a phase */

/* The device sample nearest to @t, or NULL. */
static const struct dev_sample *dev_at(const struct series *s, uint64_t t)
{
	unsigned int lo = 0, hi = s->ndevs, mid;

	if (!s->ndevs)
		return NULL;
	while (lo + 1 < hi) {
		mid = (lo + hi) / 2;
		if (s->devs[mid].t_ns <= t)
			lo = mid;
		else
			hi = mid;
	}
	if (lo + 1 < s->ndevs &&
	    s->devs[lo + 1].t_ns - t < (t > s->devs[lo].t_ns ?
					t - s->devs[lo].t_ns : 0))
		lo++;
	return &s->devs[lo];
}

/* The work of one interval of a phase. */
struct interval {
	double t_ms;		/* its end, from the phase's start */
	double dt_s;
	double ops[FSLOAD_OP_MAX + 1];		/* per second */
	double lat_us[FSLOAD_OP_MAX + 1];	/* mean; NAN without ops */
	double p50_us[FSLOAD_OP_MAX + 1];	/* the kernel's; NAN without */
	double p99_us[FSLOAD_OP_MAX + 1];
	double p99_max_us;			/* of all types; NAN without */
	double mib;				/* per second */
	bool dev;
	double rd_s, wr_s, rd_mib, wr_mib, in_flight, util;
	double rd_kib, wr_kib;	/* average request size; NAN without */
};

enum { SM_OPS, SM_BYTES, SM_LAT_SUM, SM_P50, SM_P99 };

static uint64_t sample_get(const struct sample *sm, uint8_t type, int what)
{
	unsigned int i;

	for (i = 0; sm && i < sm->nops; i++) {
		if (sm->op[i].type != type)
			continue;
		switch (what) {
		case SM_OPS:
			return sm->op[i].ops;
		case SM_BYTES:
			return sm->op[i].bytes;
		case SM_LAT_SUM:
			return sm->op[i].lat_sum_ns;
		case SM_P50:
			return sm->op[i].lat_p50_ns;
		default:
			return sm->op[i].lat_p99_ns;
		}
	}
	return 0;
}

/* A per-interval latency of the kernel's in us; NAN when it had none. */
static double sample_us(const struct sample *sm, uint8_t type, int what)
{
	uint64_t ns = sample_get(sm, type, what);

	return ns ? ns / 1e3 : NAN;
}

/* Whether any of the @n intervals has the device's figures. */
static bool intervals_dev(const struct interval *iv, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (iv[i].dev)
			return true;
	return false;
}

/*
 * The intervals of phase @pr: between its start and each of its samples.
 * Returns a malloc'd array of *n.
 */
static struct interval *phase_intervals(const struct series *s,
					const struct phase_result *pr,
					unsigned int *n)
{
	const struct sample *prev = NULL, *sm;
	const struct dev_sample *d0, *d1;
	struct interval *iv, *v;
	uint64_t t0 = pr->start_ns, dops, io = 0;
	unsigned int i, t;
	double dt;

	*n = 0;
	iv = calloc(s->nsamples + 1, sizeof(*iv));
	if (!iv || !RES_HAS(pr, FSLOAD_A_RES_START_NS))
		return iv;
	for (i = 0; i < s->nsamples; i++) {
		sm = &s->samples[i];
		if (sm->phase != pr->index || sm->t_ns <= t0) {
			/* The I/O count as the phase began. */
			if (sm->t_ns <= pr->start_ns)
				io = sm->io_bytes;
			continue;
		}
		v = &iv[(*n)++];
		dt = (sm->t_ns - t0) / 1e9;
		v->dt_s = dt;
		v->t_ms = (sm->t_ns - pr->start_ns) / 1e6;
		v->p99_max_us = NAN;
		for (t = 1; t <= FSLOAD_OP_MAX; t++) {
			dops = sample_get(sm, t, SM_OPS) -
			       sample_get(prev, t, SM_OPS);
			v->ops[t] = dops / dt;
			v->lat_us[t] = dops ? (sample_get(sm, t, SM_LAT_SUM) -
					       sample_get(prev, t, SM_LAT_SUM)) /
					      1e3 / dops : NAN;
			v->p50_us[t] = sample_us(sm, t, SM_P50);
			v->p99_us[t] = sample_us(sm, t, SM_P99);
			if (isfinite(v->p99_us[t]) &&
			    !(v->p99_max_us >= v->p99_us[t]))
				v->p99_max_us = v->p99_us[t];
		}
		/* Bytes as the calls return, not when an operation ends. */
		v->mib = (sm->io_bytes - io) / MIB / dt;
		io = sm->io_bytes;
		d0 = dev_at(s, t0);
		d1 = dev_at(s, sm->t_ns);
		if (d0 && d1 && d1->t_ns > d0->t_ns) {
			double ddt = (d1->t_ns - d0->t_ns) / 1e9;

			v->dev = true;
			v->rd_s = (d1->v[DEV_READS] - d0->v[DEV_READS]) / ddt;
			v->wr_s = (d1->v[DEV_WRITES] - d0->v[DEV_WRITES]) / ddt;
			v->rd_mib = (d1->v[DEV_READ_SECTORS] -
				     d0->v[DEV_READ_SECTORS]) * 512 / MIB / ddt;
			v->wr_mib = (d1->v[DEV_WRITE_SECTORS] -
				     d0->v[DEV_WRITE_SECTORS]) * 512 / MIB / ddt;
			v->in_flight = d1->v[DEV_IN_FLIGHT];
			v->rd_kib = v->rd_s ? v->rd_mib * 1024 / v->rd_s : NAN;
			v->wr_kib = v->wr_s ? v->wr_mib * 1024 / v->wr_s : NAN;
			v->util = (d1->v[DEV_IO_TICKS] - d0->v[DEV_IO_TICKS]) /
				  10.0 / ddt;
			if (v->util > 100)
				v->util = 100;
		} else {
			/* no device figures: no value, not a zero */
			v->rd_s = v->wr_s = v->rd_mib = v->wr_mib = NAN;
			v->in_flight = v->util = v->rd_kib = v->wr_kib = NAN;
		}
		prev = sm;
		t0 = sm->t_ns;
	}
	return iv;
}

/* The op types phase @pr ran. */
static bool phase_has(const struct phase_result *pr, unsigned int t)
{
	unsigned int i;

	for (i = 0; i < pr->nopstats; i++) {
		if (pr->opstats[i].type == t)
			return true;
	}
	return false;
}

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

/* SVG */

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
