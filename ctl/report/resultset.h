/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the runs of a result file, as compare reads them: one run,
 * a list of iterations, one run per engine ("both"), and several boots
 * of any of these (scripts/bisect-step --boots).
 */
#ifndef FSLOADCTL_RESULTSET_H
#define FSLOADCTL_RESULTSET_H

#include <stdbool.h>
#include <stddef.h>

struct jval;

#define RUNS_MAX	1024

/* One side: its runs, each {"job": ..., "phases": [...]}. */
struct result_side {
	const char *path;
	struct jval *doc;
	const struct jval *runs[RUNS_MAX];
	const char *group[RUNS_MAX];	/* engine of a list: its name */
	unsigned int boot[RUNS_MAX];	/* index in "boots" (0 without) */
	size_t nruns;
	unsigned int nboots;		/* "boots": how many; else 1 */
};

/*
 * Load @path into @s: 0, or EXIT_USAGE after saying why (unreadable, a
 * sweep, no results).
 */
int load_side(struct result_side *s, const char *path);

/* The phase named @name of @run; NULL when it has none. */
const struct jval *find_phase(const struct jval *run, const char *name);

/* Whether two runs' engines (NULL: none named) are the same. */
bool same_group(const char *a, const char *b);

/* A figure of a phase object; NAN when it has none. */
typedef double (*side_value_fn)(const struct jval *phase, const void *arg);

/*
 * @value of phase @pname in each of @s's runs of engine @group, into
 * @out (RUNS_MAX at most); of a side with several boots, the mean of
 * each boot's runs.  Returns how many.
 */
size_t side_values(const struct result_side *s, const char *group,
		   const char *pname, side_value_fn value, const void *arg,
		   double *out);

/* Whether @name is a phase of any of @s's runs. */
bool side_has_phase(const struct result_side *s, const char *name);

/* "a, b, c": the distinct phase names of @s, in order, into @buf. */
void side_phase_names(const struct result_side *s, char *buf, size_t len);

#endif /* FSLOADCTL_RESULTSET_H */
