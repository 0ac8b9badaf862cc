// SPDX-License-Identifier: GPL-2.0
/*
 * A filesystem's geometry as its own tool prints it (dumpe2fs -h,
 * xfs_info, btrfs inspect-internal dump-super), as members of a result's
 * "geometry" object, and which of its lines change with use.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/print.h"
#include "report/geometry.h"

/*
 * Geometry lines whose values change with use, not with how the filesystem
 * was made: left out of "geometry" (they stay in "geometry_text"), and
 * not compared (older result files have them).  Block and inode counts
 * stay: they are the geometry.
 */
bool env_geometry_volatile(const char *key)
{
	static const char *const exact[] = {
		/* dumpe2fs -h */
		"Filesystem state", "Mount count", "Filesystem created",
		"Last checked", "Lifetime writes", "Journal sequence",
		"Journal start", "Last mounted on", "Last orphan",
		"Next check after", "Journal head", "Journal errno",
		"Journal checksum",
		/* btrfs inspect-internal dump-super */
		"root", "chunk_root", "log_root", "log_root_transid",
		"root_level", "chunk_root_level", "log_root_level",
		"block_group_root", "block_group_root_level", "csum",
		"Checksum",
	};
	static const char *const part[] = {
		"time", "Time", "generation", "bytes_used",
	};
	unsigned int i;

	if (!strncmp(key, "Last ", 5) || !strncmp(key, "Free ", 5))
		return true;
	for (i = 0; i < ARRAY_SIZE(exact); i++)
		if (!strcmp(key, exact[i]))
			return true;
	for (i = 0; i < ARRAY_SIZE(part); i++)
		if (strstr(key, part[i]))
			return true;
	return false;
}

/*
 * One line of xfs_info: "SECTION =HEADER  name=value name=value, ..."; a
 * line whose SECTION is blank continues @section's.  The pairs become
 * "SECTION.name"; the header (naming's "version 2", log's "internal log",
 * realtime's "none") becomes "SECTION", unless it is a path (meta-data's
 * device, an external log's).  Words after a value ("blks") are units.
 */
static void print_xfs_geometry_line(char *line, char *section, size_t len)
{
	char *eq = strchr(line, '='), *p, *tok, *save = NULL, *v;
	char head[128] = "", key[96];
	bool pairs = false;

	if (!eq)
		return;
	*eq = '\0';
	for (p = line; *p == ' ' || *p == '\t'; p++)
		;
	v = p + strcspn(p, " \t");
	*v = '\0';
	if (*p)
		snprintf(section, len, "%s", p);
	for (tok = strtok_r(eq + 1, " ,\t", &save); tok;
	     tok = strtok_r(NULL, " ,\t", &save)) {
		v = strchr(tok, '=');
		if (!v) {
			/* the header's words, before the first pair */
			if (!pairs && strlen(head) + strlen(tok) + 2 <
				      sizeof(head))
				snprintf(head + strlen(head),
					 sizeof(head) - strlen(head), "%s%s",
					 *head ? " " : "", tok);
			continue;
		}
		pairs = true;
		*v++ = '\0';
		if (!*tok || !*v)
			continue;
		snprintf(key, sizeof(key), "%s.%s", section, tok);
		print_string(PRINT_JSON, key, NULL, v);
	}
	if (*head && *section && !strchr(head, '/'))
		print_string(PRINT_JSON, section, NULL, head);
}

/*
 * "Key:   value" (dumpe2fs), "key\t\tvalue" (btrfs dump-super) lines as
 * members of the "geometry" object; xfs_info's name=value pairs prefixed
 * with their section (print_xfs_geometry_line()).
 */
void env_print_geometry(const char *fstype, char *text)
{
	char *save = NULL, *line, section[32] = "";

	open_json_object("geometry");
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *k, *v, *e;

		if (!strcmp(fstype, "xfs")) {
			print_xfs_geometry_line(line, section,
						sizeof(section));
			continue;
		}
		if (!strcmp(fstype, "btrfs")) {
			k = line;
			v = k + strcspn(k, " \t");
			if (!*v)
				continue;
			*v++ = '\0';
		} else {
			k = line;
			v = strchr(line, ':');
			if (!v)
				continue;
			*v++ = '\0';
		}
		while (*v == ' ' || *v == '\t')
			v++;
		e = v + strlen(v);
		while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';
		if (!*k || env_geometry_volatile(k))
			continue;
		print_string(PRINT_JSON, k, NULL, v);
	}
	close_json_object();
}
