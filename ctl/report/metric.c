// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a profile's headline figures from one job's results.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "nl/hist.h"
#include "nl/results.h"
#include "workload/profile.h"
#include "report/metric.h"
#include "report/results.h"
#include "report/stats.h"

static bool phase_counts(const struct metric_spec *ms, const char *name)
{
	unsigned int i;

	if (!ms->phases[0])
		return true;
	for (i = 0; i < ARRAY_SIZE(ms->phases) && ms->phases[i]; i++) {
		size_t n = strlen(ms->phases[i]);

		/* "create" counts "create" and "create-3", not "created" */
		if (!strncmp(name, ms->phases[i], n) &&
		    (!name[n] || name[n] == '-'))
			return true;
	}
	return false;
}

void profile_metric(const struct profile *pf, const struct results *r,
		    const struct job_status *js, struct metric *m)
{
	static const struct metric_spec any = { "ops/s", "ops_per_sec", 0,
						false, { NULL } };
	const struct metric_spec *ms = pf ? profile_metric_spec(pf) : &any;
	uint64_t lat_sum = 0, lat_n = 0, cpu = 0, cpu_n = 0;
	struct opstat lat = { 0 };	/* the counted ops, merged */
	bool lat_ok = true;
	unsigned int i, j;

	memset(m, 0, sizeof(*m));
	m->label = ms->label;
	m->key = ms->key;
	m->cpu_ns = NAN;
	for (i = 0; i < r->nphases; i++) {
		const struct phase_result *pr = &r->phases[i];
		double pcpu;

		if (!phase_counts(ms, pr->name))
			continue;
		m->elapsed_ns += pr->elapsed_ns;
		if (RES_HAS(pr, FSLOAD_A_RES_WORKER_CPU_NS)) {
			cpu += pr->worker_cpu_ns;
			cpu_n += pr->ops + pr->errors + phase_misses(pr);
		}
		pcpu = phase_cpu_ns(pr, js);
		if (isfinite(pcpu))
			m->cpu_ns = (isfinite(m->cpu_ns) ? m->cpu_ns : 0) + pcpu;
		for (j = 0; j < pr->nopstats; j++) {
			const struct opstat *os = &pr->opstats[j];

			if (ms->op && os->type != ms->op)
				continue;
			m->ops += os->ops;
			m->bytes += os->bytes;
			lat_sum += os->lat_sum_ns;
			lat_n += opstat_sampled(os);
			if (opstat_sampled(os) && opstat_add(&lat, os))
				lat_ok = false;
		}
	}
	if (!m->elapsed_ns)
		m->value = NAN;
	else if (ms->mib)
		m->value = m->bytes / MIB * 1e9 / m->elapsed_ns;
	else
		m->value = m->ops * 1e9 / m->elapsed_ns;
	m->lat_avg_ns = lat_n ? (double)lat_sum / lat_n : NAN;
	m->lat_p50_ns = lat_ok ? opstat_percentile(&lat, 500000) : NAN;
	m->lat_p99_ns = lat_ok ? opstat_percentile(&lat, 990000) : NAN;
	free(lat.buckets);
	m->worker_ns_per_op = cpu_n ? (double)cpu / cpu_n : NAN;
}
