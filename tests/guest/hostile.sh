#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A hostile neighbour (issue 12): another process, root or not, attacks a
# running job's tree.  Every job must end, with success or a clear error
# in its results; no oops, no hang (scripts/vm-run scans dmesg, then
# unloads the module and unmounts the filesystem), and nothing outside
# the job's own tree touched: canaries are compared byte for byte.
#
#   tests/guest/hostile.sh [CASE...]     default: every case
#   FSLOAD_PAUSE_MS=N    the pause in which a trap is planted (default 8000,
#                        longer in a slow guest: lib.sh's
#                        pause_for_this_guest, as tests/guest/faults.sh)
#   FSLOAD_CHAOS_SEC=N   how long the attacker of each chaos case runs
#                        (default 8; make check-faults: 60)
#
# Cases:
#   trap_*        a trap planted in a pause between two phases, with the
#                 outcome the system calls would give: a directory
#                 replaced by a symlink to its renamed self (followed, the
#                 job completes), by a regular file or a FIFO (ENOTDIR), a
#                 file by a FIFO (the read waits, as open(2) does, and the
#                 job still stops) or a device node (refused: EINVAL), a
#                 symlink out of the tree, absolute or by "..", a tmpfs
#                 mounted in the tree (EXDEV), the job directory deleted,
#                 the filesystem filled (ENOSPC)
#   swap_jobdir   an unprivileged user who owns the target directory puts
#                 a root-owned directory in the job directory's place: it
#                 survives, the job's tree goes from where it was moved
#   join_reused_ENGINE
#                 a multi-client run in one directory (--one-dir) whose rank
#                 0's job has ended and removed its directory: another
#                 user, or the starter's own process, makes a directory of
#                 its name with its inode number again in the shared
#                 target (mode 1777); rank 1's job, told rank 0's
#                 directory, must refuse it and make nothing in it (and
#                 joins rank 0's directory while it is there); ENGINE
#                 kernel or user (tests/build/fsloadctl-steps runs the
#                 ranks one after another)
#   landlock      a Landlock-confined starter: what it may not do, its job
#                 may not do either (mkdir, unlink)
#   fs_types      a job on ext4, xfs, btrfs, tmpfs works; on cgroup2, proc,
#                 sysfs and a read-only mount it is refused clearly
#   private       another user (uid 1000) asks about root's profiled job
#                 on xfs: its CPU profile is refused, its status and
#                 workers come without the owner's netlink port and the
#                 thread ids, which root gets; once xfs is unloaded, root's
#                 profile names its frames "[unknown]", never an address
#   chaos_PROFILE every profile under a random attacker (renames, symlinks
#                 in and out, files, FIFOs, chmod 000, tmpfs mounts,
#                 deletion, a full filesystem) for FSLOAD_CHAOS_SEC
set -uo pipefail

# shellcheck source=tests/guest/lib.sh
. "$(dirname "$0")/lib.sh"
lib_need dir module

PAUSE=${FSLOAD_PAUSE_MS:-$(pause_for_this_guest)}
echo "# traps are planted in a pause of $PAUSE ms"
CHAOS_SEC=${FSLOAD_CHAOS_SEC:-8}
canary=$FSLOAD_DIR/canary	# on the job's filesystem: renames can reach it
canary2=/tmp/canary		# on another one

# The mounts under $FSLOAD_DIR, deepest first.
mounts_in_dir() {
	awk -v d="$FSLOAD_DIR/" 'index($2, d) == 1 { print $2 }' /proc/mounts |
		sort -r
}

# What a case may leave when it fails: running jobs, mounts, a full
# filesystem, the directories it made.  Each case (a subshell) runs it
# at its exit, the suite at its own.
case_cleanup() {
	stop_running 30
	mounts_in_dir | while read -r m; do umount -l "$m"; done
	rm -f "$FSLOAD_DIR/fill"
	find "$FSLOAD_DIR" -mindepth 1 -maxdepth 1 ! -name lost+found \
		-exec chmod -R u+rwx {} + -exec rm -rf {} + 2>/dev/null
}

hostile_cleanup() {
	case_cleanup
	rm -rf "$work" "$canary2"
}
trap hostile_cleanup EXIT

# Each case starts with the canaries (and cleans up at its end).
make_canaries() {
	local d

	trap case_cleanup EXIT
	for d in "$canary" "$canary2"; do
		mkdir -p "$d/sub"
		echo "canary $d" >"$d/keep"
		head -c 10000 /dev/urandom >"$d/sub/data"
		printf 'f%08d\n' 499 >"$d/$(printf 'f%08d' 499)"
	done
	snapshot "$canary" "$canary2" >"$work/canary.before"
}

check_canaries() {
	snapshot "$canary" "$canary2" >"$work/canary.after"
	diff -u "$work/canary.before" "$work/canary.after" ||
		fail "something outside the job's tree changed"
}

# The job's outcome as "STATE ERRNO", and its message.
outcome() {
	jget '"%s %s" % (j["job"]["state"], j["job"]["errno"] or 0)' "$1"
}

# Nothing of the job left: no directory, no worker; the tmpfs mounts a
# case made are gone first.
all_clean() {
	no_job_dirs
	no_workers
	check_canaries
}

# trap_case NAME WANT PROGRAM... -- : start PROGRAM (500 files, 10 a
# directory; its phase 1 a pause), plant trap NAME in the pause, and want
# the outcome WANT ("done 0", "failed 20" ...) with nothing outside the
# tree touched.  t000/d00049 is the last directory: the pause comes
# before the phase that reaches it.
t_trap() {
	local name=$1 want=$2 id dir d st pause=0 a
	shift 2

	for a; do
		case $a in null@*) break ;; esac
		pause=$((pause + 1))
	done
	make_canaries
	# On a loaded host the pause may be over before the trap is in
	# place: then it is planted in a new job, up to three times.
	for a in 1 2 3; do
		id=$(start_prog --dir "$FSLOAD_DIR" --files 500 \
			--files-per-dir 10 "$@") || fail "start"
		dir=$FSLOAD_DIR/fsload-$id
		d=$dir/t000/d00049
		if [ "$(wait_phase_quiet "$id" "$pause")" = "$pause" ] &&
			plant "$name" "$dir" &&
			[ "$(phase_of "$id")" = "$pause" ]; then
			break
		fi
		echo "job $id: missed the pause, again"
		fsloadctl stop "$id" >/dev/null 2>&1
		wait_ended "$id" 120
		case_cleanup
		make_canaries
		[ "$a" -lt 3 ] || fail "missed the pause three times"
	done
	echo "trap $name planted"
	if [ "$name" = fifo_for_file ]; then
		# open(2) of a FIFO waits for a writer: so does the job, until
		# it is stopped.
		sleep $((PAUSE / 1000 + 2))
		[ "$(state_of "$id")" = running ] || fail "the job did not wait at the FIFO"
		fsloadctl stop "$id" >/dev/null || fail "stop"
	fi
	wait_ended "$id" 120
	st=$(outcome "$work/ended.json")
	echo "job $id: $st: $(jget 'j["job"]["error"]' "$work/ended.json")"
	if [ "$name" = tmpfs_in_tree ]; then
		[ "$(find "$d" -mindepth 1 -printf '%P %s\n')" = "f00000490 0" ] ||
			fail "the job changed the tmpfs: $(find "$d" -mindepth 1 | head -3)"
		umount "$d" || fail "umount the tmpfs"
		# The job could not remove what was under the mount.
		[ -d "$dir" ] || fail "the job removed its tree across the mount"
		rm -rf "$dir"
	fi
	rm -f "$FSLOAD_DIR/fill"
	[ "$st" = "$want" ] || fail "job $id: $st, wanted $want"
	all_clean
}

# Fill the filesystem, the root's reserve too (the job runs as root).
fill_fs() {
	fallocate -l "$(($(stat -f -c '%f * %S' "$FSLOAD_DIR")))" \
		"$FSLOAD_DIR/fill" 2>/dev/null
	dd if=/dev/zero of="$FSLOAD_DIR/fill" bs=64k oflag=append \
		conv=notrunc 2>/dev/null
	return 0
}

# plant NAME JOBDIR: plant trap NAME at t000/d00049 of JOBDIR.
plant() {
	local dir=$2 d=$2/t000/d00049

	case $1 in
	symlink_sibling)
		mv "$d" "$dir/t000/real49" && ln -s real49 "$d" ;;
	file_for_dir)
		rm -rf "$d" && echo x >"$d" ;;
	fifo_for_dir)
		rm -rf "$d" && mkfifo "$d" ;;
	fifo_for_file)
		rm -f "$d/f00000499" && mkfifo "$d/f00000499" ;;
	dev_for_file)
		rm -f "$d/f00000499" && mknod "$d/f00000499" c 1 3 ;;
	symlink_abs)
		rm -rf "$d" && ln -s "$canary" "$d" ;;
	symlink_dotdot)
		rm -rf "$d" && ln -s ../../canary "$d" ;;
	tmpfs_in_tree)
		mount -t tmpfs -o size=1m none "$d" && touch "$d/f00000490" ;;
	delete_jobdir)
		rm -rf "$dir" ;;
	fill)
		fill_fs ;;
	*) return 1 ;;
	esac
}

# wait_phase_quiet ID N: the phase job ID is in once it reached N or
# passed it (120 s: the phases before the pause create 500 files, which
# took the debug kernel over 30 s on a loaded host).
wait_phase_quiet() {
	local i p=

	for ((i = 0; i < 1200; i++)); do
		p=$(phase_of "$1")
		[ "$p" != None ] && [ -n "$p" ] && [ "$p" -ge "$2" ] && break
		sleep 0.1
	done
	echo "$p"
}

# The cases: trap, outcome, program.
traps=(
	"symlink_sibling|done 0|create null@P unlink"
	"symlink_sibling|done 0|null@P mkdir rmdir"
	"file_for_dir|failed 20|create null@P unlink"
	"file_for_dir|failed 20|null@P create"
	"fifo_for_dir|failed 20|null@P mkdir"
	"fifo_for_file|stopped 0|create null@P read"
	"dev_for_file|failed 22|create null@P read"
	"symlink_abs|failed 18|create null@P unlink"
	"symlink_abs|failed 18|create null@P stat"
	"symlink_dotdot|failed 18|create null@P unlink"
	"tmpfs_in_tree|failed 18|create null@P unlink"
	"tmpfs_in_tree|failed 18|create null@P read"
	"delete_jobdir|failed 2|create null@P unlink"
	"fill|failed 28|null@P mkdir"
)

# An unprivileged user owning the target directory swaps a root-owned
# directory into the job directory's name: the job's end must not remove
# it, and must remove its own tree where it was moved.
t_swap_jobdir() {
	local d=$FSLOAD_DIR/u1000 id st

	make_canaries
	mkdir -p "$d/precious/sub"
	chown 1000:1000 "$d"
	echo "root's" >"$d/precious/keep"
	head -c 5000 /dev/urandom >"$d/precious/sub/data"
	snapshot "$d/precious" | sed "s|$d/precious|P|" >"$work/precious.before"
	id=$(start_prog --dir "$d" --files 500 --files-per-dir 10 \
		create "null@$PAUSE" stat) || fail "start"
	wait_phase "$id" 1
	setpriv --reuid=1000 --regid=1000 --clear-groups sh -c \
		"mv '$d/fsload-$id' '$d/away' && mv '$d/precious' '$d/fsload-$id'" ||
		fail "uid 1000 could not swap the directories"
	wait_ended "$id" 120
	st=$(outcome "$work/ended.json")
	echo "job $id: $st"
	snapshot "$d/fsload-$id" | sed "s|$d/fsload-$id|P|" >"$work/precious.after"
	diff -u "$work/precious.before" "$work/precious.after" ||
		fail "the job's end removed or changed root's directory put in its place"
	[ ! -e "$d/away" ] || fail "the job's own tree, moved to $d/away, is left"
	[ "$st" = "done 0" ] || fail "job $id: $st, wanted done"
	rm -rf "$d"
	no_workers
	check_canaries
}

steps=$(cd "$(dirname "$0")/.." && pwd)/build/fsloadctl-steps
shared=$FSLOAD_DIR/shared

# step_rank R ENGINE OUT ARGS...: rank R of 2 of a run in one directory
# (--one-dir) in $shared, its output in OUT, rank 0's broadcasts in
# $work/bcast.N; its exit status (rank 0's is 1: rank 1's part is lost).
step_rank() {
	local r=$1 eng=$2 out=$3

	shift 3
	FSLOAD_STEP_RANK=$r FSLOAD_STEP_RANKS=2 FSLOAD_STEP_BCAST=$work/bcast \
		timeout 300 "$steps" start --engine "$eng" --one-dir \
		--profile metadata --files 5 --phases create --dir "$shared" \
		--quiet --idle-ms 0 "$@" >"$out" 2>&1
}

# told name|ino: what rank 0 told the others of its job directory (its
# name, then its inode number, as ctl/engine/ranks.c's struct rank_join):
# its last broadcast ($work/bcast.N, N counting from 0 in each run).
told() {
	python3 -c 'import glob, struct, sys
f = max(glob.glob(sys.argv[1] + ".*"), key=lambda p: int(p.rsplit(".", 1)[1]))
b = open(f, "rb").read()
print(b[:64].split(b"\0")[0].decode() if sys.argv[2] == "name" else struct.unpack_from("=Q", b, 64)[0])' \
		"$work/bcast" "$1"
}

# take_inode UID NAME INO: as UID, make directory NAME in $shared until it
# has inode number INO (the others it gets are put aside, then removed;
# ext4 without a journal reuses an inode only seconds after its deletion).
take_inode() {
	setpriv --reuid="$1" --regid="$1" --clear-groups \
		python3 - "$shared" "$2" "$3" <<'PY'
import os, sys, time
d, name, ino = sys.argv[1], sys.argv[2], int(sys.argv[3])
p, aside = os.path.join(d, name), []
for i in range(3000):
    os.mkdir(p)
    if os.stat(p).st_ino == ino:
        break
    aside.append(os.path.join(d, ".aside.%d" % i))
    os.rename(p, aside[-1])
    if i % 20 == 19:
        time.sleep(0.2)
else:
    sys.exit("inode %d not reused in 3000 directories" % ino)
for q in aside:
    os.rmdir(q)
print("%s: inode %d again, at the %d. directory" % (name, ino, len(aside) + 1))
PY
}

t_join_reused() {
	local eng=$1 name ino who want

	make_canaries
	[ -x "$steps" ] || fail "no $steps (make -C tests)"
	mkdir -p "$shared"
	chmod 1777 "$shared"
	# While rank 0's directory is there, rank 1's job joins it.
	step_rank 0 "$eng" "$work/r0.out" --keep
	name=$(told name)
	[[ -n $name && -d $shared/$name ]] ||
		fail "rank 0 made no directory: $(tail -3 "$work/r0.out")"
	step_rank 1 "$eng" "$work/r1.out" --keep
	[ -n "$(find "$shared/$name" -name 'file.mdtest.1.*')" ] ||
		fail "rank 1 did not join rank 0's directory: $(tail -3 "$work/r1.out")"
	rm -rf "${shared:?}/$name"
	# Once it is gone, its name and inode number taken by another user
	# (the owner differs), or by the starter's own process (the file
	# handle differs: the inode's generation).
	for who in 1000 0; do
		step_rank 0 "$eng" "$work/a0.out"
		name=$(told name)
		ino=$(told ino)
		[[ -n $name && ! -e $shared/$name ]] ||
			fail "rank 0's job left its directory $name: $(tail -3 "$work/a0.out")"
		take_inode "$who" "$name" "$ino" ||
			fail "uid $who could not get inode $ino again: the case would prove nothing"
		[ "$(stat -c %i "$shared/$name")" = "$ino" ] ||
			fail "$name is not inode $ino"
		# (a rank but 0 exits 0: rank 0's exit status is the run's)
		step_rank 1 "$eng" "$work/a1.out"
		[ -z "$(find "$shared/$name" -mindepth 1 | head -3)" ] ||
			fail "rank 1 joined the directory uid $who made: $(find "$shared/$name" -mindepth 1 | head -3)"
		if [ "$who" = 0 ]; then
			want="join_handle: another file handle"
		else
			want="join_dir: not owned by this job's starter"
		fi
		grep -F "$want" "$work/a1.out" ||
			fail "uid $who: not refused with '$want': $(tail -3 "$work/a1.out")"
		rm -rf "${shared:?}/$name"
	done
	rm -rf "$shared"
	no_job_dirs
	check_canaries
}

# landlock HANDLED ALLOWED CMD...: run CMD restricted by a Landlock
# ruleset that handles HANDLED and allows ALLOWED beneath $FSLOAD_DIR
# (access names as in <linux/landlock.h>, comma-separated).  Exit 4 when
# the kernel has no Landlock.
landlock() {
	python3 - "$@" <<'PY'
import ctypes, os, struct, sys
bits = {n: 1 << i for i, n in enumerate(
    "execute write_file read_file read_dir remove_dir remove_file make_char "
    "make_dir make_reg make_sock make_fifo make_block make_sym".split())}
def mask(s):
    return sum(bits[n] for n in s.split(",") if n)
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
abi = libc.syscall(444, None, 0, 1)		# LANDLOCK_CREATE_RULESET_VERSION
if abi < 1:
    print("no Landlock in this kernel"); sys.exit(4)
attr = ctypes.create_string_buffer(struct.pack("Q", mask(sys.argv[1])))
fd = libc.syscall(444, attr, 8, 0)
if fd < 0:
    sys.exit("landlock_create_ruleset: errno %d" % ctypes.get_errno())
if sys.argv[2]:
    d = os.open(os.environ["FSLOAD_DIR"], os.O_PATH)
    rule = ctypes.create_string_buffer(struct.pack("=Qi", mask(sys.argv[2]), d))
    if libc.syscall(445, fd, 1, rule, 0) < 0:		# LANDLOCK_RULE_PATH_BENEATH
        sys.exit("landlock_add_rule: errno %d" % ctypes.get_errno())
if libc.prctl(38, 1, 0, 0, 0) < 0 or libc.syscall(446, fd, 0) < 0:
    sys.exit("landlock_restrict_self: errno %d" % ctypes.get_errno())
os.execvp(sys.argv[3], sys.argv[3:])
PY
}

t_landlock() {
	local out=$work/ll.json err rc st

	make_canaries
	# May make nothing: the job directory itself is refused.
	err=$(landlock make_dir,make_reg "" fsloadctl start --profile smallfiles \
		--files 20 --dir "$FSLOAD_DIR" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" -ne 4 ] || skip "no Landlock"
	echo "may not mkdir: exit $rc: $err"
	[ "$rc" -eq 3 ] || fail "a starter that may not mkdir started a job (exit $rc)"
	echo "$err" | grep -q 'no permission' || fail "no clear refusal: $err"
	# May make directories and files but not remove them: the unlinks fail.
	landlock make_dir,make_reg,remove_file make_dir,make_reg \
		fsloadctl --json start --profile smallfiles --files 20 \
		--dir "$FSLOAD_DIR" >"$out"
	rc=$?
	st=$(jget '"%s %s" % (j["job"]["state"], j["job"]["errno"] or 0)' "$out")
	echo "may not unlink: exit $rc: $st: $(jget 'j["job"]["error"]' "$out")"
	[ "$st" = "failed 13" ] || fail "job: $st, wanted failed with EACCES"
	[ "$(jget '[p["name"] for p in j["phases"] if p["errors"]]' "$out")" = unlink ] ||
		fail "not the unlinks that failed"
	find "$FSLOAD_DIR" -maxdepth 1 -name 'fsload-*' -exec rm -rf {} +
	all_clean
}

# A job on every filesystem type the guest has: it works, or the start
# is refused with a clear message and nothing made.
t_fs_types() {
	local m=$work/mnt fs img out=$work/fs.out rc bad=

	make_canaries
	mkdir -p "$m"
	try_fs() {	# LABEL WANT DIR: WANT "ok" or a message part
		fsloadctl start --profile smallfiles --files 20 --quiet \
			--dir "$3" >"$out" 2>&1
		rc=$?
		echo "$1: exit $rc: $(grep -m1 -i 'fsloadctl:\|summary' "$out")"
		if [ "$2" = ok ]; then
			[ "$rc" -eq 0 ] || bad="$bad $1"
		elif [ "$rc" -ne 3 ] || ! grep -q "$2" "$out"; then
			bad="$bad $1"
		fi
		[ -z "$(find "$3" -maxdepth 1 -name 'fsload-*' 2>/dev/null)" ] ||
			bad="$bad $1(left-behind)"
	}
	try_fs "$(findmnt -no FSTYPE "$FSLOAD_DIR")" ok "$FSLOAD_DIR"
	mount -t tmpfs -o size=64m none "$m" && try_fs tmpfs ok "$m" && umount "$m"
	modprobe loop 2>/dev/null
	for fs in xfs btrfs; do
		command -v "mkfs.$fs" >/dev/null || continue
		img=$FSLOAD_DIR/$fs.img
		truncate -s 320M "$img"
		if "mkfs.$fs" -q -f "$img" >/dev/null 2>&1 &&
			mount -o loop "$img" "$m" 2>/dev/null; then
			try_fs "$fs" ok "$m"
			umount "$m"
		else
			echo "$fs: no loop mount here"
		fi
		rm -f "$img"
	done
	mount -t cgroup2 none "$m" 2>/dev/null ||
		mount | grep -q 'type cgroup2' || echo "cgroup2: not mountable"
	if findmnt -no FSTYPE "$m" | grep -q cgroup2; then
		try_fs cgroup2 'kernel interface' "$m"
		umount "$m"
	fi
	try_fs proc 'kernel interface' /proc
	try_fs sysfs 'kernel interface' /sys
	mkdir -p "$FSLOAD_DIR/ro"
	mount --bind "$FSLOAD_DIR/ro" "$m" && mount -o remount,bind,ro "$m" &&
		try_fs read-only 'read-only' "$m"
	umount "$m" 2>/dev/null
	rmdir "$FSLOAD_DIR/ro"
	[ -z "$bad" ] || fail "wrong outcome on:$bad"
	all_clean
}

# The folded stacks of job ID as USER sees them (fsloadctl results
# --folded), in DIR; fsloadctl's stderr in DIR/err, its status returned.
folded_as() {	# USER ID DIR
	local rc

	rm -rf "$3"
	mkdir -p "$3" && chown "$1:$1" "$3"
	setpriv --reuid="$1" --regid="$1" --clear-groups \
		fsloadctl results "$2" --folded "$3/p" >/dev/null 2>"$3/err"
	rc=$?
	sed 's/^/  /' "$3/err"
	return "$rc"
}

t_private() {
	local m=$FSLOAD_DIR/xfs img=$FSLOAD_DIR/xfs.img id
	local out=$work/private.json
	local who st addr unknown

	make_canaries
	command -v mkfs.xfs >/dev/null || skip "no mkfs.xfs"
	modprobe loop 2>/dev/null
	mkdir -p "$m"
	truncate -s 320M "$img"
	if ! mkfs.xfs -q -f "$img" >/dev/null 2>&1 ||
		! mount -o loop "$img" "$m"; then
		skip "no xfs on a loop device here"
	fi
	fsloadctl --json start --profile smallfiles --files 300 --threads 2 \
		--cpu-profile 10000 --dir "$m" --quiet >"$out" ||
		fail "profiled job on xfs: exit $?"
	id=$(jget 'j["job"]["id"]' "$out")

	# uid 1000: no profile, no owner's port, no thread ids.
	chmod 755 "$work"
	folded_as 1000 "$id" "$work/u1000"
	grep -q "may read its CPU profile" "$work/u1000/err" ||
		fail "uid 1000: no clear refusal"
	[ -z "$(find "$work/u1000" -name '*.folded')" ] ||
		fail "uid 1000: folded stacks written"
	for who in 0 1000; do
		setpriv --reuid=$who --regid=$who --clear-groups \
			fsloadctl --json status "$id" >"$work/st$who.json" ||
			fail "uid $who: status exited $?"
		setpriv --reuid=$who --regid=$who --clear-groups \
			fsloadctl --json list >"$work/ls$who.json" ||
			fail "uid $who: list exited $?"
		setpriv --reuid=$who --regid=$who --clear-groups \
			fsloadctl status "$id" | grep -E '^(workers|owner):' |
			sed "s/^/  uid $who: /"
	done
	check_json "$work/st1000.json" '
job = j["job"]
if job["owner_portid"] is not None: bad("uid 1000 sees owner_portid %r" % job["owner_portid"])
if job["worker_pids"] is not None: bad("uid 1000 sees worker_pids %r" % job["worker_pids"])
' || fail "uid 1000's status"
	check_json "$work/ls1000.json" '
for job in j["jobs"]:
    if job["owner_portid"] is not None or job["worker_pids"] is not None:
        bad("uid 1000 lists job %d with owner_portid %r, worker_pids %r" %
            (job["id"], job["owner_portid"], job["worker_pids"]))
' || fail "uid 1000's list"
	check_json "$work/st0.json" '
job = j["job"]
if job["owner_portid"] is None: bad("root has no owner_portid")
if len(job["worker_pids"] or []) != 2: bad("root sees worker_pids %r" % job["worker_pids"])
' || fail "root's status"

	# root, once the module its workers ran through is gone.
	umount "$m" || fail "umount xfs"
	rm -f "$img"
	rmmod xfs || skip "xfs cannot be unloaded here (built in, or in use)"
	folded_as 0 "$id" "$work/root"
	st=$?
	modprobe xfs 2>/dev/null
	[ "$st" -eq 0 ] || fail "root: results --folded exited $st"
	[ -n "$(find "$work/root" -name '*.folded')" ] ||
		fail "root: no folded stacks"
	addr=$(cat "$work/root"/*.folded | grep -oE '0x[0-9a-f]{8,}' | head -3)
	unknown=$(cat "$work/root"/*.folded | grep -c '\[unknown\]')
	echo "root: $unknown stacks with an unknown frame; addresses: ${addr:-none}"
	[ -z "$addr" ] || fail "kernel addresses in the profile: $addr"
	[ "$unknown" -gt 0 ] || fail "no frame of the unloaded xfs in the profile"
	check_canaries
}

# attacker DIR SECONDS SEED: tamper with random directories and files
# of the tree at DIR for SECONDS; prints how many attacks it tried.
attacker() {
	local dir=$1 end=$((SECONDS + $2)) n=0 t v k victims=$work/victims
	RANDOM=$3

	while [ $SECONDS -lt $end ] && [ -d "$dir" ]; do
		find "$dir" -xdev -mindepth 1 -maxdepth 4 ! -type l \
			>"$victims" 2>/dev/null
		k=$(wc -l <"$victims")
		[ "$k" -gt 0 ] || { sleep 0.2; continue; }
		v=$(sed -n "$((RANDOM % k + 1))p" "$victims")
		t=$((RANDOM % 11))
		case $t in
		0) mv "$v" "$v.m" && ln -s "$(basename "$v").m" "$v" ;;
		1) mv "$v" "$FSLOAD_DIR/stolen$n" ;;
		2) mv "$v" "$v.x" && ln -s "$canary" "$v" ;;
		3) mv "$v" "$v.y" && ln -s ../../../../canary "$v" ;;
		4) rm -rf "$v" && echo x >"$v" ;;
		5) rm -rf "$v" && mkfifo "$v" ;;
		6) chmod 000 "$v" ;;
		7) [ -d "$v" ] && mount -t tmpfs -o size=1m none "$v" ;;
		8) rm -rf "$v" ;;
		9) fill_fs; sleep 0.3; rm -f "$FSLOAD_DIR/fill" ;;
		10) mv "$v" "$v.z" && mv "$v.z" "$v" ;;
		esac 2>/dev/null
		n=$((n + 1))
		sleep 0.$((RANDOM % 3))
	done
	echo "$n"
}

# chaos PROFILE ARGS...: PROFILE under the attacker (fsloadctl waits for
# the job, counts extents and removes kept trees as a user runs it); the
# job must end (stopped after the attack if it still runs) and touch
# nothing outside.
t_chaos() {
	local id m n left ended=$work/chaos.json pid i

	make_canaries
	fsloadctl --json start --quiet --dir "$FSLOAD_DIR" --progress-ms 0 \
		--stall-sec 0 "$@" >"$ended" 2>"$work/chaos.err" &
	pid=$!
	for ((i = 0; i < 300; i++)); do
		id=$(running_ids | awk '{ print $1 }')
		[ -n "$id" ] && [ -d "$FSLOAD_DIR/fsload-$id" ] && break
		sleep 0.1
	done
	[ -n "$id" ] || fail "no job started: $(cat "$work/chaos.err")"
	n=$(attacker "$FSLOAD_DIR/fsload-$id" "$CHAOS_SEC" "$id")
	echo "$n attacks tried"
	[ "$(state_of "$id")" = running ] && fsloadctl stop "$id" >/dev/null
	for ((i = 0; i < 1200; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		dump_workers
		fail "job $id did not end within 120 s of its stop"
	fi
	wait "$pid"
	echo "job $id: exit $?: $(outcome "$ended"): $(jget 'j["job"]["error"]' "$ended")"
	rm -f "$FSLOAD_DIR/fill"
	# The attacker's mounts, then whatever the job could not remove.
	mounts_in_dir >"$work/mounts"
	while read -r m; do
		umount "$m" || fail "umount $m"
	done <"$work/mounts"
	left=$(find "$FSLOAD_DIR" -maxdepth 1 -name 'fsload-*')
	[ -z "$left" ] && echo "the job removed its whole tree" ||
		echo "left (reported by the job): $(find "$left" | wc -l) entries"
	find "$FSLOAD_DIR" -maxdepth 1 -name 'fsload-*' -exec chmod -R u+rwx {} + \
		-exec rm -rf {} +
	rm -rf "$FSLOAD_DIR"/stolen*
	all_clean
	[ "$n" -gt 0 ] || fail "the job ended before the first attack"
}

# Each long enough to be attacked for FSLOAD_CHAOS_SEC, then stopped.
chaos=(
	"smallfiles|--profile smallfiles --files 100000 --files-per-dir 100"
	"metadata|--profile metadata --items 100000 --items-per-dir 100"
	"largefile|--profile largefile --files 5 --size 64M"
	"randrw|--profile randrw --files 8 --size 1M --time 600"
	"mix|--profile mix --files 400 --time 600"
	"untar|--profile untar --scale 1"
)

want=("$@")
selected() {
	local w

	[ ${#want[@]} -eq 0 ] && return 0
	for w in "${want[@]}"; do
		case $1 in "$w" | "$w"_*) return 0 ;; esac
	done
	return 1
}

cases=()
for t in "${traps[@]}"; do
	IFS='|' read -r name _ prog <<<"$t"
	selected "trap_$name" && cases+=("trap")
done
for c in swap_jobdir join_reused_kernel join_reused_user landlock fs_types private; do
	selected "$c" && cases+=("$c")
done
for c in "${chaos[@]}"; do
	selected "chaos_${c%%|*}" && cases+=("chaos")
done
ktap_plan "${#cases[@]}"
for t in "${traps[@]}"; do
	IFS='|' read -r name outc prog <<<"$t"
	selected "trap_$name" || continue
	# shellcheck disable=SC2086 # the program's phases
	ktap_run "trap_${name}: ${prog//@P/}" t_trap "$name" "$outc" \
		${prog//@P/@$PAUSE}
done
for c in swap_jobdir landlock fs_types private; do
	selected "$c" && ktap_run "$c" "t_$c"
done
for e in kernel user; do
	selected "join_reused_$e" && ktap_run "join_reused_$e" t_join_reused "$e"
done
for c in "${chaos[@]}"; do
	selected "chaos_${c%%|*}" || continue
	# shellcheck disable=SC2086 # the profile's options
	ktap_run "chaos_${c%%|*}" t_chaos ${c#*|}
done
ktap_finish
