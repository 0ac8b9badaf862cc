// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl's flame graphs: one self-contained SVG per phase and op type (no network
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

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/flame.h"

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

uint32_t flame_name_colour(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return (200 + h % 55) << 16 | (80 + (h >> 8) % 140) << 8 |
	       (h >> 16) % 60;
}

/* Close box @b at row @row, @x samples in. */
static void box_close(struct flame *fl, const struct flame_box *b,
		      unsigned int row, uint64_t x)
{
	double scale = (double)(FLAME_W - 2 * FLAME_PAD) / (double)fl->total;
	double bx = FLAME_PAD + (double)b->x * scale;
	double bw = (double)(x - b->x) * scale;
	double by = FLAME_TOP + (double)(fl->depth - 1 - row) * FLAME_ROW;
	uint64_t n = x - b->x;
	uint32_t colour;
	size_t chars;

	if (bw < 0.1)
		return;
	fprintf(fl->f, "<g><title>");
	xml_text(fl->f, b->name, b->len);
	fprintf(fl->f, " (%" PRIu64 " samples, %.2f%%", n,
		100.0 * (double)n / (double)fl->total);
	colour = fl->paint(fl, b, n);
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

void flame_draw(struct flame *fl, const struct fold_stack *stacks,
		       unsigned int n, const char *title, const char *sub)
{
	struct fold_stack *st;
	struct flame_box *open = NULL, *tmp;
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

