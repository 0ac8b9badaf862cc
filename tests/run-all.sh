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
suites=(
	"ext4|--fs ext4 --size 512 --timeout 1200|tests/guest/module.sh; r1=\$?; tests/guest/smallfiles.sh; r2=\$?; tests/build/fsload_nl_test; r3=\$?; tests/guest/profiles.sh; r4=\$?; tests/guest/engines.sh; r5=\$?; tests/guest/measure.sh; r6=\$?; tests/guest/series.sh series; r7=\$?; [ \$r1\$r2\$r3\$r4\$r5\$r6\$r7 = 0000000 ]"
	"xfs|--fs xfs --size 512|tests/guest/smallfiles.sh; r1=\$?; tests/guest/profiles.sh; r2=\$?; tests/guest/faults.sh shutdown; r3=\$?; [ \$r1\$r2\$r3 = 000 ]"
	"enospc|--fs ext4 --size 16|tests/guest/enospc.sh"
	"block|--fs none --dev ram --size 256|tests/guest/block.sh; r1=\$?; tests/guest/cpus.sh; r2=\$?; [ \$r1\$r2 = 00 ]"
	"block-nullb|--fs none --dev nullb --size 256|tests/guest/block.sh; r1=\$?; tests/guest/figures.sh; r2=\$?; [ \$r1\$r2 = 00 ]"
	"fuzz|--fs ext4 --size 512 --timeout 1200|tests/guest/fuzz.sh"
	"faults|--fs ext4 --size 512|tests/guest/faults.sh"
	"faults-dm|--fs none --size 512|tests/guest/faults.sh io_error"
	"hostile|--fs ext4 --size 512 --timeout 1500|tests/guest/hostile.sh"
	"matrix|--fs none --size 512|tests/guest/matrix.sh"
	"stall|--fs none --size 256|tests/guest/series.sh stall"
	"overhead|--icount --fs ext4 --dev ram --size 256 --env FSLOAD_ICOUNT=1|tests/guest/overhead.sh"
	"profile|--icount --fs ext4 --dev ram --size 256 --env FSLOAD_ICOUNT=1|tests/guest/profile.sh"
	"install|host|tests/install.sh"
	"man|host|tests/man.sh"
	"completion|host|tests/completion.sh"
	"spec|host|tests/spec.py"
	"deps|host|tests/deps.py"
	"layers|host|tests/layers.py"
	"user-engine|host|tests/user-engine.sh"
	"engine-unit|host|tests/build/engine_test"
	"stats-unit|host|tests/build/stats_test"
	"decode-unit|host|tests/build/decode_test"
	"results|host|tests/results.sh"
	"vm-harness|host|tests/vm-run.sh"
)

# Run only when named (make -C tests check-fuzz, check-faults): the long
# versions.  fuzz-long: 300 000 cases of a new seed, more threads and
# sockets; cycles-long: 10 000 start/stop cycles; faults-xfs: the fault
# cases that run on xfs, alone.
extra_suites=(
	"faults-xfs|--fs xfs --size 512|tests/guest/faults.sh shutdown"
	"fuzz-long|--fs ext4 --size 1024|FSLOAD_FUZZ_COUNT=300000 FSLOAD_FUZZ_SEED=random FSLOAD_FUZZ_ARGS='--threads 6 --sockets 24 --start-permille 40' tests/guest/fuzz.sh"
	"cycles-long|--fs ext4 --size 512|FSLOAD_CYCLES=10000 tests/guest/faults.sh cycles"
	"hostile-long|--fs ext4 --size 512 --timeout 2400|FSLOAD_CHAOS_SEC=60 tests/guest/hostile.sh"
)

want=("$@")
pass=0
fail=0
skip=0
logdir=$repo/build/test-logs
mkdir -p "$logdir"

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

for s in "${suites[@]}" "${extra_suites[@]/#/+}"; do
	IFS='|' read -r name opts cmd <<<"${s#+}"
	if [ "${s:0:1}" = + ]; then
		named "$name" || continue
	else
		selected "$name" || continue
	fi
	log=$logdir/$name.log
	start=$(date +%s)
	if [ "$opts" = host ] && [ -n "${kroot:-}" ] && [ "$kroot" != / ]; then
		# Nothing kernel-specific: check-all runs them with the host's.
		echo "# suite $name: host-side, run with the host's kernel only"
		continue
	fi
	if [ "$opts" = host ]; then
		# Host-side checks (packaging, docs): no kernel involved.
		echo "# suite $name: $cmd"
		$cmd 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]}
		[ "$rc" -ne 4 ] || rc=0
	else
		echo "# suite $name: scripts/vm-run $opts ${VM_ARGS:-}"
		# shellcheck disable=SC2086
		scripts/vm-run --timeout 900 --out "$logdir/$name.out" $opts \
			${VM_ARGS:-} -- "$cmd" 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]}
	fi
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
	echo "# suite $name: $p passed, $f failed, $k skipped in $(( $(date +%s) - start )) s"
	pass=$((pass + p))
	fail=$((fail + f))
	skip=$((skip + k))
done

echo "# skipped: $skip"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
