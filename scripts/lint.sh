#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static checks of the module: checkpatch --strict (from Debian's
# linux-source package), sparse (C=2) and W=1, warnings are errors; and
# the shell scripts through shellcheck.  Used by `make lint` and
# `make check`.
#
#   scripts/lint.sh [--no-static]
#
# KERNEL=6.1|6.12|7.x|RELEASE (as make's KERNEL) picks the kernel that
# sparse and W=1 build against; one in the root of scripts/kernels.sh is
# built there (its sparse, its gcc).  --no-static leaves out checkpatch
# and the shell script checks, which do not depend on the kernel
# (scripts/check-all.sh runs them once).
set -euo pipefail

static=1
case "${1:-}" in
--no-static) static=0 ;;
"") ;;
*)
	echo "lint.sh: unknown argument '$1'" >&2
	exit 2
	;;
esac

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
# shellcheck source=scripts/lib-source.sh
. scripts/lib-source.sh

fail=0
krun=()
if [ -n "${KERNEL:-}" ]; then
	k=$(scripts/kernels.sh resolve "$KERNEL") || exit 1
	read -r KRELEASE kroot <<<"$k"
	KDIR=/usr/src/linux-headers-$KRELEASE
	[ "$kroot" = / ] || krun=(scripts/kernels.sh run --)
elif [ -z "${KDIR:-}" ]; then
	# Run by hand: the Makefile's default KDIR.
	KDIR=$(ls -d "/lib/modules/$(uname -r)/build" 2>/dev/null ||
		printf '%s\n' /usr/src/linux-headers-*-amd64 | sort -V | tail -n 1)
fi

if [ $static = 1 ]; then
	tools=$(linux_source_extract scripts/checkpatch.pl scripts/spelling.txt \
		scripts/const_structs.checkpatch)

	echo "== checkpatch --strict"
	files=()
	for f in module/*.c module/*.h; do
		case $f in
		*.mod.c) ;;				# kbuild's
		module/compat.h|module/fsload-nl-gen.*) ;;	# checked below
		*) files+=("$f");;
		esac
	done
	files+=(include/uapi/linux/fsload.h include/fsload/*.h)
	checkpatch() {
		perl "$tools/scripts/checkpatch.pl" --strict --no-tree --terse \
			--show-types --ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG "$@"
	}
	checkpatch -f "${files[@]}" || fail=1
	# compat.h is the one place where kernel versions may be compared.
	checkpatch --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON -f module/compat.h ||
		fail=1
	# Generated from the spec (scripts/nl-gen.py): ynl-gen-c writes an
	# initialiser on one line, however long.
	checkpatch --ignore LONG_LINE -f module/fsload-nl-gen.[ch] || fail=1
	# SPDX tags are checked separately: checkpatch wants a tree for them.
	for f in "${files[@]}" module/compat.h module/fsload-nl-gen.[ch]; do
		head -1 "$f" | grep -q 'SPDX-License-Identifier' ||
			{ echo "$f: missing SPDX line"; fail=1; }
	done
fi

echo "== sparse (C=2) and W=1${KRELEASE:+ against $KRELEASE}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"${krun[@]}" sh -c 'command -v sparse' >/dev/null ||
	{ echo "sparse not installed (scripts/deps.sh, scripts/kernels.sh)"; exit 1; }
# KBUILD_CHECKSRC=2 on the command line, as C=2 sets it, but final: 7.x's
# Makefile would turn sparse off for want of scripts/checker-valid.sh,
# which Debian's headers leave out (scripts/kernels.sh installs a sparse
# that parses 7.x's headers).
"${krun[@]}" make -C "$KDIR" M="$repo" C=2 KBUILD_CHECKSRC=2 W=1 modules 2>&1 |
	grep -v -e '^make' -e 'C=2 specified, but sparse is not available' | tee "$log"
if grep -Ei 'warning|error' "$log" >/dev/null; then
	echo "lint: the compiler or sparse warned"
	fail=1
fi
# sparse must really have looked at every source file.
for f in module/*.c; do
	case $f in *.mod.c) continue ;; esac
	grep -Eq "CHECK +(.*/)?$f\$" "$log" || { echo "lint: sparse did not check $f"; fail=1; }
done

if [ $static = 1 ]; then
	echo "== shellcheck"
	shellcheck -x scripts/*.sh scripts/vm-run scripts/vm-init scripts/bisect-step scripts/bisect \
		scripts/compare-kernels .ci/run \
		tests/*.sh tests/guest/*.sh || fail=1
fi

if [ "$fail" -ne 0 ]; then
	echo "lint: FAILED"
	exit 1
fi
echo "lint: clean"
