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
 * Does CONFIG_@name make a debug kernel (KASAN, lockdep, ...)?  Not the
 * hardening options production kernels ship (DEBUG_LIST).
 */
bool env_debug_option(const char *name);

#endif /* FSLOADCTL_ENV_H */
