/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * fsload: in-kernel filesystem and block workload generator.
 *
 * Generic netlink protocol, family "fsload", version 1.
 *
 * The kernel executes a generic program; profiles live in userspace.
 * A job is a pinned target directory, a number of worker threads, a file
 * set (files per thread, files per subdirectory) and a list of phases.
 * Each phase runs every worker over its own share of the file set; on each
 * iteration a worker picks one of the phase's operations by weight and
 * applies it to the next file.  All workers start a phase together.
 *
 * On disk, a job lives in DIR/fsload-<job id>/:
 *	t<thread, 3 digits>/d<subdir, 5 digits>/f<file index, 8 digits>
 * and the job directory is removed at the end unless FSLOAD_JOB_F_KEEP.
 *
 * Rules: commands and attributes start at 1 and are only ever appended;
 * units are in the attribute names; u64 values carry FSLOAD_A_*_PAD.
 * A reply uses the command id of its request.
 */
#ifndef _UAPI_LINUX_FSLOAD_H
#define _UAPI_LINUX_FSLOAD_H

#define FSLOAD_FAMILY_NAME	"fsload"
#define FSLOAD_FAMILY_VERSION	1
#define FSLOAD_MCGRP_EVENTS	"events"

/* Limits fixed by the protocol (module parameters may lower them). */
#define FSLOAD_NAME_MAX		32	/* phase and profile names, with NUL */
#define FSLOAD_THREADS_MAX	999	/* thread directory names have 3 digits */
#define FSLOAD_FILES_MAX	100000000ULL	/* file names have 8 digits */
#define FSLOAD_DIRS_MAX		100000	/* subdirectory names have 5 digits */
#define FSLOAD_TREE_DEPTH_MAX	8	/* levels below a tree's root directory */
#define FSLOAD_PHASES_MAX	32
#define FSLOAD_PHASE_OPS_MAX	16	/* operations (weighted) per phase */
#define FSLOAD_BLOCK_MAX	(16U << 20)	/* I/O block size, bytes */
#define FSLOAD_BIO_BLOCK_MAX	(1U << 20)	/* bytes per bio */
#define FSLOAD_BIO_DEPTH_MAX	128	/* bios in flight per worker */
#define FSLOAD_PROGRESS_MARKS	10	/* a phase's course, in tenths */
#define FSLOAD_GROUPS_MAX	8	/* thread groups of a job */
#define FSLOAD_GROUP_ALL	255	/* FSLOAD_A_OP_GROUP: every group */
#define FSLOAD_STATUS_DIR_MAX	1024	/* DIR in a status, with its NUL */
#define FSLOAD_STATUS_MSG_MAX	3584	/* a status message, bytes, at most */

/**
 * enum fsload_cmd - commands
 * @FSLOAD_CMD_JOB_START: start a job (do, CAP_SYS_ADMIN). Request: the
 *	job attributes. Reply: the new job, as for @FSLOAD_CMD_JOB_GET.
 * @FSLOAD_CMD_JOB_STOP: ask a job to stop (do, CAP_SYS_ADMIN). Request:
 *	%FSLOAD_A_JOB_ID. Returns at once; the job reports
 *	%FSLOAD_CMD_JOB_DONE_NTF when its workers have stopped. EALREADY
 *	when the job has already ended.
 * @FSLOAD_CMD_JOB_GET: status of one job (do, %FSLOAD_A_JOB_ID) or of
 *	all jobs (dump).
 * @FSLOAD_CMD_RESULT_GET: results of one job (dump, %FSLOAD_A_JOB_ID
 *	required), for each phase that started: one message with the
 *	phase's summary (%FSLOAD_A_JOB_ID and one %FSLOAD_A_JOB_RESULT
 *	nest, its %FSLOAD_A_RES_OPSTAT nests without buckets), then messages
 *	carrying the latency histograms: %FSLOAD_A_RES_PHASE_INDEX and one
 *	%FSLOAD_A_RES_OPSTAT with its %FSLOAD_A_OPSTAT_TYPE and some of its
 *	%FSLOAD_A_OPSTAT_BUCKET nests.  A histogram may span several
 *	messages: merge the buckets by phase index and type.
 * @FSLOAD_CMD_JOB_PROGRESS_NTF: multicast on "events" while a job runs,
 *	every %FSLOAD_A_JOB_PROGRESS_MS; status attributes as for
 *	@FSLOAD_CMD_JOB_GET.
 * @FSLOAD_CMD_JOB_DONE_NTF: multicast on "events" once a job has ended
 *	(done, stopped or failed) and its results are final.  For a short
 *	job it may arrive before the reply to @FSLOAD_CMD_JOB_START.  Not
 *	sent for jobs ended by module unload.
 *
 * @FSLOAD_CMD_SERIES_GET: the time series of a job (dump,
 *	%FSLOAD_A_JOB_ID required; %FSLOAD_A_JOB_SERIES_FROM: the first
 *	sequence number wanted, default 0): messages of %FSLOAD_A_JOB_ID and
 *	%FSLOAD_A_JOB_SAMPLE nests, oldest first.  The job keeps the last
 *	max_samples (module parameter) samples: read them while it runs; a
 *	gap in the sequence numbers is samples lost.
 * @FSLOAD_CMD_JOB_STALL_NTF: multicast on "events" when a worker of a job
 *	with %FSLOAD_A_JOB_STALL_MS has made no progress for that long;
 *	status attributes as for @FSLOAD_CMD_JOB_GET, whose
 *	%FSLOAD_A_JOB_STALL nests say which workers, in which phase, since
 *	when.  A stall whose worker moves again gets its end.  A job
 *	records (and announces) its first 16 stalls only.
 *
 * @FSLOAD_CMD_JOB_HELD_NTF: multicast on "events" when a job stops before
 *	a phase with %FSLOAD_PHASE_F_HOLD; status attributes as for
 *	@FSLOAD_CMD_JOB_GET, %FSLOAD_A_JOB_HELD the phase.
 * @FSLOAD_CMD_JOB_RESUME: let a held job open its phase (do,
 *	CAP_SYS_ADMIN). Request: %FSLOAD_A_JOB_ID, optionally
 *	%FSLOAD_A_JOB_HELD: the phase of the hold to end (as announced), so
 *	that a late resume cannot end a later hold. EINVAL when the job is
 *	not held, or held before another phase than %FSLOAD_A_JOB_HELD.
 *
 * @FSLOAD_CMD_WORKER_GET: the workers of a job (dump, %FSLOAD_A_JOB_ID
 *	required): messages of %FSLOAD_A_JOB_ID and %FSLOAD_A_JOB_WORKER
 *	nests, in thread order.  A job's status does not list its workers:
 *	one message per job, of a bounded size, whatever its threads.
 *
 * A status message (@FSLOAD_CMD_JOB_GET, the @FSLOAD_CMD_JOB_START reply,
 * the notifications) fits %FSLOAD_STATUS_MSG_MAX bytes, a dump's entry
 * too: a 4 KiB receive buffer (libmnl's default) reads every one.
 *
 * Jobs are global (not per network namespace; the family is in the
 * initial one only). An ended job's status and results stay available
 * until it is one of more than max_finished (module parameter) ended
 * jobs, oldest first; then its id gives ENOENT.
 */
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

	__FSLOAD_CMD_MAX,
	FSLOAD_CMD_MAX = __FSLOAD_CMD_MAX - 1
};

/**
 * enum fsload_job_state - life of a job
 * @FSLOAD_JOB_RUNNING: workers are running phases
 * @FSLOAD_JOB_STOPPING: a stop was requested (by the user, by the owner's
 *	socket closing, by an error or by module unload); workers are ending
 * @FSLOAD_JOB_DONE: every phase completed
 * @FSLOAD_JOB_STOPPED: stopped on request before the end; results partial
 * @FSLOAD_JOB_FAILED: an operation failed, or the job's tree could not all
 *	be removed at the end (another process put something there that
 *	the job may not remove, or a mount); %FSLOAD_A_JOB_ERRNO and
 *	%FSLOAD_A_JOB_ERROR_MSG say which; results partial
 */
enum fsload_job_state {
	FSLOAD_JOB_RUNNING = 1,
	FSLOAD_JOB_STOPPING,
	FSLOAD_JOB_DONE,
	FSLOAD_JOB_STOPPED,
	FSLOAD_JOB_FAILED,
};

/**
 * enum fsload_job_flags - %FSLOAD_A_JOB_FLAGS bits
 * @FSLOAD_JOB_F_KEEP: leave the job directory and its files in place
 * @FSLOAD_JOB_F_DETACH: keep running when the starting socket closes
 *	(by default a job stops when the socket that started it is closed)
 * @FSLOAD_JOB_F_SHARED_DIR: all threads work in one directory tree (t000):
 *	thread i's files are numbered from i x %FSLOAD_A_JOB_FILES; by
 *	default each thread has its own tree
 */
enum fsload_job_flags {
	FSLOAD_JOB_F_KEEP	= 1U << 0,
	FSLOAD_JOB_F_DETACH	= 1U << 1,
	FSLOAD_JOB_F_SHARED_DIR	= 1U << 2,
};

#define FSLOAD_JOB_F_ALL	(FSLOAD_JOB_F_KEEP | FSLOAD_JOB_F_DETACH | \
				 FSLOAD_JOB_F_SHARED_DIR)

/**
 * enum fsload_op - primitive operations, each applied to one file
 * @FSLOAD_OP_NULL: nothing; measures the engine's own per-op cost
 * @FSLOAD_OP_CREATE: open(O_CREAT|O_EXCL|O_WRONLY), write
 *	%FSLOAD_A_OP_SIZE_BYTES in %FSLOAD_A_OP_BLOCK_BYTES blocks, fsync if
 *	%FSLOAD_OP_F_FSYNC, close
 * @FSLOAD_OP_STAT: path walk and getattr (statx of the file)
 * @FSLOAD_OP_READ: open(O_RDONLY), read to EOF in
 *	%FSLOAD_A_OP_BLOCK_BYTES blocks, close
 * @FSLOAD_OP_UNLINK: unlink the file
 * @FSLOAD_OP_APPEND: open(O_WRONLY|O_APPEND), write
 *	%FSLOAD_A_OP_SIZE_BYTES in %FSLOAD_A_OP_BLOCK_BYTES blocks, fsync if
 *	%FSLOAD_OP_F_FSYNC, close
 * @FSLOAD_OP_WRITE_RANDOM: open(O_WRONLY), write one block at a random
 *	block-aligned offset below %FSLOAD_A_OP_SIZE_BYTES (the file size),
 *	fsync if %FSLOAD_OP_F_FSYNC, close
 * @FSLOAD_OP_READ_RANDOM: open(O_RDONLY), read one block at a random
 *	block-aligned offset below %FSLOAD_A_OP_SIZE_BYTES, close
 * @FSLOAD_OP_FSYNC: open(O_RDONLY), fsync, close
 * @FSLOAD_OP_MKDIR: make a directory with the file's name
 * @FSLOAD_OP_RMDIR: remove the (empty) directory with the file's name
 * @FSLOAD_OP_RENAME: rename the file (or directory) within its directory
 *	to the same name with first letter %FSLOAD_A_OP_PREFIX
 * @FSLOAD_OP_SYNCFS: syncfs() of the job's filesystem
 * @FSLOAD_OP_BIO_WRITE: block jobs (%FSLOAD_A_JOB_DEVICE): write one bio
 *	of %FSLOAD_A_OP_BLOCK_BYTES to the device, keeping up to
 *	%FSLOAD_A_OP_DEPTH of the worker's bios in flight.  The offset is
 *	sequential (thread t, iteration i of a phase of N iterations: block
 *	t x N + i, modulo the region's blocks) or random with
 *	%FSLOAD_OP_F_RANDOM, within the first %FSLOAD_A_OP_SIZE_BYTES of the
 *	device (0: all of it).  An operation's latency is from the bio's
 *	allocation to its completion; its bytes are the block's.  Blocks
 *	are multiples of the device's logical block size, at most
 *	%FSLOAD_BIO_BLOCK_MAX; in-flight bios share the worker's buffer
 * @FSLOAD_OP_BIO_READ: the same, reading
 * @FSLOAD_OP_DROP_CACHE: open(O_RDONLY), posix_fadvise(POSIX_FADV_DONTNEED)
 *	of the whole file, close: the file's clean pages leave the page
 *	cache, so a later phase reads it from the device (write it back
 *	first: a syncfs phase).  Dentries and inodes stay cached: the effect
 *	of "echo 1 > /proc/sys/vm/drop_caches" on the job's files only
 *
 * A job runs either on a directory (%FSLOAD_A_JOB_DIR: every op type but
 * the bio ones) or on a block device (%FSLOAD_A_JOB_DEVICE: bio ops and
 * null only).
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

	__FSLOAD_OP_MAX,
	FSLOAD_OP_MAX = __FSLOAD_OP_MAX - 1
};

/**
 * enum fsload_op_flags - %FSLOAD_A_OP_FLAGS bits
 * @FSLOAD_OP_F_FSYNC: fsync a written file before closing it (create,
 *	append, write_random)
 * @FSLOAD_OP_F_FALLOCATE: create: allocate %FSLOAD_A_OP_SIZE_BYTES with
 *	fallocate() before writing
 * @FSLOAD_OP_F_DIRECT: open with O_DIRECT (create, append, read,
 *	write_random, read_random); blocks and sizes must be multiples of
 *	512 bytes and sizes multiples of the block
 * @FSLOAD_OP_F_RANDOM: bio ops: random block-aligned offsets (default:
 *	sequential)
 */
enum fsload_op_flags {
	FSLOAD_OP_F_FSYNC	= 1U << 0,
	FSLOAD_OP_F_FALLOCATE	= 1U << 1,
	FSLOAD_OP_F_DIRECT	= 1U << 2,
	FSLOAD_OP_F_RANDOM	= 1U << 3,
};

#define FSLOAD_OP_F_ALL		(FSLOAD_OP_F_FSYNC | FSLOAD_OP_F_FALLOCATE | \
				 FSLOAD_OP_F_DIRECT | FSLOAD_OP_F_RANDOM)

/**
 * enum fsload_phase_flags - %FSLOAD_A_PHASE_FLAGS bits
 * @FSLOAD_PHASE_F_CONTINUE: an operation failing with ENOENT, EEXIST,
 *	ENOTEMPTY or ENOTDIR (expected when weighted operations meet on one
 *	file set) is counted as an error and the phase goes on; any other
 *	error still ends the job
 * @FSLOAD_PHASE_F_SYNC: when every worker has finished the phase, sync
 *	the filesystem (syncfs, which also waits for work the filesystem
 *	deferred: delayed allocation, inode inactivation) and report its
 *	time and CPU as the phase's tail (%FSLOAD_A_RES_TAIL_NS); on a
 *	block job, flush the device's write cache (a job writing to it)
 * @FSLOAD_PHASE_F_DIRS: the phase's iterations are the directories that
 *	hold the thread's files, not the files (mdtest's tree creation and
 *	removal): in creation order, parents first, or children first when
 *	the phase has an rmdir op.  Its ops may only be mkdir, rmdir and
 *	stat.  In a shared tree (%FSLOAD_JOB_F_SHARED_DIR) thread 0 visits
 *	every directory and the others pass the phase idle.  A job with such
 *	a phase that makes directories leaves making them to it: its
 *	threads start with only their tree root
 * @FSLOAD_PHASE_F_HOLD: before the phase opens, with every worker waiting
 *	at its start, the job sends %FSLOAD_CMD_JOB_HELD_NTF and waits for
 *	%FSLOAD_CMD_JOB_RESUME (or a stop): the time for its starter to act
 *	on the system between phases (fsloadctl: sync and drop the caches),
 *	outside every phase's figures.  Not with %FSLOAD_JOB_F_DETACH
 */
enum fsload_phase_flags {
	FSLOAD_PHASE_F_CONTINUE	= 1U << 0,
	FSLOAD_PHASE_F_SYNC	= 1U << 1,
	FSLOAD_PHASE_F_DIRS	= 1U << 2,
	FSLOAD_PHASE_F_HOLD	= 1U << 3,
};

#define FSLOAD_PHASE_F_ALL	(FSLOAD_PHASE_F_CONTINUE | FSLOAD_PHASE_F_SYNC | \
				 FSLOAD_PHASE_F_DIRS | FSLOAD_PHASE_F_HOLD)

/**
 * enum fsload_phase_order - %FSLOAD_A_PHASE_ORDER
 * @FSLOAD_ORDER_SEQUENTIAL: files in index order (default)
 * @FSLOAD_ORDER_RANDOM: a per-thread random permutation of the file set,
 *	seeded from %FSLOAD_A_JOB_SEED
 */
enum fsload_phase_order {
	FSLOAD_ORDER_SEQUENTIAL = 1,
	FSLOAD_ORDER_RANDOM,
};

/*
 * Top-level attributes: requests, status replies and notifications.
 * Request-only: DIR or DEVICE (one of them is required for start), FLAGS,
 * THREADS, FILES, FILES_PER_DIR, SEED, PROFILE, PROGRESS_MS, PHASE (one
 * or more), IDLE_MS, WORKER_CPU.
 * Status (JOB_GET, JOB_START reply, notifications): ID, DIR or DEVICE,
 * FLAGS, THREADS, FILES, FILES_PER_DIR, SEED, PROFILE, STATE, ERRNO,
 * ERROR_MSG, PHASE_INDEX, PHASES, ELAPSED_NS, OPS, BYTES, OWNER_PORTID,
 * CPUS, PMU, IDLE_NS, IDLE_BUSY_NS, OVERHEAD_OPS, OVERHEAD_NS (the last
 * four once measured), DEVICE_BYTES (block jobs), DIR_INO (directory
 * jobs).  A DIR or DEVICE path of FSLOAD_STATUS_DIR_MAX bytes or more is
 * sent as "..." and its last FSLOAD_STATUS_DIR_MAX - 4 bytes.  The
 * workers' thread ids and CPUs are not in the status (up to 999 of
 * them): FSLOAD_CMD_WORKER_GET lists them, WORKER_PID is no longer sent.
 *
 * DEVICE: a block job writes or reads the block device at this path with
 * bio ops (no directory, no files).  The path is resolved in the sender's
 * context.  A job with a FSLOAD_OP_BIO_WRITE opens the device exclusively
 * (a mounted device, or one another holder claimed, gives EBUSY); one that
 * only reads opens it read-only, shared.  DIR and DEVICE exclude each
 * other; FSLOAD_JOB_F_SHARED_DIR needs DIR.
 *
 * GROUP (request and status, repeated, at most FSLOAD_GROUPS_MAX): thread
 * groups.  The workers are numbered group by group in request order (the
 * first group's THREADS workers, then the next group's ...); THREADS,
 * when given, must be their sum.  An op with FSLOAD_A_OP_GROUP is run by
 * that group's workers only, one without by every group's; each worker
 * picks among its group's ops of a phase by their weights, and a group
 * with none in a phase passes it idle.  Results merge the groups (per op
 * type).  Without GROUP, all workers are one group.
 *
 * TREE_BRANCH (request and status, 1 to FSLOAD_DIRS_MAX; 0 or absent:
 * flat): a thread's file f is in directory f / FILES_PER_DIR.  Flat, every
 * directory is in the thread's tree root t<thread> (t000/d00000 ...); with
 * TREE_BRANCH b, directory k > 0 is a subdirectory of directory (k - 1) / b
 * (t000/d00000/d00001/d00004 ...), mdtest's tree of branching factor b.
 * The deepest directory a job needs may be at most FSLOAD_TREE_DEPTH_MAX
 * levels below d00000.
 *
 * WORKER_CPU (request, repeated, at most FSLOAD_THREADS_MAX): worker i is
 * bound (kthread_bind()) to the (i mod n)-th of the n CPUs listed before
 * it first runs; each must be online when the job starts.  Without it,
 * workers run wherever the scheduler puts them.
 *
 * Before the first phase, with every worker waiting, the job measures
 * the machine's busy CPU time over IDLE_MS (the idle baseline, which
 * results subtract from background CPU) and the engine's own cost: the
 * time of OVERHEAD_OPS null operations through the phase loop (timing,
 * accounting, naming), OVERHEAD_NS in all.
 */
enum {
	FSLOAD_A_JOB_ID = 1,		/* u32 */
	FSLOAD_A_JOB_DIR,		/* string: target directory */
	FSLOAD_A_JOB_FLAGS,		/* u32: enum fsload_job_flags */
	FSLOAD_A_JOB_THREADS,		/* u32: worker threads */
	FSLOAD_A_JOB_FILES,		/* u64: files per thread */
	FSLOAD_A_JOB_FILES_PER_DIR,	/* u32: files per subdirectory */
	FSLOAD_A_JOB_SEED,		/* u64: random seed */
	FSLOAD_A_JOB_PROFILE,		/* string: profile name, a label */
	FSLOAD_A_JOB_PROGRESS_MS,	/* u32: progress interval, 0 = none */
	FSLOAD_A_JOB_PHASE,		/* nest: FSLOAD_A_PHASE_*, repeated */
	FSLOAD_A_JOB_STATE,		/* u8: enum fsload_job_state */
	FSLOAD_A_JOB_ERRNO,		/* u32: positive errno of a failure */
	FSLOAD_A_JOB_ERROR_MSG,		/* string: what failed, where */
	FSLOAD_A_JOB_PHASE_INDEX,	/* u32: current or last phase, from 0 */
	FSLOAD_A_JOB_PHASES,		/* u32: number of phases */
	FSLOAD_A_JOB_ELAPSED_NS,	/* u64: from start to now, or to the
					 * end of the last worker (the job
					 * directory's removal not included)
					 */
	FSLOAD_A_JOB_OPS,		/* u64: operations done, all phases */
	FSLOAD_A_JOB_BYTES,		/* u64: bytes moved, all phases */
	FSLOAD_A_JOB_WORKER_PID,	/* u32, repeated: no longer sent
					 * (FSLOAD_A_WORKER_PID)
					 */
	FSLOAD_A_JOB_OWNER_PORTID,	/* u32: 0 when detached */
	FSLOAD_A_JOB_RESULT,		/* nest: FSLOAD_A_RES_* */
	FSLOAD_A_JOB_PAD,
	FSLOAD_A_JOB_IDLE_MS,		/* u32: idle baseline to measure */
	FSLOAD_A_JOB_CPUS,		/* u32: online CPUs */
	FSLOAD_A_JOB_PMU,		/* u8: 1 if hardware counters count
					 * the workers (instructions, cycles)
					 */
	FSLOAD_A_JOB_IDLE_NS,		/* u64: idle baseline measured */
	FSLOAD_A_JOB_IDLE_BUSY_NS,	/* u64: busy CPU time during it, all
					 * CPUs
					 */
	FSLOAD_A_JOB_OVERHEAD_OPS,	/* u64 */
	FSLOAD_A_JOB_OVERHEAD_NS,	/* u64 */
	FSLOAD_A_JOB_DEVICE,		/* string: block device path */
	FSLOAD_A_JOB_DEVICE_BYTES,	/* u64: the device's size */
	FSLOAD_A_JOB_SAMPLE_MS,		/* u32: time series interval; 0 none */
	FSLOAD_A_JOB_STALL_MS,		/* u32: report a worker without
					 * progress this long; 0 never
					 */
	FSLOAD_A_JOB_STALL,		/* nest: FSLOAD_A_STALL_*, repeated */
	FSLOAD_A_JOB_SERIES_FROM,	/* u64: SERIES_GET: first sequence */
	FSLOAD_A_JOB_SAMPLE,		/* nest: FSLOAD_A_SAMPLE_*, repeated */
	FSLOAD_A_JOB_WORKER_CPU,	/* u32: a CPU, repeated (below) */
	FSLOAD_A_JOB_GROUP,		/* nest: FSLOAD_A_GROUP_*, repeated */
	FSLOAD_A_JOB_TREE_BRANCH,	/* u32: directory tree (below) */
	FSLOAD_A_JOB_HELD,		/* u32: status of a held job: the
					 * phase it holds before, from 0;
					 * in JOB_RESUME the hold to end
					 */
	FSLOAD_A_JOB_WORKER,	/* nest: FSLOAD_A_WORKER_*, repeated */
	FSLOAD_A_JOB_DIR_INO,		/* u64: status of a directory job:
					 * the job directory's inode number
					 * (st_ino), so that a client that
					 * removes a kept tree can tell it
					 * from what may have taken its name
					 */

	__FSLOAD_A_JOB_MAX,
	FSLOAD_A_JOB_MAX = __FSLOAD_A_JOB_MAX - 1
};

/* A phase of the program (request). */
enum {
	FSLOAD_A_PHASE_NAME = 1,	/* string, required */
	FSLOAD_A_PHASE_ORDER,		/* u8: enum fsload_phase_order */
	FSLOAD_A_PHASE_ITERATIONS,	/* u64: per thread; default FILES */
	FSLOAD_A_PHASE_OP,		/* nest: FSLOAD_A_OP_*, repeated */
	FSLOAD_A_PHASE_PAD,
	FSLOAD_A_PHASE_DURATION_MS,	/* u32: stonewall: the phase ends for
					 * every thread this long after it
					 * started; 0 = no limit
					 */
	FSLOAD_A_PHASE_FLAGS,		/* u32: enum fsload_phase_flags */
	FSLOAD_A_PHASE_PREFIX,		/* u8: first letter of the file names
					 * in this phase, 'a'..'z' except 'd'
					 * and 't'; default 'f'
					 */
	FSLOAD_A_PHASE_FIRST,		/* u64: sequential order starts at
					 * this file index (mod FILES)
					 */

	__FSLOAD_A_PHASE_MAX,
	FSLOAD_A_PHASE_MAX = __FSLOAD_A_PHASE_MAX - 1
};

/* One weighted operation of a phase (request). */
enum {
	FSLOAD_A_OP_TYPE = 1,		/* u8: enum fsload_op, required */
	FSLOAD_A_OP_WEIGHT,		/* u32: relative weight, default 1 */
	FSLOAD_A_OP_SIZE_BYTES,		/* u64: bytes written per file (the
					 * file's size for the random ops, the
					 * region for the bio ops).  Bytes one
					 * op moves (this, or BLOCK_BYTES for
					 * the random and bio ops) x
					 * iterations x threads must fit u64
					 */
	FSLOAD_A_OP_BLOCK_BYTES,	/* u32: bytes per read/write call */
	FSLOAD_A_OP_FLAGS,		/* u32: enum fsload_op_flags */
	FSLOAD_A_OP_PAD,
	FSLOAD_A_OP_PREFIX,		/* u8: rename: the new first letter */
	FSLOAD_A_OP_DEPTH,		/* u32: bio ops: bios in flight per
					 * worker, 1 (default) to
					 * FSLOAD_BIO_DEPTH_MAX
					 */
	FSLOAD_A_OP_GROUP,		/* u8: the group (index from 0, in
					 * request order) whose workers run
					 * it; default: every group
					 */

	__FSLOAD_A_OP_MAX,
	FSLOAD_A_OP_MAX = __FSLOAD_A_OP_MAX - 1
};

/*
 * Result of one phase (FSLOAD_CMD_RESULT_GET).  ELAPSED_NS runs from the
 * moment the last worker arrived at the phase's start barrier to the end
 * of the last worker's last operation.  COMPLETE is 1 when every worker
 * finished every iteration, or ran until the phase's time limit.
 *
 * CPU: WORKER_CPU_NS is the workers' own CPU time in the phase (scheduler
 * runtime), INSTRUCTIONS and CYCLES their kernel-mode counts where the
 * machine has a PMU (absent otherwise).  SYSTEM_CPU_NS is the busy time
 * of all CPUs over the phase (not idle, not waiting for I/O): minus the
 * workers' and the idle baseline, what other threads spent meanwhile.
 * TAIL_NS and TAIL_CPU_NS are the FSLOAD_PHASE_F_SYNC tail's time and the
 * busy time of all CPUs during it.  THREAD lists the threads other than
 * the workers that used most CPU over the phase and its tail; their
 * FSLOAD_A_THREAD_NAME and FSLOAD_A_THREAD_PID go only to a requester
 * with CAP_SYS_ADMIN or with the job's starter's effective uid (that of
 * the process and of the socket's opener): others get each thread's CPU
 * time without saying whose.  SYSTEM_*,
 * TAIL_* and THREAD are absent when the phase did not end normally.
 */
enum {
	FSLOAD_A_RES_PHASE_INDEX = 1,	/* u32: from 0, as in the request */
	FSLOAD_A_RES_PHASE_NAME,	/* string */
	FSLOAD_A_RES_THREADS,		/* u32: workers that ran the phase */
	FSLOAD_A_RES_COMPLETE,		/* u8: 1 if the phase ran to its end */
	FSLOAD_A_RES_ELAPSED_NS,	/* u64 */
	FSLOAD_A_RES_OPS,		/* u64: successful operations */
	FSLOAD_A_RES_ERRORS,		/* u64: failed operations */
	FSLOAD_A_RES_BYTES,		/* u64: bytes written and read */
	FSLOAD_A_RES_OPSTAT,		/* nest: FSLOAD_A_OPSTAT_*, repeated */
	FSLOAD_A_RES_PAD,
	FSLOAD_A_RES_STONEWALLED,	/* u8: 1 if its time limit ended it */
	FSLOAD_A_RES_WORKER_CPU_NS,	/* u64 */
	FSLOAD_A_RES_INSTRUCTIONS,	/* u64 */
	FSLOAD_A_RES_CYCLES,		/* u64 */
	FSLOAD_A_RES_SYSTEM_CPU_NS,	/* u64 */
	FSLOAD_A_RES_TAIL_NS,		/* u64 */
	FSLOAD_A_RES_TAIL_CPU_NS,	/* u64 */
	/* nest: FSLOAD_A_THREAD_*, repeated, most CPU first */
	FSLOAD_A_RES_THREAD,
	FSLOAD_A_RES_START_NS,		/* u64: when the phase opened, on the
					 * clock of the samples' TIME_NS
					 * (CLOCK_MONOTONIC)
					 */
	/* nest: FSLOAD_A_PROGRESS_*, repeated, one per mark reached */
	FSLOAD_A_RES_PROGRESS,

	__FSLOAD_A_RES_MAX,
	FSLOAD_A_RES_MAX = __FSLOAD_A_RES_MAX - 1
};

/*
 * The course of a phase (mdtest's rate as a directory grows): the moment
 * each worker had done PCT percent of its iterations, for PCT 10, 20, ...
 * 100 (FSLOAD_PROGRESS_MARKS marks; a worker's mark k is at iteration
 * ceil(k x iterations / 10)).  ITEMS is the iterations those workers had
 * done at the mark, ELAPSED_NS the time from the phase's start until the
 * last of them got there; the rate of the tenth ending at mark k is the
 * difference of ITEMS over that of ELAPSED_NS from mark k - 1.  A mark no
 * worker reached (a stonewalled or stopped phase) is absent; WORKERS
 * below the phase's THREADS means some did not get there.
 */
enum {
	FSLOAD_A_PROGRESS_PCT = 1,	/* u8: 10, 20, ... 100 */
	FSLOAD_A_PROGRESS_WORKERS,	/* u32 */
	FSLOAD_A_PROGRESS_ITEMS,	/* u64 */
	FSLOAD_A_PROGRESS_ELAPSED_NS,	/* u64 */
	FSLOAD_A_PROGRESS_PAD,

	__FSLOAD_A_PROGRESS_MAX,
	FSLOAD_A_PROGRESS_MAX = __FSLOAD_A_PROGRESS_MAX - 1
};

/* A thread group of a job (FSLOAD_A_JOB_GROUP). */
enum {
	FSLOAD_A_GROUP_NAME = 1,	/* string: a label */
	FSLOAD_A_GROUP_THREADS,		/* u32: its workers, required */

	__FSLOAD_A_GROUP_MAX,
	FSLOAD_A_GROUP_MAX = __FSLOAD_A_GROUP_MAX - 1
};

/* Per operation type statistics within a phase result. */
enum {
	FSLOAD_A_OPSTAT_TYPE = 1,	/* u8: enum fsload_op */
	FSLOAD_A_OPSTAT_OPS,		/* u64: successful operations */
	FSLOAD_A_OPSTAT_ERRORS,		/* u64: failed operations */
	FSLOAD_A_OPSTAT_BYTES,		/* u64 */
	FSLOAD_A_OPSTAT_LAT_SUM_NS,	/* u64: sum of latencies */
	FSLOAD_A_OPSTAT_LAT_MIN_NS,	/* u64 */
	FSLOAD_A_OPSTAT_LAT_MAX_NS,	/* u64 */
	FSLOAD_A_OPSTAT_PAD,
	/* nest: FSLOAD_A_BUCKET_*, repeated, ascending, empty ones omitted */
	FSLOAD_A_OPSTAT_BUCKET,

	__FSLOAD_A_OPSTAT_MAX,
	FSLOAD_A_OPSTAT_MAX = __FSLOAD_A_OPSTAT_MAX - 1
};

/*
 * A latency histogram bucket: COUNT operations took from LOW_NS to below
 * HIGH_NS.  Buckets are log-linear: 1 ns wide below 16 ns, then 8 per
 * power of two (12.5% of their value wide).
 */
enum {
	FSLOAD_A_BUCKET_LOW_NS = 1,	/* u64 */
	FSLOAD_A_BUCKET_HIGH_NS,	/* u64: exclusive */
	FSLOAD_A_BUCKET_COUNT,		/* u64 */
	FSLOAD_A_BUCKET_PAD,

	__FSLOAD_A_BUCKET_MAX,
	FSLOAD_A_BUCKET_MAX = __FSLOAD_A_BUCKET_MAX - 1
};

/* A thread other than the workers, and its CPU time during a phase. */
enum {
	FSLOAD_A_THREAD_NAME = 1,	/* string: its comm (privileged) */
	FSLOAD_A_THREAD_PID,		/* u32: thread id (privileged) */
	FSLOAD_A_THREAD_CPU_NS,		/* u64 */
	FSLOAD_A_THREAD_PAD,
	FSLOAD_A_THREAD_KERNEL,		/* u8: 1 for a kernel thread */

	__FSLOAD_A_THREAD_MAX,
	FSLOAD_A_THREAD_MAX = __FSLOAD_A_THREAD_MAX - 1
};

/*
 * One sample of a job's time series: at TIME_NS (CLOCK_MONOTONIC), in
 * phase PHASE_INDEX, the operations and bytes done so far in that phase,
 * per op type, summed over the workers (an operation counts when it
 * ends), and IO_BYTES.  Differences between consecutive samples of a
 * phase are the work of that interval.
 */
enum {
	FSLOAD_A_SAMPLE_SEQ = 1,	/* u64: sequence number, from 0 */
	FSLOAD_A_SAMPLE_TIME_NS,	/* u64 */
	FSLOAD_A_SAMPLE_PHASE_INDEX,	/* u32 */
	FSLOAD_A_SAMPLE_OP,		/* nest: FSLOAD_A_SAMPLE_OP_*, repeated */
	FSLOAD_A_SAMPLE_PAD,
	FSLOAD_A_SAMPLE_IO_BYTES,	/* u64: bytes read and written by the
					 * workers so far, all phases, as each
					 * call returns (a large file's
					 * progress within one operation)
					 */

	__FSLOAD_A_SAMPLE_MAX,
	FSLOAD_A_SAMPLE_MAX = __FSLOAD_A_SAMPLE_MAX - 1
};

enum {
	FSLOAD_A_SAMPLE_OP_TYPE = 1,	/* u8: enum fsload_op */
	FSLOAD_A_SAMPLE_OP_OPS,		/* u64: successful operations */
	FSLOAD_A_SAMPLE_OP_BYTES,	/* u64 */
	FSLOAD_A_SAMPLE_OP_PAD,
	FSLOAD_A_SAMPLE_OP_LAT_SUM_NS,	/* u64: of the successful ones */
	FSLOAD_A_SAMPLE_OP_LAT_P50_NS,	/* u64: median latency of the
					 * interval since the phase's
					 * previous sample; absent without
					 * operations in it
					 */
	FSLOAD_A_SAMPLE_OP_LAT_P99_NS,	/* u64: its 99th percentile */

	__FSLOAD_A_SAMPLE_OP_MAX,
	FSLOAD_A_SAMPLE_OP_MAX = __FSLOAD_A_SAMPLE_OP_MAX - 1
};

/* A worker of a job (FSLOAD_CMD_WORKER_GET). */
enum {
	FSLOAD_A_WORKER_INDEX = 1,	/* u32: thread index, from 0 */
	FSLOAD_A_WORKER_PID,		/* u32: its thread id */
	FSLOAD_A_WORKER_CPU,		/* u32: the CPU it is bound to (a job
					 * with WORKER_CPU only)
					 */

	__FSLOAD_A_WORKER_MAX,
	FSLOAD_A_WORKER_MAX = __FSLOAD_A_WORKER_MAX - 1
};

/* A worker that made no progress for the job's STALL_MS. */
enum {
	FSLOAD_A_STALL_THREAD = 1,	/* u32: worker index */
	FSLOAD_A_STALL_PID,		/* u32: its thread id */
	FSLOAD_A_STALL_PHASE_INDEX,	/* u32 */
	FSLOAD_A_STALL_OP,		/* u8: the phase's op type, when it
					 * has only one
					 */
	FSLOAD_A_STALL_START_NS,	/* u64: last seen making progress
					 * (CLOCK_MONOTONIC)
					 */
	FSLOAD_A_STALL_DURATION_NS,	/* u64: without progress so far, or
					 * until it moved again
					 */
	FSLOAD_A_STALL_ENDED,		/* u8: 1 once it moved again */
	FSLOAD_A_STALL_PAD,

	__FSLOAD_A_STALL_MAX,
	FSLOAD_A_STALL_MAX = __FSLOAD_A_STALL_MAX - 1
};

#endif /* _UAPI_LINUX_FSLOAD_H */
