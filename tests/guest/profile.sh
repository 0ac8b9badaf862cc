#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Per-op-type CPU profiles (issue 16): start --cpu-profile HZ.  Under
# QEMU's instruction clock (tests/run-all.sh profile: scripts/vm-run
# --icount, FSLOAD_ICOUNT=1) the sampling period is in instructions, so
# the figures repeat.  A create phase's profile names ext4's create path,
# a mix phase has one profile per op type, the samples account for the
# workers' CPU (samples x period = worker CPU within 15% + 2 periods: the
# timer fires on the CPU's clock, interrupts and the phase's edges land
# on either side), a tiny stack table counts its drops, the profile's own
# cost per op is stated (and measured against a run without), folded
# files are written, nothing is left behind on rmmod, and the
# perf_sched_events static key stays off while a profiled job runs.
# Under the instruction clock a cached stat spends at most 5% of its
# samples in the kernel's string routines (string_routines_minor).  The
# jobs of one start write their files under names of their own
# (files_per_job).
# Cases: all, or those named (tests/guest/profile.sh string_routines_minor).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/guest/lib.sh
. "$here/lib.sh"
lib_need dir module

# profiled OUT ARGS...: a profiled kernel-engine job's JSON in OUT.
profiled() {
	local out=$1

	shift
	fsloadctl --json start --dir "$FSLOAD_DIR" --threads 1 --quiet \
		"$@" >"$out" || fail "fsloadctl start $* exited $?"
}

t_create_names_ext4() {
	local out=$work/create.json

	profiled "$out" --profile smallfiles --files 1000 --cpu-profile 10000 \
		--folded "$work/sf" --flamegraph "$work/sf"
	check_json "$out" '
job = j["job"]
cp = job["cpu_profile"]
if cp["hz"] != 10000 or cp["period"] != 100000:
    bad("profile %r" % cp)
ph = [p for p in j["phases"] if p["name"] == "create"][0]
prof = ph["cpu_profile"]
ops = {o["op"]: o for o in prof["by_op"]}
# "none": before the first op of the phase
if set(ops) - {"none"} != {"create"}: bad("create phase profiles %r" % list(ops))
c = ops["create"]
fns = sorted(c["functions"], key=lambda f: -f["total_samples"])
top = [f["function"].split(" ")[0] for f in fns[:40]]
print("# create: %d samples, %.0f per op; top by total: %s" %
      (c["samples"], c["cost_per_op"], ", ".join(top[:12])))
if not ({"ext4_create", "__ext4_new_inode"} & set(top)):
    bad("no ext4 create function in the top 40: %r" % top)
self_sum = sum(f["self_samples"] for f in c["functions"])
if self_sum != c["samples"]: bad("self samples %d of %d" % (self_sum, c["samples"]))
kept = sum(o["samples"] for o in prof["by_op"])
print("# %d samples, %d dropped, %d kept" % (prof["samples"], prof["dropped"], kept))
if prof["samples"] != kept + prof["dropped"]:
    bad("phase samples %d, kept %d, dropped %d" % (prof["samples"], kept, prof["dropped"]))
if prof["dropped"] > 0.03 * prof["samples"]:
    bad("%d of %d samples dropped with the default table" % (prof["dropped"], prof["samples"]))
w = ph["cpu"]["worker_ns"]
est = prof["samples"] * cp["period"]
print("# samples x period %d, worker CPU %d (%.1f%%)" % (est, w, 100.0 * (est - w) / w))
if abs(est - w) > 0.15 * w + 2 * cp["period"]:
    bad("samples x period %d, worker CPU %d" % (est, w))
if not 0 < prof["overhead_ns_per_op"] < 0.25 * c["cost_per_op"]:
    bad("sampling own cost %r per op, op %r" % (prof["overhead_ns_per_op"], c["cost_per_op"]))
' || fail "create profile"
	[ -s "$work/sf-0-create-create.folded" ] ||
		fail "no folded file: $(ls "$work")"
	awk '{ if ($NF !~ /^[0-9]+$/ || index($0, ";") == 0) bad = 1 }
	     END { exit bad }' "$work/sf-0-create-create.folded" ||
		fail "not folded stacks: $(head -2 "$work/sf-0-create-create.folded")"
	grep -q "ext4" "$work/sf-0-create-create.folded" ||
		fail "no ext4 frame in the folded stacks"
	python3 - "$work/sf-0-create-create.svg" <<'EOF' || fail "flame graph"
import sys, xml.etree.ElementTree as et
t = et.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
titles = [g.find(ns + "title").text for g in t.iter(ns + "g")]
print("# flame graph: %d boxes" % len(titles))
if not any("ext4" in x for x in titles): sys.exit("no ext4 box")
if not t.find(ns + "script") is not None: sys.exit("no search script")
EOF
}

t_mix_per_op_type() {
	local out=$work/mix.json

	profiled "$out" --profile mix --files 200 --ops 3000 --cpu-profile 50000
	check_json "$out" '
ph = [p for p in j["phases"] if p["name"] == "mix"][0]
ran = {o["op"] for o in ph["ops_by_type"] if o["ops"]}
got = {o["op"]: o["samples"] for o in ph["cpu_profile"]["by_op"] if o["op"] != "none"}
print("# mix: ran %s, profiles %r" % (sorted(ran), got))
if len(got) < 2: bad("one profile for the mix: %r" % got)
if not set(got) <= ran: bad("profiles %r of op types %r" % (sorted(got), sorted(ran)))
' || fail "mix profiles"
}

t_drops_counted() {
	local out=$work/drops.json

	profiled "$out" --profile smallfiles --files 300 --cpu-profile 20000 \
		--cpu-profile-stacks 1
	check_json "$out" '
for p in j["phases"]:
    prof = p["cpu_profile"]
    kept = sum(o["samples"] for o in prof["by_op"])
    if prof["samples"] != kept + prof["dropped"]:
        bad("%s: %d samples, %d kept, %d dropped" % (p["name"], prof["samples"], kept, prof["dropped"]))
    if len(prof["by_op"]) > 1:
        bad("%s: more than one stack kept in a table of one" % p["name"])
c = [p for p in j["phases"] if p["name"] == "create"][0]["cpu_profile"]
print("# create: %d samples, %d dropped" % (c["samples"], c["dropped"]))
if not c["dropped"]: bad("no drop with one stack slot")
' || fail "drops"
}

# The profile's own cost: the same job with and without, one after the
# other; the stated cost is the handler's time (the interrupt around it
# is not in it).
t_overhead_stated() {
	local a=$work/plain.json b=$work/prof.json

	profiled "$a" --profile smallfiles --files 1000 --seed 1
	profiled "$b" --profile smallfiles --files 1000 --seed 1 --cpu-profile 10000
	python3 - "$a" "$b" <<'EOF' || fail "overhead"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for pa, pb in zip(a["phases"], b["phases"]):
    if "cpu_profile" in pa or "cpu_profile" not in pb:
        sys.exit("phase %s: profile where not asked, or none" % pa["name"])
    wa, wb = pa["cpu"]["worker_ns_per_op"], pb["cpu"]["worker_ns_per_op"]
    st = pb["cpu_profile"]["overhead_ns_per_op"]
    print("# %s: %.0f per op plain, %.0f profiled (+%.0f), stated %.0f" %
          (pa["name"], wa, wb, wb - wa, st))
    if st is None or st <= 0:
        sys.exit("%s: no stated overhead" % pa["name"])
    # the samples' cost, net of the handler (sample_cost), against the
    # plain run's worker CPU: what is left is the interrupt's entry and
    # exit, and the phase's edges (a period each)
    prof = pb["cpu_profile"]
    net = sum(o["cost_per_op"] * o["ops"] for o in prof["by_op"]
              if o["cost_per_op"] is not None)
    plain = pa["cpu"]["worker_ns"]
    edge = 2 * b["job"]["cpu_profile"]["period"]
    print("#   sampled net of the handler %.0f, plain worker CPU %.0f (%+.2f%%)" %
          (net, plain, 100.0 * (net - plain) / plain))
    if abs(net - plain) > 0.04 * plain + edge:
        sys.exit("%s: sampled %.0f, plain %.0f: beyond 4%% and two periods" %
                 (pa["name"], net, plain))
EOF
}

# A profiled job stopped early still has its profile (results writes its
# folded stacks and flame graphs too); then nothing is left on rmmod (the
# events and tables go with the job).
t_stop_and_unload() {
	local id rc out=$work/stopped.json

	id=$(fsloadctl --json start --profile smallfiles --dir "$FSLOAD_DIR" \
		--files 1000000 --cpu-profile 10000 --detach |
		jget 'j["job"]["id"] if "job" in j else j["id"]')
	wait_state "$id" running 10 || fail "job $id not running"
	sleep 2
	fsloadctl stop "$id" >/dev/null || fail "stop"
	fsloadctl wait "$id" --timeout 120 --quiet >/dev/null
	fsloadctl --json results "$id" >"$out"
	check_json "$out" '
if j["job"]["state"] != "stopped": bad("state %r" % j["job"]["state"])
p = j["phases"][0]
if not p["cpu_profile"]["samples"]: bad("no sample before the stop")
' || fail "stopped job's profile"
	# the stacks again, from results: the files start --folded writes
	fsloadctl results "$id" --folded "$work/st" --flamegraph "$work/st" \
		>/dev/null
	rc=$?
	# 1: the job was stopped
	[ $rc = 1 ] || fail "results --folded of a stopped job exited $rc, not 1"
	[ -s "$work/st-0-create-create.folded" ] ||
		fail "results --folded: no file in $(ls "$work")"
	[ -s "$work/st-0-create-create.svg" ] ||
		fail "results --flamegraph: no file in $(ls "$work")"
	rmmod fsload || fail "rmmod"
	insmod "$FSLOAD_MODULE" || fail "reload failed"
	no_workers
	if [ -w /sys/kernel/debug/kmemleak ]; then
		echo scan >/sys/kernel/debug/kmemleak
		grep -q fsload /sys/kernel/debug/kmemleak && fail "kmemleak: fsload leaks"
	fi
}

# perf_sched_events' enable count, read from /proc/kcore at its
# /proc/kallsyms address; exits 2 when it cannot be read.  The reader is
# checked first on linux_banner, which must name the running release.
sched_key() {
	python3 - <<'EOF'
import os, struct, sys
syms = {}
for line in open("/proc/kallsyms"):
    a, _, name = line.split()[:3]
    if name in ("perf_sched_events", "linux_banner"):
        syms[name] = int(a, 16)
if len(syms) < 2 or not all(syms.values()):
    print("symbols %r" % syms); sys.exit(2)
def read(f, addr, n):
    f.seek(0)
    eh = f.read(64)
    phoff, = struct.unpack_from("<Q", eh, 32)
    phentsize, phnum = struct.unpack_from("<HH", eh, 54)
    for i in range(phnum):
        f.seek(phoff + i * phentsize)
        ptype, _, off, vaddr, _, size = struct.unpack("<IIQQQQ", f.read(40))
        if ptype == 1 and vaddr <= addr and addr + n <= vaddr + size:
            f.seek(off + addr - vaddr)
            return f.read(n)
    print("0x%x not in /proc/kcore" % addr); sys.exit(2)
try:
    f = open("/proc/kcore", "rb")
except OSError as e:
    print("/proc/kcore: %s" % e); sys.exit(2)
want = ("Linux version %s " % os.uname().release).encode()
got = read(f, syms["linux_banner"], len(want))
if got != want:
    print("linux_banner reads %r" % got); sys.exit(2)
print(struct.unpack("<i", read(f, syms["perf_sched_events"], 4))[0])
EOF
}

# The per-CPU sampling events leave the perf_sched_events static key,
# patched into __schedule(), alone (account_event(): Documentation/measurement.rst, "Where an
# op's CPU goes"); a task-bound event would enable it.
t_sched_key_untouched() {
	local id before during

	before=$(sched_key) || skip "perf_sched_events not readable: $before"
	[ "$before" = 0 ] || skip "perf_sched_events already enabled ($before)"
	id=$(fsloadctl --json start --profile smallfiles --dir "$FSLOAD_DIR" \
		--files 1000000 --cpu-profile 10000 --detach |
		jget 'j["job"]["id"] if "job" in j else j["id"]')
	wait_state "$id" running 10 || fail "job $id not running"
	sleep 1
	during=$(sched_key)
	fsloadctl stop "$id" >/dev/null || fail "stop"
	fsloadctl wait "$id" --timeout 120 --quiet >/dev/null
	echo "perf_sched_events: $before before, $during with the job's events"
	[ "$during" = 0 ] ||
		fail "perf_sched_events enabled ($during) by a profiled job"
}

t_user_engine_refused() {
	fsloadctl start --engine user --profile smallfiles --files 10 \
		--dir "$FSLOAD_DIR" --cpu-profile 100 --quiet >/dev/null 2>&1
	[ $? -eq 2 ] || fail "--engine user --cpu-profile not a usage error"
}

# The instruction clock's unit (issue 29).  QEMU's -icount counts a rep
# string instruction once per iteration (7.2: N+1 for N), and Linux picks
# its string routines by CPU flag: with -cpu max (rep_good, erms) 6.1's
# memset is memset_erms, rep stosb, and a cached stat counted ~7100
# instructions, ~4100 of them one rep stosb: the 4096 bytes of the
# names_cache buffer getname() allocates, which init_on_alloc (Debian's
# default) zeroes.  scripts/vm-run's default CPU model (AMD K8, erms and
# fsrm off: no rep_good, erms, fsrm, fsrs) makes 6.1, 6.12 and 7.x take
# their plain loops.  Here the samples of a cached stat (metadata's
# file-stat over 10 000 items in the page cache) whose innermost frame is
# a routine that runs a rep string instruction must be at most 5% of the
# op's samples.  Those routines, by name: memset_erms, memcpy_erms,
# copy_user_enhanced_fast_string, copy_user_generic_string,
# clear_user_rep_good, clear_user_erms, clear_page_rep, clear_page_erms
# (6.1, 6.12); memset, __memset, memcpy, __memcpy, memmove, __memmove and
# copy_page (a rep body with rep_good, erms, fsrm or fsrs; without, one
# jmp to the plain loop: a sample or two); rep_movs_alternative (6.6+:
# rep movsq for 64 bytes or more, whatever the flags).  The plain loops
# are work like any other: memset_orig, memcpy_orig,
# copy_user_generic_unrolled, clear_user_original, rep_stos_alternative,
# clear_page_orig, __clear_pages_unrolled, copy_page_regs; their share is
# printed, not bounded (6.1's zeroing of that 4096-byte buffer is ~700
# instructions of memset_orig a stat).  Not seen: a rep string the
# compiler inlined (rep stosq of a struct clear, 7.x's clear_pages()) is
# booked to its caller.  The period: 50 000 instructions (20 000 Hz), five
# times the sampling handler's own cost (~10 000 under 6.1): at 100 000
# Hz the handler takes a whole period, the next sample fires as it
# returns, and samples pile up in long loops (memset counted 45% instead
# of ~19%).  10 000 stats of ~3700 instructions give ~900 samples: the
# binomial error of a 5% share is 0.7 points; fewer than 300 samples fail
# the case as not meaningful.
t_string_routines() {
	local out=$work/strings.json

	[ "${FSLOAD_ICOUNT:-}" = 1 ] || skip "not under the instruction clock"
	grep -h '^qemu_cpu:\|^cpu:' "$FSLOAD_OUT/vm-info.txt" 2>/dev/null
	profiled "$out" --profile metadata --items 10000 --phases create,stat \
		--cpu-profile 20000
	check_json "$out" '
REP = set("""
memset_erms memcpy_erms copy_user_enhanced_fast_string
copy_user_generic_string clear_user_rep_good clear_user_erms
clear_page_rep clear_page_erms memset __memset memcpy __memcpy memmove
__memmove copy_page rep_movs_alternative
""".split())
PLAIN = set("""
memset_orig memcpy_orig copy_user_generic_unrolled clear_user_original
rep_stos_alternative clear_page_orig __clear_pages_unrolled copy_page_regs
""".split())
ph = [p for p in j["phases"] if p["name"] == "file-stat"][0]
period = j["job"]["cpu_profile"]["period"]
ops = [o for o in ph["cpu_profile"]["by_op"] if o["op"] != "none"]
op = max(ops, key=lambda o: o["samples"])
n = op["samples"]
rep, plain = {}, {}
for f in op["functions"]:
    name = f["function"].split(" ")[0]
    for d, names in ((rep, REP), (plain, PLAIN)):
        if name in names:
            d[name] = d.get(name, 0) + f["self_samples"]
def say(d):
    return ", ".join("%s %d (%.0f/op)" % (k, v, v * period / ph["ops"])
                     for k, v in sorted(d.items(), key=lambda kv: -kv[1])) or "none"
nrep, nplain = sum(rep.values()), sum(plain.values())
share = nrep / n if n else 1.0
err = math.sqrt(0.05 * 0.95 / n) if n else 1.0
top = sorted(op["functions"], key=lambda f: -f["self_samples"])[:8]
print("# file-stat (%s): %d ops, %.0f instructions per op with the profile, %d samples of %d instructions" %
      (op["op"], ph["ops"], ph["cpu"]["worker_ns_per_op"], n, period))
print("# rep string routines: %d samples = %.1f%% (+- %.1f at 5%%): %s" % (nrep, 100 * share, 100 * err, say(rep)))
print("# plain string loops: %d samples = %.1f%%: %s" % (nplain, 100.0 * nplain / max(n, 1), say(plain)))
print("# top self: " + ", ".join("%s %d" % (f["function"].split(" ")[0], f["self_samples"]) for f in top))
if n < 300:
    bad("%d samples: too few to measure a 5%% share" % n)
elif share > 0.05:
    bad("rep string routines hold %.1f%% of a cached stat'"'"'s samples (at most 5%%): the guest CPU has rep_good, erms, fsrm or fsrs (vm-run --cpu)" % (100 * share))
' || fail "see above"
}

# One start, several jobs (a --threads list; --iterations): each job's
# folded stacks, flame graphs and plots in files of their own,
# PREFIX-t<threads>-* and PREFIX-i<iteration>-*, none overwritten by the
# next job's.
t_files_per_job() {
	local j n x

	fsloadctl start --dir "$FSLOAD_DIR" --profile smallfiles --files 300 \
		--threads 1,2 --cpu-profile 2000 --quiet --sample-ms 20 \
		--folded "$work/fj" --flamegraph "$work/fj" --plot "$work/fj" \
		>/dev/null || fail "start --threads 1,2 exited $?"
	fsloadctl start --dir "$FSLOAD_DIR" --profile smallfiles --files 300 \
		--iterations 2 --cpu-profile 2000 --quiet --sample-ms 20 \
		--folded "$work/fj" --flamegraph "$work/fj" --plot "$work/fj" \
		>/dev/null || fail "start --iterations 2 exited $?"
	for j in t1 t2 i1 i2; do
		for x in folded svg; do
			n=$(find "$work" -maxdepth 1 \
				-name "fj-$j-[0-9]*-create-create.$x" | wc -l)
			[ "$n" = 1 ] ||
				fail "job $j: $n fj-$j-*-create-create.$x: $(ls "$work")"
		done
		[ -n "$(find "$work" -maxdepth 1 -name "fj-$j-[0-9]*-create.svg")" ] ||
			fail "job $j: no plot: $(ls "$work")"
	done
	n=$(find "$work" -maxdepth 1 -name 'fj-[0-9]*' | wc -l)
	[ "$n" = 0 ] || fail "$n files without the job in their name"
}

cases=(
	"create_profile_names_ext4 t_create_names_ext4"
	"mix_profile_per_op_type t_mix_per_op_type"
	"tiny_table_counts_drops t_drops_counted"
	"profile_cost_stated t_overhead_stated"
	"stopped_profile_then_rmmod t_stop_and_unload"
	"sched_key_untouched t_sched_key_untouched"
	"user_engine_refused t_user_engine_refused"
	"string_routines_minor t_string_routines"
	"files_per_job t_files_per_job"
)
run=()
for c in "${cases[@]}"; do
	if [ $# -eq 0 ] || [[ " $* " == *" ${c%% *} "* ]]; then
		run+=("$c")
	fi
done
ktap_plan "${#run[@]}"
for c in "${run[@]}"; do
	# shellcheck disable=SC2086 # name and function
	ktap_run $c
done
ktap_finish
