#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel matrix (`make check-all`, CI): for each kernel, build the
# module against it, lint it (sparse and W=1 with that kernel's headers and
# compiler) and run the test suite in VMs booting it. The kernels beyond
# the host's come from scripts/kernels.sh (created on first use). ctl/ and
# tests/ are userspace and built once; checkpatch and the shell script
# checks do not depend on the kernel and run once.
#
#   scripts/check-all.sh [--build-only KERNEL]... KERNEL...
#
# KERNEL as make's KERNEL (6.1, 6.12, 7.x, a release). --build-only KERNEL:
# build and lint only, no suite. Every kernel is tried even after a
# failure; the summary names each one's result and the last line is the
# total "N passed, N failed" of the suites (a failed build or lint counts
# as one failure). Exit status 0 only when everything passed.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1

suite=()
build_only=()
while [ $# -gt 0 ]; do
	case $1 in
	--build-only)
		[ $# -ge 2 ] || { echo "check-all.sh: --build-only needs a KERNEL" >&2; exit 2; }
		build_only+=("$2")
		shift 2
		;;
	-h | --help)
		sed -n '3,/^$/s/^# \{0,1\}//p' "$0"
		exit 0
		;;
	-*)
		echo "check-all.sh: unknown option '$1'" >&2
		exit 2
		;;
	*)
		suite+=("$1")
		shift
		;;
	esac
done
[ $((${#suite[@]} + ${#build_only[@]})) -gt 0 ] || suite=(6.1 6.12 7.x)

t0=$(date +%s)
scripts/kernels.sh setup "${suite[@]}" "${build_only[@]}" || exit 1
make --no-print-directory ctl ctl-mpi tests || exit 1
echo "# setup and userspace build: $(($(date +%s) - t0)) s"

pass=0
fail=0
lint_args=()
summary=()
logdir=$repo/build/test-logs
mkdir -p "$logdir"

# check KERNEL SUITE(0|1)
check() {
	local k=$1 run=$2 t rel log p f status line
	t=$(date +%s)
	rel=$(scripts/kernels.sh resolve "$k") || return 1
	rel=${rel%% *}
	echo "# ==== $k ($rel)"
	if ! make --no-print-directory module KERNEL="$k"; then
		summary+=("$k ($rel): build FAILED")
		fail=$((fail + 1))
		return
	fi
	status="built, lint clean"
	if ! KERNEL=$k scripts/lint.sh "${lint_args[@]}"; then
		status="built, lint FAILED"
		fail=$((fail + 1))
	fi
	lint_args=(--no-static)
	if [ "$run" = 1 ]; then
		log=$logdir/check-all-$k.log
		KERNEL=$k tests/run-all.sh 2>&1 | tee "$log"
		line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
		p=${line%% passed*}
		f=${line#*passed, }
		f=${f%% failed*}
		if [ -z "$line" ]; then
			p=0
			f=1
		fi
		pass=$((pass + p))
		fail=$((fail + f))
		status="$status, suite $p passed, $f failed"
	else
		status="$status (no suite)"
	fi
	summary+=("$k ($rel): $status in $(($(date +%s) - t)) s")
}

for k in "${build_only[@]}"; do check "$k" 0; done
for k in "${suite[@]}"; do check "$k" 1; done

echo "# ==== summary ($(($(date +%s) - t0)) s)"
for s in "${summary[@]}"; do echo "# $s"; done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
