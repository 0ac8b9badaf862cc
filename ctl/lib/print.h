/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: text and JSON output from the same calls (iproute2 style).
 *
 * Every print_*() call names a JSON key and a text format; @t says which
 * of the two outputs it contributes to.  In JSON mode text formats are
 * ignored; in text mode keys, objects and arrays are ignored.
 */
#ifndef FSLOADCTL_PRINT_H
#define FSLOADCTL_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum output_type {
	PRINT_FP	= 1,	/* text only */
	PRINT_JSON	= 2,	/* JSON only */
	PRINT_ANY	= 3,	/* both */
};

/* Start output on stdout; in JSON mode opens the top-level object. */
void print_begin(bool json);
/* Close the top-level object (JSON) and flush. */
void print_end(void);
bool print_json(void);
/* Documents from the next print_begin() on go to @f (NULL: stdout). */
void print_redirect(FILE *f);
/* @fn adds the last members of every JSON document (NULL: none). */
void print_set_trailer(void (*fn)(void));

void open_json_object(const char *key);
void close_json_object(void);
void open_json_array(const char *key);
void close_json_array(void);

/* @value NULL is JSON null, and text @null_text (if not NULL). */
void print_string(enum output_type t, const char *key, const char *fmt,
		  const char *value);
void print_uint(enum output_type t, const char *key, const char *fmt,
		uint64_t value);
void print_int(enum output_type t, const char *key, const char *fmt,
	       int64_t value);
/* Non-finite values are JSON null. */
void print_float(enum output_type t, const char *key, const char *fmt,
		 double value);
void print_bool(enum output_type t, const char *key, const char *fmt,
		bool value);
/* JSON null; text: @fmt with "-" */
void print_null(enum output_type t, const char *key, const char *fmt);
/* JSON only: @json, a JSON value as text (a document print_*() made). */
void print_json_raw(const char *key, const char *json);
/* Text only. */
void print_fp(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Write @s as a JSON string literal (quoted, escaped, valid UTF-8). */
void json_write_string(FILE *f, const char *s);

/* Live progress on stderr: a terminal that can redraw a line. */
bool progress_wanted(void);

#endif /* FSLOADCTL_PRINT_H */
