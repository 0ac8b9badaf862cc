#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check-bisect`: scripts/bisect-step end to end on a real kernel tree.
#
# A git repository is made once from Debian's linux-source-6.1 (cached in
# $FSLOAD_CACHE/bisect/linux, outside this repository; commit and tag
# fsload-base). Each run puts five commits on top of it (branch
# fsload-check), of which one (the culprit) adds a busy loop to
# __ext4_new_inode: every ext4 file creation then costs ~60 000 more
# instructions. It runs bisect-step at fsload-base to get the baseline
# result, then `git bisect run scripts/bisect-step --baseline ...` between
# fsload-base (good) and fsload-check (bad) under QEMU's instruction clock,
# and checks that the first bad commit is the culprit.
#
# The kernel build directory ($FSLOAD_CACHE/bisect/obj) is kept between
# runs: the first run builds the kernel (allnoconfig + the fragment, about
# 10-15 minutes on 2 cores), later steps rebuild ext4.ko only.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib-source.sh
. "$repo/scripts/lib-source.sh"

top=$FSLOAD_CACHE/bisect
tree=$top/linux
obj=$top/obj
out=$repo/build/check-bisect
start=$(date +%s)

log() { echo "check-bisect: $*" >&2; }
die() { log "$*"; exit 1; }

# Fixed identities and dates: the same commits (and hashes) on every run.
export GIT_AUTHOR_NAME="fsload check-bisect" GIT_AUTHOR_EMAIL="fsload@localhost"
export GIT_COMMITTER_NAME="fsload check-bisect" GIT_COMMITTER_EMAIL="fsload@localhost"
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
g() { git -C "$tree" -c core.hooksPath=/dev/null -c commit.gpgsign=false "$@"; }

# --- the repository (once per machine) -------------------------------------------------
mkdir -p "$top"
exec 9>"$top/.lock"
flock -n 9 || die "another check-bisect is running ($top/.lock)"
if ! g rev-parse -q --verify fsload-base >/dev/null 2>&1; then
	[ -f "$LINUX_SOURCE_TARBALL" ] || die "linux-source tarball not found (scripts/deps.sh)"
	log "making a git repository from $(basename "$LINUX_SOURCE_TARBALL") in $tree (once)"
	rm -rf "$tree" "$top/tmp"
	mkdir -p "$top/tmp"
	tar -xJf "$LINUX_SOURCE_TARBALL" -C "$top/tmp"
	mv "$top/tmp"/linux-source-* "$tree"
	rmdir "$top/tmp"
	g init -q -b master
	g add -f -A .  # Debian's .gitignore ignores the top level
	g commit -q -m "Linux $(make -s -C "$tree" kernelversion) (Debian linux-source)"
	g tag fsload-base
fi

# --- the commits under test ---------------------------------------------------------------
g bisect reset >/dev/null 2>&1 || true
g checkout -q -f fsload-base
g clean -q -fdx
g branch -q -f fsload-check fsload-base
g checkout -q fsload-check
commit() { # subject body: commit what is changed
	g commit -q -a -m "$1" -m "$2"
	g rev-parse HEAD
}
f=$tree/Documentation/filesystems/ext4/about.rst
printf '\n.. fsload check-bisect: a documentation change.\n' >>"$f"
commit "Documentation: ext4: a note (fsload check-bisect)" "No code change." >/dev/null

f=$tree/fs/ext4/ialloc.c
sed -i 's|^ \* ialloc.c contains the inodes allocation and deallocation routines$|&\n * (fsload check-bisect: a comment.)|' "$f"
grep -q 'fsload check-bisect: a comment' "$f" || die "cannot edit $f"
commit "ext4: a comment in ialloc.c (fsload check-bisect)" "Rebuilds ext4 without changing its code." >/dev/null

# The culprit: a busy loop at the start of every inode allocation.
awk '{ print }
/^\tif \(unlikely\(ext4_forced_shutdown\(sbi\)\)\)$/ && !done { inside = 1; next }
inside && /return ERR_PTR\(-EIO\);/ {
	print "\t{\n\t\t/* fsload check-bisect: the injected regression */"
	print "\t\tunsigned int spin;\n"
	print "\t\tfor (spin = 0; spin < 20000; spin++)\n\t\t\tbarrier();\n\t}"
	inside = 0; done = 1 }' "$f" >"$f.new"
mv "$f.new" "$f"
grep -q 'the injected regression' "$f" || die "cannot inject the regression into $f"
culprit=$(commit "ext4: spin in __ext4_new_inode (fsload check-bisect)" \
	"The injected regression: 20 000 loop iterations per new inode.")

f=$tree/fs/ext4/namei.c
sed -i '0,/^#include/s|^#include|/* fsload check-bisect: a comment. */\n&|' "$f"
commit "ext4: a comment in namei.c (fsload check-bisect)" "Rebuilds ext4 again." >/dev/null

f=$tree/fs/ext4/Makefile
printf '# fsload check-bisect\n' >>"$f"
commit "ext4: a Makefile comment (fsload check-bisect)" "Last commit: the known-bad end." >/dev/null
log "culprit to find: $(g log -1 --format='%h %s' "$culprit")"

# --- baseline at the good end, then the bisection ------------------------------------------
rm -rf "$out"
mkdir -p "$out"
step=("$repo/scripts/bisect-step" --obj "$obj" --log "$out/steps" --fsload-rev HEAD \
	--phase create --metric cpu_ns_per_op --threshold 5 "$@")
g checkout -q fsload-base
log "baseline at fsload-base"
(cd "$tree" && "${step[@]}" --save "$out/baseline.json") ||
	die "the baseline step failed (exit $?): see $out/steps"

g bisect start fsload-check fsload-base >/dev/null
set +e
(cd "$tree" && git bisect run "${step[@]}" --baseline "$out/baseline.json") 2>&1 | tee "$out/bisect.log"
rc=${PIPESTATUS[0]}
set -e
found=$(g rev-parse -q --verify refs/bisect/bad || true)
g bisect log >"$out/bisect-log.txt" 2>/dev/null || true
g bisect reset -q 2>/dev/null || g bisect reset >/dev/null
g checkout -q fsload-base

secs=$(( $(date +%s) - start ))
[ "$rc" -eq 0 ] || die "git bisect run failed (exit $rc) after $secs s"
if [ "$found" = "$culprit" ]; then
	log "PASS: first bad commit $(g log -1 --format='%h %s' "$found") in $secs s"
	exit 0
fi
die "FAIL: bisection found ${found:-nothing}, the culprit is $culprit ($secs s)"
