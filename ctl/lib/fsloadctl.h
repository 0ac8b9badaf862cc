/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: common definitions.
 */
#ifndef FSLOADCTL_H
#define FSLOADCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/fsload.h>

/* From the top-level VERSION file, through the Makefile. */
#ifndef FSLOADCTL_VERSION
#error "FSLOADCTL_VERSION is not defined: build with ctl/Makefile"
#endif

/* Exit codes; keep in sync with cmd/main.c's help and the man page. */
enum {
	EXIT_OK		= 0,	/* success, or the job ended DONE */
	EXIT_JOB	= 1,	/* the job ended FAILED or STOPPED */
	EXIT_USAGE	= 2,	/* bad command line */
	EXIT_KERNEL	= 3,	/* the kernel refused the request */
	EXIT_NOMODULE	= 4,	/* no "fsload" generic netlink family */
	EXIT_SYSERR	= 5,	/* other system or netlink error */
	EXIT_TIMEOUT	= 6,	/* wait --timeout expired */
	EXIT_UNMEASURED	= 7,	/* compare: changes, the noise not measured */
};

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* Bytes in a MiB, for the MiB and MiB/s figures. */
#define MIB	(1024.0 * 1024.0)

#endif /* FSLOADCTL_H */
