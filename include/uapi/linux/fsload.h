/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/fsload.yaml */
/* YNL-GEN uapi header */

#ifndef _UAPI_LINUX_FSLOAD_H
#define _UAPI_LINUX_FSLOAD_H

#define FSLOAD_FAMILY_NAME	"fsload"
#define FSLOAD_FAMILY_VERSION	1

#define FSLOAD_NAME_MAX			32
#define FSLOAD_JOIN_DIR_MAX		64
#define FSLOAD_JOIN_HANDLE_MAX		64
#define FSLOAD_THREADS_MAX		999
#define FSLOAD_FILES_MAX		100000000
#define FSLOAD_DIRS_MAX			100000
#define FSLOAD_TREE_DEPTH_MAX		8
#define FSLOAD_PHASES_MAX		32
#define FSLOAD_PHASE_OPS_MAX		16
#define FSLOAD_BLOCK_MAX		16777216
#define FSLOAD_BIO_BLOCK_MAX		1048576
#define FSLOAD_BIO_DEPTH_MAX		128
#define FSLOAD_PROGRESS_MARKS		10
#define FSLOAD_GROUPS_MAX		8
#define FSLOAD_GROUP_ALL		255
#define FSLOAD_STATUS_DIR_MAX		1024
#define FSLOAD_STATUS_MSG_MAX		3584
#define FSLOAD_LAT_SAMPLE_MAX		65536
#define FSLOAD_NAME_BYTES_MAX		128
#define FSLOAD_NAME_RANDOM_BYTES_MIN	12
#define FSLOAD_WEIGHT_MAX		1000000
#define FSLOAD_BLOCK_DEFAULT_MAX	4194304
#define FSLOAD_PROGRESS_MS_MAX		3600000
#define FSLOAD_INTERVAL_MS_MIN		10
#define FSLOAD_IDLE_MS_MAX		60000
#define FSLOAD_SAMPLE_MS_MAX		60000
#define FSLOAD_STALL_MS_MIN		100
#define FSLOAD_STALL_MS_MAX		86400000
#define FSLOAD_RANK_MAX			999999

/**
 * enum fsload_job_state - Life of a job.
 * @FSLOAD_JOB_RUNNING: Workers are running phases.
 * @FSLOAD_JOB_STOPPING: A stop was requested (by the user, by the owner's
 *   socket closing, by an error or by module unload); workers are ending.
 * @FSLOAD_JOB_DONE: Every phase completed.
 * @FSLOAD_JOB_STOPPED: Stopped on request before the end; results partial.
 * @FSLOAD_JOB_FAILED: An operation failed, or the job's tree could not all be
 *   removed at the end (another process put something there that the job may
 *   not remove, or a mount); the errno and error-msg attributes say which;
 *   results partial.
 */
enum fsload_job_state {
	FSLOAD_JOB_RUNNING = 1,
	FSLOAD_JOB_STOPPING,
	FSLOAD_JOB_DONE,
	FSLOAD_JOB_STOPPED,
	FSLOAD_JOB_FAILED,
};

/**
 * enum fsload_job_flags - Flags of a job.
 * @FSLOAD_JOB_F_KEEP: Leave the job directory and its files in place.
 * @FSLOAD_JOB_F_DETACH: Keep running when the starting socket closes (by
 *   default a job stops when the socket that started it is closed).
 * @FSLOAD_JOB_F_SHARED_DIR: All threads work in one directory tree (t000):
 *   thread i's files are numbered from i x files; by default each thread has
 *   its own tree.
 * @FSLOAD_JOB_F_HOLD_END: After its last phase, before its tree is removed,
 *   the job holds once more (job-held-ntf with held the number of phases,
 *   ended by job-resume or a stop): for the other ranks of a run that works in
 *   its directory (ranks) to end their phases first. Not with detach.
 */
enum fsload_job_flags {
	FSLOAD_JOB_F_KEEP = 1,
	FSLOAD_JOB_F_DETACH = 2,
	FSLOAD_JOB_F_SHARED_DIR = 4,
	FSLOAD_JOB_F_HOLD_END = 8,

	/* private: */
	FSLOAD_JOB_F_MASK = 15,
};

/**
 * enum fsload_op - Primitive operations, each applied to one file. A job runs
 *   either on a directory (the job's dir attribute: every op type but the bio
 *   ones) or on a block device (the job's device attribute: bio ops and null
 *   only).
 * @FSLOAD_OP_NULL: Nothing; measures the engine's own per-operation cost.
 * @FSLOAD_OP_CREATE: open(O_CREAT|O_EXCL|O_WRONLY), write size-bytes in
 *   block-bytes blocks, fsync if the fsync flag is set, close.
 * @FSLOAD_OP_STAT: Path walk and getattr (statx of the file).
 * @FSLOAD_OP_READ: open(O_RDONLY), read to EOF in block-bytes blocks (with the
 *   sized flag: size-bytes from offset 0), close.
 * @FSLOAD_OP_UNLINK: Unlink the file.
 * @FSLOAD_OP_APPEND: open(O_WRONLY|O_APPEND), write size-bytes in block-bytes
 *   blocks, fsync if the fsync flag is set, close.
 * @FSLOAD_OP_WRITE_RANDOM: open(O_WRONLY), write one block at a random
 *   block-aligned offset below size-bytes (the file size), fsync if the fsync
 *   flag is set, close.
 * @FSLOAD_OP_READ_RANDOM: open(O_RDONLY), read one block at a random
 *   block-aligned offset below size-bytes, close.
 * @FSLOAD_OP_FSYNC: open(O_RDONLY), fsync, close.
 * @FSLOAD_OP_MKDIR: Make a directory with the file's name.
 * @FSLOAD_OP_RMDIR: Remove the (empty) directory with the file's name.
 * @FSLOAD_OP_RENAME: Rename the file (or directory) within its directory to
 *   the same name with the first letter given by the op's prefix attribute
 *   (or, with the rotate flag, into its neighbour's name), as renameat(2) on
 *   the job directory does: both names' directories are walked from the job
 *   directory.
 * @FSLOAD_OP_SYNCFS: syncfs() of the job's filesystem.
 * @FSLOAD_OP_BIO_WRITE: Block jobs (the job's device attribute): write one bio
 *   of block-bytes to the device, keeping up to depth of the worker's bios in
 *   flight. The offset is sequential (thread t, iteration i of a phase of N
 *   iterations: block t x N + i, modulo the region's blocks) or random with
 *   the random flag, within the first size-bytes of the device (0: all of it).
 *   An operation's latency is from the bio's allocation to its completion; its
 *   bytes are the block's. Blocks are multiples of the device's logical block
 *   size, at most bio-block-max; in-flight bios share the worker's buffer.
 * @FSLOAD_OP_BIO_READ: The same as bio-write, reading.
 * @FSLOAD_OP_DROP_CACHE: open(O_RDONLY), posix_fadvise(POSIX_FADV_DONTNEED) of
 *   the whole file, close: the file's clean pages leave the page cache, so a
 *   later phase reads it from the device (write it back first: a syncfs
 *   phase). Dentries and inodes stay cached: the effect of "echo 1 >
 *   /proc/sys/vm/drop_caches" on the job's files only.
 */
enum fsload_op {
	FSLOAD_OP_NULL = 1,
	FSLOAD_OP_CREATE,
	FSLOAD_OP_STAT,
	FSLOAD_OP_READ,
	FSLOAD_OP_UNLINK,
	FSLOAD_OP_APPEND,
	FSLOAD_OP_WRITE_RANDOM,
	FSLOAD_OP_READ_RANDOM,
	FSLOAD_OP_FSYNC,
	FSLOAD_OP_MKDIR,
	FSLOAD_OP_RMDIR,
	FSLOAD_OP_RENAME,
	FSLOAD_OP_SYNCFS,
	FSLOAD_OP_BIO_WRITE,
	FSLOAD_OP_BIO_READ,
	FSLOAD_OP_DROP_CACHE,

	/* private: */
	__FSLOAD_OP_MAX,
	FSLOAD_OP_MAX = (__FSLOAD_OP_MAX - 1)
};

/**
 * enum fsload_op_flags - Flags of an operation.
 * @FSLOAD_OP_F_FSYNC: Fsync a written file before closing it (create, append,
 *   write-random).
 * @FSLOAD_OP_F_FALLOCATE: create: allocate size-bytes with fallocate() before
 *   writing.
 * @FSLOAD_OP_F_DIRECT: Open with O_DIRECT (create, append, read, write-random,
 *   read-random); blocks and sizes must be multiples of 512 bytes and sizes
 *   multiples of the block.
 * @FSLOAD_OP_F_RANDOM: bio ops: random block-aligned offsets (default:
 *   sequential).
 * @FSLOAD_OP_F_SIZED: read: read size-bytes from offset 0 (in block-bytes
 *   calls, stopping at EOF) instead of reading to EOF; with size-bytes 0, open
 *   and close only (mdtest -e).
 * @FSLOAD_OP_F_ROTATE: rename: mdtest's rotation instead of the prefix: in
 *   each directory's run of the phase's items, the first is renamed to its
 *   name with "-XX" appended, each later one into the name the one before it
 *   has just vacated, and the last is left in place while the first (now
 *   "-XX") takes the name before it: the same set of names remains, every
 *   entry but the last moved (a run of one item is renamed onto itself, which
 *   changes nothing). Only as the one op of a sequential phase.
 * @FSLOAD_OP_F_RDWR: create: open(O_CREAT|O_RDWR), as mdtest's file creation,
 *   instead of O_CREAT|O_EXCL|O_WRONLY (an existing file is opened, not an
 *   error).
 * @FSLOAD_OP_F_TRUNC: create: open as fs_mark does, O_RDWR | O_CREAT | O_TRUNC
 *   (an existing file is emptied, not an error; with O_NOFOLLOW, so never
 *   through a symlink), and write() at the file position, rather than O_WRONLY
 *   | O_CREAT | O_EXCL and pwrite().
 * @FSLOAD_OP_F_MKNOD: create: make the file as mknodat(2) with S_IFREG and the
 *   create's mode does (mdtest -k): the file's directory walked, the LSM path
 *   hook, the filesystem's create; no open, no data. Only alone (no other
 *   flag) and with size-bytes 0; an existing name is EEXIST.
 */
enum fsload_op_flags {
	FSLOAD_OP_F_FSYNC = 1,
	FSLOAD_OP_F_FALLOCATE = 2,
	FSLOAD_OP_F_DIRECT = 4,
	FSLOAD_OP_F_RANDOM = 8,
	FSLOAD_OP_F_SIZED = 16,
	FSLOAD_OP_F_ROTATE = 32,
	FSLOAD_OP_F_RDWR = 64,
	FSLOAD_OP_F_TRUNC = 128,
	FSLOAD_OP_F_MKNOD = 256,

	/* private: */
	FSLOAD_OP_F_MASK = 511,
};

/**
 * enum fsload_phase_flags - Flags of a phase.
 * @FSLOAD_PHASE_F_CONTINUE: An operation failing with ENOENT, EEXIST,
 *   ENOTEMPTY, ENOTDIR or EISDIR (expected when weighted operations meet on
 *   one file set) is counted as a miss (opstat misses), not an error, and the
 *   phase goes on; any other error still ends the job.
 * @FSLOAD_PHASE_F_SYNC: When every worker has finished the phase, sync the
 *   filesystem (syncfs, which also waits for work the filesystem deferred:
 *   delayed allocation, inode inactivation) and report its time and CPU as the
 *   phase's tail (the result's tail-ns); on a block job, flush the device's
 *   write cache (a job writing to it).
 * @FSLOAD_PHASE_F_DIRS: The phase's iterations are the directories that hold
 *   the thread's files, not the files (mdtest's tree creation and removal): in
 *   creation order, parents first, or children first when the phase has an
 *   rmdir op. Its ops may only be mkdir, rmdir and stat. In a shared tree
 *   thread 0 visits every directory and the others pass the phase idle. A job
 *   with such a phase that makes directories leaves making them to it: its
 *   threads start with only their tree root.
 * @FSLOAD_PHASE_F_HOLD: Before the phase opens, with every worker waiting at
 *   its start, the job sends job-held-ntf and waits for job-resume (or a
 *   stop): the time for its starter to act on the system between phases
 *   (fsloadctl: sync and drop the caches), outside every phase's figures. Not
 *   with the job flag detach.
 * @FSLOAD_PHASE_F_TIMED_SYNC: Each worker syncs the filesystem (syncfs) after
 *   its last operation, inside the phase's time (mdtest -Y): elapsed-ns ends
 *   with the last worker's sync; the syncs are not operations.
 * @FSLOAD_PHASE_F_FILL: The phase fills the filesystem (fsloadctl's aging): an
 *   operation failing with ENOSPC is counted as a miss, not an error, and ends
 *   the worker's run of the phase as done (the filesystem is full, which is
 *   the phase's end), not the job.
 */
enum fsload_phase_flags {
	FSLOAD_PHASE_F_CONTINUE = 1,
	FSLOAD_PHASE_F_SYNC = 2,
	FSLOAD_PHASE_F_DIRS = 4,
	FSLOAD_PHASE_F_HOLD = 8,
	FSLOAD_PHASE_F_TIMED_SYNC = 16,
	FSLOAD_PHASE_F_FILL = 32,

	/* private: */
	FSLOAD_PHASE_F_MASK = 63,
};

/**
 * enum fsload_phase_order - Order in which a phase visits the file set.
 * @FSLOAD_ORDER_SEQUENTIAL: Files in index order (the default).
 * @FSLOAD_ORDER_RANDOM: A per-thread random permutation of the file set,
 *   seeded from the job's seed.
 */
enum fsload_phase_order {
	FSLOAD_ORDER_SEQUENTIAL = 1,
	FSLOAD_ORDER_RANDOM,
};

/**
 * enum fsload_names - How a job names its tree root, directories and files.
 * @FSLOAD_NAMES_FSLOAD: fsload's counters (the default): t<thread, 3 digits> /
 *   d<directory, 5 digits> / <phase prefix><file index, 8 digits>.
 * @FSLOAD_NAMES_MDTEST: mdtest's (hpc/ior): test-dir.0-0 /
 *   mdtest_tree.<thread>.<k> (a shared tree: mdtest_tree.<k>) /
 *   file.mdtest.<thread>.<n> for the prefix 'f', dir.mdtest.<thread>.<n> for
 *   'x', <prefix>.mdtest. <thread>.<n> for any other; n is the item's index in
 *   the thread's set (mdtest -u, -b, -z, -I). In a shared tree every thread
 *   puts its own items in every directory, as mdtest's ranks do. <thread> is
 *   the job's rank x threads + the thread's index.
 * @FSLOAD_NAMES_FSMARK: fs_mark's, in t<thread, 3 digits> (fs_mark's -d): the
 *   files, or with more than one directory, directory k as k in 2 or more hex
 *   digits (fs_mark's -D) holding them. A file name is name-bytes long: a time
 *   stamp of 8 hex digits (derived from the seed, not the clock), cut to its
 *   last digits or padded with '~', then name-random-bytes characters of
 *   [0-9A-Z] drawn from the seed, the thread and the file index; the prefix,
 *   when not 'f', replaces its first character.
 */
enum fsload_names {
	FSLOAD_NAMES_FSLOAD = 1,
	FSLOAD_NAMES_MDTEST,
	FSLOAD_NAMES_FSMARK,
};

#define FSLOAD_PROFILE_HZ_MAX		100000
#define FSLOAD_PROFILE_STACKS_MAX	65536
#define FSLOAD_PROFILE_FRAMES_MAX	2048

/**
 * enum fsload_profile_clock - What a CPU profile's samples are taken on, and
 *   its period's unit.
 * @FSLOAD_PROFILE_CLOCK_CPU_CLOCK: The cpu-clock software event, a timer; the
 *   period is in ns (under QEMU's instruction clock, in instructions).
 * @FSLOAD_PROFILE_CLOCK_CYCLES: The CPU's cycle counter (a PMU); the period is
 *   in cycles.
 */
enum fsload_profile_clock {
	FSLOAD_PROFILE_CLOCK_CPU_CLOCK = 1,
	FSLOAD_PROFILE_CLOCK_CYCLES,
};

/**
 * enum fsload_op_clock - The clock the phase loop times operations with (each
 *   op's latency, a phase's end, the engine's overhead): read once per op, so
 *   its cost is in every op's.
 * @FSLOAD_OP_CLOCK_KTIME: ktime_get_ns(), the timekeeping's monotonic clock.
 * @FSLOAD_OP_CLOCK_TSC: The TSC, where it is a clock: the CPU declares it
 *   constant and nonstop (constant_tsc, nonstop_tsc; or the module parameter
 *   force_tsc) and the kernel trusts it (not marked unstable, its rate known),
 *   scaled to ns with tsc_khz from an anchor on CLOCK_MONOTONIC taken at each
 *   phase's start; the user engine uses it where the kernel's clocksource is
 *   the TSC and /proc/cpuinfo has constant_tsc and nonstop_tsc (or
 *   FSLOADCTL_FORCE_TSC=1), at the rate it measures against CLOCK_MONOTONIC. A
 *   reading below the one before (a step back: a TSC reset, or unsynchronised
 *   across CPUs) is not used: it is counted (the result's op-clock-back-steps)
 *   and that worker times its ops with the engine's other clock for the rest
 *   of the job; so does every worker once the kernel marks the TSC unstable
 *   (the kernel engine notices within 16 ops, the user engine, by its
 *   clocksource, at the next phase).
 * @FSLOAD_OP_CLOCK_CLOCK_GETTIME: clock_gettime(CLOCK_MONOTONIC), through the
 *   vDSO (user engine).
 */
enum fsload_op_clock {
	FSLOAD_OP_CLOCK_KTIME = 1,
	FSLOAD_OP_CLOCK_TSC,
	FSLOAD_OP_CLOCK_CLOCK_GETTIME,
};

enum {
	FSLOAD_A_JOB_ID = 1,
	FSLOAD_A_JOB_DIR,
	FSLOAD_A_JOB_FLAGS,
	FSLOAD_A_JOB_THREADS,
	FSLOAD_A_JOB_FILES,
	FSLOAD_A_JOB_FILES_PER_DIR,
	FSLOAD_A_JOB_SEED,
	FSLOAD_A_JOB_PROFILE,
	FSLOAD_A_JOB_PROGRESS_MS,
	FSLOAD_A_JOB_PHASE,
	FSLOAD_A_JOB_STATE,
	FSLOAD_A_JOB_ERRNO,
	FSLOAD_A_JOB_ERROR_MSG,
	FSLOAD_A_JOB_PHASE_INDEX,
	FSLOAD_A_JOB_PHASES,
	FSLOAD_A_JOB_ELAPSED_NS,
	FSLOAD_A_JOB_OPS,
	FSLOAD_A_JOB_BYTES,
	FSLOAD_A_JOB_WORKER_PID,
	FSLOAD_A_JOB_OWNER_PORTID,
	FSLOAD_A_JOB_RESULT,
	FSLOAD_A_JOB_PAD,
	FSLOAD_A_JOB_IDLE_MS,
	FSLOAD_A_JOB_CPUS,
	FSLOAD_A_JOB_PMU,
	FSLOAD_A_JOB_IDLE_NS,
	FSLOAD_A_JOB_IDLE_BUSY_NS,
	FSLOAD_A_JOB_OVERHEAD_OPS,
	FSLOAD_A_JOB_OVERHEAD_NS,
	FSLOAD_A_JOB_DEVICE,
	FSLOAD_A_JOB_DEVICE_BYTES,
	FSLOAD_A_JOB_SAMPLE_MS,
	FSLOAD_A_JOB_STALL_MS,
	FSLOAD_A_JOB_STALL,
	FSLOAD_A_JOB_SERIES_FROM,
	FSLOAD_A_JOB_SAMPLE,
	FSLOAD_A_JOB_WORKER_CPU,
	FSLOAD_A_JOB_GROUP,
	FSLOAD_A_JOB_TREE_BRANCH,
	FSLOAD_A_JOB_HELD,
	FSLOAD_A_JOB_WORKER,
	FSLOAD_A_JOB_DIR_INO,
	FSLOAD_A_JOB_LAT_SAMPLE,
	FSLOAD_A_JOB_CPU_PROFILE_HZ,
	FSLOAD_A_JOB_CPU_PROFILE_STACKS,
	FSLOAD_A_JOB_CPU_PROFILE_CLOCK,
	FSLOAD_A_JOB_CPU_PROFILE_PERIOD,
	FSLOAD_A_JOB_PROFILE_STACK,
	FSLOAD_A_JOB_NAMES,
	FSLOAD_A_JOB_NAME_BYTES,
	FSLOAD_A_JOB_NAME_RANDOM_BYTES,
	FSLOAD_A_JOB_FIRST_DIR,
	FSLOAD_A_JOB_RANK,
	FSLOAD_A_JOB_RANKS,
	FSLOAD_A_JOB_JOIN_DIR,
	FSLOAD_A_JOB_JOIN_INO,
	FSLOAD_A_JOB_OP_CLOCK,
	FSLOAD_A_JOB_DIR_NAME,
	FSLOAD_A_JOB_DIR_MODE,
	FSLOAD_A_JOB_DIR_BTIME,
	FSLOAD_A_JOB_DIR_HANDLE_TYPE,
	FSLOAD_A_JOB_DIR_HANDLE,
	FSLOAD_A_JOB_JOIN_MODE,
	FSLOAD_A_JOB_JOIN_BTIME,
	FSLOAD_A_JOB_JOIN_HANDLE_TYPE,
	FSLOAD_A_JOB_JOIN_HANDLE,
	FSLOAD_A_JOB_PHASE_ITEMS,
	FSLOAD_A_JOB_PHASE_ITEMS_DONE,

	__FSLOAD_A_JOB_MAX,
	FSLOAD_A_JOB_MAX = (__FSLOAD_A_JOB_MAX - 1)
};

enum {
	FSLOAD_A_PHASE_NAME = 1,
	FSLOAD_A_PHASE_ORDER,
	FSLOAD_A_PHASE_ITERATIONS,
	FSLOAD_A_PHASE_OP,
	FSLOAD_A_PHASE_PAD,
	FSLOAD_A_PHASE_DURATION_MS,
	FSLOAD_A_PHASE_FLAGS,
	FSLOAD_A_PHASE_PREFIX,
	FSLOAD_A_PHASE_FIRST,
	FSLOAD_A_PHASE_STRIDE,

	__FSLOAD_A_PHASE_MAX,
	FSLOAD_A_PHASE_MAX = (__FSLOAD_A_PHASE_MAX - 1)
};

enum {
	FSLOAD_A_OP_TYPE = 1,
	FSLOAD_A_OP_WEIGHT,
	FSLOAD_A_OP_SIZE_BYTES,
	FSLOAD_A_OP_BLOCK_BYTES,
	FSLOAD_A_OP_FLAGS,
	FSLOAD_A_OP_PAD,
	FSLOAD_A_OP_PREFIX,
	FSLOAD_A_OP_DEPTH,
	FSLOAD_A_OP_GROUP,

	__FSLOAD_A_OP_MAX,
	FSLOAD_A_OP_MAX = (__FSLOAD_A_OP_MAX - 1)
};

enum {
	FSLOAD_A_RES_PHASE_INDEX = 1,
	FSLOAD_A_RES_PHASE_NAME,
	FSLOAD_A_RES_THREADS,
	FSLOAD_A_RES_COMPLETE,
	FSLOAD_A_RES_ELAPSED_NS,
	FSLOAD_A_RES_OPS,
	FSLOAD_A_RES_ERRORS,
	FSLOAD_A_RES_BYTES,
	FSLOAD_A_RES_OPSTAT,
	FSLOAD_A_RES_PAD,
	FSLOAD_A_RES_STONEWALLED,
	FSLOAD_A_RES_WORKER_CPU_NS,
	FSLOAD_A_RES_INSTRUCTIONS,
	FSLOAD_A_RES_CYCLES,
	FSLOAD_A_RES_SYSTEM_CPU_NS,
	FSLOAD_A_RES_TAIL_NS,
	FSLOAD_A_RES_TAIL_CPU_NS,
	FSLOAD_A_RES_THREAD,
	FSLOAD_A_RES_START_NS,
	FSLOAD_A_RES_PROGRESS,
	FSLOAD_A_RES_PROFILE_SAMPLES,
	FSLOAD_A_RES_PROFILE_DROPPED,
	FSLOAD_A_RES_PROFILE_NS,
	FSLOAD_A_RES_OP_CLOCK,
	FSLOAD_A_RES_OP_CLOCK_BACK_STEPS,

	__FSLOAD_A_RES_MAX,
	FSLOAD_A_RES_MAX = (__FSLOAD_A_RES_MAX - 1)
};

enum {
	FSLOAD_A_PROGRESS_PCT = 1,
	FSLOAD_A_PROGRESS_WORKERS,
	FSLOAD_A_PROGRESS_ITEMS,
	FSLOAD_A_PROGRESS_ELAPSED_NS,
	FSLOAD_A_PROGRESS_PAD,

	__FSLOAD_A_PROGRESS_MAX,
	FSLOAD_A_PROGRESS_MAX = (__FSLOAD_A_PROGRESS_MAX - 1)
};

enum {
	FSLOAD_A_GROUP_NAME = 1,
	FSLOAD_A_GROUP_THREADS,

	__FSLOAD_A_GROUP_MAX,
	FSLOAD_A_GROUP_MAX = (__FSLOAD_A_GROUP_MAX - 1)
};

enum {
	FSLOAD_A_OPSTAT_TYPE = 1,
	FSLOAD_A_OPSTAT_OPS,
	FSLOAD_A_OPSTAT_ERRORS,
	FSLOAD_A_OPSTAT_BYTES,
	FSLOAD_A_OPSTAT_LAT_SUM_NS,
	FSLOAD_A_OPSTAT_LAT_MIN_NS,
	FSLOAD_A_OPSTAT_LAT_MAX_NS,
	FSLOAD_A_OPSTAT_PAD,
	FSLOAD_A_OPSTAT_BUCKET,
	FSLOAD_A_OPSTAT_SAMPLED,
	FSLOAD_A_OPSTAT_MISSES,

	__FSLOAD_A_OPSTAT_MAX,
	FSLOAD_A_OPSTAT_MAX = (__FSLOAD_A_OPSTAT_MAX - 1)
};

enum {
	FSLOAD_A_BUCKET_LOW_NS = 1,
	FSLOAD_A_BUCKET_HIGH_NS,
	FSLOAD_A_BUCKET_COUNT,
	FSLOAD_A_BUCKET_PAD,

	__FSLOAD_A_BUCKET_MAX,
	FSLOAD_A_BUCKET_MAX = (__FSLOAD_A_BUCKET_MAX - 1)
};

enum {
	FSLOAD_A_THREAD_NAME = 1,
	FSLOAD_A_THREAD_PID,
	FSLOAD_A_THREAD_CPU_NS,
	FSLOAD_A_THREAD_PAD,
	FSLOAD_A_THREAD_KERNEL,

	__FSLOAD_A_THREAD_MAX,
	FSLOAD_A_THREAD_MAX = (__FSLOAD_A_THREAD_MAX - 1)
};

enum {
	FSLOAD_A_SAMPLE_SEQ = 1,
	FSLOAD_A_SAMPLE_TIME_NS,
	FSLOAD_A_SAMPLE_PHASE_INDEX,
	FSLOAD_A_SAMPLE_OP,
	FSLOAD_A_SAMPLE_PAD,
	FSLOAD_A_SAMPLE_IO_BYTES,

	__FSLOAD_A_SAMPLE_MAX,
	FSLOAD_A_SAMPLE_MAX = (__FSLOAD_A_SAMPLE_MAX - 1)
};

enum {
	FSLOAD_A_SAMPLE_OP_TYPE = 1,
	FSLOAD_A_SAMPLE_OP_OPS,
	FSLOAD_A_SAMPLE_OP_BYTES,
	FSLOAD_A_SAMPLE_OP_PAD,
	FSLOAD_A_SAMPLE_OP_LAT_SUM_NS,
	FSLOAD_A_SAMPLE_OP_LAT_P50_NS,
	FSLOAD_A_SAMPLE_OP_LAT_P99_NS,
	FSLOAD_A_SAMPLE_OP_SAMPLED,

	__FSLOAD_A_SAMPLE_OP_MAX,
	FSLOAD_A_SAMPLE_OP_MAX = (__FSLOAD_A_SAMPLE_OP_MAX - 1)
};

enum {
	FSLOAD_A_STALL_THREAD = 1,
	FSLOAD_A_STALL_PID,
	FSLOAD_A_STALL_PHASE_INDEX,
	FSLOAD_A_STALL_OP,
	FSLOAD_A_STALL_START_NS,
	FSLOAD_A_STALL_DURATION_NS,
	FSLOAD_A_STALL_ENDED,
	FSLOAD_A_STALL_PAD,

	__FSLOAD_A_STALL_MAX,
	FSLOAD_A_STALL_MAX = (__FSLOAD_A_STALL_MAX - 1)
};

enum {
	FSLOAD_A_WORKER_INDEX = 1,
	FSLOAD_A_WORKER_PID,
	FSLOAD_A_WORKER_CPU,

	__FSLOAD_A_WORKER_MAX,
	FSLOAD_A_WORKER_MAX = (__FSLOAD_A_WORKER_MAX - 1)
};

enum {
	FSLOAD_A_PROFILE_STACK_PHASE_INDEX = 1,
	FSLOAD_A_PROFILE_STACK_OP,
	FSLOAD_A_PROFILE_STACK_SAMPLES,
	FSLOAD_A_PROFILE_STACK_FRAMES,
	FSLOAD_A_PROFILE_STACK_PAD,

	__FSLOAD_A_PROFILE_STACK_MAX,
	FSLOAD_A_PROFILE_STACK_MAX = (__FSLOAD_A_PROFILE_STACK_MAX - 1)
};

enum fsload_cmd {
	FSLOAD_CMD_JOB_START = 1,
	FSLOAD_CMD_JOB_STOP,
	FSLOAD_CMD_JOB_GET,
	FSLOAD_CMD_RESULT_GET,
	FSLOAD_CMD_JOB_PROGRESS_NTF,
	FSLOAD_CMD_JOB_DONE_NTF,
	FSLOAD_CMD_SERIES_GET,
	FSLOAD_CMD_JOB_STALL_NTF,
	FSLOAD_CMD_JOB_HELD_NTF,
	FSLOAD_CMD_JOB_RESUME,
	FSLOAD_CMD_WORKER_GET,
	FSLOAD_CMD_PROFILE_GET,

	__FSLOAD_CMD_MAX,
	FSLOAD_CMD_MAX = (__FSLOAD_CMD_MAX - 1)
};

#define FSLOAD_MCGRP_EVENTS	"events"

#endif /* _UAPI_LINUX_FSLOAD_H */
