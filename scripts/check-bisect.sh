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
#   ext4_functions    the ext4 culprit again, one bisect-step against a
#                     baseline with CPU profiles (start --cpu-profile, the
#                     kernel engine): __ext4_new_inode is the create
#                     phase's top changed function, its change per op
#                     within 5 % of the injected loop's instructions
#                     (counted in the built ialloc.o), the functions'
#                     self costs within 4 % of the workers' measured CPU
#                     (less the handler's), and the step names it
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

# loop_cost OBJECT FUNCTION ITERATIONS: the instructions of the injected
# loop in FUNCTION of OBJECT: the backward branch closest after the
# comparison with (or load of) ITERATIONS or ITERATIONS - 1, times the
# instructions from its target to it (the one or two that set the loop up
# are left out: 1e-4 of it)
loop_cost() {
	# shellcheck disable=SC2016 # Python, not shell
	objdump -d --no-show-raw-insn "$1" | python3 -c '
import re, sys
fn, n = sys.argv[1], int(sys.argv[2])
ins, inside = [], False
for line in sys.stdin:
    if re.match(r"^[0-9a-f]+ <%s>:" % re.escape(fn), line):
        inside = True
        continue
    if inside and not line.strip():
        break
    m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
    if inside and m:
        ins.append((int(m.group(1), 16), m.group(2), m.group(3)))
imm = ("$0x%x," % n, "$0x%x," % (n - 1))
for i, (addr, op, args) in enumerate(ins):
    if not args.startswith(imm):
        continue
    for j in range(i, min(i + 8, len(ins))):
        a, o, rest = ins[j]
        t = re.match(r"([0-9a-f]+) <", rest)
        if o.startswith("j") and o != "jmp" and t and int(t.group(1), 16) <= a:
            tgt = int(t.group(1), 16)
            body = sum(1 for x in ins if tgt <= x[0] <= a)
            print(body * n)
            sys.exit(0)
sys.exit("no loop of %d in %s" % (n, fn))
' "$2" "$3"
}

t_functions() {
	local pbase=$out/baseline-profile.json step rc loop

	# the kernel engine, profiled: 20 000 samples a second of the
	# instruction clock, a sample every 50 000 instructions
	g checkout -q -f fsload-base
	(cd "$tree" && "$repo/scripts/bisect-step" --obj "$obj" --fsload-rev "$rev" \
		--log "$out/functions-base" --save "$pbase" --profile-args \
		"--profile smallfiles --files 5000 --seed 1 --cpu-profile 20000" 9>&-) \
		>"$out/functions-base.log" 2>&1 ||
		fail "the profiled baseline failed (log: $out/functions-base.log)"
	g checkout -q --detach "$culprit_ext4"
	(cd "$tree" && "$repo/scripts/bisect-step" --obj "$obj" --fsload-rev "$rev" \
		--log "$out/functions" --baseline "$pbase" --phase create 9>&-) \
		>"$out/functions.log" 2>&1
	rc=$?
	g checkout -q -f fsload-base
	[ $rc = 1 ] || fail "the culprit against the profiled baseline: exit $rc, not 1 (bad; log: $out/functions.log)"
	step=$out/functions/${culprit_ext4:0:12}
	loop=$(loop_cost "$obj/fs/ext4/ialloc.o" __ext4_new_inode 20000) ||
		fail "cannot count the injected loop in $obj/fs/ext4/ialloc.o"
	ktap_diag "the injected loop: $loop instructions per new inode (objdump)"
	python3 - "$step/compare.json" "$pbase" "$step/result.json" "$loop" <<'PY' ||
import json, math, sys
cmp, base, new = (json.load(open(f)) for f in sys.argv[1:4])
loop = float(sys.argv[4])
bad = []
v = [x for x in cmp["functions"] if x["phase"] == "create" and x["op"] == "create"][0]
top = v["functions"][0]
d = top["change_per_op"]
print("# top changed: %s %+.1f %s/op (%s), loop %.0f: %+.2f%%" % (
    top["function"], d, v["unit"], top["verdict"], loop, 100 * (d - loop) / loop))
for f in v["functions"][:5]:
    print("#   %-32s %+10.1f  %s" % (f["function"], f["change_per_op"], f["verdict"]))
if top["function"].split(" ")[0] != "__ext4_new_inode":
    bad.append("the top changed function is %s" % top["function"])
if top["verdict"] != "regressed":
    bad.append("__ext4_new_inode: %s" % top["verdict"])
if abs(d - loop) > 0.05 * loop:
    bad.append("%+.1f per op, the loop %.0f: beyond 5%%" % (d, loop))
# the functions' self costs add up to the phase's measured CPU: per
# side, the samples' cost net of the handler (sample_cost x samples,
# summed over op types) against the workers' CPU less the handler's time,
# within 4 %: what is left is the interrupt's entry and exit around the
# handler, which nothing measures (750-1150 instructions a sample here,
# 2-3 % at this rate), and the phase's edges; and the stack tables kept
# (nearly) every sample
for name, doc in (("base", base), ("new", new)):
    ph = [p for p in doc["phases"] if p["name"] == "create"][0]
    prof = ph["cpu_profile"]
    net = sum(o["cost_per_op"] * o["ops"] for o in prof["by_op"]
              if o["cost_per_op"] is not None)
    w = ph["cpu"]["worker_ns"] - prof["overhead_ns"]
    print("# %s: the functions' self costs %d, worker CPU less the handler %d (%+.2f%%), %d of %d samples dropped" % (
        name, net, w, 100.0 * (net - w) / w, prof["dropped"], prof["samples"]))
    if abs(net - w) > 0.04 * w:
        bad.append("%s: the functions' self costs %d, the CPU %d" % (name, net, w))
    if prof["dropped"] > 0.01 * prof["samples"]:
        bad.append("%s: %d of %d samples dropped" % (name, prof["dropped"], prof["samples"]))
for b in bad:
    print("# FAIL: " + b)
sys.exit(1 if bad else 0)
PY
		fail "the profile does not name the injected loop (above; $step)"
	grep -q 'changed: create (create): __ext4_new_inode' "$out/functions.log" ||
		fail "the step does not name the function: $(grep changed "$out/functions.log")"
}

not_chosen() { echo "not in BISECT_ONLY"; exit "$KSFT_SKIP"; }

ktap_plan 6
for t in typo_phase:t_typo_phase no_regression:t_no_regression syscall_culprit:t_syscall \
	ext4_culprit:t_ext4 narrow_culprit:t_narrow ext4_functions:t_functions; do
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
