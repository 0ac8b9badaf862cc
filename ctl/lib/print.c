// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: text and JSON output from the same calls.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/print.h"

#define JSON_DEPTH_MAX	16

static bool json_mode;
static FILE *out;
static FILE *redirect;			/* print_redirect() */
static void (*trailer)(void);		/* print_set_trailer() */

/* Open objects and arrays; whether a member has been written yet. */
static struct {
	bool is_array;
	bool first;
} stack[JSON_DEPTH_MAX];
static int depth;

void print_begin(bool json)
{
	json_mode = json;
	out = redirect ? redirect : stdout;
	depth = 0;
	if (json_mode) {
		fputc('{', out);
		stack[0].is_array = false;
		stack[0].first = true;
		depth = 1;
	}
}

void print_end(void)
{
	if (json_mode) {
		if (depth == 1 && trailer)
			trailer();
		while (depth > 0)
			fputc(stack[--depth].is_array ? ']' : '}', out);
		fputc('\n', out);
	}
	fflush(out);
}

void print_redirect(FILE *f)
{
	redirect = f;
}

void print_set_trailer(void (*fn)(void))
{
	trailer = fn;
}

bool print_json(void)
{
	return json_mode;
}

/* Length of the valid UTF-8 sequence at @s, or 0. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned int c = s[0], cp;
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

void json_write_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	fputc('"', f);
	while (*s) {
		switch (*s) {
		case '"':  fputs("\\\"", f); s++; continue;
		case '\\': fputs("\\\\", f); s++; continue;
		case '\b': fputs("\\b", f); s++; continue;
		case '\f': fputs("\\f", f); s++; continue;
		case '\n': fputs("\\n", f); s++; continue;
		case '\r': fputs("\\r", f); s++; continue;
		case '\t': fputs("\\t", f); s++; continue;
		}
		if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\u%04x", *s);
			s++;
			continue;
		}
		n = utf8_len(s);
		if (!n) {
			/* not UTF-8 (a path may be anything): U+FFFD */
			fputs("\\ufffd", f);
			s++;
			continue;
		}
		fwrite(s, 1, n, f);
		s += n;
	}
	fputc('"', f);
}

/* Separator and key of the next JSON member. */
static void json_member(const char *key)
{
	if (depth == 0)
		return;
	if (!stack[depth - 1].first)
		fputc(',', out);
	stack[depth - 1].first = false;
	if (!stack[depth - 1].is_array) {
		json_write_string(out, key ? key : "");
		fputc(':', out);
	}
}

static void json_push(const char *key, bool is_array)
{
	json_member(key);
	fputc(is_array ? '[' : '{', out);
	if (depth < JSON_DEPTH_MAX) {
		stack[depth].is_array = is_array;
		stack[depth].first = true;
		depth++;
	}
}

static void json_pop(void)
{
	if (depth > 1) {
		depth--;
		fputc(stack[depth].is_array ? ']' : '}', out);
	}
}

void print_json_raw(const char *key, const char *json)
{
	size_t n = strlen(json);

	if (!json_mode)
		return;
	while (n && json[n - 1] == '\n')
		n--;
	json_member(key);
	fwrite(json, 1, n, out);
}

void open_json_object(const char *key)
{
	if (json_mode)
		json_push(key, false);
}

void close_json_object(void)
{
	if (json_mode)
		json_pop();
}

void open_json_array(const char *key)
{
	if (json_mode)
		json_push(key, true);
}

void close_json_array(void)
{
	if (json_mode)
		json_pop();
}

static bool want_json(enum output_type t)
{
	return json_mode && (t & PRINT_JSON);
}

static bool want_text(enum output_type t, const char *fmt)
{
	return !json_mode && (t & PRINT_FP) && fmt;
}

/* Text: control characters (a newline in a path) as C escapes. */
static void text_string(const char *fmt, const char *value)
{
	const unsigned char *p;
	char *esc, *q;

	for (p = (const unsigned char *)value; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			break;
	if (!*p) {
		fprintf(out, fmt, value);
		return;
	}
	esc = malloc(strlen(value) * 4 + 1);
	if (!esc) {
		fprintf(out, fmt, "?");
		return;
	}
	for (p = (const unsigned char *)value, q = esc; *p; p++) {
		if (*p == '\n')
			q += sprintf(q, "\\n");
		else if (*p == '\t')
			q += sprintf(q, "\\t");
		else if (*p < 0x20 || *p == 0x7f)
			q += sprintf(q, "\\x%02x", *p);
		else
			*q++ = (char)*p;
	}
	*q = '\0';
	fprintf(out, fmt, esc);
	free(esc);
}

void print_string(enum output_type t, const char *key, const char *fmt,
		  const char *value)
{
	if (want_json(t)) {
		json_member(key);
		if (value)
			json_write_string(out, value);
		else
			fputs("null", out);
	} else if (want_text(t, fmt)) {
		text_string(fmt, value ? value : "-");
	}
}

void print_uint(enum output_type t, const char *key, const char *fmt,
		uint64_t value)
{
	if (want_json(t)) {
		json_member(key);
		fprintf(out, "%" PRIu64, value);
	} else if (want_text(t, fmt)) {
		fprintf(out, fmt, value);
	}
}

void print_int(enum output_type t, const char *key, const char *fmt,
	       int64_t value)
{
	if (want_json(t)) {
		json_member(key);
		fprintf(out, "%" PRId64, value);
	} else if (want_text(t, fmt)) {
		fprintf(out, fmt, value);
	}
}

void print_float(enum output_type t, const char *key, const char *fmt,
		 double value)
{
	if (want_json(t)) {
		json_member(key);
		if (isfinite(value))
			fprintf(out, "%.3f", value);
		else
			fputs("null", out);
	} else if (want_text(t, fmt)) {
		fprintf(out, fmt, value);
	}
}

void print_bool(enum output_type t, const char *key, const char *fmt,
		bool value)
{
	if (want_json(t)) {
		json_member(key);
		fputs(value ? "true" : "false", out);
	} else if (want_text(t, fmt)) {
		fprintf(out, fmt, value ? "yes" : "no");
	}
}

void print_null(enum output_type t, const char *key, const char *fmt)
{
	if (want_json(t)) {
		json_member(key);
		fputs("null", out);
	} else if (want_text(t, fmt)) {
		fprintf(out, fmt, "-");
	}
}

void print_fp(const char *fmt, ...)
{
	va_list ap;

	if (json_mode)
		return;
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
}

bool progress_wanted(void)
{
	const char *term = getenv("TERM");

	/* A serial console is a tty too, but cannot redraw a line. */
	return isatty(STDERR_FILENO) && term && *term && strcmp(term, "dumb");
}
