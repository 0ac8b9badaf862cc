/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: a small JSON reader for result files (compare, start --rerun).
 */
#ifndef FSLOADCTL_JSON_H
#define FSLOADCTL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
	enum jtype type;
	bool b;
	double num;
	char *str;		/* J_STR; J_NUM: the number as written */
	size_t n;		/* J_ARR, J_OBJ: members */
	char **keys;		/* J_OBJ */
	struct jval **items;	/* J_ARR, J_OBJ */
};

/* Parse @text; NULL with @err (a message with the offset) on error. */
struct jval *json_parse(const char *text, char *err, size_t errlen);
/* Read and parse a file; NULL after printing why (errmsg). */
struct jval *json_load(const char *path);
void json_free(struct jval *v);

/* Member @key of object @o, or NULL (also when @o is not an object). */
const struct jval *json_get(const struct jval *o, const char *key);
/* "a.b.c": nested members; NULL when any is missing. */
const struct jval *json_path(const struct jval *o, const char *path);
/* Item @i of array @a, or NULL. */
const struct jval *json_at(const struct jval *a, size_t i);
/* A number member's value, NAN when missing or not a number. */
double json_num(const struct jval *o, const char *key);
/* A string member, NULL when missing or not a string. */
const char *json_str(const struct jval *o, const char *key);
/* The first object of array @a whose string member @key is @value; NULL. */
const struct jval *json_find(const struct jval *a, const char *key,
			     const char *value);
/* @v as compact JSON text (malloc'ed), for comparing and printing. */
char *json_text(const struct jval *v);

#endif /* FSLOADCTL_JSON_H */
