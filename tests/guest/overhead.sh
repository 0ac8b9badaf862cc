#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The engine's own cost per op must not grow (issue 19): under QEMU's
# instruction clock (scripts/vm-run --icount --env FSLOAD_ICOUNT=1, where
# a guest ns is an instruction) each engine's calibration, the job's
# `engine overhead` (null ops through the phase loop), must stay within
# its bound: 1.3 x what the loop measured when the bound was set, on
# Debian 6.1 with 20 000 files (kernel 140, user 175 instructions per op;
# README.md, "The engine's own cost per op"; fewer files make the names
# wrap, and the calibration dearer).  Without the instruction clock the figure
# is wall time and says nothing: the suite is skipped.  The idle baseline
# (its default length) lets the job's start settle first: without it the
# kernel engine's calibration counts ~10 more per op, the control side's
# work landing in it.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/guest/lib.sh
. "$here/lib.sh"
lib_need dir module
[ "${FSLOAD_ICOUNT:-}" = 1 ] ||
	{ echo "1..0 # SKIP not under the instruction clock"; exit 4; }

# within ENGINE BOUND: the engine's calibration, instructions per op,
# is at most BOUND.
within() {
	local engine=$1 bound=$2 out=$work/$1.json per

	fsloadctl --json start --engine "$engine" --profile null --files 20000 \
		--threads 1 --dir "$FSLOAD_DIR" --quiet >"$out" ||
		fail "fsloadctl start --engine $engine exited $?"
	per=$(jget 'j["job"]["overhead_ns_per_op"]' "$out") ||
		fail "no overhead_ns_per_op in $(cat "$out")"
	echo "$engine engine: $per instructions per op (bound $bound)"
	python3 -c 'import sys; sys.exit(not 0 < float(sys.argv[1]) <= float(sys.argv[2]))' \
		"$per" "$bound" ||
		fail "$engine engine: $per instructions per op, over $bound"
}

ktap_plan 2
ktap_run kernel_engine_cost_per_op within kernel 182
ktap_run user_engine_cost_per_op within user 228
ktap_finish
