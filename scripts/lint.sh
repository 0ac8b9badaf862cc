#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static checks of the module: checkpatch --strict (from Debian's
# linux-source package), sparse (C=2) and W=1, warnings are errors; and
# the shell scripts through shellcheck.  Used by `make lint` and
# `make check`.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
# shellcheck source=scripts/lib-source.sh
. scripts/lib-source.sh

tools=$(linux_source_extract scripts/checkpatch.pl scripts/spelling.txt \
	scripts/const_structs.checkpatch)
fail=0

echo "== checkpatch --strict"
files=()
for f in module/*.c module/*.h; do
	case $f in
	*.mod.c|module/compat.h) ;;	# generated; checked below
	*) files+=("$f");;
	esac
done
files+=(include/uapi/linux/fsload.h)
checkpatch() {
	perl "$tools/scripts/checkpatch.pl" --strict --no-tree --terse \
		--show-types --ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG "$@"
}
checkpatch -f "${files[@]}" || fail=1
# compat.h is the one place where kernel versions may be compared.
checkpatch --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON -f module/compat.h ||
	fail=1
# SPDX tags are checked separately: checkpatch wants a tree for them.
for f in "${files[@]}" module/compat.h; do
	head -1 "$f" | grep -q 'SPDX-License-Identifier' ||
		{ echo "$f: missing SPDX line"; fail=1; }
done

echo "== sparse (C=2) and W=1"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
command -v sparse >/dev/null || { echo "sparse not installed (scripts/deps.sh)"; exit 1; }
make -C "$KDIR" M="$repo" C=2 W=1 modules 2>&1 | grep -v '^make' | tee "$log"
if grep -Ei 'warning|error' "$log" >/dev/null; then
	echo "lint: the compiler or sparse warned"
	fail=1
fi

echo "== shellcheck"
shellcheck -x scripts/*.sh scripts/vm-run scripts/vm-init .ci/run \
	tests/*.sh tests/guest/*.sh || fail=1

if [ "$fail" -ne 0 ]; then
	echo "lint: FAILED"
	exit 1
fi
echo "lint: clean"
