// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a job's CPU profile, folded and reported.
 *
 * The kernel sends each worker's distinct stacks per phase and op type;
 * here they are merged across workers (sorted, equal frames added), and
 * each function's samples counted: self when it is the innermost frame,
 * total when it is anywhere in the stack (once per stack, so recursion
 * does not count twice).  A sample stands for the profile's period (ns
 * of cpu-clock, instructions under QEMU's instruction clock, or cycles),
 * less, for the cpu-clock timer, the handler's own time per sample: the
 * timer's period runs on while the handler records a sample, which no
 * sample can land in (interrupts are off), so a period covers less work
 * than its length (sample_cost()).  A function's cost per op is its
 * samples x that cost / the op type's operations in the phase.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "lib/print.h"
#include "nl/names.h"
#include "nl/profile.h"
#include "nl/results.h"
#include "report/flamediff.h"
#include "report/profile.h"

/* Functions in the text table of each phase and op type. */
#define PROFILE_TOP	10

/* A view's op type: "none" for the samples before a phase's first op. */
static const char *view_op(uint8_t op)
{
	return op ? op_name(op) : "none";
}

/* What a sample's period is counted in. */
static const char *profile_unit(const struct cpu_profile *p)
{
	return p->clock == FSLOAD_PROFILE_CLOCK_CYCLES ? "cycles" : "ns";
}

static int stack_cmp(const void *a, const void *b)
{
	const struct prof_stack *x = *(const struct prof_stack *const *)a;
	const struct prof_stack *y = *(const struct prof_stack *const *)b;

	if (x->phase != y->phase)
		return x->phase < y->phase ? -1 : 1;
	if (x->op != y->op)
		return x->op < y->op ? -1 : 1;
	return strcmp(x->frames, y->frames);
}

static int fn_cmp(const void *a, const void *b)
{
	const struct fold_fn *x = a, *y = b;

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Function @name (@len bytes) of @v, added when new; NULL out of memory. */
static struct fold_fn *view_fn(struct fold_view *v, const char *name,
			       size_t len)
{
	struct fold_fn *tmp;
	unsigned int i;

	for (i = 0; i < v->nfns; i++) {
		if (!strncmp(v->fns[i].name, name, len) &&
		    !v->fns[i].name[len])
			return &v->fns[i];
	}
	tmp = realloc(v->fns, (v->nfns + 1) * sizeof(*tmp));
	if (!tmp)
		return NULL;
	v->fns = tmp;
	tmp = &v->fns[v->nfns];
	tmp->name = strndup(name, len);
	if (!tmp->name)
		return NULL;
	tmp->self = 0;
	tmp->total = 0;
	v->nfns++;
	return tmp;
}

/*
 * Count stack @s of @v in its functions.  @seen (as many entries as @v
 * may have functions after it) marks those counted in this stack.
 */
static int view_count(struct fold_view *v, const struct fold_stack *s)
{
	const char *f = s->frames, *end;
	struct fold_fn *fn = NULL;
	unsigned char *seen;
	size_t nseen = v->nfns;
	unsigned int i;

	seen = calloc(nseen + strlen(f) + 1, 1);
	if (!seen)
		return -1;
	for (;;) {
		end = strchr(f, ';');
		if (!end)
			end = f + strlen(f);
		fn = view_fn(v, f, (size_t)(end - f));
		if (!fn) {
			free(seen);
			return -1;
		}
		i = (unsigned int)(fn - v->fns);
		if (!seen[i]) {
			seen[i] = 1;
			fn->total += s->samples;
		}
		if (!*end)
			break;
		f = end + 1;
	}
	fn->self += s->samples;
	free(seen);
	return 0;
}

void fold_free(struct fold_view *views, unsigned int n)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		free(views[i].stacks);
		for (j = 0; j < views[i].nfns; j++)
			free(views[i].fns[j].name);
		free(views[i].fns);
	}
	free(views);
}

int profile_fold(const struct cpu_profile *p, struct fold_view **views)
{
	const struct prof_stack **sorted;
	struct fold_view *v = NULL, *tmp;
	unsigned int i, n = 0;

	*views = NULL;
	if (!p->nstacks)
		return 0;
	sorted = malloc(p->nstacks * sizeof(*sorted));
	if (!sorted)
		return -1;
	for (i = 0; i < p->nstacks; i++)
		sorted[i] = &p->stacks[i];
	qsort(sorted, p->nstacks, sizeof(*sorted), stack_cmp);
	for (i = 0; i < p->nstacks; i++) {
		const struct prof_stack *s = sorted[i];
		struct fold_stack *fs;

		if (!n || v->phase != s->phase || v->op != s->op) {
			tmp = realloc(*views, (n + 1) * sizeof(*tmp));
			if (!tmp)
				goto fail;
			*views = tmp;
			v = &tmp[n++];
			memset(v, 0, sizeof(*v));
			v->phase = s->phase;
			v->op = s->op;
		}
		v->samples += s->samples;
		if (v->nstacks &&
		    !strcmp(v->stacks[v->nstacks - 1].frames, s->frames)) {
			v->stacks[v->nstacks - 1].samples += s->samples;
			continue;
		}
		fs = realloc(v->stacks, (v->nstacks + 1) * sizeof(*fs));
		if (!fs)
			goto fail;
		v->stacks = fs;
		fs[v->nstacks].frames = s->frames;
		fs[v->nstacks].samples = s->samples;
		v->nstacks++;
	}
	for (i = 0; i < n; i++) {
		unsigned int j;

		v = &(*views)[i];
		for (j = 0; j < v->nstacks; j++) {
			if (view_count(v, &v->stacks[j]))
				goto fail;
		}
		qsort(v->fns, v->nfns, sizeof(*v->fns), fn_cmp);
	}
	free(sorted);
	return (int)n;
fail:
	free(sorted);
	fold_free(*views, n);
	*views = NULL;
	return -1;
}

/* Operations of type @op in phase @pr. */
static uint64_t phase_ops(const struct phase_result *pr, uint8_t op)
{
	unsigned int i;

	for (i = 0; pr && i < pr->nopstats; i++) {
		if (pr->opstats[i].type == op)
			return pr->opstats[i].ops;
	}
	return 0;
}

/*
 * Flame graphs: one self-contained SVG per phase and op type (no network
 * asset): a box per function in a call path, as wide as its samples,
 * callers below callees; its title (the browser's tooltip) gives
 * samples, share and cost per op; "Search" takes a regular expression,
 * colours the matching boxes and says what share of the samples they
 * cover.  The boxes come from the stacks in frame order (a frame's end
 * sorting before any character of a name), so that stacks with a common
 * prefix are adjacent: each stack closes the boxes of the previous one
 * from the first frame where they differ and opens its own from there,
 * as flamegraph.pl does.
 */

#define FLAME_W		1200	/* px */
#define FLAME_ROW	16	/* px per frame */
#define FLAME_TOP	48	/* px: title and buttons */
#define FLAME_PAD	10	/* px: side margins */
#define FLAME_CHAR_W	7	/* px: a character of the 12 px font */

/* The end of the frame at @c: its ";" or the string's end. */
static const char *frame_end(const char *c)
{
	const char *end = strchr(c, ';');

	return end ? end : c + strlen(c);
}

/* Frame-wise order: the end of a frame before any character. */
static int frames_cmp(const void *a, const void *b)
{
	const unsigned char *x = (const unsigned char *)
		((const struct fold_stack *)a)->frames;
	const unsigned char *y = (const unsigned char *)
		((const struct fold_stack *)b)->frames;
	unsigned int cx, cy;

	for (;; x++, y++) {
		cx = *x == ';' ? 1 : *x;
		cy = *y == ';' ? 1 : *y;
		if (cx != cy || !cx)
			return (int)cx - (int)cy;
	}
}

/* An open box: its function (in the stack it came from) and start. */
struct open_box {
	const char *stack;	/* the stack: its call path ends with the box */
	const char *name;
	size_t len;
	uint64_t x;		/* samples before it */
};

/* A differential flame graph's BASE: its call paths, costs per sample. */
struct flame_diff {
	struct path_table base;
	double bc, nc;		/* BASE's, NEW's cost per op of a sample */
	double zc;		/* the sampling error's quantile */
};

struct flame {
	FILE *f;
	uint64_t total;
	double ops;		/* the op type's operations; 0: unknown */
	double period;
	const char *unit;
	unsigned int depth;	/* rows */
	const struct flame_diff *diff;	/* NULL: no BASE */
};

static void xml_text(FILE *f, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		switch (s[i]) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(s[i], f);
		}
	}
}

/* A warm colour of its own for each name. */
static unsigned int name_colour(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return (200 + h % 55) << 16 | (80 + (h >> 8) % 140) << 8 |
	       (h >> 16) % 60;
}

/* Close box @b at row @row, @x samples in. */
static void box_close(struct flame *fl, const struct open_box *b,
		      unsigned int row, uint64_t x)
{
	double scale = (double)(FLAME_W - 2 * FLAME_PAD) / (double)fl->total;
	double bx = FLAME_PAD + (double)b->x * scale;
	double bw = (double)(x - b->x) * scale;
	double by = FLAME_TOP + (double)(fl->depth - 1 - row) * FLAME_ROW;
	uint64_t n = x - b->x;
	const struct flame_diff *d = fl->diff;
	uint32_t colour;
	size_t chars;

	if (bw < 0.1)
		return;
	fprintf(fl->f, "<g><title>");
	xml_text(fl->f, b->name, b->len);
	fprintf(fl->f, " (%" PRIu64 " samples, %.2f%%", n,
		100.0 * (double)n / (double)fl->total);
	if (d) {
		double bs = (double)path_samples(&d->base, b->stack,
						 (size_t)(b->name + b->len -
							  b->stack));
		double base = bs * d->bc, now = (double)n * d->nc;
		double z = flame_diff_z(bs, d->bc, (double)n, d->nc);

		fprintf(fl->f, "; %.1f -> %.1f %s/op, %+.1f", base, now,
			fl->unit, now - base);
		if (base > 0)
			fprintf(fl->f, " (%+.1f%%)", (now - base) / base * 100);
		fprintf(fl->f, ", z %.1f%s", z,
			fabs(z) > d->zc ? "" : ": within the sampling error");
		colour = flame_diff_colour(base, now, z, d->zc);
	} else {
		if (fl->ops > 0)
			fprintf(fl->f, ", %.1f %s/op",
				(double)n * fl->period / fl->ops, fl->unit);
		colour = name_colour(b->name, b->len);
	}
	fprintf(fl->f, ")</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\""
		" height=\"%d\" fill=\"#%06x\" rx=\"2\"/>", bx, by, bw,
		FLAME_ROW - 1, colour);
	chars = (size_t)(bw / FLAME_CHAR_W);
	if (chars >= 3) {
		fprintf(fl->f, "<text x=\"%.1f\" y=\"%.1f\">", bx + 3,
			by + FLAME_ROW - 4);
		if (chars >= b->len) {
			xml_text(fl->f, b->name, b->len);
		} else {
			xml_text(fl->f, b->name, chars - 2);
			fputs("..", fl->f);
		}
		fputs("</text>", fl->f);
	}
	fputs("</g>\n", fl->f);
}

/* The search: colours the matches, sums their share (nested ones once). */
static const char flame_script[] =
"<script type=\"text/ecmascript\"><![CDATA[\n"
"function search() {\n"
"  var re = prompt('Search (regular expression)');\n"
"  if (re === null) return;\n"
"  var r = new RegExp(re), spans = [], gs = document.getElementsByTagName('g');\n"
"  for (var i = 0; i < gs.length; i++) {\n"
"    var t = gs[i].getElementsByTagName('title')[0], b = gs[i].getElementsByTagName('rect')[0];\n"
"    if (!t || !b) continue;\n"
"    if (b.orig === undefined) b.orig = b.getAttribute('fill');\n"
"    var name = t.textContent.replace(/ \\([0-9]+ samples.*$/, '');\n"
"    if (r.test(name)) {\n"
"      b.setAttribute('fill', '#c050e0');\n"
"      spans.push([+b.getAttribute('x'), +b.getAttribute('width')]);\n"
"    } else b.setAttribute('fill', b.orig);\n"
"  }\n"
"  spans.sort(function (a, b) { return a[0] - b[0]; });\n"
"  var sum = 0, end = 0;\n"
"  for (var j = 0; j < spans.length; j++) {\n"
"    var s = Math.max(spans[j][0], end), e = spans[j][0] + spans[j][1];\n"
"    if (e > s) { sum += e - s; end = e; }\n"
"  }\n"
"  document.getElementById('matched').textContent = spans.length ?\n"
"    'Matched: ' + (100 * sum / FLAME_SPAN).toFixed(2) + '%' : 'No match';\n"
"}\n"
"function reset() {\n"
"  var gs = document.getElementsByTagName('rect');\n"
"  for (var i = 0; i < gs.length; i++) if (gs[i].orig !== undefined) gs[i].setAttribute('fill', gs[i].orig);\n"
"  document.getElementById('matched').textContent = '';\n"
"}\n"
"]]></script>\n";

/*
 * The work one sample of phase @pr stands for: the period, less the
 * handler's own time per sample under the cpu-clock timer (its period
 * counts the handler's time; the cycle counter stops in the handler's
 * NMI).  The interrupt entry and exit around the handler are not
 * measured and stay in (README, "CPU profiles").
 */
static double sample_cost(const struct cpu_profile *p,
			  const struct phase_result *pr)
{
	double h;

	if (p->clock == FSLOAD_PROFILE_CLOCK_CYCLES || !pr ||
	    !pr->prof_samples)
		return (double)p->period;
	h = (double)pr->prof_ns / (double)pr->prof_samples;
	return h < (double)p->period ? (double)p->period - h : 0;
}

/*
 * Draw @n stacks (@fl's total samples) as an SVG flame graph to @fl->f,
 * titled @title and @sub (after it, in the title line).
 */
static void flame_draw(struct flame *fl, const struct fold_stack *stacks,
		       unsigned int n, const char *title, const char *sub)
{
	struct fold_stack *st;
	struct open_box *open = NULL, *tmp;
	unsigned int i, nopen = 0, d, height;
	const char *end;
	FILE *f = fl->f;
	uint64_t x = 0;

	st = malloc((n ? n : 1) * sizeof(*st));
	if (!st)
		return;
	memcpy(st, stacks, n * sizeof(*st));
	qsort(st, n, sizeof(*st), frames_cmp);
	for (i = 0; i < n; i++) {
		const char *c;

		for (d = 1, c = st[i].frames; *c; c++)
			d += *c == ';';
		if (d > fl->depth)
			fl->depth = d;
	}
	height = FLAME_TOP + fl->depth * FLAME_ROW + FLAME_PAD;
	fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%u\""
		" viewBox=\"0 0 %d %u\" xmlns=\"http://www.w3.org/2000/svg\""
		" font-family=\"Verdana, sans-serif\" font-size=\"12\">\n",
		FLAME_W, height, FLAME_W, height);
	fprintf(f, "<script type=\"text/ecmascript\">var FLAME_SPAN = %d;"
		"</script>\n%s", FLAME_W - 2 * FLAME_PAD, flame_script);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f0\"/>\n"
		"<text x=\"%d\" y=\"20\" font-size=\"15\">", FLAME_PAD);
	xml_text(f, title, strlen(title));
	xml_text(f, sub, strlen(sub));
	fputs("</text>\n", f);
	fprintf(f, "<text x=\"%d\" y=\"38\" onclick=\"search()\""
		" style=\"cursor:pointer\" fill=\"#2060c0\">Search</text>\n"
		"<text x=\"%d\" y=\"38\" onclick=\"reset()\""
		" style=\"cursor:pointer\" fill=\"#2060c0\">Reset</text>\n"
		"<text id=\"matched\" x=\"%d\" y=\"38\"></text>\n",
		FLAME_PAD, FLAME_PAD + 60, FLAME_W - 200);

	for (i = 0; fl->total && i < n; i++) {
		const char *c = st[i].frames;
		unsigned int depth = 0;

		/* the frames this stack shares with the open boxes */
		for (; c; depth++) {
			end = frame_end(c);
			if (depth >= nopen || open[depth].len != (size_t)(end - c) ||
			    memcmp(open[depth].name, c, open[depth].len))
				break;
			c = *end ? end + 1 : NULL;
		}
		while (nopen > depth) {
			nopen--;
			box_close(fl, &open[nopen], nopen, x);
		}
		/* and its own from there */
		for (; c; c = *end ? end + 1 : NULL) {
			end = frame_end(c);
			tmp = realloc(open, (nopen + 1) * sizeof(*open));
			if (!tmp)
				goto out;
			open = tmp;
			open[nopen].stack = st[i].frames;
			open[nopen].name = c;
			open[nopen].len = (size_t)(end - c);
			open[nopen].x = x;
			nopen++;
		}
		x += st[i].samples;
	}
	while (nopen) {
		nopen--;
		box_close(fl, &open[nopen], nopen, x);
	}
out:
	fputs("</svg>\n", f);
	free(open);
	free(st);
}

/* Write view @v of @p as an SVG flame graph to @f. */
static void flame_write(FILE *f, const struct cpu_profile *p,
			const struct phase_result *pr,
			const struct fold_view *v, const char *title,
			uint64_t ops)
{
	struct flame fl = {
		.f = f, .total = v->samples, .ops = (double)ops,
		.period = sample_cost(p, pr),
		.unit = profile_unit(p),
	};
	char sub[128];

	snprintf(sub, sizeof(sub), " (%" PRIu64 " samples of %" PRIu64 " %s)",
		 v->samples, p->period, fl.unit);
	flame_draw(&fl, v->stacks, v->nstacks, title, sub);
}

int flame_diff_write(const char *path, const char *title,
		     const struct folded *base, const struct folded *now,
		     double bc, double nc, double zc, const char *unit)
{
	struct flame_diff d = { .bc = bc, .nc = nc, .zc = zc };
	struct flame fl = {
		.total = now->samples, .unit = unit ? unit : "?", .diff = &d,
	};
	char sub[256];
	int err;

	err = path_table_build(base, &d.base);
	if (err)
		return err;
	fl.f = fopen(path, "w");
	if (!fl.f) {
		err = -errno;
		path_table_free(&d.base);
		return err;
	}
	snprintf(sub, sizeof(sub),
		 " (widths: NEW's %" PRIu64 " samples; colour: cost per op against BASE's %" PRIu64
		 ", red more, blue less, grey within the sampling error)",
		 now->samples, base->samples);
	flame_draw(&fl, now->stacks, now->n, title, sub);
	if (fclose(fl.f))
		err = -errno;
	path_table_free(&d.base);
	return err;
}

/* A file name's part from @s: letters, digits, - and _ kept. */
static void name_part(char *dst, size_t size, const char *s)
{
	size_t i;

	for (i = 0; i + 1 < size && s[i]; i++)
		dst[i] = (s[i] >= 'a' && s[i] <= 'z') ||
			 (s[i] >= 'A' && s[i] <= 'Z') ||
			 (s[i] >= '0' && s[i] <= '9') || s[i] == '-' ? s[i] :
			 '_';
	dst[i] = '\0';
}

void profile_file_name(char *buf, size_t size, const char *prefix,
		       uint32_t index, const char *phase, const char *op,
		       const char *ext)
{
	char name[FSLOAD_NAME_MAX];

	name_part(name, sizeof(name), phase ? phase : "phase");
	snprintf(buf, size, "%s-%" PRIu32 "-%s-%s.%s", prefix, index, name, op,
		 ext);
}

int profile_write(const struct cpu_profile *p, const struct results *r,
		  const char *prefix, enum profile_file kind)
{
	const struct phase_result *pr;
	struct fold_view *views;
	char path[4096], title[2 * FSLOAD_NAME_MAX];
	int n, i, err = 0;
	unsigned int j;
	FILE *f;

	n = profile_fold(p, &views);
	if (n < 0)
		return -ENOMEM;
	for (i = 0; i < n && !err; i++) {
		pr = results_phase(r, views[i].phase);
		profile_file_name(path, sizeof(path), prefix, views[i].phase,
				  pr ? pr->name : NULL, view_op(views[i].op),
				  kind == PROFILE_SVG ? "svg" : "folded");
		f = fopen(path, "w");
		if (!f) {
			err = -errno;
			break;
		}
		if (kind == PROFILE_SVG) {
			snprintf(title, sizeof(title), "%s, %s",
				 pr ? pr->name : "?", view_op(views[i].op));
			flame_write(f, p, pr, &views[i], title,
				    phase_ops(pr, views[i].op));
		}
		for (j = 0; kind == PROFILE_FOLDED && j < views[i].nstacks; j++)
			fprintf(f, "%s %" PRIu64 "\n", views[i].stacks[j].frames,
				views[i].stacks[j].samples);
		if (fclose(f))
			err = -errno;
	}
	fold_free(views, n);
	return err;
}

void profile_write_files(const struct cpu_profile *p, const struct results *r,
			 const char *folded, const char *flamegraph)
{
	if (!p)
		return;
	if (folded && profile_write(p, r, folded, PROFILE_FOLDED))
		warnmsg("cannot write the folded stacks %s-*.folded", folded);
	if (flamegraph && profile_write(p, r, flamegraph, PROFILE_SVG))
		warnmsg("cannot write the flame graphs %s-*.svg", flamegraph);
}

static const char *profile_clock_name(const struct cpu_profile *p)
{
	return p->clock == FSLOAD_PROFILE_CLOCK_CYCLES ? "cycles" :
	       "cpu-clock";
}

/* @samples of phase @pr per op of @ops; NaN (JSON null) without ops. */
static double per_op(const struct cpu_profile *p,
		     const struct phase_result *pr, uint64_t samples,
		     uint64_t ops)
{
	return ops ? (double)samples * sample_cost(p, pr) / (double)ops :
		     __builtin_nan("");
}

void print_profile_json(const struct cpu_profile *p,
			const struct phase_result *pr)
{
	struct fold_view *views;
	unsigned int j;
	uint64_t ops;
	int n, i;

	if (!p || !RES_HAS(pr, FSLOAD_A_RES_PROFILE_SAMPLES))
		return;
	n = profile_fold(p, &views);
	open_json_object("cpu_profile");
	print_string(PRINT_JSON, "clock", NULL, profile_clock_name(p));
	print_string(PRINT_JSON, "unit", NULL, profile_unit(p));
	print_uint(PRINT_JSON, "hz", NULL, p->hz);
	print_uint(PRINT_JSON, "period", NULL, p->period);
	print_float(PRINT_JSON, "sample_cost", NULL, sample_cost(p, pr));
	print_uint(PRINT_JSON, "samples", NULL, pr->prof_samples);
	print_uint(PRINT_JSON, "dropped", NULL, pr->prof_dropped);
	print_uint(PRINT_JSON, "overhead_ns", NULL, pr->prof_ns);
	print_float(PRINT_JSON, "overhead_ns_per_op", NULL,
		    pr->ops ? (double)pr->prof_ns / (double)pr->ops :
			      __builtin_nan(""));
	open_json_array("by_op");
	for (i = 0; i < n; i++) {
		const struct fold_view *v = &views[i];

		if (v->phase != pr->index)
			continue;
		ops = phase_ops(pr, v->op);
		open_json_object(NULL);
		print_string(PRINT_JSON, "op", NULL, view_op(v->op));
		print_uint(PRINT_JSON, "ops", NULL, ops);
		print_uint(PRINT_JSON, "samples", NULL, v->samples);
		print_float(PRINT_JSON, "cost_per_op", NULL,
			    per_op(p, pr, v->samples, ops));
		open_json_array("functions");
		for (j = 0; j < v->nfns; j++) {
			const struct fold_fn *fn = &v->fns[j];

			open_json_object(NULL);
			print_string(PRINT_JSON, "function", NULL, fn->name);
			print_uint(PRINT_JSON, "self_samples", NULL, fn->self);
			print_float(PRINT_JSON, "self_per_op", NULL,
				    per_op(p, pr, fn->self, ops));
			print_uint(PRINT_JSON, "total_samples", NULL,
				   fn->total);
			print_float(PRINT_JSON, "total_per_op", NULL,
				    per_op(p, pr, fn->total, ops));
			close_json_object();
		}
		close_json_array();
		close_json_object();
	}
	close_json_array();
	close_json_object();
	if (n > 0)
		fold_free(views, n);
}

/* One phase and op type's top functions (text). */
static void print_view_table(const struct cpu_profile *p,
			     const struct phase_result *pr,
			     const struct fold_view *v)
{
	uint64_t ops = phase_ops(pr, v->op);
	unsigned int j;

	print_fp("\n%s, %s: %" PRIu64 " samples, %.1f %s/op",
		 pr ? pr->name : "?", view_op(v->op), v->samples,
		 per_op(p, pr, v->samples, ops), profile_unit(p));
	if (pr && pr->ops)
		print_fp("; sampling's own %.1f ns/op, %" PRIu64
			 " of %" PRIu64 " samples dropped (phase)",
			 (double)pr->prof_ns / (double)pr->ops,
			 pr->prof_dropped, pr->prof_samples);
	print_fp("\n%12s %6s %12s %6s  %s\n", "self/op", "self%", "total/op",
		 "total%", "function");
	for (j = 0; j < v->nfns && j < PROFILE_TOP; j++) {
		const struct fold_fn *fn = &v->fns[j];

		print_fp("%12.1f %5.1f%% %12.1f %5.1f%%  %s\n",
			 per_op(p, pr, fn->self, ops),
			 100.0 * (double)fn->self / (double)v->samples,
			 per_op(p, pr, fn->total, ops),
			 100.0 * (double)fn->total / (double)v->samples,
			 fn->name);
	}
}

void print_profile_tables(const struct results *r)
{
	const struct cpu_profile *p = r->profile;
	struct fold_view *views;
	int n, i;

	if (!p)
		return;
	n = profile_fold(p, &views);
	if (n <= 0)
		return;
	print_fp("\nCPU profile (%s, a sample every %" PRIu64 " %s; per op in %s%s)\n",
		 profile_clock_name(p), p->period, profile_unit(p),
		 profile_unit(p),
		 p->clock == FSLOAD_PROFILE_CLOCK_CYCLES ? "" :
		 ", instructions under the instruction clock, net of the sampling handler's time");
	for (i = 0; i < n; i++)
		print_view_table(p, results_phase(r, views[i].phase),
				 &views[i]);
	fold_free(views, n);
}
