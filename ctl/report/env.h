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

/* A filesystem geometry line (@key) that changes with use, not with mkfs. */
bool env_geometry_volatile(const char *key);

/* SHA-256 of @len bytes at @data as 64 hex digits and a NUL. */
void sha256_hex(const void *data, size_t len, char out[65]);

#endif /* FSLOADCTL_ENV_H */
