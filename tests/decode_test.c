// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of fsloadctl's table-driven decoder (ctl/nl/decode.c) on
 * messages built with libmnl: every kind of field on a test attribute
 * set, malformed and unknown attributes, running out of memory (realloc()
 * and strndup() fail on demand: the link wraps them), and the real tables
 * (ctl/nl/job.c, results.c, series.c) on messages as the kernel sends
 * them.  The table check walks every decoder from those of the messages
 * down (arrays' elements, hooks' nests) and fails with the attribute's
 * name where a field does not fit the spec's type.  Runs on the host.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/fsload.h>
#include <linux/genetlink.h>

#include "lib/fsloadctl.h"
#include "nl/attrs.h"
#include "nl/decode.h"
#include "nl/job.h"
#include "nl/results.h"
#include "nl/profile.h"
#include "nl/series.h"
#include "report/profile.h"

#include "kselftest_harness.h"

/* Allocation failures on demand: the link wraps realloc() and strndup(). */

void *__real_realloc(void *p, size_t size);
void *__wrap_realloc(void *p, size_t size);
char *__real_strndup(const char *s, size_t n);
char *__wrap_strndup(const char *s, size_t n);

/* Allocations until the one that fails (0: the next); -1: none fails. */
static int alloc_fail_in = -1;

static bool alloc_fails(void)
{
	if (alloc_fail_in < 0)
		return false;
	return alloc_fail_in-- == 0;
}

void *__wrap_realloc(void *p, size_t size)
{
	return alloc_fails() ? NULL : __real_realloc(p, size);
}

char *__wrap_strndup(const char *s, size_t n)
{
	if (alloc_fails()) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_strndup(s, n);
}

/* Messages, as the kernel's: a generic netlink header, then attributes. */

static char msg_buf[65536] __attribute__((aligned(NLA_ALIGNTO)));

static struct nlmsghdr *msg_new(uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(msg_buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));

	g->cmd = cmd;
	g->version = FSLOAD_FAMILY_VERSION;
	return nlh;
}

/* What the decoder writes on stderr, caught while it decodes. */
struct said {
	FILE *file;
	int saved;
	char text[4096];
};

static void said_begin(struct said *s)
{
	fflush(stderr);
	s->file = tmpfile();
	if (!s->file)
		abort();
	s->saved = dup(STDERR_FILENO);
	dup2(fileno(s->file), STDERR_FILENO);
}

static void said_end(struct said *s)
{
	size_t n;

	fflush(stderr);
	dup2(s->saved, STDERR_FILENO);
	close(s->saved);
	rewind(s->file);
	n = fread(s->text, 1, sizeof(s->text) - 1, s->file);
	s->text[n] = '\0';
	fclose(s->file);
}

/* decode_msg(), with what it said on stderr in @s->text. */
static int decode_said(const struct decoder *d, const struct nlmsghdr *nlh,
		       void *obj, struct said *s)
{
	int ret;

	said_begin(s);
	ret = decode_msg(d, nlh, obj);
	said_end(s);
	return ret;
}

/* A test attribute set with every kind of field, and its element's. */

enum {
	E_VAL = 1,
	E_NAME,
	E_MAX = E_NAME
};

static const char *const elem_names[E_MAX + 1] = {
	[E_VAL] = "val",
	[E_NAME] = "name",
};

static const unsigned char elem_types[E_MAX + 1] = {
	[E_VAL] = ATTR_U32,
	[E_NAME] = ATTR_STRING,
};

static const struct attr_set elem_set = {
	.name = "elem",
	.max = E_MAX,
	.names = elem_names,
	.types = elem_types,
};

enum {
	T_U8 = 1,
	T_U16,
	T_U32,
	T_U64,
	T_S32,
	T_S32_WIDE,
	T_STR,
	T_STRDUP,
	T_FLAG,
	T_BOOL,
	T_FIXED,
	T_GROWN,
	T_HOOK,
	T_UNWANTED,	/* in the set, not in the table */
	T_HOLE,		/* no such attribute */
	T_MAX = T_HOLE
};

static const char *const test_names[T_MAX + 1] = {
	[T_U8] = "u8",
	[T_U16] = "u16",
	[T_U32] = "u32",
	[T_U64] = "u64",
	[T_S32] = "s32",
	[T_S32_WIDE] = "s32-wide",
	[T_STR] = "str",
	[T_STRDUP] = "strdup",
	[T_FLAG] = "flag",
	[T_BOOL] = "bool",
	[T_FIXED] = "fixed",
	[T_GROWN] = "grown",
	[T_HOOK] = "hook",
	[T_UNWANTED] = "unwanted",
};

static const unsigned char test_types[T_MAX + 1] = {
	[T_U8] = ATTR_U8,
	[T_U16] = ATTR_U16,
	[T_U32] = ATTR_U32,
	[T_U64] = ATTR_U64,
	[T_S32] = ATTR_S32,
	[T_S32_WIDE] = ATTR_S32,
	[T_STR] = ATTR_STRING,
	[T_STRDUP] = ATTR_STRING,
	[T_FLAG] = ATTR_FLAG,
	[T_BOOL] = ATTR_U32,
	[T_FIXED] = ATTR_NEST,
	[T_GROWN] = ATTR_NEST,
	[T_HOOK] = ATTR_NEST,
	[T_UNWANTED] = ATTR_U32,
};

static const struct attr_set *const test_nested[T_MAX + 1] = {
	[T_FIXED] = &elem_set,
	[T_GROWN] = &elem_set,
	[T_HOOK] = &elem_set,
};

static const struct attr_set test_set = {
	.name = "test",
	.max = T_MAX,
	.names = test_names,
	.types = test_types,
	.nested = test_nested,
};

struct elem {
	uint32_t val;
	char name[8];
};

#define FIXED_MAX	2

struct obj {
	uint64_t have;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;
	int32_t s32;
	int64_t s32_wide;
	char str[8];
	char *dup;
	bool flag;
	bool on;
	unsigned int nfixed;
	struct elem fixed[FIXED_MAX];
	unsigned int ngrown;
	struct elem *grown;
	unsigned int nhooked;
	uint64_t hook_sum;
	int hook_forced;	/* 0: decode; else what the hook returns */
};

#define HAVE(o, type)	(!!((o)->have & (1ULL << (type))))

static const struct decode_field elem_fields[E_MAX + 1] = {
	[E_VAL] = DEC_INT_FIELD(struct elem, val),
	[E_NAME] = DEC_STR_FIELD(struct elem, name),
};

static const struct decoder elem_decoder = {
	.set = &elem_set,
	.fields = elem_fields,
	.have_off = DECODE_NO_HAVE,
};

static const struct decode_array fixed_array = {
	.elem = &elem_decoder,
	.size = sizeof(struct elem),
	.off = offsetof(struct obj, fixed),
	.count_off = offsetof(struct obj, nfixed),
	.max = FIXED_MAX,
};

/* Elements left out of the grown array, and released. */
static unsigned int released;

static bool elem_keep(const void *elem)
{
	return ((const struct elem *)elem)->val;
}

static void elem_release(void *elem)
{
	(void)elem;
	released++;
}

static const struct decode_array grown_array = {
	.elem = &elem_decoder,
	.size = sizeof(struct elem),
	.off = offsetof(struct obj, grown),
	.count_off = offsetof(struct obj, ngrown),
	.keep = elem_keep,
	.release = elem_release,
};

static int elem_hook(const struct nlattr *a, const struct decoder *nest,
		     void *obj)
{
	struct obj *o = obj;
	struct elem e = { 0 };

	if (o->hook_forced)
		return o->hook_forced < 0 ? -1 : 0;
	if (decode_nest(nest, a, &e))
		return -1;
	o->nhooked++;
	o->hook_sum += e.val;
	return 1;
}

static const struct decode_field test_fields[T_MAX + 1] = {
	[T_U8] = DEC_INT_FIELD(struct obj, u8),
	[T_U16] = DEC_INT_FIELD(struct obj, u16),
	[T_U32] = DEC_INT_FIELD(struct obj, u32),
	[T_U64] = DEC_INT_FIELD(struct obj, u64),
	[T_S32] = DEC_INT_FIELD(struct obj, s32),
	[T_S32_WIDE] = DEC_INT_FIELD(struct obj, s32_wide),
	[T_STR] = DEC_STR_FIELD(struct obj, str),
	[T_STRDUP] = DEC_STRDUP_FIELD(struct obj, dup),
	[T_FLAG] = DEC_BOOL_FIELD(struct obj, flag),
	[T_BOOL] = DEC_BOOL_FIELD(struct obj, on),
	[T_FIXED] = DEC_ARRAY_FIELD(&fixed_array),
	[T_GROWN] = DEC_ARRAY_FIELD(&grown_array),
	[T_HOOK] = DEC_HOOK_FIELD(elem_hook, &elem_decoder),
};

static const struct decoder test_decoder = {
	.set = &test_set,
	.fields = test_fields,
	.have_off = offsetof(struct obj, have),
};

static void put_elem(struct nlmsghdr *nlh, uint16_t type, uint32_t val,
		     const char *name)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, type);

	mnl_attr_put_u32(nlh, E_VAL, val);
	if (name)
		mnl_attr_put_strz(nlh, E_NAME, name);
	mnl_attr_nest_end(nlh, nest);
}

static void obj_free(struct obj *o)
{
	free(o->dup);
	free(o->grown);
}

/* The table check: does each field fit its attribute's type in the spec? */

/* Bytes of an integer type; 0 for the others. */
static const size_t int_width[ATTR_PAD + 1] = {
	[ATTR_U8] = 1,
	[ATTR_U16] = 2,
	[ATTR_U32] = 4,
	[ATTR_U64] = 8,
	[ATTR_S32] = 4,
};

/* What is wrong with the field of attribute @type in @d, or NULL. */
static const char *field_wrong(const struct decoder *d, unsigned int type)
{
	const struct decode_field *f = &d->fields[type];
	unsigned int t = d->set->types[type];
	const struct attr_set *nested = d->set->nested ?
					d->set->nested[type] : NULL;

	if (f->kind != DEC_NONE && t == ATTR_NONE)
		return "a field for an attribute the spec does not have";
	switch (f->kind) {
	case DEC_NONE:
		break;
	case DEC_INT:
		if (!int_width[t])
			return "DEC_INT on an attribute that is no integer";
		if (f->len != 1 && f->len != 2 && f->len != 4 && f->len != 8)
			return "DEC_INT on a field that is no integer";
		if (f->len < int_width[t])
			return "DEC_INT field narrower than the attribute";
		break;
	case DEC_BOOL:
		if (!int_width[t] && t != ATTR_FLAG)
			return "DEC_BOOL on an attribute that is no flag or integer";
		break;
	case DEC_STR:
		if (t != ATTR_STRING)
			return "DEC_STR on an attribute that is no string";
		if (!f->len)
			return "DEC_STR on a field of no size";
		break;
	case DEC_STRDUP:
		if (t != ATTR_STRING)
			return "DEC_STRDUP on an attribute that is no string";
		break;
	case DEC_ARRAY:
		if (t != ATTR_NEST)
			return "DEC_ARRAY on an attribute that is no nest";
		if (f->array->elem->set != nested)
			return "DEC_ARRAY's element decoder is not for the nest's set";
		if (!f->array->size)
			return "DEC_ARRAY of elements of no size";
		break;
	case DEC_HOOK:
		if (!f->hook)
			return "DEC_HOOK without a hook";
		if (f->nest && t != ATTR_NEST)
			return "DEC_HOOK with a nest decoder on an attribute that is no nest";
		if (f->nest && f->nest->set != nested)
			return "DEC_HOOK's nest decoder is not for the nest's set";
		break;
	}
	return NULL;
}

struct table_check {
	const struct decoder *seen[64];
	unsigned int nseen;
	char problems[4096];
	size_t len;
};

/* Check decoder @d and those it reaches, each once. */
static void check_decoder(struct table_check *tc, const struct decoder *d)
{
	const struct decode_field *f;
	unsigned int i, type;
	const char *what;
	char buf[48];

	for (i = 0; i < tc->nseen; i++)
		if (tc->seen[i] == d)
			return;
	if (tc->nseen == ARRAY_SIZE(tc->seen))
		abort();
	tc->seen[tc->nseen++] = d;
	for (type = 0; type <= d->set->max; type++) {
		f = &d->fields[type];
		what = field_wrong(d, type);
		if (what && tc->len < sizeof(tc->problems))
			tc->len += snprintf(tc->problems + tc->len,
					    sizeof(tc->problems) - tc->len,
					    "%s %s: %s\n", d->set->name,
					    attr_name(d->set, type, buf,
						      sizeof(buf)), what);
		if (f->kind == DEC_ARRAY)
			check_decoder(tc, f->array->elem);
		else if (f->kind == DEC_HOOK && f->nest)
			check_decoder(tc, f->nest);
	}
}

/* fsloadctl's decoders, from those of the messages down. */
TEST(tables_match_spec)
{
	static const struct decoder *const messages[] = {
		&job_status_decoder, &job_workers_decoder, &results_decoder,
		&results_job_ref_decoder, &series_decoder, &profile_decoder,
	};
	struct table_check tc = { .nseen = 0 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(messages); i++)
		check_decoder(&tc, messages[i]);
	EXPECT_STREQ("", tc.problems);
	/* the walk went down through arrays and hooks */
	EXPECT_GT(tc.nseen, ARRAY_SIZE(messages));
	TH_LOG("%u decoders checked", tc.nseen);
}

/* The check finds a field that does not fit, by the attribute's name. */
TEST(tables_check_fails)
{
	static const struct attr_set other_set = {
		.name = "other",
		.max = E_MAX,
		.names = elem_names,
		.types = elem_types,
	};
	static const struct decoder other_decoder = {
		.set = &other_set,
		.fields = elem_fields,
		.have_off = DECODE_NO_HAVE,
	};
	static const struct decode_field bad_fields[T_MAX + 1] = {
		[T_U64] = DEC_INT_FIELD(struct obj, u32),
		[T_S32] = DEC_INT_FIELD(struct obj, u16),
		[T_U32] = DEC_STR_FIELD(struct obj, str),
		[T_STR] = DEC_INT_FIELD(struct obj, u64),
		[T_STRDUP] = DEC_BOOL_FIELD(struct obj, on),
		[T_FLAG] = DEC_STRDUP_FIELD(struct obj, dup),
		[T_BOOL] = DEC_ARRAY_FIELD(&fixed_array),
		[T_HOOK] = DEC_HOOK_FIELD(elem_hook, &other_decoder),
		[T_HOLE] = DEC_INT_FIELD(struct obj, u32),
	};
	static const struct decoder bad_decoder = {
		.set = &test_set,
		.fields = bad_fields,
		.have_off = DECODE_NO_HAVE,
	};
	static const char *const expected[] = {
		"test u32: DEC_STR on an attribute that is no string\n",
		"test u64: DEC_INT field narrower than the attribute\n",
		"test s32: DEC_INT field narrower than the attribute\n",
		"test str: DEC_INT on an attribute that is no integer\n",
		"test strdup: DEC_BOOL on an attribute that is no flag or integer\n",
		"test flag: DEC_STRDUP on an attribute that is no string\n",
		"test bool: DEC_ARRAY on an attribute that is no nest\n",
		"test hook: DEC_HOOK's nest decoder is not for the nest's set\n",
		"test test attribute 15: a field for an attribute the spec does not have\n",
	};
	struct table_check tc = { .nseen = 0 };
	unsigned int i;

	check_decoder(&tc, &bad_decoder);
	for (i = 0; i < ARRAY_SIZE(expected); i++)
		EXPECT_NE(NULL, strstr(tc.problems, expected[i])) {
			TH_LOG("not found: %s", expected[i]);
		}
	/* and nothing in a table that fits */
	memset(&tc, 0, sizeof(tc));
	check_decoder(&tc, &test_decoder);
	EXPECT_STREQ("", tc.problems);
}

/* Decoding every kind of field */

TEST(kind_ints)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_JOB_GET);
	struct obj o = { 0 };
	struct said s;

	mnl_attr_put_u8(nlh, T_U8, 0xab);
	mnl_attr_put_u16(nlh, T_U16, 0xbeef);
	mnl_attr_put_u32(nlh, T_U32, 0xdeadbeef);
	mnl_attr_put_u64(nlh, T_U64, 0x0123456789abcdefULL);
	ASSERT_EQ(0, decode_said(&test_decoder, nlh, &o, &s));
	EXPECT_STREQ("", s.text);
	EXPECT_EQ(0xab, o.u8);
	EXPECT_EQ(0xbeef, o.u16);
	EXPECT_EQ(0xdeadbeef, o.u32);
	EXPECT_EQ(0x0123456789abcdefULL, o.u64);
	EXPECT_EQ((1ULL << T_U8) | (1ULL << T_U16) | (1ULL << T_U32) |
		  (1ULL << T_U64), o.have);
}

/* An s32 is sign-extended into a wider field. */
TEST(kind_s32_sign_extension)
{
	static const int32_t values[] = { -5, 7, INT32_MIN, INT32_MAX, -1 };
	struct nlmsghdr *nlh;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(values); i++) {
		struct obj o = { .s32_wide = 12345 };

		nlh = msg_new(FSLOAD_CMD_JOB_GET);
		mnl_attr_put_u32(nlh, T_S32, (uint32_t)values[i]);
		mnl_attr_put_u32(nlh, T_S32_WIDE, (uint32_t)values[i]);
		ASSERT_EQ(0, decode_msg(&test_decoder, nlh, &o));
		EXPECT_EQ(values[i], o.s32);
		EXPECT_EQ((int64_t)values[i], o.s32_wide);
	}
}

/* A string is truncated to its field; a NUL is not needed to end it. */
TEST(kind_string)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_JOB_GET);
	struct obj o = { 0 };

	mnl_attr_put_strz(nlh, T_STR, "abcdefghijkl");
	ASSERT_EQ(0, decode_msg(&test_decoder, nlh, &o));
	EXPECT_STREQ("abcdefg", o.str);

	nlh = msg_new(FSLOAD_CMD_JOB_GET);
	mnl_attr_put(nlh, T_STR, 3, "xyz");
	ASSERT_EQ(0, decode_msg(&test_decoder, nlh, &o));
	EXPECT_STREQ("xyz", o.str);

	nlh = msg_new(FSLOAD_CMD_JOB_GET);
	mnl_attr_put_strz(nlh, T_STR, "ab");
	ASSERT_EQ(0, decode_msg(&test_decoder, nlh, &o));
	EXPECT_STREQ("ab", o.str);
	EXPECT_TRUE(HAVE(&o, T_STR));
}

/* A copy, whole; a later one replaces it. */
TEST(kind_strdup)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_JOB_GET);
	char longer[300];
	struct obj o = { 0 };

	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	mnl_attr_put_strz(nlh, T_STRDUP, "first");
	ASSERT_EQ(0, decode_msg(&test_decoder, nlh, &o));
	ASSERT_NE(NULL, o.dup);
	EXPECT_STREQ("first", o.dup);

	nlh = msg_new(FSLOAD_CMD_JOB_GET);
	mnl_attr_put_strz(nlh, T_STRDUP, longer);
	mnl_attr_put(nlh, T_STRDUP, 4, "last");
	ASSERT_EQ(0, decode_msg(&test_decoder, nlh, &o));
	EXPECT_STREQ("last", o.dup);

	nlh = msg_new(FSLOAD_CMD_JOB_GET);
	mnl_attr_put_strz(nlh, T_STRDUP, longer);
	ASSERT_EQ(0, decode_msg(&test_decoder, nlh, &o));
	EXPECT_STREQ(longer, o.dup);
	EXPECT_TRUE(HAVE(&o, T_STRDUP));
	obj_free(&o);
}

/* A flag, and an integer as a bool. */
TEST(kind_flag_bool)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_JOB_GET);
	struct obj o = { .on = true };

	mnl_attr_put(nlh, T_FLAG, 0, NULL);
	mnl_attr_put_u32(nlh, T_BOOL, 0);
	ASSERT_EQ(0, decode_msg(&test_decoder, nlh, &o));
	EXPECT_TRUE(o.flag);
	EXPECT_FALSE(o.on);
	EXPECT_TRUE(HAVE(&o, T_BOOL));

	nlh = msg_new(FSLOAD_CMD_JOB_GET);
	mnl_attr_put_u32(nlh, T_BOOL, 0x100);
	ASSERT_EQ(0, decode_msg(&test_decoder, nlh, &o));
	EXPECT_TRUE(o.on);
}

/* A fixed array takes its first @max elements, and ignores the rest. */
TEST(kind_array_fixed)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_JOB_GET);
	struct obj o = { 0 };
	struct said s;

	put_elem(nlh, T_FIXED, 10, "ten");
	put_elem(nlh, T_FIXED, 0, NULL);
	put_elem(nlh, T_FIXED, 30, "thirty");
	ASSERT_EQ(0, decode_said(&test_decoder, nlh, &o, &s));
	EXPECT_STREQ("", s.text);
	ASSERT_EQ(FIXED_MAX, o.nfixed);
	EXPECT_EQ(10, o.fixed[0].val);
	EXPECT_STREQ("ten", o.fixed[0].name);
	EXPECT_EQ(0, o.fixed[1].val);
	EXPECT_STREQ("", o.fixed[1].name);
	EXPECT_TRUE(HAVE(&o, T_FIXED));
}

/* A grown array takes every element it keeps, in order. */
TEST(kind_array_grown)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_JOB_GET);
	struct obj o = { 0 };
	unsigned int i;

	for (i = 1; i <= 100; i++)
		put_elem(nlh, T_GROWN, i % 10 ? i : 0, "e");
	ASSERT_EQ(0, decode_msg(&test_decoder, nlh, &o));
	ASSERT_EQ(90, o.ngrown);
	EXPECT_EQ(10, released);
	EXPECT_EQ(1, o.grown[0].val);
	EXPECT_EQ(11, o.grown[9].val);
	EXPECT_EQ(99, o.grown[89].val);
	EXPECT_STREQ("e", o.grown[89].name);
	obj_free(&o);

	/* an element left out does not count as decoded */
	nlh = msg_new(FSLOAD_CMD_JOB_GET);
	memset(&o, 0, sizeof(o));
	put_elem(nlh, T_GROWN, 0, NULL);
	ASSERT_EQ(0, decode_msg(&test_decoder, nlh, &o));
	EXPECT_EQ(0, o.ngrown);
	EXPECT_FALSE(HAVE(&o, T_GROWN));
	obj_free(&o);
}

/* A hook decodes its nest with the decoder of its table entry. */
TEST(kind_hook)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_JOB_GET);
	struct obj o = { 0 };

	put_elem(nlh, T_HOOK, 5, NULL);
	put_elem(nlh, T_HOOK, 7, "seven");
	ASSERT_EQ(0, decode_msg(&test_decoder, nlh, &o));
	EXPECT_EQ(2, o.nhooked);
	EXPECT_EQ(12, o.hook_sum);
	EXPECT_TRUE(HAVE(&o, T_HOOK));

	/* what a hook ignores does not count as decoded */
	nlh = msg_new(FSLOAD_CMD_JOB_GET);
	memset(&o, 0, sizeof(o));
	o.hook_forced = 1;
	put_elem(nlh, T_HOOK, 5, NULL);
	ASSERT_EQ(0, decode_msg(&test_decoder, nlh, &o));
	EXPECT_FALSE(HAVE(&o, T_HOOK));
}

/* Malformed and unknown attributes */

/* Reported, and ignored: the field keeps its value, the rest is decoded. */
TEST(wrong_length)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_JOB_GET);
	struct obj o = { .u8 = 1, .u32 = 77, .u64 = 88, .on = true };
	static const uint32_t four = 4;
	struct said s;

	mnl_attr_put(nlh, T_U32, 2, &four);
	mnl_attr_put_u32(nlh, T_U8, 4);
	mnl_attr_put_u32(nlh, T_U64, 4);
	mnl_attr_put_u64(nlh, T_BOOL, 0);
	mnl_attr_put_u32(nlh, T_FLAG, 4);
	mnl_attr_put(nlh, T_STR, 0, NULL);
	mnl_attr_put(nlh, T_GROWN, 2, &four);
	mnl_attr_put_u16(nlh, T_U16, 16);
	ASSERT_EQ(0, decode_said(&test_decoder, nlh, &o, &s));
	EXPECT_STREQ("fsloadctl: warning: ignoring malformed test attribute u32 (2 bytes)\n"
		     "fsloadctl: warning: ignoring malformed test attribute u8 (4 bytes)\n"
		     "fsloadctl: warning: ignoring malformed test attribute u64 (4 bytes)\n"
		     "fsloadctl: warning: ignoring malformed test attribute bool (8 bytes)\n"
		     "fsloadctl: warning: ignoring malformed test attribute flag (4 bytes)\n"
		     "fsloadctl: warning: ignoring malformed test attribute str (0 bytes)\n"
		     "fsloadctl: warning: ignoring malformed test attribute grown (2 bytes)\n",
		     s.text);
	EXPECT_EQ(1, o.u8);
	EXPECT_EQ(77, o.u32);
	EXPECT_EQ(88, o.u64);
	EXPECT_TRUE(o.on);
	EXPECT_FALSE(o.flag);
	EXPECT_EQ(0, o.ngrown);
	EXPECT_EQ(16, o.u16);
	EXPECT_EQ(1ULL << T_U16, o.have);
}

/* A few reports at most, however many there are. */
TEST(wrong_length_reported_a_few_times)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_JOB_GET);
	struct obj o = { 0 };
	const char *p;
	unsigned int i, lines = 0;
	struct said s;

	for (i = 0; i < 20; i++)
		mnl_attr_put_u8(nlh, T_U32, 1);
	ASSERT_EQ(0, decode_said(&test_decoder, nlh, &o, &s));
	for (p = s.text; (p = strchr(p, '\n')); p++)
		lines++;
	EXPECT_EQ(8, lines);
	EXPECT_EQ(0, o.have);
}

/* From a newer module, or not wanted here: ignored without a word. */
TEST(unknown_ignored)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_JOB_GET);
	struct obj o = { 0 };
	struct said s;

	mnl_attr_put_u32(nlh, T_UNWANTED, 1);
	mnl_attr_put_u32(nlh, T_HOLE, 1);
	mnl_attr_put_u64(nlh, T_MAX + 1, 1);
	mnl_attr_put(nlh, 63, 3, "abc");
	mnl_attr_put_strz(nlh, 200, "from a newer module");
	put_elem(nlh, T_MAX + 2, 1, NULL);
	mnl_attr_put_u32(nlh, T_U32, 9);
	ASSERT_EQ(0, decode_said(&test_decoder, nlh, &o, &s));
	EXPECT_STREQ("", s.text);
	EXPECT_EQ(9, o.u32);
	EXPECT_EQ(1ULL << T_U32, o.have);
}

/* An attribute unknown in a nest too. */
TEST(unknown_in_nest_ignored)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_JOB_GET);
	struct obj o = { 0 };
	struct nlattr *nest;
	struct said s;

	nest = mnl_attr_nest_start(nlh, T_FIXED);
	mnl_attr_put_u64(nlh, E_MAX + 1, 1);
	mnl_attr_put_u32(nlh, E_VAL, 3);
	mnl_attr_nest_end(nlh, nest);
	ASSERT_EQ(0, decode_said(&test_decoder, nlh, &o, &s));
	EXPECT_STREQ("", s.text);
	ASSERT_EQ(1, o.nfixed);
	EXPECT_EQ(3, o.fixed[0].val);
}

/* A message with no room for its generic netlink header: nothing. */
TEST(short_message)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(msg_buf);
	struct obj o = { 0 };

	ASSERT_EQ(0, decode_msg(&test_decoder, nlh, &o));
	EXPECT_EQ(0, o.have);
}

/* Running out of memory: the decode fails, and says so */

TEST(oom_strdup)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_JOB_GET);
	struct obj o = { 0 };
	struct said s;

	mnl_attr_put_strz(nlh, T_STRDUP, "dir");
	alloc_fail_in = 0;
	EXPECT_EQ(EXIT_SYSERR, decode_said(&test_decoder, nlh, &o, &s));
	EXPECT_STREQ("fsloadctl: out of memory\n", s.text);
	EXPECT_EQ(NULL, o.dup);
	EXPECT_FALSE(HAVE(&o, T_STRDUP));
}

TEST(oom_array_grown)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_JOB_GET);
	struct obj o = { 0 };
	struct said s;

	put_elem(nlh, T_GROWN, 1, NULL);
	put_elem(nlh, T_GROWN, 2, NULL);
	put_elem(nlh, T_GROWN, 3, NULL);
	alloc_fail_in = 1;
	EXPECT_EQ(EXIT_SYSERR, decode_said(&test_decoder, nlh, &o, &s));
	EXPECT_STREQ("fsloadctl: out of memory\n", s.text);
	ASSERT_EQ(1, o.ngrown);
	EXPECT_EQ(1, o.grown[0].val);
	obj_free(&o);
}

TEST(oom_hook)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_JOB_GET);
	struct obj o = { .hook_forced = -1 };
	struct said s;

	put_elem(nlh, T_HOOK, 1, NULL);
	mnl_attr_put_u32(nlh, T_U32, 1);
	EXPECT_EQ(EXIT_SYSERR, decode_said(&test_decoder, nlh, &o, &s));
	EXPECT_STREQ("fsloadctl: out of memory\n", s.text);
	EXPECT_EQ(0, o.have);
}

/* fsloadctl's tables, on messages as the kernel sends them */

static void put_status(struct nlmsghdr *nlh)
{
	struct nlattr *nest;
	char name[16];
	unsigned int i;

	mnl_attr_put_u32(nlh, FSLOAD_A_JOB_ID, 7);
	mnl_attr_put_strz(nlh, FSLOAD_A_JOB_DIR, "/mnt/scratch/fsload.7");
	mnl_attr_put_u64(nlh, FSLOAD_A_JOB_FILES, 1ULL << 40);
	mnl_attr_put_strz(nlh, FSLOAD_A_JOB_PROFILE,
			  "a-profile-name-longer-than-fsload-name-max");
	mnl_attr_put_u8(nlh, FSLOAD_A_JOB_STATE, FSLOAD_JOB_FAILED);
	mnl_attr_put_u32(nlh, FSLOAD_A_JOB_ERRNO, ENOSPC);
	mnl_attr_put_strz(nlh, FSLOAD_A_JOB_ERROR_MSG, "no space left");
	mnl_attr_put_u8(nlh, FSLOAD_A_JOB_PMU, 1);
	mnl_attr_put_u64(nlh, FSLOAD_A_JOB_PAD, 0);
	for (i = 0; i <= FSLOAD_GROUPS_MAX; i++) {
		nest = mnl_attr_nest_start(nlh, FSLOAD_A_JOB_GROUP);
		snprintf(name, sizeof(name), "g%u", i);
		mnl_attr_put_strz(nlh, FSLOAD_A_GROUP_NAME, name);
		mnl_attr_put_u32(nlh, FSLOAD_A_GROUP_THREADS, i + 1);
		mnl_attr_nest_end(nlh, nest);
	}
	for (i = 0; i < 3; i++) {
		nest = mnl_attr_nest_start(nlh, FSLOAD_A_JOB_STALL);
		mnl_attr_put_u32(nlh, FSLOAD_A_STALL_THREAD, i);
		mnl_attr_put_u32(nlh, FSLOAD_A_STALL_PID, 1000 + i);
		mnl_attr_put_u8(nlh, FSLOAD_A_STALL_OP, i + 1);
		mnl_attr_put_u64(nlh, FSLOAD_A_STALL_DURATION_NS,
				 5000000000ULL * (i + 1));
		if (i == 2)
			mnl_attr_put_u8(nlh, FSLOAD_A_STALL_ENDED, 1);
		mnl_attr_nest_end(nlh, nest);
	}
}

TEST(job_status)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_JOB_GET);
	struct job_status js = { 0 };

	put_status(nlh);
	ASSERT_EQ(0, job_status_parse(nlh, &js));
	EXPECT_EQ(7, js.id);
	ASSERT_NE(NULL, js.dir);
	EXPECT_STREQ("/mnt/scratch/fsload.7", js.dir);
	EXPECT_EQ(NULL, js.device);
	EXPECT_EQ(1ULL << 40, js.files);
	EXPECT_EQ(FSLOAD_NAME_MAX - 1, strlen(js.profile));
	EXPECT_EQ(0, strncmp(js.profile, "a-profile-name-longer",
			     strlen("a-profile-name-longer")));
	EXPECT_EQ(FSLOAD_JOB_FAILED, js.state);
	EXPECT_EQ(ENOSPC, js.err);
	EXPECT_STREQ("no space left", js.error_msg);
	EXPECT_EQ(1, js.pmu);
	EXPECT_TRUE(JS_HAS(&js, FSLOAD_A_JOB_ERROR_MSG));
	EXPECT_FALSE(JS_HAS(&js, FSLOAD_A_JOB_DEVICE));
	EXPECT_FALSE(JS_HAS(&js, FSLOAD_A_JOB_PAD));
	ASSERT_EQ(FSLOAD_GROUPS_MAX, js.ngroups);
	EXPECT_STREQ("g0", js.groups[0].name);
	EXPECT_EQ(FSLOAD_GROUPS_MAX, js.groups[FSLOAD_GROUPS_MAX - 1].threads);
	ASSERT_EQ(3, js.nstalls);
	EXPECT_EQ(1002, js.stalls[2].pid);
	EXPECT_EQ(3, js.stalls[2].op);
	EXPECT_EQ(15000000000ULL, js.stalls[2].duration_ns);
	EXPECT_FALSE(js.stalls[1].ended);
	EXPECT_TRUE(js.stalls[2].ended);
	job_status_free(&js);
}

static void put_worker(struct nlmsghdr *nlh, int index, int pid, int cpu)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, FSLOAD_A_JOB_WORKER);

	if (index >= 0)
		mnl_attr_put_u32(nlh, FSLOAD_A_WORKER_INDEX, index);
	if (pid >= 0)
		mnl_attr_put_u32(nlh, FSLOAD_A_WORKER_PID, pid);
	if (cpu >= 0)
		mnl_attr_put_u32(nlh, FSLOAD_A_WORKER_CPU, cpu);
	mnl_attr_nest_end(nlh, nest);
}

/* Workers go by their index; one without, or beyond the limit, is none. */
TEST(job_workers)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_WORKER_GET);
	struct job_status js = { 0 };

	put_worker(nlh, 2, 102, 1);
	put_worker(nlh, 0, 100, -1);
	put_worker(nlh, 1, 101, 5);
	put_worker(nlh, -1, 99, 0);
	put_worker(nlh, FSLOAD_THREADS_MAX, 98, 0);
	ASSERT_EQ(0, job_workers_parse(nlh, &js));
	ASSERT_EQ(3, js.npids);
	EXPECT_EQ(100, js.pids[0]);
	EXPECT_EQ(101, js.pids[1]);
	EXPECT_EQ(102, js.pids[2]);
	ASSERT_EQ(3, js.nworker_cpus);
	EXPECT_EQ(0, js.worker_cpus[0]);
	EXPECT_EQ(5, js.worker_cpus[1]);
	EXPECT_EQ(1, js.worker_cpus[2]);
	job_status_free(&js);
}

static void put_bucket(struct nlmsghdr *nlh, uint64_t low, uint64_t high,
		       uint64_t count)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, FSLOAD_A_OPSTAT_BUCKET);

	mnl_attr_put_u64(nlh, FSLOAD_A_BUCKET_LOW_NS, low);
	mnl_attr_put_u64(nlh, FSLOAD_A_BUCKET_HIGH_NS, high);
	mnl_attr_put_u64(nlh, FSLOAD_A_BUCKET_COUNT, count);
	mnl_attr_nest_end(nlh, nest);
}

/* Phases 1, 0 and more buckets of phase 1, as a dump's messages go. */
static void put_results(struct nlmsghdr *nlh)
{
	struct nlattr *res, *nest;
	unsigned int i;

	mnl_attr_put_u32(nlh, FSLOAD_A_JOB_ID, 3);
	res = mnl_attr_nest_start(nlh, FSLOAD_A_JOB_RESULT);
	mnl_attr_put_u32(nlh, FSLOAD_A_RES_PHASE_INDEX, 1);
	mnl_attr_put_strz(nlh, FSLOAD_A_RES_PHASE_NAME, "write");
	mnl_attr_put_u64(nlh, FSLOAD_A_RES_OPS, 10);
	mnl_attr_put_u8(nlh, FSLOAD_A_RES_COMPLETE, 1);
	nest = mnl_attr_nest_start(nlh, FSLOAD_A_RES_OPSTAT);
	mnl_attr_put_u8(nlh, FSLOAD_A_OPSTAT_TYPE, 2);
	mnl_attr_put_u64(nlh, FSLOAD_A_OPSTAT_OPS, 10);
	put_bucket(nlh, 0, 16, 3);
	put_bucket(nlh, 16, 32, 0);
	put_bucket(nlh, 32, 16, 1);
	put_bucket(nlh, 32, 64, 2);
	mnl_attr_nest_end(nlh, nest);
	nest = mnl_attr_nest_start(nlh, FSLOAD_A_RES_OPSTAT);
	mnl_attr_put_u64(nlh, FSLOAD_A_OPSTAT_OPS, 1);
	put_bucket(nlh, 0, 16, 1);
	mnl_attr_nest_end(nlh, nest);
	nest = mnl_attr_nest_start(nlh, FSLOAD_A_RES_THREAD);
	mnl_attr_put_strz(nlh, FSLOAD_A_THREAD_NAME, "jbd2/ram0-8");
	mnl_attr_put_u32(nlh, FSLOAD_A_THREAD_PID, 55);
	mnl_attr_put_u8(nlh, FSLOAD_A_THREAD_KERNEL, 1);
	mnl_attr_put_u64(nlh, FSLOAD_A_THREAD_CPU_NS, 1000);
	mnl_attr_nest_end(nlh, nest);
	nest = mnl_attr_nest_start(nlh, FSLOAD_A_RES_THREAD);
	mnl_attr_put_u64(nlh, FSLOAD_A_THREAD_CPU_NS, 2000);
	mnl_attr_nest_end(nlh, nest);
	for (i = 0; i < FSLOAD_PROGRESS_MARKS + 2; i++) {
		nest = mnl_attr_nest_start(nlh, FSLOAD_A_RES_PROGRESS);
		mnl_attr_put_u8(nlh, FSLOAD_A_PROGRESS_PCT, 10 * (i + 1));
		mnl_attr_put_u64(nlh, FSLOAD_A_PROGRESS_ITEMS, i);
		mnl_attr_nest_end(nlh, nest);
	}
	mnl_attr_nest_end(nlh, res);

	res = mnl_attr_nest_start(nlh, FSLOAD_A_JOB_RESULT);
	mnl_attr_put_u32(nlh, FSLOAD_A_RES_PHASE_INDEX, 0);
	mnl_attr_put_strz(nlh, FSLOAD_A_RES_PHASE_NAME, "create");
	mnl_attr_nest_end(nlh, res);

	res = mnl_attr_nest_start(nlh, FSLOAD_A_JOB_RESULT);
	mnl_attr_put_u32(nlh, FSLOAD_A_RES_PHASE_INDEX, 1);
	nest = mnl_attr_nest_start(nlh, FSLOAD_A_RES_OPSTAT);
	mnl_attr_put_u8(nlh, FSLOAD_A_OPSTAT_TYPE, 2);
	put_bucket(nlh, 64, 128, 4);
	mnl_attr_nest_end(nlh, nest);
	nest = mnl_attr_nest_start(nlh, FSLOAD_A_RES_OPSTAT);
	mnl_attr_put_u8(nlh, FSLOAD_A_OPSTAT_TYPE, 3);
	put_bucket(nlh, 0, 16, 1);
	mnl_attr_nest_end(nlh, nest);
	mnl_attr_nest_end(nlh, res);
}

TEST(results)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_RESULT_GET);
	struct results r = { 0 };
	struct phase_result *pr;
	struct opstat *os;

	put_results(nlh);
	ASSERT_EQ(0, decode_msg(&results_decoder, nlh, &r));
	ASSERT_EQ(2, r.nphases);
	pr = &r.phases[0];
	EXPECT_EQ(1, pr->index);
	EXPECT_STREQ("write", pr->name);
	EXPECT_EQ(10, pr->ops);
	EXPECT_EQ(1, pr->complete);
	EXPECT_TRUE(RES_HAS(pr, FSLOAD_A_RES_COMPLETE));
	EXPECT_FALSE(RES_HAS(pr, FSLOAD_A_RES_STONEWALLED));
	/* an opstat without its type is left out; buckets of a later
	 * message of the phase are merged into its op type's
	 */
	ASSERT_EQ(2, pr->nopstats);
	os = &pr->opstats[0];
	EXPECT_EQ(2, os->type);
	EXPECT_EQ(10, os->ops);
	ASSERT_EQ(3, os->nbuckets);
	EXPECT_EQ(3, os->buckets[0].count);
	EXPECT_EQ(32, os->buckets[1].low_ns);
	EXPECT_EQ(128, os->buckets[2].high_ns);
	EXPECT_EQ(3, pr->opstats[1].type);
	EXPECT_EQ(1, pr->opstats[1].nbuckets);
	ASSERT_EQ(2, pr->ntop);
	EXPECT_TRUE(pr->top[0].named);
	EXPECT_STREQ("jbd2/ram0-8", pr->top[0].name);
	EXPECT_EQ(55, pr->top[0].pid);
	EXPECT_TRUE(pr->top[0].kernel);
	EXPECT_FALSE(pr->top[1].named);
	EXPECT_EQ(2000, pr->top[1].cpu_ns);
	ASSERT_EQ(FSLOAD_PROGRESS_MARKS, pr->nprogress);
	EXPECT_EQ(100, pr->progress[FSLOAD_PROGRESS_MARKS - 1].pct);
	EXPECT_EQ(0, r.phases[1].index);
	EXPECT_STREQ("create", r.phases[1].name);
	results_free(&r);
}

static void put_sample(struct nlmsghdr *nlh, int64_t seq, unsigned int ops)
{
	struct nlattr *sample = mnl_attr_nest_start(nlh, FSLOAD_A_JOB_SAMPLE);
	struct nlattr *op;
	unsigned int i;

	if (seq >= 0)
		mnl_attr_put_u64(nlh, FSLOAD_A_SAMPLE_SEQ, seq);
	mnl_attr_put_u64(nlh, FSLOAD_A_SAMPLE_TIME_NS, 1000 * (seq + 1));
	mnl_attr_put_u32(nlh, FSLOAD_A_SAMPLE_PHASE_INDEX, 1);
	for (i = 0; i < ops; i++) {
		op = mnl_attr_nest_start(nlh, FSLOAD_A_SAMPLE_OP);
		/* one op without its type */
		if (i != 1)
			mnl_attr_put_u8(nlh, FSLOAD_A_SAMPLE_OP_TYPE, i + 1);
		mnl_attr_put_u64(nlh, FSLOAD_A_SAMPLE_OP_OPS, 100 + i);
		mnl_attr_nest_end(nlh, op);
	}
	mnl_attr_nest_end(nlh, sample);
}

/* Samples after the last read; those the ring overwrote count as lost. */
TEST(series)
{
	struct nlmsghdr *nlh = msg_new(FSLOAD_CMD_SERIES_GET);
	struct series s = { .next = 5 };

	put_sample(nlh, 3, 1);
	put_sample(nlh, 5, 3);
	put_sample(nlh, -1, 1);
	put_sample(nlh, 8, FSLOAD_OP_MAX + 3);
	ASSERT_EQ(0, decode_msg(&series_decoder, nlh, &s));
	ASSERT_EQ(2, s.nsamples);
	EXPECT_EQ(2, s.lost);
	EXPECT_EQ(9, s.next);
	EXPECT_EQ(5, s.samples[0].seq);
	EXPECT_EQ(6000, s.samples[0].t_ns);
	ASSERT_EQ(2, s.samples[0].nops);
	EXPECT_EQ(1, s.samples[0].op[0].type);
	EXPECT_EQ(3, s.samples[0].op[1].type);
	EXPECT_EQ(102, s.samples[0].op[1].ops);
	EXPECT_EQ(FSLOAD_OP_MAX, s.samples[1].nops);
	free(s.samples);
}

/*
 * Each allocation of a decode fails in turn: the decode fails, says so
 * and leaves what it decoded to be freed as usual.
 */
TEST(oom_each_allocation)
{
	struct results r = { 0 };
	struct job_status js;
	struct nlmsghdr *nlh;
	int k, ret, fails = 0;
	struct said s;

	for (k = 0;; k++) {
		nlh = msg_new(FSLOAD_CMD_RESULT_GET);
		put_results(nlh);
		alloc_fail_in = k;
		ret = decode_said(&results_decoder, nlh, &r, &s);
		results_free(&r);
		if (alloc_fail_in >= 0)
			break;	/* all allocations made */
		EXPECT_EQ(EXIT_SYSERR, ret);
		EXPECT_STREQ("fsloadctl: out of memory\n", s.text);
		fails++;
	}
	EXPECT_EQ(0, ret);
	EXPECT_GT(fails, 5);

	for (k = 0, fails = 0;; k++) {
		nlh = msg_new(FSLOAD_CMD_JOB_GET);
		put_status(nlh);
		memset(&js, 0, sizeof(js));
		alloc_fail_in = k;
		ret = decode_said(&job_status_decoder, nlh, &js, &s);
		job_status_free(&js);
		if (alloc_fail_in >= 0)
			break;
		EXPECT_EQ(EXIT_SYSERR, ret);
		EXPECT_STREQ("fsloadctl: out of memory\n", s.text);
		fails++;
	}
	EXPECT_EQ(0, ret);
	EXPECT_GT(fails, 2);
	alloc_fail_in = -1;
}

/* PROFILE_GET: two workers' stacks, folded per phase and op type. */
static void put_pstack(struct nlmsghdr *nlh, uint32_t phase, uint8_t op,
		       uint64_t samples, const char *frames)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, FSLOAD_A_JOB_PROFILE_STACK);

	mnl_attr_put_u32(nlh, FSLOAD_A_PROFILE_STACK_PHASE_INDEX, phase);
	mnl_attr_put_u8(nlh, FSLOAD_A_PROFILE_STACK_OP, op);
	mnl_attr_put_u64(nlh, FSLOAD_A_PROFILE_STACK_SAMPLES, samples);
	mnl_attr_put_strz(nlh, FSLOAD_A_PROFILE_STACK_FRAMES, frames);
	mnl_attr_nest_end(nlh, n);
}

TEST(profile_stacks_folded)
{
	struct cpu_profile p = { .period = 1000 };
	struct fold_view *v;
	struct nlmsghdr *nlh;
	int n;

	/* worker 0 */
	nlh = msg_new(FSLOAD_CMD_PROFILE_GET);
	mnl_attr_put_u32(nlh, FSLOAD_A_JOB_ID, 1);
	put_pstack(nlh, 1, FSLOAD_OP_STAT, 2, "kthread;op_stat;getattr");
	put_pstack(nlh, 0, FSLOAD_OP_CREATE, 5,
		   "kthread;op_create;ext4_create [ext4];memset");
	put_pstack(nlh, 0, FSLOAD_OP_CREATE, 3, "kthread;op_create;rec;rec");
	ASSERT_EQ(0, decode_msg(&profile_decoder, nlh, &p));
	/* worker 1: the same stack as worker 0's first create one */
	nlh = msg_new(FSLOAD_CMD_PROFILE_GET);
	mnl_attr_put_u32(nlh, FSLOAD_A_JOB_ID, 1);
	put_pstack(nlh, 0, FSLOAD_OP_CREATE, 4,
		   "kthread;op_create;ext4_create [ext4];memset");
	put_pstack(nlh, 0, FSLOAD_OP_CREATE, 0, "kthread;never");
	ASSERT_EQ(0, decode_msg(&profile_decoder, nlh, &p));
	ASSERT_EQ(4U, p.nstacks);	/* the empty one left out */

	n = profile_fold(&p, &v);
	ASSERT_EQ(2, n);
	/* by phase, then op; equal frames merged across workers */
	EXPECT_EQ(0U, v[0].phase);
	EXPECT_EQ(FSLOAD_OP_CREATE, v[0].op);
	EXPECT_EQ(12U, v[0].samples);
	ASSERT_EQ(2U, v[0].nstacks);
	EXPECT_STREQ("kthread;op_create;ext4_create [ext4];memset",
		     v[0].stacks[0].frames);
	EXPECT_EQ(9U, v[0].stacks[0].samples);
	/* most self first: memset 9, rec 3 (counted once per stack) */
	ASSERT_EQ(5U, v[0].nfns);
	EXPECT_STREQ("memset", v[0].fns[0].name);
	EXPECT_EQ(9U, v[0].fns[0].self);
	EXPECT_EQ(9U, v[0].fns[0].total);
	EXPECT_STREQ("rec", v[0].fns[1].name);
	EXPECT_EQ(3U, v[0].fns[1].self);
	EXPECT_EQ(3U, v[0].fns[1].total);
	/* no self: by total */
	EXPECT_EQ(0U, v[0].fns[2].self);
	EXPECT_EQ(12U, v[0].fns[2].total);
	EXPECT_EQ(1U, v[1].phase);
	EXPECT_EQ(FSLOAD_OP_STAT, v[1].op);
	EXPECT_EQ(2U, v[1].samples);
	EXPECT_STREQ("getattr", v[1].fns[0].name);
	fold_free(v, (unsigned int)n);
	profile_free(&p);
}

/* The same stacks as a flame graph: one box per function of a path. */
TEST(profile_flame_graph)
{
	struct cpu_profile p = { .period = 1000 };
	struct results r = { 0 };
	char dir[] = "/tmp/fsload-flame-XXXXXX", path[64], *svg;
	struct nlmsghdr *nlh;
	unsigned int rects = 0;
	const char *c;
	FILE *f;
	long len;

	ASSERT_NE(NULL, mkdtemp(dir));
	nlh = msg_new(FSLOAD_CMD_PROFILE_GET);
	put_pstack(nlh, 0, FSLOAD_OP_CREATE, 5, "k;c;<x> & y");
	put_pstack(nlh, 0, FSLOAD_OP_CREATE, 3, "k;c;z");
	put_pstack(nlh, 0, FSLOAD_OP_CREATE, 2, "k;d");
	ASSERT_EQ(0, decode_msg(&profile_decoder, nlh, &p));
	snprintf(path, sizeof(path), "%s/f", dir);
	ASSERT_EQ(0, profile_write(&p, &r, path, PROFILE_SVG));
	snprintf(path, sizeof(path), "%s/f-0-phase-create.svg", dir);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	svg = calloc(1, (size_t)len + 1);
	ASSERT_EQ((size_t)len, fread(svg, 1, (size_t)len, f));
	fclose(f);
	unlink(path);
	rmdir(dir);
	/* k, c, <x> & y, z, d, and the background */
	for (c = svg; (c = strstr(c, "<rect")); c++)
		rects++;
	EXPECT_EQ(6U, rects);
	/* k spans everything; names are escaped */
	EXPECT_NE(NULL, strstr(svg, "<title>k (10 samples, 100.00%)"));
	EXPECT_NE(NULL, strstr(svg, "<title>c (8 samples, 80.00%)"));
	EXPECT_NE(NULL, strstr(svg, "&lt;x&gt; &amp; y (5 samples"));
	EXPECT_NE(NULL, strstr(svg, "</svg>"));
	free(svg);
	profile_free(&p);
}

TEST_HARNESS_MAIN
