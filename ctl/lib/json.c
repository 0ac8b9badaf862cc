// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a small JSON reader (RFC 8259) for result files.  Numbers
 * keep their text as well, so that u64 values survive exactly.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/json.h"
#include "lib/print.h"
#include "lib/msg.h"

#define JSON_DEPTH_LIMIT	64

struct jparser {
	const char *s;
	size_t pos;
	char *err;
	size_t errlen;
	int depth;
};

static struct jval *jnew(enum jtype t)
{
	struct jval *v = calloc(1, sizeof(*v));

	if (v)
		v->type = t;
	return v;
}

void json_free(struct jval *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		if (v->keys)
			free(v->keys[i]);
		json_free(v->items[i]);
	}
	free(v->keys);
	free(v->items);
	free(v->str);
	free(v);
}

static void *jfail(struct jparser *p, const char *what)
{
	if (p->err && !p->err[0])
		snprintf(p->err, p->errlen, "%s at offset %zu", what, p->pos);
	return NULL;
}

static void skip_ws(struct jparser *p)
{
	while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
	       p->s[p->pos] == '\n' || p->s[p->pos] == '\r')
		p->pos++;
}

static void put_utf8(char *buf, size_t *len, unsigned int cp)
{
	if (cp < 0x80) {
		buf[(*len)++] = (char)cp;
	} else if (cp < 0x800) {
		buf[(*len)++] = (char)(0xc0 | (cp >> 6));
		buf[(*len)++] = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		buf[(*len)++] = (char)(0xe0 | (cp >> 12));
		buf[(*len)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		buf[(*len)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		buf[(*len)++] = (char)(0xf0 | (cp >> 18));
		buf[(*len)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
		buf[(*len)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		buf[(*len)++] = (char)(0x80 | (cp & 0x3f));
	}
}

static int hex4(const char *s, unsigned int *v)
{
	unsigned int i, c;

	*v = 0;
	for (i = 0; i < 4; i++) {
		c = (unsigned char)s[i];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c -= 'a' - 10;
		else if (c >= 'A' && c <= 'F')
			c -= 'A' - 10;
		else
			return -1;
		*v = *v << 4 | c;
	}
	return 0;
}

/* At the opening quote; returns the decoded string. */
static char *parse_string(struct jparser *p)
{
	size_t start = ++p->pos, len = 0;
	unsigned int cp, lo;
	char *buf;

	/* the decoded text is never longer than the literal */
	while (p->s[p->pos] && p->s[p->pos] != '"') {
		if (p->s[p->pos] == '\\' && p->s[p->pos + 1])
			p->pos++;
		p->pos++;
	}
	if (p->s[p->pos] != '"')
		return jfail(p, "unterminated string");
	buf = malloc(p->pos - start + 1);
	if (!buf)
		return jfail(p, "out of memory");
	p->pos = start;
	while (p->s[p->pos] != '"') {
		unsigned char c = (unsigned char)p->s[p->pos++];

		if (c < 0x20) {
			free(buf);
			return jfail(p, "control character in string");
		}
		if (c != '\\') {
			buf[len++] = (char)c;
			continue;
		}
		c = (unsigned char)p->s[p->pos++];
		switch (c) {
		case '"': case '\\': case '/': buf[len++] = (char)c; break;
		case 'b': buf[len++] = '\b'; break;
		case 'f': buf[len++] = '\f'; break;
		case 'n': buf[len++] = '\n'; break;
		case 'r': buf[len++] = '\r'; break;
		case 't': buf[len++] = '\t'; break;
		case 'u':
			if (hex4(p->s + p->pos, &cp))
				goto bad;
			p->pos += 4;
			if (cp >= 0xd800 && cp < 0xdc00 &&
			    p->s[p->pos] == '\\' && p->s[p->pos + 1] == 'u' &&
			    !hex4(p->s + p->pos + 2, &lo) && lo >= 0xdc00 &&
			    lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				p->pos += 6;
			} else if (cp >= 0xd800 && cp < 0xe000) {
				cp = 0xfffd;
			}
			put_utf8(buf, &len, cp);
			break;
		default:
			goto bad;
		}
	}
	p->pos++;
	buf[len] = '\0';
	return buf;
bad:
	free(buf);
	return jfail(p, "bad escape in string");
}

static struct jval *parse_value(struct jparser *p);

static int jappend(struct jval *v, char *key, struct jval *item)
{
	struct jval **items;
	char **keys;

	items = realloc(v->items, (v->n + 1) * sizeof(*items));
	if (!items)
		return -1;
	v->items = items;
	if (v->type == J_OBJ) {
		keys = realloc(v->keys, (v->n + 1) * sizeof(*keys));
		if (!keys)
			return -1;
		v->keys = keys;
		v->keys[v->n] = key;
	}
	v->items[v->n++] = item;
	return 0;
}

static struct jval *parse_container(struct jparser *p, bool obj)
{
	struct jval *v = jnew(obj ? J_OBJ : J_ARR), *item;
	char close = obj ? '}' : ']';
	char *key = NULL;

	if (!v)
		return jfail(p, "out of memory");
	if (++p->depth > JSON_DEPTH_LIMIT)
		goto fail_msg;
	p->pos++;
	skip_ws(p);
	if (p->s[p->pos] == close) {
		p->pos++;
		p->depth--;
		return v;
	}
	for (;;) {
		skip_ws(p);
		if (obj) {
			if (p->s[p->pos] != '"') {
				jfail(p, "expected a key");
				goto fail;
			}
			key = parse_string(p);
			if (!key)
				goto fail;
			skip_ws(p);
			if (p->s[p->pos] != ':') {
				jfail(p, "expected ':'");
				goto fail;
			}
			p->pos++;
		}
		item = parse_value(p);
		if (!item)
			goto fail;
		if (jappend(v, key, item)) {
			json_free(item);
			jfail(p, "out of memory");
			goto fail;
		}
		key = NULL;
		skip_ws(p);
		if (p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->s[p->pos] == close) {
			p->pos++;
			p->depth--;
			return v;
		}
		jfail(p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
		goto fail;
	}
fail_msg:
	jfail(p, "nested too deeply");
fail:
	free(key);
	json_free(v);
	return NULL;
}

static struct jval *parse_value(struct jparser *p)
{
	const char *s;
	struct jval *v;
	char *end;

	skip_ws(p);
	s = p->s + p->pos;
	switch (*s) {
	case '{':
		return parse_container(p, true);
	case '[':
		return parse_container(p, false);
	case '"':
		v = jnew(J_STR);
		if (!v)
			return jfail(p, "out of memory");
		v->str = parse_string(p);
		if (!v->str) {
			free(v);
			return NULL;
		}
		return v;
	}
	if (!strncmp(s, "true", 4) || !strncmp(s, "false", 5)) {
		v = jnew(J_BOOL);
		if (!v)
			return jfail(p, "out of memory");
		v->b = *s == 't';
		p->pos += v->b ? 4 : 5;
		return v;
	}
	if (!strncmp(s, "null", 4)) {
		p->pos += 4;
		v = jnew(J_NULL);
		return v ? v : jfail(p, "out of memory");
	}
	if (*s == '-' || (*s >= '0' && *s <= '9')) {
		v = jnew(J_NUM);
		if (!v)
			return jfail(p, "out of memory");
		errno = 0;
		v->num = strtod(s, &end);
		if (end == s) {
			free(v);
			return jfail(p, "bad number");
		}
		v->str = strndup(s, (size_t)(end - s));
		if (!v->str) {
			free(v);
			return jfail(p, "out of memory");
		}
		p->pos += (size_t)(end - s);
		return v;
	}
	return jfail(p, *s ? "unexpected character" : "unexpected end");
}

struct jval *json_parse(const char *text, char *err, size_t errlen)
{
	struct jparser p = { .s = text, .err = err, .errlen = errlen };
	struct jval *v;

	if (err && errlen)
		err[0] = '\0';
	v = parse_value(&p);
	if (!v)
		return NULL;
	skip_ws(&p);
	if (p.s[p.pos]) {
		json_free(v);
		return jfail(&p, "trailing text");
	}
	return v;
}

struct jval *json_load(const char *path)
{
	char *buf = NULL, err[128];
	size_t len = 0, cap = 0, n;
	struct jval *v;
	FILE *f;

	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f) {
		errsys("%s", path);
		return NULL;
	}
	for (;;) {
		if (cap - len < 65536) {
			char *nb = realloc(buf, cap + 65536 + 1);

			if (!nb) {
				errmsg("%s: out of memory", path);
				goto fail;
			}
			buf = nb;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (!n)
			break;
	}
	if (ferror(f)) {
		errsys("%s", path);
		goto fail;
	}
	buf[len] = '\0';
	if (strlen(buf) != len) {
		errmsg("%s: not a JSON document (NUL byte)", path);
		goto fail;
	}
	v = json_parse(buf, err, sizeof(err));
	if (!v)
		errmsg("%s: not a JSON document: %s", path, err);
	if (f != stdin)
		fclose(f);
	free(buf);
	return v;
fail:
	if (f != stdin)
		fclose(f);
	free(buf);
	return NULL;
}

const struct jval *json_get(const struct jval *o, const char *key)
{
	size_t i;

	if (!o || o->type != J_OBJ)
		return NULL;
	for (i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], key))
			return o->items[i];
	return NULL;
}

const struct jval *json_path(const struct jval *o, const char *path)
{
	char key[128];
	const char *dot;
	size_t len;

	while (o && *path) {
		dot = strchr(path, '.');
		len = dot ? (size_t)(dot - path) : strlen(path);
		if (len >= sizeof(key))
			return NULL;
		memcpy(key, path, len);
		key[len] = '\0';
		o = json_get(o, key);
		path += len + (dot ? 1 : 0);
	}
	return o;
}

const struct jval *json_at(const struct jval *a, size_t i)
{
	if (!a || a->type != J_ARR || i >= a->n)
		return NULL;
	return a->items[i];
}

double json_num(const struct jval *o, const char *key)
{
	const struct jval *v = json_get(o, key);

	return v && v->type == J_NUM ? v->num : NAN;
}

const char *json_str(const struct jval *o, const char *key)
{
	const struct jval *v = json_get(o, key);

	return v && v->type == J_STR ? v->str : NULL;
}

const struct jval *json_find(const struct jval *a, const char *key,
			     const char *value)
{
	size_t i;

	for (i = 0; a && a->type == J_ARR && i < a->n; i++) {
		const char *s = json_str(a->items[i], key);

		if (s && !strcmp(s, value))
			return a->items[i];
	}
	return NULL;
}

static void jtext(FILE *f, const struct jval *v)
{
	size_t i;

	switch (v->type) {
	case J_NULL: fputs("null", f); break;
	case J_BOOL: fputs(v->b ? "true" : "false", f); break;
	case J_NUM: fputs(v->str, f); break;
	case J_STR: json_write_string(f, v->str); break;
	case J_ARR:
	case J_OBJ:
		fputc(v->type == J_ARR ? '[' : '{', f);
		for (i = 0; i < v->n; i++) {
			if (i)
				fputc(',', f);
			if (v->type == J_OBJ) {
				json_write_string(f, v->keys[i]);
				fputc(':', f);
			}
			jtext(f, v->items[i]);
		}
		fputc(v->type == J_ARR ? ']' : '}', f);
		break;
	}
}

char *json_text(const struct jval *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!v)
		return strdup("null");
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	jtext(f, v);
	fclose(f);
	return buf;
}
