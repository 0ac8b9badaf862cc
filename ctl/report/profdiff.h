/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl compare: the functions whose cost per op changed most between
 * two results that have CPU profiles (start --cpu-profile), per phase and
 * op type, in the style of the kernel test robot's perf-profile lines.
 */
#ifndef FSLOADCTL_PROFDIFF_H
#define FSLOADCTL_PROFDIFF_H

#include <stdbool.h>

struct result_side;

/*
 * compare --folded BASE,NEW --flamegraph OUT: the folded stacks of the
 * two results' runs (PREFIX-<index>-<phase>-<op>.folded, start --folded;
 * several runs' files concatenated), and the differential flame graphs
 * to write (OUT-<index>-<phase>-<op>.svg: report/flamediff.h).
 */
struct flame_files {
	const char *base, *new, *out;	/* out NULL: no flame graphs */
	bool sampling_only;		/* --function-error sampling */
};
struct verdict_rule;

/*
 * Compare the CPU profiles of phase @pname of engine @group (NULL: none
 * named) of @a (BASE) and @b (NEW): for every op type profiled in both,
 * the @top functions whose self cost per op changed most, with the
 * verdict of @rule (the rows' statistics: the boots' noise, the t-test
 * over iterations; between single runs, the threshold and the sampling
 * error).  Text, and one object of the enclosing JSON array per op type.
 * With @ff: a differential flame graph of each op type ("flamegraph"),
 * the functions judged by their sampling error alone.
 * Returns how many op types were compared (0: no profile on one side).
 */
unsigned int compare_functions(const struct result_side *a,
			       const struct result_side *b, const char *group,
			       const char *pname,
			       const struct verdict_rule *rule,
			       unsigned int top, const struct flame_files *ff);

#endif /* FSLOADCTL_PROFDIFF_H */
