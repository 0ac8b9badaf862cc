// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the intervals of a phase, from a job's series: what the
 * workers did (the kernel's samples) beside what the device did (the
 * sampler's), per second.
 */
#include <math.h>
#include <stdlib.h>

#include "lib/fsloadctl.h"
#include "nl/interval.h"
#include "nl/results.h"
#include "nl/series.h"


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

enum { SM_OPS, SM_BYTES, SM_SAMPLED, SM_LAT_SUM, SM_P50, SM_P99 };

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
		case SM_SAMPLED:
			/* the ops timed; all of them, from a kernel that does not say */
			return sm->op[i].have & (1ULL << FSLOAD_A_SAMPLE_OP_SAMPLED) ?
			       sm->op[i].sampled : sm->op[i].ops;
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

bool intervals_dev(const struct interval *iv, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (iv[i].dev)
			return true;
	return false;
}

struct interval *phase_intervals(const struct series *s,
				 const struct phase_result *pr, unsigned int *n)
{
	const struct sample *prev = NULL, *sm;
	const struct dev_sample *d0, *d1;
	struct interval *iv, *v;
	uint64_t t0 = pr->start_ns, dops, dtimed, io = 0;
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
			dtimed = sample_get(sm, t, SM_SAMPLED) -
				 sample_get(prev, t, SM_SAMPLED);
			v->ops[t] = dops / dt;
			v->lat_us[t] = dtimed ? (sample_get(sm, t, SM_LAT_SUM) -
						 sample_get(prev, t, SM_LAT_SUM)) /
						1e3 / dtimed : NAN;
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

bool phase_has(const struct phase_result *pr, unsigned int t)
{
	unsigned int i;

	for (i = 0; i < pr->nopstats; i++) {
		if (pr->opstats[i].type == t)
			return true;
	}
	return false;
}
