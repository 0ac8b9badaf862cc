// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: messages on stderr, "fsloadctl: <command>: ...".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/msg.h"

const char *cmd_name;

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "fsloadctl: ");
	if (cmd_name)
		fprintf(stderr, "%s: ", cmd_name);
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
}

void errmsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void warnmsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void errsys(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(err));
}
