#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static checks of the module: checkpatch --strict (from Debian's
# linux-source package), sparse (C=2) and W=1, warnings are errors; and
# the userspace code built with -Werror.  Used by `make lint` and
# `make check`.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
. scripts/lib-source.sh

tools=$(linux_source_extract scripts/checkpatch.pl scripts/spelling.txt \
	scripts/const_structs.checkpatch)
fail=0

echo "== checkpatch --strict"
files=$(ls module/*.c module/*.h include/uapi/linux/fsload.h | grep -v '\.mod\.c$')
checkpatch() {
	perl "$tools/scripts/checkpatch.pl" --strict --no-tree --terse \
		--show-types --ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG "$@"
}
# shellcheck disable=SC2086
checkpatch -f $(echo "$files" | grep -v compat.h) || fail=1
# compat.h is the one place where kernel versions may be compared.
checkpatch --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON -f module/compat.h ||
	fail=1
# SPDX tags are checked separately: checkpatch wants a tree for them.
for f in $files; do
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

if [ "$fail" -ne 0 ]; then
	echo "lint: FAILED"
	exit 1
fi
echo "lint: clean"
