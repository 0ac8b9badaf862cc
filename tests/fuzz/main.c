// SPDX-License-Identifier: GPL-2.0
/*
 * fsload_fuzz: a netlink fuzzer for fsload.ko, and the fault tests'
 * helpers (tests/guest/faults.sh), which share its client.  Raw AF_NETLINK
 * sockets, no library: the point is to send what no library would.  One
 * file per program (fuzz.c with cases.c, cycles.c, failnth.c, start.c),
 * their shared helpers in lib.c (fuzz.h); this file reads the options.
 *
 *   fsload_fuzz [fuzz] [--seed N] [--count N] [--threads N] [--sockets N]
 *               [--dir DIR] [--timeout-ms N] [--only INDEX] [--verbose]
 *               [--start-permille N] [--time-limit SEC] [--uid N]
 *   fsload_fuzz cycles --dir DIR [--count N]
 *   fsload_fuzz failnth --dir DIR [--max N]
 *   fsload_fuzz start --dir DIR [--files N] [--files-per-dir N]
 *               [--threads N] [--keep] [--sample-ms N] [--cpu-profile HZ]
 *               OP[@MS]...
 *
 * fuzz: --count cases (default 100000), each one datagram of one or more
 * generated or mutated messages, sent by --threads threads over --sockets
 * sockets: every command (notification and unknown ids too), boundary and
 * random values, wrong types and lengths, missing and repeated attributes,
 * deep nesting, truncation, random flags, valid but odd programs (which
 * start jobs, stopped soon after), queries and dumps of those jobs, and
 * sockets closed mid-job or mid-dump.  Case I is generated from (seed, I)
 * alone, so --seed S --only I sends that case again (printed in hex).
 *
 * The process chroots into DIR (default $FSLOAD_DIR/fuzz) before sending
 * anything: the kernel resolves a job's directory in the sender's
 * context, so whatever path a mutation produces, a job can only land in
 * DIR.  Pass criteria, checked per message against a model of the
 * kernel's netlink_rcv_skb() walk:
 *  - every request that asks for an ACK (or is a dump) gets exactly one
 *    NLMSG_ERROR or NLMSG_DONE, within --timeout-ms; no reply to what the
 *    kernel must drop (truncated messages, non-requests without ACK);
 *  - every message generated to be invalid gets an error, with an extack
 *    message where the generator knows that the kernel gives one;
 *  - a valid program starts (or gets EBUSY when max_jobs are running);
 *  - replies parse, carry their request's command, and sane job states;
 *  - at the end every job ends once stopped, and nothing is left in DIR
 *    but the directories of jobs started with FSLOAD_JOB_F_KEEP.
 * Exit 0 pass, 1 fail (seed and case index printed), 2 usage, 4 skip.
 *
 * fuzz --uid N: after reading the module's limits, resolving the family
 * and entering DIR, drop every privilege and become user N (user.c):
 * fuzz as anyone may, against the jobs root started beforehand (listed
 * by a JOB_GET dump).  Admin commands must get exactly the genl core's
 * header or policy error (policy.c) or EPERM "CAP_SYS_ADMIN is
 * required"; queries and dumps of root's jobs are fuzzed, and dumps read
 * halfway, never read, or closed mid-dump; no reply may carry what the
 * module hides from a reader who did not start the job (user.c's
 * hidden[]); at the end the same jobs are listed, none stopped.
 *
 * cycles: COUNT start/stop cycles in DIR (default 1000), alternately a
 * start followed by a stop and a start whose socket is then closed; every
 * job must end STOPPED (or DONE), announced once by JOB_DONE_NTF, with
 * nothing left in DIR.
 *
 * failnth: fault injection into JOB_START (kernels with
 * CONFIG_FAULT_INJECTION; set failslab's ignore-gfp-wait to N first):
 * for N = 1, 2, ... the Nth allocation site of the sending task fails
 * (/proc/self/task/TID/fail-nth), until a start runs without reaching a
 * fault.  Every failed start must leave no job, no directory and no
 * thread behind; a start that succeeds despite the fault must run to
 * DONE.  Exit 4 when fail-nth does not exist.
 *
 * start: a detached job of the given phases (OP@MS: OP until MS ms have
 * passed, e.g. null@5000 is a pause); prints its id.  For the fault tests,
 * which tamper with a job's tree during such a pause, and the jobs root
 * starts for fuzz --uid (a time series, a CPU profile).
 */
#include "fuzz.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fsload_fuzz [fuzz] [--seed N] [--count N] [--threads N] [--sockets N]\n"
		"                   [--dir DIR] [--timeout-ms N] [--only INDEX] [--verbose]\n"
		"                   [--start-permille N]   (valid programs per 1000 messages, 20)\n"
		"                   [--time-limit SEC]     (no new case after SEC seconds)\n"
		"                   [--only I --dry-run]   (print case I, send nothing)\n"
		"                   [--uid N]              (as user N, against root's jobs)\n"
		"       fsload_fuzz cycles [--dir DIR] [--count N]\n"
		"       fsload_fuzz failnth [--dir DIR] [--max N]\n"
		"       fsload_fuzz start --dir DIR [--files N] [--files-per-dir N] [--threads N]\n"
		"                   [--keep] [--sample-ms N] [--cpu-profile HZ] OP[@MS]...\n"
		"DIR defaults to $FSLOAD_DIR/fuzz (the process chroots into it).\n");
}

int main(int argc, char **argv)
{
	static char dirbuf[PATH_MAX];
	int i, err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (i == 1 && (!strcmp(a, "fuzz") || !strcmp(a, "cycles") ||
			       !strcmp(a, "failnth") || !strcmp(a, "start"))) {
			opt.mode = a;
			if (!strcmp(a, "cycles"))
				opt.count = 1000;
			if (!strcmp(a, "start")) {
				opt.count = 1000;	/* files */
				opt.sockets = 1000;	/* files per dir */
				opt.threads = 1;
			}
			continue;
		}
		if (!strcmp(a, "--dry-run")) {
			opt.dry = true;
			continue;
		}
		if (!strcmp(a, "--keep")) {
			opt.keep = true;
			continue;
		}
		if (a[0] != '-' && !strcmp(opt.mode, "start"))
			break;	/* the phases */
		if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
			opt.verbose = true;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		}
		if (!v) {
			usage(stderr);
			return 2;
		}
		i++;
		if (!strcmp(a, "--seed"))
			opt.seed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--count") || !strcmp(a, "--files"))
			opt.count = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--files-per-dir"))
			opt.sockets = atoi(v);
		else if (!strcmp(a, "--threads"))
			opt.threads = atoi(v);
		else if (!strcmp(a, "--sockets"))
			opt.sockets = atoi(v);
		else if (!strcmp(a, "--dir"))
			opt.dir = v;
		else if (!strcmp(a, "--timeout-ms"))
			opt.timeout_ms = atoi(v);
		else if (!strcmp(a, "--only"))
			opt.only = strtoll(v, NULL, 0);
		else if (!strcmp(a, "--time-limit"))
			opt.time_limit = atoi(v);
		else if (!strcmp(a, "--start-permille"))
			opt.start_permille = atoi(v);
		else if (!strcmp(a, "--max"))
			opt.max_nth = atoi(v);
		else if (!strcmp(a, "--sample-ms"))
			opt.sample_ms = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--cpu-profile"))
			opt.profile_hz = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--uid"))
			opt.uid = strtol(v, NULL, 0);
		else {
			usage(stderr);
			return 2;
		}
	}
	if (opt.threads < 1 || opt.sockets < 1 || opt.timeout_ms < 1 ||
	    opt.start_permille < 0 || opt.start_permille > 999 ||
	    opt.uid < -1 || opt.uid > 0x7fffffff ||
	    (opt.uid >= 0 && strcmp(opt.mode, "fuzz"))) {
		usage(stderr);
		return 2;
	}
	if (opt.dry) {
		/* The ids of a typical guest; nothing is sent. */
		family = 32;
		bad_family = 0xffff;
		if (opt.only < 0)
			opt.only = 0;
		opt.threads = 1;
		return run_dry();
	}
	if (!opt.dir) {
		const char *d = getenv("FSLOAD_DIR");

		if (!d || !*d) {
			fprintf(stderr, "fsload_fuzz: no --dir and no FSLOAD_DIR\n");
			return 2;
		}
		snprintf(dirbuf, sizeof(dirbuf), "%s/fuzz", d);
		opt.dir = dirbuf;
	}
	if (access("/sys/module/fsload", F_OK)) {
		printf("# fsload is not loaded\n");
		return 4;
	}
	read_params();
	err = resolve_family();
	if (err) {
		printf("# cannot resolve the fsload family: %s\n", strerror(-err));
		return 1;
	}
	if (!strcmp(opt.mode, "start"))
		return i < argc ? run_start(argc - i, argv + i) : 2;
	if (!strcmp(opt.mode, "failnth")) {
		/* No chroot: /proc is needed; the job directory is ".". */
		if ((mkdir(opt.dir, 0755) && errno != EEXIST) || chdir(opt.dir)) {
			printf("# %s: %s\n", opt.dir, strerror(errno));
			return 1;
		}
		return run_failnth();
	}
	if (enter_dir(opt.dir))
		return 1;
	if (opt.uid >= 0) {
		if (!policy_init()) {
			printf("# the admin commands' policies use types policy.c does not model\n");
			return 1;
		}
		if (drop_privileges(opt.uid))
			return 1;
	}
	if (!strcmp(opt.mode, "cycles"))
		return run_cycles();
	return run_fuzz();
}
