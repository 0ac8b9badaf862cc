// SPDX-License-Identifier: GPL-2.0
/*
 * What compare says about two results beside their figures: how their
 * environments differ (kernel, CPU, clocks, filesystem and its geometry),
 * whether they ran the same workload, a debug kernel, a taint.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/json.h"
#include "lib/msg.h"
#include "lib/print.h"
#include "report/env.h"
#include "report/envdiff.h"
#include "report/geometry.h"
#include "report/resultset.h"

struct env_key {
	const char *path;	/* under "environment", or "fsload."/"run."/"job." */
	const char *label;
};

static const struct env_key env_keys[] = {
	{ "environment.kernel.release", "kernel release" },
	{ "environment.kernel.version", "kernel build" },
	{ "environment.kernel.cmdline", "kernel command line" },
	{ "environment.kernel.config_sha256", "kernel config" },
	{ "environment.kernel.kaslr", "KASLR" },
	{ "environment.kernel.clocksource", "kernel clocksource" },
	/* what the engine times its ops with: its own cost per op differs */
	{ "job.op_clock", "op clock" },
	{ "environment.cpu.model", "CPU model" },
	{ "environment.cpu.id", "CPU" },
	{ "environment.cpu.string_ops", "CPU string ops" },
	{ "environment.cpu.online", "CPUs online" },
	{ "environment.cpu.freq_driver", "CPU frequency driver" },
	{ "environment.cpu.governor", "CPU governor" },
	{ "environment.memory.total_kib", "memory" },
	{ "environment.mitigations", "CPU vulnerability mitigations" },
	{ "environment.filesystem.type", "filesystem" },
	{ "environment.filesystem.mount_options", "mount options" },
	{ "environment.filesystem.super_options", "filesystem options" },
	{ "environment.filesystem.barrier", "barriers" },
	{ "environment.filesystem.mkfs", "mkfs command" },
	{ "environment.filesystem.geometry_tool.version", "filesystem tool version" },
	{ "environment.filesystem.geometry", "filesystem geometry" },
	{ "environment.filesystem.block_device.model", "device model" },
	{ "environment.filesystem.block_device.size_bytes", "device size" },
	{ "environment.filesystem.block_device.queue", "device queue settings" },
	{ "environment.harness.clock", "clock" },
	{ "fsload.version", "fsload version" },
	{ "fsload.git", "fsload revision" },
	{ "run.engine", "engine" },
};

static char *shorten(const char *s)
{
	char *r;

	if (strlen(s) <= 72)
		return strdup(s);
	if (asprintf(&r, "%.69s...", s) < 0)
		return NULL;
	return r;
}

static void env_diff_one(const char *label, const struct jval *a,
			 const struct jval *b, unsigned int *ndiff)
{
	char *ta = json_text(a), *tb = json_text(b), *sa, *sb;

	if (ta && tb && strcmp(ta, tb)) {
		sa = shorten(ta);
		sb = shorten(tb);
		open_json_object(NULL);
		print_string(PRINT_JSON, "what", NULL, label);
		print_string(PRINT_JSON, "base", NULL, ta);
		print_string(PRINT_JSON, "new", NULL, tb);
		close_json_object();
		print_fp("warning: %s differs: %s -> %s\n", label,
			 sa ? sa : ta, sb ? sb : tb);
		free(sa);
		free(sb);
		(*ndiff)++;
	}
	free(ta);
	free(tb);
}

/* A parameter that says where a run went or how it talked, not what it did. */
static bool param_not_workload(const char *key)
{
	static const char *const skip[] = {
		"seed", "output", "rerun", "quiet", "progress-ms", "dir",
		"progress",
		"detach", "lat-sample",	/* how it was timed: envdiff_lat_sample() */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(skip); i++)
		if (!strcmp(key, skip[i]))
			return true;
	return false;
}

/*
 * The name scheme each run used (run.names), given or a profile's default
 * (which metadata's changed): the names change the filesystem's work.
 * Older result files do not say.
 */
static void names_diff(const struct jval *a, const struct jval *b,
		       bool as_error, unsigned int *ndiff)
{
	const char *na = json_str(json_path(a, "run"), "names");
	const char *nb = json_str(json_path(b, "run"), "names");

	if (!na || !nb || !strcmp(na, nb))
		return;
	if (!as_error) {
		env_diff_one("name scheme", json_path(a, "run.names"),
			     json_path(b, "run.names"), ndiff);
		return;
	}
	errmsg("the workloads differ: name scheme: %s -> %s", na, nb);
	(*ndiff)++;
}

/*
 * The workload: every parameter but the seed and where the output went
 * (profile, its arguments, --iterations: the first iteration of a boot
 * runs a few % off).  As errors on stderr (@as_error), else as warnings
 * in the report; counted in @ndiff.
 */
void envdiff_workload(const struct jval *a, const struct jval *b,
		      bool as_error, unsigned int *ndiff)
{
	const struct jval *pa = json_path(a, "run.params");
	const struct jval *pb = json_path(b, "run.params");
	const struct jval *side[2] = { pa, pb }, *other[2] = { pb, pa };
	char label[256];
	unsigned int j;
	size_t k;

	for (j = 0; j < 2; j++) {
		const struct jval *p = side[j], *q = other[j];

		for (k = 0; p && p->type == J_OBJ && k < p->n; k++) {
			const struct jval *va = j ? NULL : p->items[k];
			const struct jval *vb = j ? p->items[k] : NULL;
			char *ta, *tb;

			if (param_not_workload(p->keys[k]))
				continue;
			/* the second pass: only what BASE lacks */
			if (j && q && json_get(q, p->keys[k]))
				continue;
			if (!j)
				vb = q ? json_get(q, p->keys[k]) : NULL;
			snprintf(label, sizeof(label), "parameter --%s",
				 p->keys[k]);
			if (!as_error) {
				env_diff_one(label, va, vb, ndiff);
				continue;
			}
			ta = json_text(va);
			tb = json_text(vb);
			if (!ta || !tb || strcmp(ta, tb)) {
				errmsg("the workloads differ: %s: %s -> %s", label,
				       ta ? ta : "(none)", tb ? tb : "(none)");
				(*ndiff)++;
			}
			free(ta);
			free(tb);
		}
	}
	names_diff(a, b, as_error, ndiff);
}

/*
 * A key of the result, or of its first iteration's or boot's (a "job."
 * key: a result of --iterations or of merged boots holds one per run).
 */
static const struct jval *env_value(const struct jval *doc, const char *path)
{
	const struct jval *v = json_path(doc, path);

	if (v || strncmp(path, "job.", 4))
		return v;
	v = json_path(json_at(json_get(doc, "iterations"), 0), path);
	return v ? v : json_path(json_at(json_get(doc, "boots"), 0), path);
}

/* Objects are compared member by member (geometry: which line differs). */
void envdiff_environment(const struct jval *a, const struct jval *b,
			 unsigned int *ndiff)
{
	const struct jval *va, *vb;
	bool geometry;
	char label[256];
	unsigned int i;
	size_t k;

	for (i = 0; i < ARRAY_SIZE(env_keys); i++) {
		/* older result files have the lines that change with use */
		geometry = !strcmp(env_keys[i].path,
				   "environment.filesystem.geometry");
		va = env_value(a, env_keys[i].path);
		vb = env_value(b, env_keys[i].path);
		if (va && vb && va->type == J_OBJ && vb->type == J_OBJ) {
			for (k = 0; k < va->n; k++) {
				if (geometry && env_geometry_volatile(va->keys[k]))
					continue;
				snprintf(label, sizeof(label), "%s: %s",
					 env_keys[i].label, va->keys[k]);
				env_diff_one(label, va->items[k],
					     json_get(vb, va->keys[k]), ndiff);
			}
			for (k = 0; k < vb->n; k++)
				if (!json_get(va, vb->keys[k]) &&
				    !(geometry &&
				      env_geometry_volatile(vb->keys[k]))) {
					snprintf(label, sizeof(label), "%s: %s",
						 env_keys[i].label, vb->keys[k]);
					env_diff_one(label, NULL, vb->items[k],
						     ndiff);
				}
			continue;
		}
		if (!va && !vb)
			continue;
		env_diff_one(env_keys[i].label, va, vb, ndiff);
	}
	envdiff_workload(a, b, false, ndiff);
}

/*
 * A debug kernel's result: judged again from its options where it lists
 * them (a result before DEBUG_LIST was told apart as hardening said
 * debug_kernel for every stock Debian kernel), else its verdict.
 */
bool envdiff_debug_kernel(const struct jval *doc, bool *known)
{
	const struct jval *d =
		json_path(doc, "environment.kernel.debug.debug_kernel");
	const struct jval *o =
		json_path(doc, "environment.kernel.debug.options");
	const struct jval *rt = json_path(doc,
		"environment.kernel.debug.lockdep_or_kmemleak_present");
	size_t i;

	*known = d && d->type == J_BOOL;
	if (!*known || !o || o->type != J_ARR)
		return *known && d->b;
	if (rt && rt->type == J_BOOL && rt->b)
		return true;
	for (i = 0; i < o->n; i++)
		if (o->items[i]->type == J_STR &&
		    env_debug_option(o->items[i]->str))
			return true;
	return false;
}

/* 1 op timed in how many (--lat-sample; 1 in an older result). */
double envdiff_lat_sample(const struct jval *doc)
{
	double n = json_num(json_path(doc, "run.params"), "lat-sample");

	return isnan(n) ? 1 : n;
}

/* The clock that timed a result (harness.clock: icount, wall); NULL: unsaid. */
const char *envdiff_clock(const struct jval *doc)
{
	return json_str(json_path(doc, "environment.harness"), "clock");
}

/*
 * The CPU a result was taken on, as CPUID and the kernel say
 * (environment.cpu.id, under QEMU the -cpu model) and the flags by which
 * Linux picks its string routines (environment.cpu.string_ops): with
 * erms, memset is rep stosb, which QEMU's instruction clock counts per
 * byte.  The members that differ into @buf ("CPU family 15 -> 25, ...");
 * their number.  *@one_side: only one result records them (an older
 * file).  A member unknown (null) on either side is not compared.
 */
unsigned int envdiff_cpu(const struct jval *a, const struct jval *b,
			 char *buf, size_t len, bool *one_side)
{
	static const struct { const char *path, *label; } keys[] = {
		{ "environment.cpu.id.vendor", "vendor" },
		{ "environment.cpu.id.family", "family" },
		{ "environment.cpu.id.model", "model" },
		{ "environment.cpu.id.stepping", "stepping" },
		{ "environment.cpu.string_ops.rep_good", "rep_good" },
		{ "environment.cpu.string_ops.erms", "erms" },
		{ "environment.cpu.string_ops.fsrm", "fsrm" },
		{ "environment.cpu.string_ops.fsrs", "fsrs" },
	};
	bool ha = !!json_path(a, "environment.cpu.id");
	bool hb = !!json_path(b, "environment.cpu.id");
	unsigned int i, n = 0;
	size_t used = 0;

	buf[0] = '\0';
	*one_side = ha != hb;
	if (!ha || !hb)
		return 0;
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct jval *va = json_path(a, keys[i].path);
		const struct jval *vb = json_path(b, keys[i].path);
		char *ta, *tb;

		if (!va || !vb || va->type == J_NULL || vb->type == J_NULL)
			continue;
		ta = json_text(va);
		tb = json_text(vb);
		if (ta && tb && strcmp(ta, tb)) {
			if (used < len)
				used += (size_t)snprintf(buf + used, len - used,
							 "%s%s %s -> %s",
							 n ? ", " : "",
							 keys[i].label, ta, tb);
			n++;
		}
		free(ta);
		free(tb);
	}
	return n;
}

void envdiff_taint_note(const struct result_side *s)
{
	double before = json_num(json_path(s->doc,
				"environment.kernel.taint_before"), "value");
	double after = json_num(json_path(s->doc,
				"environment.kernel.taint_after"), "value");
	const char *flags = json_str(json_path(s->doc,
				"environment.kernel.taint_after"), "flags");

	if (!isnan(before) && !isnan(after) && before != after)
		warnmsg("%s: the kernel became tainted during the run (%s): its log has warnings",
			s->path, flags ? flags : "?");
}
