// SPDX-License-Identifier: GPL-2.0
/*
 * fsload: in-kernel filesystem workload generator - module parameters,
 * init and exit.
 *
 * Jobs are started, watched and stopped over the generic netlink family
 * "fsload" (include/uapi/linux/fsload.h); ctl/fsloadctl is the client.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include "fsload.h"

/* Jobs that may run at once; a start beyond it fails with EBUSY. */
unsigned int fsload_max_jobs = 8;
module_param_named(max_jobs, fsload_max_jobs, uint, 0644);
MODULE_PARM_DESC(max_jobs, "Jobs running at once (default 8)");

/* Worker threads per job (the protocol caps it at FSLOAD_THREADS_MAX). */
unsigned int fsload_max_threads = 64;
module_param_named(max_threads, fsload_max_threads, uint, 0644);
MODULE_PARM_DESC(max_threads, "Worker threads per job (default 64, at most 999)");

/* Finished jobs whose results are kept; the oldest are forgotten. */
unsigned int fsload_max_finished = 32;
module_param_named(max_finished, fsload_max_finished, uint, 0644);
MODULE_PARM_DESC(max_finished, "Finished jobs kept for their results (default 32)");

/* Samples of a job's time series kept until fsloadctl drains them. */
unsigned int fsload_max_samples = 4096;
module_param_named(max_samples, fsload_max_samples, uint, 0644);
MODULE_PARM_DESC(max_samples, "Time series samples kept per job until read (default 4096, 1 to 65536)");

/* I/O block size limit; each worker allocates one block. */
unsigned int fsload_max_block_bytes = FSLOAD_BLOCK_DEFAULT_MAX;
module_param_named(max_block_bytes, fsload_max_block_bytes, uint, 0644);
MODULE_PARM_DESC(max_block_bytes, "Largest I/O block in bytes, one buffer per worker (default 4 MiB, at most 16 MiB)");

/* Largest file an op may write. */
unsigned long long fsload_max_file_bytes = 1ULL << 40;
module_param_named(max_file_bytes, fsload_max_file_bytes, ullong, 0644);
MODULE_PARM_DESC(max_file_bytes, "Largest file size in bytes (default 1 TiB)");

static int __init fsload_init(void)
{
	int err;

	err = fsload_jobs_init();
	if (err)
		return err;
	/* Last: once registered, requests can arrive. */
	err = fsload_nl_init();
	if (err)
		goto err_jobs;
	pr_info("loaded: generic netlink family %s version %d\n",
		FSLOAD_FAMILY_NAME, FSLOAD_FAMILY_VERSION);
	return 0;

err_jobs:
	fsload_jobs_exit();
	return err;
}

static void __exit fsload_exit(void)
{
	/* No notifications, no new requests; then stop every job. */
	fsload_jobs_quiesce();
	fsload_nl_exit();
	fsload_jobs_exit();
}

module_init(fsload_init);
module_exit(fsload_exit);

MODULE_DESCRIPTION("In-kernel filesystem and block workload generator");
MODULE_AUTHOR("fsload developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(FSLOAD_VERSION);
