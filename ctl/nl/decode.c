// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the table-driven decoder of the kernel's messages
 * (nl/decode.h).
 */
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "nl/attrs.h"
#include "nl/decode.h"

/* libmnl's check of each type of the spec. */
static const enum mnl_attr_data_type mnl_types[] = {
	[ATTR_U8] = MNL_TYPE_U8,
	[ATTR_U16] = MNL_TYPE_U16,
	[ATTR_U32] = MNL_TYPE_U32,
	[ATTR_U64] = MNL_TYPE_U64,
	[ATTR_S32] = MNL_TYPE_U32,
	[ATTR_STRING] = MNL_TYPE_STRING,
	[ATTR_BINARY] = MNL_TYPE_BINARY,
	[ATTR_FLAG] = MNL_TYPE_FLAG,
	[ATTR_NEST] = MNL_TYPE_NESTED,
	[ATTR_PAD] = MNL_TYPE_UNSPEC,
};

/* Malformed attributes are reported, a few times at most, and ignored. */
static bool attr_ok(const struct nlattr *a, const struct attr_set *set,
		    unsigned int type)
{
	static unsigned int warned;
	char buf[48];

	if (mnl_attr_validate(a, mnl_types[set->types[type]]) >= 0)
		return true;
	if (warned++ < 8)
		warnmsg("ignoring malformed %s attribute %s (%u bytes)",
			set->name, attr_name(set, type, buf, sizeof(buf)),
			mnl_attr_get_payload_len(a));
	return false;
}

static uint64_t attr_uint(const struct nlattr *a, enum attr_type type)
{
	switch (type) {
	case ATTR_U8:
		return mnl_attr_get_u8(a);
	case ATTR_U16:
		return mnl_attr_get_u16(a);
	case ATTR_U32:
		return mnl_attr_get_u32(a);
	case ATTR_S32:	/* sign-extended into a wider field */
		return (uint64_t)(int64_t)(int32_t)mnl_attr_get_u32(a);
	case ATTR_U64:
		return mnl_attr_get_u64(a);
	default:
		return 0;
	}
}

static void put_uint(void *field, size_t len, uint64_t v)
{
	uint8_t v8 = v;
	uint16_t v16 = v;
	uint32_t v32 = v;

	switch (len) {
	case 1:
		memcpy(field, &v8, 1);
		break;
	case 2:
		memcpy(field, &v16, 2);
		break;
	case 4:
		memcpy(field, &v32, 4);
		break;
	case 8:
		memcpy(field, &v, 8);
		break;
	}
}

/* A string attribute: non-empty payload; the NUL, if any, ends it. */
static size_t str_len(const struct nlattr *a)
{
	return strnlen(mnl_attr_get_payload(a), mnl_attr_get_payload_len(a));
}

void decode_str(const struct nlattr *a, char *buf, size_t len)
{
	size_t n = str_len(a);

	if (n >= len)
		n = len - 1;
	memcpy(buf, mnl_attr_get_payload(a), n);
	buf[n] = '\0';
}

/* Decode nest @a into a new element of @arr in @obj. */
static int decode_elem(const struct decode_array *arr,
		       const struct nlattr *a, void *obj)
{
	unsigned int *count = (unsigned int *)((char *)obj + arr->count_off);
	char *base = (char *)obj + arr->off;
	char *elem;
	int ret;

	if (arr->max) {
		if (*count >= arr->max)
			return 0;
	} else {
		char **v = (char **)base, *t;

		t = realloc(*v, (*count + 1) * arr->size);
		if (!t)
			return -1;
		*v = t;
		base = t;
	}
	elem = base + *count * arr->size;
	memset(elem, 0, arr->size);
	ret = decode_nest(arr->elem, a, elem);
	if (ret < 0 || (arr->keep && !arr->keep(elem))) {
		if (arr->release)
			arr->release(elem);
		return ret;
	}
	(*count)++;
	return 1;
}

/* Decode @a into @obj: 1 decoded, 0 ignored, -1 out of memory. */
static int decode_attr(const struct decoder *d, const struct nlattr *a,
		       void *obj)
{
	unsigned int type = mnl_attr_get_type(a);
	const struct decode_field *f;
	void *field;
	char *s;

	if (type > d->set->max || d->fields[type].kind == DEC_NONE)
		return 0;	/* not wanted, or from a newer module */
	f = &d->fields[type];
	if (!attr_ok(a, d->set, type))
		return 0;
	field = (char *)obj + f->off;
	switch (f->kind) {
	case DEC_INT:
		put_uint(field, f->len, attr_uint(a, d->set->types[type]));
		return 1;
	case DEC_BOOL:	/* a flag is true by being there */
		*(bool *)field = d->set->types[type] == ATTR_FLAG ||
				 attr_uint(a, d->set->types[type]) != 0;
		return 1;
	case DEC_STR:
		decode_str(a, field, f->len);
		return 1;
	case DEC_STRDUP:
		s = strndup(mnl_attr_get_payload(a), str_len(a));
		if (!s)
			return -1;
		free(*(char **)field);
		*(char **)field = s;
		return 1;
	case DEC_ARRAY:
		return decode_elem(f->array, a, obj);
	case DEC_HOOK:
		return f->hook(a, f->nest, obj);
	case DEC_NONE:
		break;
	}
	return 0;
}

struct decode_ctx {
	const struct decoder *d;
	void *obj;
};

static int decode_cb(const struct nlattr *a, void *data)
{
	const struct decode_ctx *ctx = data;
	unsigned int type = mnl_attr_get_type(a);
	int ret = decode_attr(ctx->d, a, ctx->obj);
	uint64_t *have;

	if (ret < 0)
		return MNL_CB_ERROR;
	if (ret && type < 64 && ctx->d->have_off != DECODE_NO_HAVE) {
		have = (uint64_t *)((char *)ctx->obj + ctx->d->have_off);
		*have |= 1ULL << type;
	}
	return MNL_CB_OK;
}

int decode_msg(const struct decoder *d, const struct nlmsghdr *nlh,
	       void *obj)
{
	struct decode_ctx ctx = { .d = d, .obj = obj };

	if (mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN)
		return 0;
	if (mnl_attr_parse(nlh, GENL_HDRLEN, decode_cb, &ctx) ==
	    MNL_CB_ERROR) {
		errmsg("out of memory");
		return EXIT_SYSERR;
	}
	return 0;
}

int decode_nest(const struct decoder *d, const struct nlattr *a, void *obj)
{
	struct decode_ctx ctx = { .d = d, .obj = obj };

	return mnl_attr_parse_nested(a, decode_cb, &ctx) == MNL_CB_ERROR ?
	       -1 : 0;
}
