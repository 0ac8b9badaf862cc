// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the runs of a result file (report/resultset.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/json.h"
#include "lib/msg.h"
#include "engine/job.h"
#include "report/resultset.h"

/* The runs of one boot's figures (@doc), tagged with @boot. */
static int add_runs(struct result_side *s, const struct jval *doc, unsigned int boot)
{
	const struct jval *it, *g;
	unsigned int e;
	size_t i;

	it = json_get(doc, "iterations");
	if (it && it->type == J_ARR) {
		for (i = 0; i < it->n && s->nruns < RUNS_MAX; i++) {
			s->group[s->nruns] = NULL;
			s->boot[s->nruns] = boot;
			s->runs[s->nruns++] = it->items[i];
		}
	} else if (json_get(doc, "phases")) {
		if (s->nruns < RUNS_MAX) {
			s->group[s->nruns] = NULL;
			s->boot[s->nruns] = boot;
			s->runs[s->nruns++] = doc;
		}
	} else if (json_get(doc, "sweep")) {
		errmsg("%s: a thread sweep; compare results of one thread count (--iterations)",
		       s->path);
		return EXIT_USAGE;
	} else {
		for (e = 0; e < ENGINE_COUNT; e++) {
			g = json_get(doc, engine_name(e));
			if (!g)
				continue;
			/* --iterations: each of the engine's runs */
			it = json_get(g, "iterations");
			for (i = 0; it && it->type == J_ARR && i < it->n &&
				    s->nruns < RUNS_MAX; i++) {
				s->group[s->nruns] = engine_name(e);
				s->boot[s->nruns] = boot;
				s->runs[s->nruns++] = it->items[i];
			}
			if (json_get(g, "phases") && s->nruns < RUNS_MAX) {
				s->group[s->nruns] = engine_name(e);
				s->boot[s->nruns] = boot;
				s->runs[s->nruns++] = g;
			}
		}
	}
	return 0;
}

int load_side(struct result_side *s, const char *path)
{
	const struct jval *boots;
	size_t i;
	int ret;

	s->path = path;
	s->doc = json_load(path);
	if (!s->doc)
		return EXIT_USAGE;
	s->nboots = 1;
	boots = json_get(s->doc, "boots");
	if (boots && boots->type == J_ARR && boots->n) {
		for (i = 0; i < boots->n; i++) {
			ret = add_runs(s, boots->items[i], i);
			if (ret)
				return ret;
		}
		s->nboots = boots->n;
	} else {
		ret = add_runs(s, s->doc, 0);
		if (ret)
			return ret;
	}
	if (!s->nruns) {
		errmsg("%s: no results (no \"phases\" or \"iterations\")", path);
		return EXIT_USAGE;
	}
	return 0;
}

const struct jval *find_phase(const struct jval *run, const char *name)
{
	return json_find(json_get(run, "phases"), "name", name);
}

bool same_group(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

size_t side_values(const struct result_side *s, const char *group,
		   const char *pname, side_value_fn value, const void *arg,
		   double *out)
{
	const struct jval *ph;
	size_t k, n = 0;
	unsigned int b, nb;
	double v, sum;

	for (b = 0; b < s->nboots; b++) {
		sum = 0;
		nb = 0;
		for (k = 0; k < s->nruns; k++) {
			if (s->boot[k] != b || !same_group(s->group[k], group))
				continue;
			ph = find_phase(s->runs[k], pname);
			v = ph ? value(ph, arg) : NAN;
			if (isnan(v))
				continue;
			if (s->nboots == 1)
				out[n++] = v;
			sum += v;
			nb++;
		}
		if (s->nboots > 1 && nb)
			out[n++] = sum / nb;
	}
	return n;
}

bool side_has_phase(const struct result_side *s, const char *name)
{
	size_t k;

	for (k = 0; k < s->nruns; k++)
		if (find_phase(s->runs[k], name))
			return true;
	return false;
}

void side_phase_names(const struct result_side *s, char *buf, size_t len)
{
	const char *seen[256];
	const struct jval *phs;
	unsigned int nseen = 0, i;
	size_t k, r, used = 0;

	buf[0] = '\0';
	for (k = 0; k < s->nruns; k++) {
		phs = json_get(s->runs[k], "phases");
		for (r = 0; phs && phs->type == J_ARR && r < phs->n; r++) {
			const char *n = json_str(phs->items[r], "name");

			for (i = 0; n && i < nseen; i++)
				if (!strcmp(seen[i], n))
					break;
			if (!n || i < nseen || nseen == ARRAY_SIZE(seen) ||
			    used >= len)
				continue;
			seen[nseen++] = n;
			used += snprintf(buf + used, len - used, "%s%s",
					 used ? ", " : "", n);
		}
	}
}

