/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FSLOADCTL_SHA256_H
#define FSLOADCTL_SHA256_H

#include <stddef.h>

/* SHA-256 of @len bytes at @data as 64 hex digits and a NUL. */
void sha256_hex(const void *data, size_t len, char out[65]);

#endif /* FSLOADCTL_SHA256_H */
