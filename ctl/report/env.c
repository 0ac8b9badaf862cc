// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the environment of a measurement, for result files.
 *
 * Everything comes from userspace: /proc, /sys, the filesystem's own tools
 * (dumpe2fs -h, xfs_info, btrfs inspect-internal dump-super), so that a
 * result says which kernel, configuration, CPU, mitigations, mount options,
 * device queue and filesystem geometry produced it.
 * Documentation/results.rst documents each member.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "lib/fsloadctl.h"
#include "report/env.h"
#include "report/geometry.h"
#include "lib/sha256.h"
#include "gitrev.h"
#include "lib/print.h"

#define CAPTURE_MAX	(1 << 20)	/* a tool's output we keep */

static long long taint_before = -1;
static char started_at[32];
/* the first output's end: every output of one run says the same */
static char ended_at[32];

/* The whole of a (small) file, trailing newlines cut; NULL if unreadable. */
static char *read_text(const char *path)
{
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536 + 1);

			if (!nb)
				break;
			buf = nb;
			cap += 65536;
		}
		r = read(fd, buf + len, cap - len);
		if (r <= 0)
			break;
		len += (size_t)r;
		if (len > CAPTURE_MAX)
			break;
	}
	close(fd);
	if (!buf)
		return NULL;
	buf[len] = '\0';
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return buf;
}

static long long read_ll(const char *path)
{
	char *s = read_text(path);
	long long v = -1;

	if (s) {
		v = strtoll(s, NULL, 10);
		free(s);
	}
	return v;
}

/*
 * Run @argv (no shell), stdout and stderr together; the output, trailing
 * newlines cut, or NULL when it could not run.  *@status: its exit status.
 */
static char *run_capture(char *const argv[], int *status)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int pfd[2], st = -1;
	ssize_t r;
	pid_t pid;

	*status = -1;
	if (pipe2(pfd, O_CLOEXEC))
		return NULL;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return NULL;
	}
	if (!pid) {
		int null = open("/dev/null", O_RDONLY);

		if (null >= 0)
			dup2(null, 0);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		setenv("LC_ALL", "C", 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		if (cap - len < 4096) {
			char *nb = cap > CAPTURE_MAX ? NULL :
				   realloc(buf, cap + 65536 + 1);

			if (!nb) {
				/* keep draining: the child must not block */
				char sink[4096];

				if (read(pfd[0], sink, sizeof(sink)) <= 0)
					break;
				continue;
			}
			buf = nb;
			cap += 65536;
		}
		r = read(pfd[0], buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(pfd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
		free(buf);
		return NULL;
	}
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	if (!buf)
		return strdup("");
	buf[len] = '\0';
	while (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	return buf;
}

/* First line of a command's output (a tool's version), or NULL. */
static char *tool_version(char *const argv[])
{
	int st;
	char *s = run_capture(argv, &st), *nl;

	if (!s)
		return NULL;
	/* "dumpe2fs 1.47.0 (5-Feb-2023)" may follow a usage line */
	nl = strchr(s, '\n');
	if (nl)
		*nl = '\0';
	return s;
}

static void print_text(const char *key, const char *path)
{
	char *s = read_text(path);

	print_string(PRINT_JSON, key, NULL, s);
	free(s);
}

static void print_ll(const char *key, long long v)
{
	if (v < 0)
		print_null(PRINT_JSON, key, NULL);
	else
		print_uint(PRINT_JSON, key, NULL, (uint64_t)v);
}

/* --- kernel ------------------------------------------------------------------ */

/* The running kernel's config text and where it came from, or NULL. */
static char *kernel_config(const char *release, char *src, size_t srclen)
{
	char *argv[] = { (char *)"gzip", (char *)"-dc",
			 (char *)"/proc/config.gz", NULL };
	char path[PATH_MAX];
	unsigned int i;
	char *s;
	int st;

	if (!access("/proc/config.gz", R_OK)) {
		s = run_capture(argv, &st);
		if (s && !st) {
			snprintf(src, srclen, "/proc/config.gz");
			return s;
		}
		free(s);
	}
	/* Debian's 7.x packages keep it beside the modules only */
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), i ? "/lib/modules/%s/config" :
			 "/boot/config-%s", release);
		s = read_text(path);
		if (s) {
			snprintf(src, srclen, "%s", path);
			return s;
		}
	}
	return NULL;
}

/* Is CONFIG_@opt y or m in @config? */
static bool config_on(const char *config, const char *opt)
{
	char key[96];
	const char *p = config;
	size_t n;

	n = (size_t)snprintf(key, sizeof(key), "CONFIG_%s=", opt);
	while ((p = strstr(p, key))) {
		if ((p == config || p[-1] == '\n') &&
		    (p[n] == 'y' || p[n] == 'm'))
			return true;
		p += n;
	}
	return false;
}

/* Options that make a kernel a debug kernel: slower, other costs. */
static const char *const debug_options[] = {
	"KASAN", "KCSAN", "KMSAN", "UBSAN", "UBSAN_BOUNDS", "UBSAN_SHIFT",
	"UBSAN_DIV_ZERO", "UBSAN_BOOL", "UBSAN_ENUM", "UBSAN_ALIGNMENT",
	"PROVE_LOCKING", "LOCKDEP",
	"DEBUG_LOCK_ALLOC", "LOCK_STAT", "DEBUG_ATOMIC_SLEEP",
	"DEBUG_KMEMLEAK", "DEBUG_OBJECTS", "DEBUG_PAGEALLOC", "DEBUG_VM",
	"SLUB_DEBUG_ON", "DEBUG_LIST", "FAULT_INJECTION", "KCOV",
	"XFS_DEBUG", "BTRFS_DEBUG", "EXT4_DEBUG", "JBD2_DEBUG",
	"PROVE_RCU", "DEBUG_SG", "DEBUG_NOTIFIERS",
};

/*
 * Options of debug_options[] that production kernels ship as hardening:
 * recorded, but they do not make a debug kernel.  Debian's 6.1 and 6.12
 * enable DEBUG_LIST (a cheap check of each list operation; 6.6 and later
 * have LIST_HARDENED for it), so counting it called every stock Debian
 * kernel a debug kernel and compare refused 6.1 against 7.x; Debian's
 * 7.x enables UBSAN_BOUNDS and UBSAN_SHIFT.
 */
static const char *const hardening_options[] = {
	"DEBUG_LIST",
	/*
	 * Debian's 7.x: array bounds and shifts checked, a report and go on
	 * (no trap); the other checks (UBSAN_ALIGNMENT and its kin) are a
	 * debug kernel's.  An older result lists UBSAN alone.
	 */
	"UBSAN", "UBSAN_BOUNDS", "UBSAN_SHIFT",
};

bool env_debug_option(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hardening_options); i++)
		if (!strcmp(name, hardening_options[i]))
			return false;
	for (i = 0; i < ARRAY_SIZE(debug_options); i++)
		if (!strcmp(name, debug_options[i]))
			return true;
	return false;
}

static const char taint_letters[] = "PFSRMBUDAWCIOEXKLTN";

static void print_taint(const char *key, long long t)
{
	char flags[sizeof(taint_letters)] = "";
	unsigned int i, n = 0;

	open_json_object(key);
	print_ll("value", t);
	for (i = 0; t > 0 && i < sizeof(taint_letters) - 1; i++)
		if (t & (1LL << i))
			flags[n++] = taint_letters[i];
	flags[n] = '\0';
	print_string(PRINT_JSON, "flags", NULL, t < 0 ? NULL : flags);
	close_json_object();
}

static void print_kernel(void)
{
	char src[PATH_MAX] = "", hash[65];
	struct utsname u;
	char *config, *cmdline;
	bool dbg = false, any;
	unsigned int i;

	uname(&u);
	open_json_object("kernel");
	print_string(PRINT_JSON, "release", NULL, u.release);
	print_string(PRINT_JSON, "version", NULL, u.version);
	print_string(PRINT_JSON, "machine", NULL, u.machine);
	cmdline = read_text("/proc/cmdline");
	print_string(PRINT_JSON, "cmdline", NULL, cmdline);
	config = kernel_config(u.release, src, sizeof(src));
	print_string(PRINT_JSON, "config_source", NULL, config ? src : NULL);
	if (config) {
		sha256_hex(config, strlen(config), hash);
		print_string(PRINT_JSON, "config_sha256", NULL, hash);
	} else {
		print_null(PRINT_JSON, "config_sha256", NULL);
	}
	/* KASLR: configured and not disabled on the command line */
	if (config)
		print_bool(PRINT_JSON, "kaslr", NULL,
			   config_on(config, "RANDOMIZE_BASE") &&
			   !(cmdline && strstr(cmdline, "nokaslr")));
	else
		print_null(PRINT_JSON, "kaslr", NULL);
	/*
	 * What the kernel keeps its time on, which the engines' op clocks
	 * read when not the TSC themselves (job.op_clock): a tsc is cheap,
	 * an hpet an emulated MMIO read in a TCG guest (issue 31).
	 */
	print_text("clocksource",
		   "/sys/devices/system/clocksource/clocksource0/current_clocksource");

	open_json_object("debug");
	open_json_array("options");
	for (i = 0; config && i < ARRAY_SIZE(debug_options); i++)
		if (config_on(config, debug_options[i])) {
			print_string(PRINT_JSON, NULL, NULL, debug_options[i]);
			dbg |= env_debug_option(debug_options[i]);
		}
	close_json_array();
	/* without a config: what debug kernels show at run time */
	any = !access("/proc/lockdep", F_OK) ||
	      !access("/sys/kernel/debug/kmemleak", F_OK) ||
	      !access("/sys/kernel/debug/kcsan", F_OK);
	print_bool(PRINT_JSON, "lockdep_or_kmemleak_present", NULL, any);
	print_bool(PRINT_JSON, "debug_kernel", NULL, dbg || any);
	print_string(PRINT_JSON, "from", NULL,
		     config ? "config" : "runtime files only");
	close_json_object();

	print_taint("taint_before", taint_before);
	print_taint("taint_after", read_ll("/proc/sys/kernel/tainted"));
	print_string(PRINT_JSON, "config", NULL, config);
	close_json_object();
	free(config);
	free(cmdline);
}

/* --- CPU, memory, mitigations ---------------------------------------------------- */

/* The value of @key's first line in /proc/cpuinfo ("key\t: value"). */
static void cpuinfo_value(const char *info, const char *key, char *out,
			  size_t len)
{
	const char *p = info, *v, *e;
	size_t klen = strlen(key);

	out[0] = '\0';
	while (p && *p) {
		e = strchrnul(p, '\n');
		if (!strncmp(p, key, klen) &&
		    (p[klen] == '\t' || p[klen] == ' ' || p[klen] == ':')) {
			v = memchr(p, ':', (size_t)(e - p));
			if (v) {
				v += 1 + (v[1] == ' ');
				snprintf(out, len, "%.*s", (int)(e - v), v);
			}
			return;
		}
		p = *e ? e + 1 : NULL;
	}
}

static bool has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *p = list;

	while ((p = strstr(p, w))) {
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
		p += n;
	}
	return false;
}

static int cpuinfo_int(const char *info, const char *key)
{
	char v[32];

	cpuinfo_value(info, key, v, sizeof(v));
	return v[0] ? atoi(v) : -1;
}

/*
 * CPUID.(EAX=7,ECX=1):EAX bit 11: fast short REP STOSB (FSRS); Linux
 * 6.3+ uses it (memset, clear_user) but does not show it in
 * /proc/cpuinfo.  -1 where there is no CPUID.
 */
static int cpuid_fsrs(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;

	if (!__get_cpuid_count(7, 1, &a, &b, &c, &d))
		return 0;
	return !!(a & (1u << 11));
#else
	return -1;
#endif
}

void env_cpu_read(struct env_cpu *cpu)
{
	char *info = read_text("/proc/cpuinfo"), flags[8192];

	memset(cpu, 0, sizeof(*cpu));
	cpu->family = cpu->model = cpu->stepping = -1;
	cpu->rep_good = cpu->erms = cpu->fsrm = cpu->fsrs = -1;
	if (info) {
		cpuinfo_value(info, "model name", cpu->name, sizeof(cpu->name));
		cpuinfo_value(info, "vendor_id", cpu->vendor,
			      sizeof(cpu->vendor));
		cpu->family = cpuinfo_int(info, "cpu family");
		cpu->model = cpuinfo_int(info, "model");
		cpu->stepping = cpuinfo_int(info, "stepping");
		cpuinfo_value(info, "flags", flags, sizeof(flags));
		if (flags[0]) {
			cpu->rep_good = has_word(flags, "rep_good");
			cpu->erms = has_word(flags, "erms");
			cpu->fsrm = has_word(flags, "fsrm");
		}
		free(info);
	}
	cpu->fsrs = cpuid_fsrs();
}

/* "AuthenticAMD family 15 model 4 stepping 0, string ops: erms fsrm". */
void env_cpu_line(const struct env_cpu *cpu, char *buf, size_t len)
{
	const struct { const char *name; int v; } f[] = {
		{ "rep_good", cpu->rep_good }, { "erms", cpu->erms },
		{ "fsrm", cpu->fsrm }, { "fsrs", cpu->fsrs },
	};
	size_t used;
	bool any = false;
	unsigned int i;

	used = (size_t)snprintf(buf, len,
				"%s family %d model %d stepping %d, string ops:",
				cpu->vendor[0] ? cpu->vendor : "?", cpu->family,
				cpu->model, cpu->stepping);
	for (i = 0; i < ARRAY_SIZE(f) && used < len; i++) {
		if (f[i].v != 1)
			continue;
		used += (size_t)snprintf(buf + used, len - used, " %s",
					 f[i].name);
		any = true;
	}
	if (!any && used < len)
		snprintf(buf + used, len - used, " none");
}

static void print_tristate(const char *key, int v)
{
	if (v < 0)
		print_null(PRINT_JSON, key, NULL);
	else
		print_bool(PRINT_JSON, key, NULL, v);
}

static void print_int_or_null(const char *key, int v)
{
	if (v < 0)
		print_null(PRINT_JSON, key, NULL);
	else
		print_uint(PRINT_JSON, key, NULL, (uint64_t)v);
}

static void print_cpu(void)
{
	struct env_cpu cpu;

	env_cpu_read(&cpu);
	open_json_object("cpu");
	print_string(PRINT_JSON, "model", NULL, cpu.name[0] ? cpu.name : NULL);
	/*
	 * Which CPU, as CPUID says: under QEMU, the -cpu model.  Linux
	 * picks its string routines (memset, memcpy, copy_*_user,
	 * clear_page) by the four flags below, and QEMU's instruction
	 * clock counts a rep string instruction once per iteration: compare
	 * refuses results of two identities or flag sets.
	 */
	open_json_object("id");
	print_string(PRINT_JSON, "vendor", NULL,
		     cpu.vendor[0] ? cpu.vendor : NULL);
	print_int_or_null("family", cpu.family);
	print_int_or_null("model", cpu.model);
	print_int_or_null("stepping", cpu.stepping);
	close_json_object();
	open_json_object("string_ops");
	print_tristate("rep_good", cpu.rep_good);
	print_tristate("erms", cpu.erms);
	print_tristate("fsrm", cpu.fsrm);
	print_tristate("fsrs", cpu.fsrs);
	close_json_object();
	print_uint(PRINT_JSON, "online", NULL,
		   (uint64_t)sysconf(_SC_NPROCESSORS_ONLN));
	print_uint(PRINT_JSON, "configured", NULL,
		   (uint64_t)sysconf(_SC_NPROCESSORS_CONF));
	print_text("freq_driver",
		   "/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver");
	print_text("governor",
		   "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	print_ll("max_khz",
		 read_ll("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"));
	print_text("idle_driver",
		   "/sys/devices/system/cpu/cpuidle/current_driver");
	print_text("smt", "/sys/devices/system/cpu/smt/control");
	close_json_object();
}

static void print_memory(void)
{
	char *mi = read_text("/proc/meminfo"), *p;
	long long kb = -1;

	if (mi && (p = strstr(mi, "MemTotal:")))
		kb = strtoll(p + 9, NULL, 10);
	free(mi);
	open_json_object("memory");
	print_ll("total_kib", kb);
	print_text("thp", "/sys/kernel/mm/transparent_hugepage/enabled");
	close_json_object();
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void print_mitigations(void)
{
	const char *dir = "/sys/devices/system/cpu/vulnerabilities";
	char *names[64], path[PATH_MAX];
	unsigned int n = 0, i;
	struct dirent *de;
	DIR *d = opendir(dir);

	open_json_object("mitigations");
	while (d && (de = readdir(d)) && n < ARRAY_SIZE(names))
		if (de->d_name[0] != '.')
			names[n++] = strdup(de->d_name);
	if (d)
		closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (i = 0; i < n; i++) {
		if (!names[i])
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		print_text(names[i], path);
		free(names[i]);
	}
	close_json_object();
}

/* --- filesystem and device -------------------------------------------------------- */

struct mount_info {
	char mnt[PATH_MAX];
	char fstype[64];
	char source[PATH_MAX];
	char opts[1024];	/* per-mount options */
	char super_opts[2048];	/* the filesystem's */
	unsigned int major, minor;
};

/* Unescape mountinfo's octal escapes (\040) in place. */
static void unoctal(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] && s[3]) {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

/*
 * The mount holding dir: the longest mount point above it whose device is
 * dir's. btrfs gives each subvolume, the top one too, an anonymous device
 * of its own (st_dev 0:31 where mountinfo says 0:30), so where no device
 * matches, a btrfs mount point above dir is taken by its path alone.
 */
static int find_mount_dev(const char *dir, struct mount_info *mi,
			  bool any_btrfs)
{
	char real[PATH_MAX], line[8192];
	size_t best = 0, len;
	struct stat st;
	FILE *f;

	if (!realpath(dir, real) || stat(real, &st))
		return -1;
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char mnt[PATH_MAX], opts[1024], fstype[64], source[PATH_MAX],
		     sopts[2048];
		unsigned int ma, mi_;
		char *sep;

		if (sscanf(line, "%*u %*u %u:%u %*s %4095s %1023s", &ma, &mi_,
			   mnt, opts) != 4)
			continue;
		sep = strstr(line, " - ");
		if (!sep || sscanf(sep + 3, "%63s %4095s %2047s", fstype,
				   source, sopts) != 3)
			continue;
		if (any_btrfs ? strcmp(fstype, "btrfs") != 0 :
		    (ma != major(st.st_dev) || mi_ != minor(st.st_dev)))
			continue;
		unoctal(mnt);
		len = strlen(mnt);
		if (strncmp(real, mnt, len) ||
		    (real[len] && real[len] != '/' && len > 1))
			continue;
		if (len < best)
			continue;
		best = len;
		snprintf(mi->mnt, sizeof(mi->mnt), "%s", mnt);
		snprintf(mi->fstype, sizeof(mi->fstype), "%s", fstype);
		unoctal(source);
		snprintf(mi->source, sizeof(mi->source), "%s", source);
		snprintf(mi->opts, sizeof(mi->opts), "%s", opts);
		snprintf(mi->super_opts, sizeof(mi->super_opts), "%s", sopts);
		mi->major = ma;
		mi->minor = mi_;
	}
	fclose(f);
	return best ? 0 : -1;
}

static int find_mount(const char *dir, struct mount_info *mi)
{
	return find_mount_dev(dir, mi, false) &&
	       find_mount_dev(dir, mi, true) ? -1 : 0;
}

static bool has_opt(const char *opts, const char *opt)
{
	size_t n = strlen(opt);
	const char *p = opts;

	while ((p = strstr(p, opt))) {
		if ((p == opts || p[-1] == ',') && (!p[n] || p[n] == ','))
			return true;
		p += n;
	}
	return false;
}

static void print_block_device(const struct mount_info *mi)
{
	char path[PATH_MAX], real[PATH_MAX], q[PATH_MAX + 64], *name;
	static const char *const queue_keys[] = {
		"scheduler", "rotational", "write_cache", "fua",
		"logical_block_size", "physical_block_size", "nr_requests",
		"read_ahead_kb", "max_sectors_kb", "discard_max_bytes",
		"add_random", "nomerges", "rq_affinity",
	};
	long long sectors;
	unsigned int i;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", mi->major,
		 mi->minor);
	if (!realpath(path, real)) {
		print_null(PRINT_JSON, "block_device", NULL);
		return;
	}
	open_json_object("block_device");
	name = strrchr(real, '/');
	print_string(PRINT_JSON, "name", NULL, name ? name + 1 : real);
	snprintf(q, sizeof(q), "%u:%u", mi->major, mi->minor);
	print_string(PRINT_JSON, "dev", NULL, q);
	snprintf(q, sizeof(q), "%s/size", real);
	sectors = read_ll(q);
	print_ll("size_bytes", sectors < 0 ? -1 : sectors * 512);
	/* a partition's queue and model are its disk's */
	snprintf(q, sizeof(q), "%s/partition", real);
	if (!access(q, F_OK)) {
		char *slash = strrchr(real, '/');

		print_bool(PRINT_JSON, "partition", NULL, true);
		if (slash)
			*slash = '\0';
	} else {
		print_bool(PRINT_JSON, "partition", NULL, false);
	}
	snprintf(q, sizeof(q), "%s/device/model", real);
	print_text("model", q);
	snprintf(q, sizeof(q), "%s/device/vendor", real);
	print_text("vendor", q);
	open_json_object("queue");
	for (i = 0; i < ARRAY_SIZE(queue_keys); i++) {
		snprintf(q, sizeof(q), "%s/queue/%s", real, queue_keys[i]);
		print_text(queue_keys[i], q);
	}
	close_json_object();
	close_json_object();
}

static void print_fs_tools(const struct mount_info *mi)
{
	char *geo_argv[6] = { NULL }, *ver_argv[3] = { NULL };
	char *text, *copy, *ver;
	int st;

	if (!strncmp(mi->fstype, "ext", 3)) {
		geo_argv[0] = (char *)"dumpe2fs";
		geo_argv[1] = (char *)"-h";
		geo_argv[2] = (char *)mi->source;
		ver_argv[0] = (char *)"dumpe2fs";
		ver_argv[1] = (char *)"-V";
	} else if (!strcmp(mi->fstype, "xfs")) {
		geo_argv[0] = (char *)"xfs_info";
		geo_argv[1] = (char *)mi->mnt;
		ver_argv[0] = (char *)"xfs_info";
		ver_argv[1] = (char *)"-V";
	} else if (!strcmp(mi->fstype, "btrfs")) {
		geo_argv[0] = (char *)"btrfs";
		geo_argv[1] = (char *)"inspect-internal";
		geo_argv[2] = (char *)"dump-super";
		geo_argv[3] = (char *)mi->source;
		ver_argv[0] = (char *)"btrfs";
		ver_argv[1] = (char *)"--version";
	} else {
		print_null(PRINT_JSON, "geometry_tool", NULL);
		print_null(PRINT_JSON, "geometry_text", NULL);
		print_null(PRINT_JSON, "geometry", NULL);
		return;
	}
	open_json_object("geometry_tool");
	copy = NULL;
	{
		char cmd[PATH_MAX + 64] = "";
		unsigned int i;

		for (i = 0; geo_argv[i]; i++) {
			strncat(cmd, geo_argv[i], sizeof(cmd) - strlen(cmd) - 2);
			if (geo_argv[i + 1])
				strcat(cmd, " ");
		}
		print_string(PRINT_JSON, "command", NULL, cmd);
	}
	ver = tool_version(ver_argv);
	print_string(PRINT_JSON, "version", NULL, ver);
	free(ver);
	text = run_capture(geo_argv, &st);
	print_int(PRINT_JSON, "status", NULL, text ? st : -1);
	close_json_object();
	print_string(PRINT_JSON, "geometry_text", NULL, text);
	if (text && !st) {
		copy = strdup(text);
		if (copy)
			env_print_geometry(mi->fstype, copy);
	} else {
		print_null(PRINT_JSON, "geometry", NULL);
	}
	free(copy);
	free(text);
}

static void print_filesystem(const char *dir)
{
	struct mount_info mi = { 0 };
	const char *env;
	bool barrier;

	open_json_object("filesystem");
	print_string(PRINT_JSON, "dir", NULL, dir);
	if (find_mount(dir, &mi)) {
		print_null(PRINT_JSON, "type", NULL);
		close_json_object();
		return;
	}
	print_string(PRINT_JSON, "mount_point", NULL, mi.mnt);
	print_string(PRINT_JSON, "type", NULL, mi.fstype);
	print_string(PRINT_JSON, "source", NULL, mi.source);
	print_string(PRINT_JSON, "mount_options", NULL, mi.opts);
	print_string(PRINT_JSON, "super_options", NULL, mi.super_opts);
	/* ext4 and btrfs show nobarrier/barrier=0; xfs has no such option */
	barrier = !has_opt(mi.super_opts, "nobarrier") &&
		  !has_opt(mi.super_opts, "barrier=0");
	if (!strcmp(mi.fstype, "xfs") || !strcmp(mi.fstype, "tmpfs"))
		print_null(PRINT_JSON, "barrier", NULL);
	else
		print_bool(PRINT_JSON, "barrier", NULL, barrier);
	/* the VM harness says how it made and mounted the filesystem */
	env = getenv("FSLOAD_MKFS");
	print_string(PRINT_JSON, "mkfs", NULL, env && *env ? env : NULL);
	env = getenv("FSLOAD_MOUNT");
	print_string(PRINT_JSON, "mount", NULL, env && *env ? env : NULL);
	print_fs_tools(&mi);
	print_block_device(&mi);
	close_json_object();
}

static void print_harness(void)
{
	const char *vm = getenv("FSLOAD_VM"), *out = getenv("FSLOAD_OUT");
	const char *clk = getenv("FSLOAD_CLOCK");
	char path[PATH_MAX];

	open_json_object("harness");
	print_bool(PRINT_JSON, "vm", NULL, vm && !strcmp(vm, "1"));
	/*
	 * scripts/vm-run says which clock its guest runs on (icount: QEMU's
	 * instruction clock, times are instruction counts); anywhere else
	 * times are the machine's own: wall.
	 */
	print_string(PRINT_JSON, "clock", NULL, clk && *clk ? clk : "wall");
	if (vm && out) {
		snprintf(path, sizeof(path), "%s/vm-info.txt", out);
		print_text("vm_info", path);
	} else {
		print_null(PRINT_JSON, "vm_info", NULL);
	}
	close_json_object();
}

void env_begin(void)
{
	time_t t = time(NULL);
	struct tm tm;

	taint_before = read_ll("/proc/sys/kernel/tainted");
	gmtime_r(&t, &tm);
	strftime(started_at, sizeof(started_at), "%Y-%m-%dT%H:%M:%SZ", &tm);
	ended_at[0] = '\0';
}

void env_print(const char *dir)
{
	char host[256] = "", *modver;
	time_t t = time(NULL);
	struct tm tm;

	open_json_object("fsload");
	print_string(PRINT_JSON, "version", NULL, FSLOADCTL_VERSION);
	print_string(PRINT_JSON, "git", NULL, FSLOAD_GIT_REV);
	print_uint(PRINT_JSON, "protocol", NULL, FSLOAD_FAMILY_VERSION);
	modver = read_text("/sys/module/fsload/version");
	print_string(PRINT_JSON, "module_version", NULL, modver);
	free(modver);
	modver = read_text("/sys/module/fsload/srcversion");
	print_string(PRINT_JSON, "module_srcversion", NULL, modver);
	free(modver);
	close_json_object();

	if (!ended_at[0]) {
		gmtime_r(&t, &tm);
		strftime(ended_at, sizeof(ended_at), "%Y-%m-%dT%H:%M:%SZ",
			 &tm);
	}
	open_json_object("environment");
	gethostname(host, sizeof(host) - 1);
	print_string(PRINT_JSON, "hostname", NULL, host);
	print_string(PRINT_JSON, "started_at", NULL,
		     started_at[0] ? started_at : NULL);
	print_string(PRINT_JSON, "ended_at", NULL, ended_at);
	print_kernel();
	print_cpu();
	print_memory();
	print_mitigations();
	print_filesystem(dir ? dir : ".");
	print_harness();
	close_json_object();
}
