/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the environment a result was measured in (kernel, CPU,
 * memory, mitigations, filesystem, device), collected in userspace for
 * self-describing result files.
 */
#ifndef FSLOADCTL_ENV_H
#define FSLOADCTL_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Before the run: what must be seen before (taint, the start time). */
void env_begin(void);
/* Print the "fsload" and "environment" members of the current JSON object. */
void env_print(const char *dir);

/*
 * The CPU as the kernel and CPUID show it: identity (under QEMU the -cpu
 * model) and the flags that choose Linux's string routines.  -1 (and ""):
 * unknown.
 */
struct env_cpu {
	char vendor[32];
	char name[256];
	int family, model, stepping;
	int rep_good, erms, fsrm, fsrs;
};

void env_cpu_read(struct env_cpu *cpu);
/* "VENDOR family F model M stepping S, string ops: FLAGS|none" */
void env_cpu_line(const struct env_cpu *cpu, char *buf, size_t len);

/*
 * The "geometry" member of the current JSON object: @text, the output of
 * @fstype's tool (dumpe2fs -h, xfs_info, btrfs dump-super), as members
 * one per value; @text is cut up.
 */
void env_print_geometry(const char *fstype, char *text);

/* A filesystem geometry line (@key) that changes with use, not with mkfs. */
bool env_geometry_volatile(const char *key);

/* SHA-256 of @len bytes at @data as 64 hex digits and a NUL. */
/*
 * Does CONFIG_@name make a debug kernel (KASAN, lockdep, ...)?  Not the
 * hardening options production kernels ship (DEBUG_LIST).
 */
bool env_debug_option(const char *name);
void sha256_hex(const void *data, size_t len, char out[65]);

#endif /* FSLOADCTL_ENV_H */
