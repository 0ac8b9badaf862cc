/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the one decoder of the kernel's messages into the model
 * types (struct job_status, struct phase_result, struct sample ...),
 * driven by a table per type: attribute -> field.
 *
 * Each attribute is checked against its type in the spec (the attribute
 * set's @types, generated): a malformed one is reported, a few times at
 * most, and ignored; one without a field in the table (from a newer
 * module, or not wanted here) is ignored without a word.
 */
#ifndef FSLOADCTL_DECODE_H
#define FSLOADCTL_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nlattr;
struct nlmsghdr;
struct attr_set;
struct decoder;

/* What a field is, in the model type. */
enum decode_kind {
	DEC_NONE,	/* the attribute is ignored */
	DEC_INT,	/* an integer of @len bytes: the attribute's value */
	DEC_BOOL,	/* a bool: a flag is there, an integer not 0 */
	DEC_STR,	/* char[@len]: the string, truncated */
	DEC_STRDUP,	/* char *: a malloc()ed copy (the old one freed) */
	DEC_ARRAY,	/* a nest, decoded into an element of @array */
	DEC_HOOK,	/* special: @hook decodes it */
};

/**
 * struct decode_array - a list of nests (a multi-attr), one element each
 * @elem: the element's decoder
 * @size: size of an element
 * @off: offset in the object of the elements: a fixed array of @max, or
 *	(@max 0) a malloc()ed pointer grown by one for each
 * @count_off: offset of the unsigned int count of elements
 * @max: length of a fixed array; nests beyond it are ignored
 * @keep: false for an element (decoded, zeroed before) to leave out,
 *	as the kernel cannot have sent it; NULL: all are kept
 * @release: frees what an element left out holds; NULL: nothing
 */
struct decode_array {
	const struct decoder *elem;
	size_t size;
	size_t off;
	size_t count_off;
	unsigned int max;
	bool (*keep)(const void *elem);
	void (*release)(void *elem);
};

/*
 * Decode attribute @a (checked against its type) into @obj, a nest with
 * decoder @nest (the field's; NULL for an attribute that is no nest):
 * 1 when it was decoded (counts in @have), 0 when it was ignored, -1
 * when out of memory.
 */
typedef int (*decode_hook)(const struct nlattr *a, const struct decoder *nest,
			   void *obj);

/**
 * struct decode_field - where an attribute goes in the model type
 * @kind: what the field is
 * @off: its offset
 * @len: its size (DEC_INT, DEC_STR)
 * @array: the list (DEC_ARRAY)
 * @hook: the decoder (DEC_HOOK)
 * @nest: the decoder @hook decodes a nest with (DEC_HOOK), or NULL
 */
struct decode_field {
	enum decode_kind kind;
	size_t off;
	size_t len;
	const struct decode_array *array;
	decode_hook hook;
	const struct decoder *nest;
};

/**
 * struct decoder - how to decode one attribute set into one model type
 * @set: the attribute set
 * @fields: by attribute type, @set->max + 1 of them
 * @have_off: offset of the uint64_t with bit (1 << type) set for each
 *	attribute decoded, or DECODE_NO_HAVE
 */
struct decoder {
	const struct attr_set *set;
	const struct decode_field *fields;
	size_t have_off;
};

#define DECODE_NO_HAVE	((size_t)-1)

/* Table entries: DEC_INT_FIELD(struct job_status, threads) ... */
#define DECODE_FIELD_SIZE(type, f)	sizeof(((type *)0)->f)
#define DEC_INT_FIELD(type, f) \
	{ .kind = DEC_INT, .off = offsetof(type, f), \
	  .len = DECODE_FIELD_SIZE(type, f) }
#define DEC_BOOL_FIELD(type, f) \
	{ .kind = DEC_BOOL, .off = offsetof(type, f) }
#define DEC_STR_FIELD(type, f) \
	{ .kind = DEC_STR, .off = offsetof(type, f), \
	  .len = DECODE_FIELD_SIZE(type, f) }
#define DEC_STRDUP_FIELD(type, f) \
	{ .kind = DEC_STRDUP, .off = offsetof(type, f) }
#define DEC_ARRAY_FIELD(arr)	{ .kind = DEC_ARRAY, .array = (arr) }
#define DEC_HOOK_FIELD(fn, nest_dec) \
	{ .kind = DEC_HOOK, .hook = (fn), .nest = (nest_dec) }

/*
 * Decode the attributes of a fsload message into @obj.  Returns 0, or
 * EXIT_SYSERR when out of memory (message printed).
 */
int decode_msg(const struct decoder *d, const struct nlmsghdr *nlh,
	       void *obj);
/* Decode the attributes of nest @a into @obj: 0, or -1 out of memory. */
int decode_nest(const struct decoder *d, const struct nlattr *a, void *obj);

/* The string of a (checked) string attribute, into @buf of @len. */
void decode_str(const struct nlattr *a, char *buf, size_t len);

#endif /* FSLOADCTL_DECODE_H */
