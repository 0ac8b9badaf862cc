/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: attribute sets of the fsload protocol, for naming attributes
 * in messages (extack) and for checked, tolerant parsing.
 */
#ifndef FSLOADCTL_ATTRS_H
#define FSLOADCTL_ATTRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nlattr;

/**
 * struct attr_set - one attribute space of the protocol
 * @name: the space's name, for messages
 * @max: highest attribute type this tool knows
 * @names: attribute names, indexed by type (user-facing: "threads")
 * @nested: attribute set of a nest, indexed by type, or NULL
 * @label_attr: string attribute naming an instance of this nest in a
 *	path ("phase[create]"); 0 to use the instance's index
 */
struct attr_set {
	const char *name;
	unsigned int max;
	const char *const *names;
	const struct attr_set *const *nested;
	unsigned int label_attr;
};

/* The sets themselves (job_attrs ...): nl/fsload-nl-gen.h, from the spec. */

/* The attribute's name, or "attribute <type>" (formatted into @buf). */
const char *attr_name(const struct attr_set *set, unsigned int type,
		      char *buf, size_t len);

/*
 * Checked getters: validate type and length of a known attribute; on a
 * malformed one, warn and return false (the caller ignores it).
 */
bool attr_get_u8(const struct nlattr *a, const struct attr_set *set,
		 uint8_t *v);
bool attr_get_u32(const struct nlattr *a, const struct attr_set *set,
		  uint32_t *v);
bool attr_get_u64(const struct nlattr *a, const struct attr_set *set,
		  uint64_t *v);
/* Copies the string, truncated to @len - 1 bytes. */
bool attr_get_str(const struct nlattr *a, const struct attr_set *set,
		  char *buf, size_t len);
/* Returns a malloc()ed copy, or NULL (malformed or out of memory). */
char *attr_dup_str(const struct nlattr *a, const struct attr_set *set);
bool attr_is_nest(const struct nlattr *a, const struct attr_set *set);

#endif /* FSLOADCTL_ATTRS_H */
