#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The default test suite (`make check`): every suite runs in its own QEMU
# guest through scripts/vm-run, one guest per filesystem set-up, and
# prints KTAP.  A guest whose kernel log shows a WARNING, BUG, Oops or
# lockdep report fails (vm-run checks dmesg).  The last line is
# "N passed, N failed"; the exit status is non-zero on any failure.
#
#   tests/run-all.sh [SUITE...]     default: all; SUITE from the table below
#   FSLOAD_CHECK_JOBS=N             guest suites run N at a time (default 2
#                                   on 2 or more CPUs, else 1); each suite's
#                                   output is printed whole when it ends, or
#                                   live when only one runs at a time
#   VM_ARGS="--kernel 6.12..."      extra scripts/vm-run options
#   KERNEL=6.1|6.12|7.x|RELEASE     boot that Debian kernel (as make's
#                                   KERNEL): its release, and the root of
#                                   scripts/kernels.sh as the guest's root
#                                   when the kernel lives there
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1

if [ -n "${KERNEL:-}" ]; then
	k=$(scripts/kernels.sh resolve "$KERNEL") || exit 1
	read -r krelease kroot <<<"$k"
	VM_ARGS="--kernel $krelease${kroot:+ --root $kroot} ${VM_ARGS:-}"
	echo "# kernel $krelease${kroot:+, root $kroot}"
fi

# name | vm-run options, or "host" | command (in the guest, or on the host)
# Host suites come last: tests/install.sh rebuilds module/fsload.ko for the
# host's kernel, and they run once, not per kernel (see below).  fuzz,
# faults and faults-dm are issue 7's netlink fuzzer (100 000 cases, seed 1)
# and fault cases (tests/guest/faults.sh; xfs shutdown runs in the xfs
# guest).
#
# Guest suites start in this order, longest first, so that N at a time ends
# soonest; the guests mostly wait on QEMU's emulation of one another's
# CPUs, and the timing-sensitive cases (hostile, stall) keep their margins
# with two on two host CPUs (measured: Documentation/testing.rst).
suites=(
	"hostile|--fs ext4 --size 512 --timeout 1500|tests/guest/hostile.sh trap_symlink_sibling trap_fifo trap_dev trap_symlink_dotdot trap_tmpfs trap_delete trap_fill swap_jobdir join_reused_kernel join_reused_user landlock fs_types private chaos_smallfiles"
	"ext4|--fs ext4 --size 512 --timeout 1200|tests/guest/module.sh; r1=\$?; tests/guest/smallfiles.sh; r2=\$?; tests/build/fsload_nl_test; r3=\$?; tests/guest/profiles.sh; r4=\$?; tests/guest/engines.sh; r5=\$?; tests/guest/measure.sh; r6=\$?; tests/guest/series.sh series; r7=\$?; [ \$r1\$r2\$r3\$r4\$r5\$r6\$r7 = 0000000 ]"
	"xfs|--fs xfs --size 512 --timeout 1200|tests/guest/smallfiles.sh; r1=\$?; tests/guest/faults.sh shutdown; r2=\$?; [ \$r1\$r2 = 00 ]"
	"faults|--fs ext4 --size 512 --timeout 1200 --module-args max_jobs=4|tests/guest/faults.sh"
	"block-nullb|--fs none --dev nullb --size 256|tests/guest/block.sh; r1=\$?; tests/guest/figures.sh; r2=\$?; [ \$r1\$r2 = 00 ]"
	"matrix|--fs none --size 512|tests/guest/matrix.sh"
	"block|--fs none --dev ram --size 256|tests/guest/block.sh; r1=\$?; tests/guest/cpus.sh; r2=\$?; [ \$r1\$r2 = 00 ]"
	"fuzz|--fs ext4 --size 512 --timeout 1200|tests/guest/fuzz.sh"
	"doc-commands|--fs ext4 --size 256 --timeout 1200|tests/guest/doc-commands.sh"
	"faults-dm|--fs none --size 512|tests/guest/faults.sh io_error"
	"overhead|--icount --fs ext4 --dev ram --size 256 --env FSLOAD_ICOUNT=1|tests/guest/overhead.sh"
	"stall|--fs none --size 256|tests/guest/series.sh stall"
	"enospc|--fs ext4 --size 16|tests/guest/enospc.sh"
	"btrfs|--fs btrfs --size 512 --timeout 900|tests/guest/smallfiles.sh compare_same"
	"install|host|tests/install.sh"
	"man|host|tests/man.sh"
	"docs|host|tests/docs.py"
	"completion|host|tests/completion.sh"
	"spec|host|tests/spec.py"
	"deps|host|tests/deps.py"
	"layers|host|tests/layers.py"
	"shape|host|tests/shape.py"
	"user-engine|host|tests/user-engine.sh"
	"mpi|host|tests/mpi.sh"
	"engine-unit|host|tests/build/engine_test"
	"stats-unit|host|tests/build/stats_test"
	"decode-unit|host|tests/build/decode_test"
	"results|host|tests/results.sh"
	"vm-harness|host|tests/vm-run.sh"
)

# Run only when named (make -C tests check-fuzz, check-faults,
# check-more): the long versions, and what make check leaves out to stay
# near half an hour on two CPUs: its hostile suite has one trap of each
# kind and the chaos of smallfiles (hostile-long: every trap, every
# profile's chaos, a minute each), its faults suite a max_jobs of 4
# (faults-16: the module's default, 263 s of max_jobs alone), its xfs
# suite no profiles (xfs-profiles), and the CPU profiles under the
# instruction clock are profile (156-239 s alone).  fuzz-long: 300 000 cases of a new seed, more threads and
# sockets, and up to 300 s of the unprivileged fuzzer; cycles-long: 10 000 start/stop cycles; faults-xfs: the fault
# cases that run on xfs, alone.
extra_suites=(
	"faults-xfs|--fs xfs --size 512|tests/guest/faults.sh shutdown"
	"fuzz-long|--fs ext4 --size 1024|FSLOAD_FUZZ_COUNT=300000 FSLOAD_FUZZ_SEED=random FSLOAD_FUZZ_ARGS='--threads 6 --sockets 24 --start-permille 40' FSLOAD_FUZZ_USER_COUNT=300000 FSLOAD_FUZZ_USER_TIME=300 tests/guest/fuzz.sh"
	"cycles-long|--fs ext4 --size 512|FSLOAD_CYCLES=10000 tests/guest/faults.sh cycles"
	"hostile-long|--fs ext4 --size 512 --timeout 2400|FSLOAD_CHAOS_SEC=60 tests/guest/hostile.sh"
	"faults-16|--fs ext4 --size 512 --timeout 1200|tests/guest/faults.sh max_jobs"
	"xfs-profiles|--fs xfs --size 512 --timeout 1200|tests/guest/profiles.sh"
	"profile|--icount --fs ext4 --dev ram --size 256 --env FSLOAD_ICOUNT=1|tests/guest/profile.sh"
)

want=("$@")
pass=0
fail=0
skip=0
logdir=$repo/build/test-logs
mkdir -p "$logdir"
if [ -n "${FSLOAD_CHECK_JOBS:-}" ]; then
	jobs=$FSLOAD_CHECK_JOBS
	[[ $jobs =~ ^[1-9][0-9]?$ ]] || {
		echo "run-all.sh: FSLOAD_CHECK_JOBS must be 1 to 99, not '$jobs'" >&2
		exit 2
	}
elif [ "$(nproc)" -ge 2 ]; then
	jobs=2
else
	jobs=1
fi

selected() {
	local w

	[ ${#want[@]} -eq 0 ] && return 0
	for w in "${want[@]}"; do
		[ "$w" = "$1" ] && return 0
	done
	return 1
}

named() {
	local w

	for w in "${want[@]}"; do
		[ "$w" = "$1" ] && return 0
	done
	return 1
}

# run_suite NAME OPTS CMD LIVE: run one suite into its log (and to stdout
# when LIVE is 1); its exit status goes to $logdir/NAME.rc, written last.
run_suite() {
	local name=$1 opts=$2 cmd=$3 live=$4 log=$logdir/$1.log rc

	rm -f "$logdir/$name.rc"
	{
		if [ "$opts" = host ]; then
			# Host-side checks (packaging, docs): no kernel involved.
			echo "# suite $name: $cmd"
			$cmd 2>&1
			rc=$?
			[ "$rc" -ne 4 ] || rc=0
		else
			echo "# suite $name: scripts/vm-run $opts ${VM_ARGS:-}"
			# shellcheck disable=SC2086
			scripts/vm-run --timeout 900 --out "$logdir/$name.out" \
				$opts ${VM_ARGS:-} -- "$cmd" 2>&1
			rc=$?
		fi
		echo "$rc" >"$logdir/$name.rc.tmp"
	} | if [ "$live" = 1 ]; then tee "$log"; else cat >"$log"; fi
	mv "$logdir/$name.rc.tmp" "$logdir/$name.rc"
}

# report NAME LIVE: count one finished suite's results (printing its log
# first when it was not shown live).
report() {
	local name=$1 live=$2 log=$logdir/$1.log rc p k f

	[ "$live" = 1 ] || cat "$log"
	rc=$(cat "$logdir/$name.rc" 2>/dev/null || echo 1)
	p=$(grep -cE '^ok [0-9]+ ' "$log" | tr -d ' ')
	k=$(grep -cE '^ok [0-9]+ .*# SKIP' "$log" | tr -d ' ')
	f=$(grep -cE '^not ok [0-9]+ ' "$log" | tr -d ' ')
	p=$((p - k))
	# A guest that crashed, hung or logged a kernel warning is a failure
	# even when every test it ran passed.
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - suite $name: exited $rc (see $log)"
		f=1
	fi
	echo "# suite $name: $p passed, $f failed, $k skipped in $(($(date +%s) - ${started[$name]})) s"
	pass=$((pass + p))
	fail=$((fail + f))
	skip=$((skip + k))
}

# A run that is stopped stops its suites, guests and all: left running,
# they would write into the next run's logs.
kill_tree() {
	local c

	for c in $(pgrep -P "$1"); do
		kill_tree "$c"
	done
	kill "$1" 2>/dev/null
}
stop_suites() {
	local n

	for n in "${running[@]}"; do
		kill_tree "${pid[$n]}"
	done
	exit "$1"
}
trap 'stop_suites 130' INT
trap 'stop_suites 143' TERM

# reap [ALL]: wait until one running suite ends (all of them with ALL) and
# report the ones that ended.
declare -A started pid
running=()
reap() {
	local n still

	while [ ${#running[@]} -gt 0 ]; do
		wait -n
		still=()
		for n in "${running[@]}"; do
			if [ -e "$logdir/$n.rc" ]; then
				wait "${pid[$n]}"
				report "$n" "$live"
			else
				still+=("$n")
			fi
		done
		running=("${still[@]}")
		[ "${1:-}" = all ] || [ ${#running[@]} -ge "$jobs" ] || break
	done
}

list=()
for s in "${suites[@]}" "${extra_suites[@]/#/+}"; do
	IFS='|' read -r name opts cmd <<<"${s#+}"
	if [ "${s:0:1}" = + ]; then
		named "$name" || continue
	else
		selected "$name" || continue
	fi
	if [ "$opts" = host ] && [ -n "${kroot:-}" ] && [ "$kroot" != / ]; then
		# Nothing kernel-specific: check-all runs them with the host's.
		echo "# suite $name: host-side, run with the host's kernel only"
		continue
	fi
	list+=("$s")
done
nguest=0
for s in "${list[@]}"; do
	[[ ${s#+} == *"|host|"* ]] || nguest=$((nguest + 1))
done
live=0
{ [ "$jobs" -eq 1 ] || [ "$nguest" -le 1 ]; } && live=1
[ "$live" = 1 ] || echo "# guest suites: $jobs at a time; each one's output when it ends"

for s in "${list[@]}"; do
	IFS='|' read -r name opts cmd <<<"${s#+}"
	if [ "$opts" = host ]; then
		# tests/install.sh rebuilds the module the guests load: host
		# suites run alone, after every guest suite.
		reap all
		started[$name]=$(date +%s)
		run_suite "$name" "$opts" "$cmd" 1
		report "$name" 1
		continue
	fi
	[ "$live" = 1 ] || echo "# suite $name: started"
	started[$name]=$(date +%s)
	run_suite "$name" "$opts" "$cmd" "$live" &
	pid[$name]=$!
	running+=("$name")
	[ ${#running[@]} -lt "$jobs" ] || reap
done
reap all

echo "# skipped: $skip"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
