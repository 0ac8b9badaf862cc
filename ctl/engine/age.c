// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl start --age, and the age profile: fill a filesystem to a
 * target utilisation with the age program (workload/profile.c), one job
 * stopped once statfs shows the target.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "lib/parse.h"
#include "workload/profile.h"
#include "engine/age.h"
#include "engine/fsutil.h"
#include "engine/run.h"

#define AGE_TICK_MS	20	/* utilisation check while aging */
/*
 * How far below the target a settled filesystem may end (space an unlink
 * freed only once synced: xfs's background inode inactivation).
 */
#define AGE_TOLERANCE_PCT	1.0

struct age_ctx {
	const char *dir;
	double target;
	double last;
	bool failed;
};

/*
 * Sync the filesystem of @dir: space that unlinks free later (xfs frees an
 * unlinked inode's blocks in background inodegc work, which syncfs
 * flushes) and delayed allocation show in statfs as they will stay.
 */
static void age_settle(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (syncfs(fd))
		warnmsg("syncfs %s: %s", dir, strerror(errno));
	close(fd);
}

/*
 * Stop at the target as statfs shows it (it counts delayed allocation's
 * reservations).  Not a sync first while the job runs: the workers went on
 * writing for as long as it took, far past the target (issue 20).
 */
static bool age_tick(void *arg)
{
	struct age_ctx *ac = arg;
	double pct;

	if (fs_used_pct(ac->dir, &pct, NULL)) {
		ac->failed = true;
		return true;
	}
	ac->last = pct;
	return pct >= ac->target;
}

int run_age(struct nl_ctx *nl, const struct params *p,
		   uint32_t threads, double target, bool alone,
		   bool keep_files, enum engine engine, struct run *run,
		   struct age_report *ar)
{
	static struct program prog;
	struct params ap = *p;

	ap.cpu_profile = 0;	/* the fill is not what is profiled */
	struct age_ctx ac = { .dir = p->dir, .target = target };
	struct job_desc d;
	struct job_extra x = { 0 };
	struct job_req req = { 0 };
	uint64_t fsbytes, need, files;
	int ret;

	memset(ar, 0, sizeof(*ar));
	ar->present = true;
	ar->target_pct = target;
	if (fs_used_pct(p->dir, &ar->before_pct, &fsbytes))
		return EXIT_SYSERR;
	ar->after_pct = ar->before_pct;
	if (ar->before_pct >= target) {
		ar->reached = true;
		return 0;
	}
	if (!alone) {
		ap.size = 40 * 1024;
		ap.block = 4 * 1024;
		ap.files = 0;
		ap.files_per_dir = 1000;
	}
	if (!ap.size)
		return usage_error("age: --size must be more than 0");
	/* a file set of about twice the writes the fill needs */
	need = (uint64_t)((target - ar->before_pct) / 100.0 * fsbytes);
	files = ap.files;
	if (!files) {
		files = need / (2 * ap.size) / (threads ? threads : 1);
		if (files < 16)
			files = 16;
		if (files > FSLOAD_FILES_MAX)
			files = FSLOAD_FILES_MAX;
	}
	memset(&prog, 0, sizeof(prog));
	ret = profile_build_age(&ap, threads, &prog);
	if (ret)
		return ret;
	x.has_size = true;
	x.size = ap.size;
	x.block = ap.block;
	x.phase_names = prog.phase_names;
	x.nphases = prog.nphases;
	job_desc_init(&d, &ap);
	req.p = &d;
	req.prog = &prog;
	req.threads = threads;
	req.files = files;
	req.flags = keep_files ? FSLOAD_JOB_F_KEEP : 0;
	req.x = &x;
	req.tick = age_tick;
	req.tick_arg = &ac;
	req.tick_ms = AGE_TICK_MS;
	req.engine = engine;
	ret = run_job(nl, &req, run);
	if (ret)
		return ret;
	ar->run = run;
	ar->kept = keep_files;
	ar->after_pct = ac.last;
	/* a kept tree is still there: measure it as it is now, settled */
	if (keep_files) {
		age_settle(p->dir);
		fs_used_pct(p->dir, &ar->after_pct, NULL);
	}
	ar->reached = run->stopped_by_us && !ac.failed &&
		      ar->after_pct >= target - AGE_TOLERANCE_PCT;
	/*
	 * Done, not stopped: its workers ended at ENOSPC (the phase flag
	 * fill), as its iterations are too many to end otherwise.
	 */
	ar->full = run->js.state == FSLOAD_JOB_DONE;
	if (ar->full)
		ar->reached = true;
	/* stopped at its target: that was the phase's end */
	else if (ar->reached && run->r.nphases)
		run->r.phases[0].target = true;
	if (!ar->reached && !run->ret)
		run->ret = EXIT_JOB;	/* ended before the target */
	return 0;
}
