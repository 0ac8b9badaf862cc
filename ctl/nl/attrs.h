/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: attribute sets of the fsload protocol, for naming attributes
 * in messages (extack) and for checked, tolerant decoding (nl/decode.h).
 */
#ifndef FSLOADCTL_ATTRS_H
#define FSLOADCTL_ATTRS_H

#include <stddef.h>

/* An attribute's type in the spec. */
enum attr_type {
	ATTR_NONE,	/* no attribute of this number */
	ATTR_U8,
	ATTR_U16,
	ATTR_U32,
	ATTR_U64,
	ATTR_S32,
	ATTR_STRING,
	ATTR_BINARY,
	ATTR_FLAG,
	ATTR_NEST,
	ATTR_PAD,
};

/**
 * struct attr_set - one attribute space of the protocol
 * @name: the space's name, for messages
 * @max: highest attribute type this tool knows
 * @names: attribute names, indexed by type (user-facing: "threads")
 * @types: their types (enum attr_type), indexed by type
 * @nested: attribute set of a nest, indexed by type, or NULL
 * @label_attr: string attribute naming an instance of this nest in a
 *	path ("phase[create]"); 0 to use the instance's index
 */
struct attr_set {
	const char *name;
	unsigned int max;
	const char *const *names;
	const unsigned char *types;
	const struct attr_set *const *nested;
	unsigned int label_attr;
};

/* The sets themselves (job_attrs ...): nl/fsload-nl-gen.h, from the spec. */

/* The attribute's name, or "attribute <type>" (formatted into @buf). */
const char *attr_name(const struct attr_set *set, unsigned int type,
		      char *buf, size_t len);

#endif /* FSLOADCTL_ATTRS_H */
