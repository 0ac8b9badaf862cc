// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the clock the userspace engine's phase loop times ops with:
 * the TSC where it is a clock, else clock_gettime() (uloop.h's
 * fsload_cycles_ok()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "engine/uengine-int.h"
#include "engine/fsutil.h"

#if defined(__x86_64__) || defined(__i386__)
bool uengine_tsc_ok;
u32 uengine_tsc_mult;

/* A TSC reading and CLOCK_MONOTONIC's at its middle. */
struct tsc_pair {
	u64 cyc;
	u64 ns;
};

/* The tightest of a few reads of clock_gettime() between two of the TSC. */
static void tsc_pair_read(struct tsc_pair *p)
{
	u64 c0, c1, ns, best = U64_MAX;
	unsigned int i;

	for (i = 0; i < 8; i++) {
		c0 = __rdtsc();
		ns = mono_ns();
		c1 = __rdtsc();
		if (c1 - c0 < best) {
			best = c1 - c0;
			p->cyc = c0 + (c1 - c0) / 2;
			p->ns = ns;
		}
	}
}

/* The TSC's rate is measured over this long, once per process. */
#define TSC_CALIBRATE_NS	20000000ULL

/*
 * The kernel keeps its time on the TSC: its clocksource, which it
 * switches away from when it finds the TSC unstable (the clocksource
 * watchdog), and which the vDSO's clock_gettime() reads too.
 */
static bool tsc_clocksource(void)
{
	char cs[32];

	if (!read_small(AT_FDCWD,
			"/sys/devices/system/clocksource/clocksource0/current_clocksource",
			cs, sizeof(cs)))
		return false;
	cs[strcspn(cs, "\n")] = '\0';
	return !strcmp(cs, "tsc");
}

/*
 * The CPU says that its TSC runs at a constant rate and on in deep
 * C-states: /proc/cpuinfo's flags constant_tsc and nonstop_tsc (the
 * kernel module's test, from the same CPUID bits); or the user does, with
 * FSLOADCTL_FORCE_TSC=1 (a virtual CPU that does not say so: QEMU's TCG).
 */
static bool tsc_constant(void)
{
	const char *force = getenv("FSLOADCTL_FORCE_TSC");
	bool constant = false, nonstop = false;
	char *line = NULL, *tok, *save;
	size_t n = 0;
	FILE *f;

	if (force && !strcmp(force, "1"))
		return true;
	f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return false;
	while (getline(&line, &n, f) > 0) {
		if (strncmp(line, "flags", 5))
			continue;
		for (tok = strtok_r(line, " \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save)) {
			constant |= !strcmp(tok, "constant_tsc");
			nonstop |= !strcmp(tok, "nonstop_tsc");
		}
		break;
	}
	free(line);
	fclose(f);
	return constant && nonstop;
}

/*
 * Time ops with the TSC where it is a clock: the CPU says it is constant
 * and nonstop (tsc_constant()) and the kernel keeps its time on it
 * (tsc_clocksource()).  Its rate is measured against CLOCK_MONOTONIC over
 * TSC_CALIBRATE_NS (a few ppm: each end is read within the tightest of
 * eight reads, a few tens of ns).  No perf event: a task's first perf
 * event flips a static key patched into __schedule(), on which QEMU's
 * multi-threaded TCG was seen to oops (7.3).  Otherwise the loop reads
 * clock_gettime().  Once per process; uengine_clock_check() at each
 * phase's start.
 */
static void uengine_clock_probe(void)
{
	struct timespec ts = { .tv_nsec = TSC_CALIBRATE_NS };
	struct tsc_pair a, b;
	u64 m;

	if (!tsc_clocksource() || !tsc_constant())
		return;
	tsc_pair_read(&a);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	tsc_pair_read(&b);
	if (b.cyc <= a.cyc || b.ns <= a.ns)
		return;
	m = (u64)(((unsigned __int128)(b.ns - a.ns) << FSLOAD_CLOCK_SHIFT) /
		  (b.cyc - a.cyc));
	if (!m || m > UINT32_MAX)
		return;
	uengine_tsc_mult = (u32)m;
	uengine_tsc_ok = true;
}

/*
 * At a phase's start, with every other thread waiting: a TSC the kernel
 * has left since (marked unstable) is left for the rest of the process.
 */
void uengine_clock_check(void)
{
	if (uengine_tsc_ok && !tsc_clocksource())
		uengine_tsc_ok = false;
}

/* The TSC's verdict and rate: once per process. */
void uengine_clock_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, uengine_clock_probe);
}
#else
void uengine_clock_init(void)
{
}

void uengine_clock_check(void)
{
}
#endif
