#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check-bisect`: scripts/bisect (and bisect-step) end to end on a
# real kernel tree, one KTAP test per way a bisection can go wrong.
#
# A git repository is made once from Debian's linux-source-6.1 (cached in
# $FSLOAD_CACHE/bisect/linux, outside this repository; commit and tag
# fsload-base). Each run puts branches of a few commits on it, each from
# fsload-base, and bisects each with scripts/bisect and its defaults (the
# smallfiles profile on both engines, cpu_ns_per_op, the noise of GOOD's
# boots) under QEMU's instruction clock. One baseline at fsload-base
# serves every scenario, and one build directory every kernel, so a step
# rebuilds ext4.ko or relinks vmlinux only:
#
#   typo_phase        --phase craete: a usage error (exit 2) naming the
#                     phases, before any BAD kernel is built
#   no_regression     BAD = a Documentation and a comment commit: "BAD
#                     does not regress", no bisection
#   ext4_culprit      a busy loop in __ext4_new_inode (~60 000 instructions
#                     per file creation) among four harmless commits
#   syscall_culprit   a short busy loop in vfs_statx(): only stat(2) pays,
#                     not the kernel engine's vfs_getattr(); found with the
#                     defaults, the report naming the user engine
#   narrow_culprit    ~0.3 % on the stat phase (a loop in ext4_getattr,
#                     sized from the baseline) after a Documentation-only
#                     decoy; --phase stat; the decoy is judged good on
#                     BISECT_REPEAT more boots and never blamed
#
# The kernel build directory ($FSLOAD_CACHE/bisect/obj) is kept between
# runs: the first run builds the kernel (allnoconfig + the fragment, 10-25
# minutes on 2 cores). BISECT_BOOTS (default 5): the baseline's boots;
# BISECT_REPEAT (default 2); BISECT_ONLY="name ...": run only those.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib-source.sh
. "$repo/scripts/lib-source.sh"
# shellcheck source=tests/ktap.sh
. "$repo/tests/ktap.sh"

top=$FSLOAD_CACHE/bisect
tree=$top/linux
obj=$top/obj
out=$repo/build/check-bisect
boots=${BISECT_BOOTS:-5}
repeat=${BISECT_REPEAT:-2}
t0=$(date +%s)

log() { echo "check-bisect: $*" >&2; }
die() { log "$*"; exit 1; }

# Fixed identities and dates: the same commits (and hashes) on every run.
export GIT_AUTHOR_NAME="fsload check-bisect" GIT_AUTHOR_EMAIL="fsload@localhost"
export GIT_COMMITTER_NAME="fsload check-bisect" GIT_COMMITTER_EMAIL="fsload@localhost"
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
# No automatic gc: a background `git gc --auto` after our commits would
# inherit the lock's descriptor and hold it for minutes.
g() { git -C "$tree" -c gc.auto=0 -c core.hooksPath=/dev/null -c commit.gpgsign=false "$@"; }

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
[ -x "$repo/ctl/fsloadctl" ] || make -s -C "$repo/ctl" >/dev/null || die "cannot build ctl/fsloadctl"

# --- the branches under test -------------------------------------------------------------------
g bisect reset >/dev/null 2>&1 || true
g checkout -q -f fsload-base
g clean -q -fdx
commit() { # subject body: commit what is changed, print its hash
	g commit -q -a -m "$1" -m "$2"
	g rev-parse HEAD
}
branch() { g checkout -q -B "$1" fsload-base; }
# spin FILE FUNCTION_REGEX AFTER_REGEX COUNT: a busy loop of COUNT
# iterations after the first line matching AFTER_REGEX (one that ends a
# statement or the declarations) after the line matching FUNCTION_REGEX;
# volatile, so that a short loop is not unrolled into nothing
spin() {
	awk -v fn="$2" -v re="$3" -v n="$4" '{ print }
	$0 ~ fn { inside = 1 }
	inside && $0 ~ re && !done {
		print "\t{\n\t\t/* fsload check-bisect: the injected regression */"
		print "\t\tvolatile unsigned int spin;\n"
		print "\t\tfor (spin = 0; spin < " n "; spin++)\n\t\t\tbarrier();\n\t}"
		done = 1 }' "$1" >"$1.new"
	mv "$1.new" "$1"
	grep -q 'the injected regression' "$1" || die "cannot inject into $1"
}
doc_commit() {
	printf '\n.. fsload check-bisect: %s.\n' "$1" >>"$tree/Documentation/filesystems/ext4/about.rst"
	commit "Documentation: ext4: $1 (fsload check-bisect)" "No code change."
}
comment_commit() { # FILE: a comment (rebuilds the file, same code)
	sed -i "0,/^#include/s|^#include|/* fsload check-bisect: a comment. */\n&|" "$tree/$1"
	commit "$(basename "$(dirname "$1")"): a comment in $(basename "$1") (fsload check-bisect)" \
		"Rebuilds it without changing its code."
}

# no regression: a Documentation commit and a comment in ext4
branch check-quiet
doc_commit "a note" >/dev/null
comment_commit fs/ext4/ialloc.c >/dev/null

# ext4: the culprit third of five
branch check-ext4
doc_commit "a note" >/dev/null
comment_commit fs/ext4/ialloc.c >/dev/null
f=$tree/fs/ext4/ialloc.c
awk '{ print }
/^\tif \(unlikely\(ext4_forced_shutdown\(sbi\)\)\)$/ && !done { inside = 1; next }
inside && /return ERR_PTR\(-EIO\);/ {
	print "\t{\n\t\t/* fsload check-bisect: the injected regression */"
	print "\t\tunsigned int spin;\n"
	print "\t\tfor (spin = 0; spin < 20000; spin++)\n\t\t\tbarrier();\n\t}"
	inside = 0; done = 1 }' "$f" >"$f.new"
mv "$f.new" "$f"
grep -q 'the injected regression' "$f" || die "cannot inject the regression into $f"
culprit_ext4=$(commit "ext4: spin in __ext4_new_inode (fsload check-bisect)" \
	"The injected regression: 20 000 loop iterations per new inode.")
comment_commit fs/ext4/namei.c >/dev/null
printf '# fsload check-bisect\n' >>"$tree/fs/ext4/Makefile"
commit "ext4: a Makefile comment (fsload check-bisect)" "Last commit: the known-bad end." >/dev/null

# the system-call path: stat(2) pays, vfs_getattr() does not
branch check-syscall
doc_commit "a note" >/dev/null
spin "$tree/fs/stat.c" '^static int vfs_statx\\(' '^\t\treturn -EINVAL;$' 100
culprit_sys=$(commit "vfs: spin in vfs_statx (fsload check-bisect)" \
	"The injected regression: 100 loop iterations per stat(2), not seen by vfs_getattr() callers.")
comment_commit fs/ext4/namei.c >/dev/null
g checkout -q -f fsload-base

# --- the baseline (one for every scenario) -------------------------------------------------------
rm -rf "$out"
mkdir -p "$out"
base=$top/baseline.json
# fsload as committed when this run began, for every step
rev=$(git -C "$repo" rev-parse HEAD)
bis=("$repo/scripts/bisect" --obj "$obj" --baseline "$base" --boots "$boots" --fsload-rev "$rev")
# run NAME GOOD BAD [OPTIONS]: scripts/bisect in the tree, 9 (the lock) closed
run() {
	local name=$1 rc s

	shift
	s=$(date +%s)
	(cd "$tree" && "${bis[@]}" --out "$out/$name" "$@" 9>&-) >"$out/$name.log" 2>&1
	rc=$?
	echo "$name: exit $rc in $(( $(date +%s) - s )) s" >>"$out/times.txt"
	ktap_diag "$name: scripts/bisect exit $rc in $(( $(date +%s) - s )) s"
	return $rc
}
found_in() { sed -n 's/^first bad commit: \([0-9a-f]*\) .*/\1/p' "$out/$1/report.txt" 2>/dev/null; }
want() { [ -z "${BISECT_ONLY:-}" ] || [[ " $BISECT_ONLY " == *" $1 "* ]]; }

t_typo_phase() {
	run typo fsload-base check-ext4 --phase craete
	local rc=$?

	[ $rc = 2 ] || fail "--phase craete: exit $rc, not 2 (log: $out/typo.log)"
	grep -q "unknown phase 'craete'.*create, stat, read, unlink" "$out/typo.log" ||
		fail "no usage error naming the phases: $(tail -5 "$out/typo.log")"
	! grep -q 'against the baseline' "$out/typo.log" || fail "BAD was built before the usage error"
}

t_no_regression() {
	run quiet fsload-base check-quiet
	local rc=$?

	[ $rc = 1 ] || fail "exit $rc, not 1 (log: $out/quiet.log)"
	grep -q 'BAD does not regress' "$out/quiet.log" || fail "no \"BAD does not regress\": $(tail -5 "$out/quiet.log")"
	[ ! -e "$out/quiet/report.txt" ] || fail "a verdict without a regression"
}

t_ext4() {
	run ext4 fsload-base check-ext4 || fail "scripts/bisect failed (log: $out/ext4.log)"
	[ "$(found_in ext4)" = "${culprit_ext4:0:12}" ] ||
		fail "found $(found_in ext4), the culprit is ${culprit_ext4:0:12}"
	cat "$out/ext4/report.txt"
}

t_syscall() {
	run syscall fsload-base check-syscall || fail "scripts/bisect failed (log: $out/syscall.log)"
	[ "$(found_in syscall)" = "${culprit_sys:0:12}" ] ||
		fail "found $(found_in syscall), the culprit is ${culprit_sys:0:12}"
	grep -A3 '^first bad commit' "$out/syscall/report.txt" | grep -q 'user:stat' ||
		fail "the report does not say the system-call path (user engine) regressed"
	cat "$out/syscall/report.txt"
}

# The narrow culprit is sized from the baseline: 0.3 % of the kernel
# engine's stat, at ~5 instructions per iteration of a volatile loop.
t_narrow() {
	local n stat decoy culprit i rc

	stat=$(python3 -c '
import json, sys, statistics
j = json.load(open(sys.argv[1]))
v = [p["cpu"]["worker_ns_per_op"] for b in j["boots"] for p in b["kernel"]["phases"] if p["name"] == "stat"]
print(round(statistics.mean(v)))' "$base") || fail "no stat phase in $base"
	n=$(( stat * 3 / 1000 / 5 ))
	[ "$n" -ge 1 ] || n=1
	ktap_diag "stat: $stat instructions per op; the culprit: $n iterations (~0.3 %)"
	branch check-narrow
	comment_commit fs/ext4/inode.c >/dev/null
	decoy=$(doc_commit "the decoy")
	spin "$tree/fs/ext4/inode.c" '^int ext4_getattr\\(' '^\tunsigned int flags;$' "$n"
	culprit=$(commit "ext4: spin in ext4_getattr (fsload check-bisect)" \
		"The injected regression: $n loop iterations per getattr (~0.3 % of a stat).")
	printf '# fsload check-bisect\n' >>"$tree/fs/ext4/Makefile"
	commit "ext4: a Makefile comment (fsload check-bisect)" "The known-bad end." >/dev/null
	g checkout -q -f fsload-base
	run narrow fsload-base check-narrow --phase stat --threshold 0.1 || fail "scripts/bisect failed (log: $out/narrow.log)"
	cat "$out/narrow/report.txt"
	[ "$(found_in narrow)" = "${culprit:0:12}" ] ||
		fail "found $(found_in narrow), the culprit is ${culprit:0:12} (the decoy ${decoy:0:12})"
	# the decoy, booted again: never bad
	g checkout -q --detach "$decoy"
	for ((i = 1; i <= repeat; i++)); do
		(cd "$tree" && "$repo/scripts/bisect-step" --obj "$obj" --fsload-rev "$rev" \
			--log "$out/decoy$i" --baseline "$base" --phase stat 9>&-) >"$out/decoy$i.log" 2>&1
		rc=$?
		ktap_diag "the decoy, boot $i: exit $rc ($(grep -o 'noise ±[^)]*' "$out/decoy$i.log" | head -2 | tr '\n' ' '))"
		[ $rc = 0 ] || { g checkout -q -f fsload-base; fail "the decoy judged bad (exit $rc): $out/decoy$i.log"; }
	done
	g checkout -q -f fsload-base
}

not_chosen() { echo "not in BISECT_ONLY"; exit "$KSFT_SKIP"; }

ktap_plan 5
for t in typo_phase:t_typo_phase no_regression:t_no_regression syscall_culprit:t_syscall \
	ext4_culprit:t_ext4 narrow_culprit:t_narrow; do
	if want "${t%%:*}"; then
		ktap_run "${t%%:*}" "${t#*:}"
	else
		ktap_run "${t%%:*}" not_chosen
	fi
done
g bisect reset >/dev/null 2>&1 || true
g checkout -q -f fsload-base
log "$(( $(date +%s) - t0 )) s in all; times in $out/times.txt"
ktap_finish
