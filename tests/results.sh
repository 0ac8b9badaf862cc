#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Result files and compare on the host, with the userspace engine (no
# module, no guest): start -o writes a result file with the environment
# and every iteration, --json prints the same members, --rerun repeats a
# run from the file (arguments, seed, job file) with later options
# overriding, and compare gives the verdicts, modes, warnings and exit
# statuses it documents, on real files and on copies edited to show a
# regression, an improvement, a noise-free run (threshold only, never
# "exact"), single wall-clock runs (noise not measured, exit 7), a baseline of several boots (the noise band), a changed
# environment, another workload, a debug kernel and QEMU's instruction
# clock against the wall clock, another --lat-sample, another CPU
# identity or string-op flags; names that match nothing are usage errors.
# KTAP.
set -uo pipefail

# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/lib/host.sh"
mkdir -p "$tmp/d"

# expect FILE EXPR WANTED...: Python expressions over the JSON document j
expect() {
	python3 - "$@" <<'PY' || exit "$KSFT_FAIL"
import json, sys
j = json.load(open(sys.argv[1]))
def row(phase, metric):
    return [r for r in j["rows"] if r["phase"] == phase and r["metric"] == metric][0]
bad = 0
a = sys.argv[2:]
for i in range(0, len(a), 2):
    try:
        v = eval(a[i])
        got = " ".join(map(str, v)) if isinstance(v, list) else str(v)
    except Exception as e:
        got = "exception: %r" % e
    if got != a[i + 1]:
        print("FAIL: %s: got %r, wanted %r" % (a[i], got, a[i + 1]))
        bad = 1
sys.exit(bad)
PY
}

# edit IN OUT PYTHON: OUT is IN with the statements PYTHON applied to j
edit() {
	python3 - "$1" "$2" "$3" <<'PY' || exit "$KSFT_FAIL"
import json, sys
j = json.load(open(sys.argv[1]))
def phases(name):
    return [p for it in j["iterations"] for p in it["phases"] if p["name"] == name]
exec(sys.argv[3])
json.dump(j, open(sys.argv[2], "w"))
PY
}

# compare_says RCS PATTERN ARGS...: compare ARGS exits with one of RCS
# ("2", "0 1") and says PATTERN (grep) on stderr
compare_says() {
	local rcs=$1 pattern=$2 rc

	shift 2
	"$ctl" compare "$@" >/dev/null 2>"$tmp/cmp.err"
	rc=$?
	[[ " $rcs " == *" $rc "* ]] ||
		fail "compare $*: exit $rc, not $rcs: $(cat "$tmp/cmp.err")"
	grep -q -- "$pattern" "$tmp/cmp.err" ||
		fail "compare $*: no '$pattern' in: $(cat "$tmp/cmp.err")"
}

base=$tmp/base.json
start() {
	"$ctl" start --engine user --profile smallfiles --files 200 \
		--dir "$tmp/d" --idle-ms 0 --quiet "$@"
}

t_output() {
	start --iterations 3 --seed 11 -o "$base" >"$tmp/text" ||
		fail "start -o exited $?"
	grep -q '^SUMMARY rate' "$tmp/text" || fail "no text report on stdout"
	expect "$base" \
		'j["result"]["schema"], j["result"]["version"]' "('fsload-result', 1)" \
		'len(j["iterations"])' 3 \
		'[len(i["phases"]) for i in j["iterations"]]' "4 4 4" \
		'j["fsload"]["version"] == open("'"$repo"'/VERSION").read().strip()' True \
		'bool(j["fsload"]["git"])' True \
		'j["environment"]["kernel"]["release"] == "'"$(uname -r)"'"' True \
		'j["environment"]["kernel"]["cmdline"] == open("/proc/cmdline").read().strip()' True \
		'type(j["environment"]["kernel"]["debug"]["debug_kernel"]).__name__' bool \
		'j["environment"]["cpu"]["online"] > 0' True \
		'j["environment"]["memory"]["total_kib"] > 0' True \
		'type(j["environment"]["mitigations"]).__name__' dict \
		'j["environment"]["filesystem"]["dir"]' "$tmp/d" \
		'bool(j["environment"]["filesystem"]["type"])' True \
		'j["run"]["seed"]' 11 \
		'j["run"]["params"]["files"], j["run"]["params"]["iterations"]' "(200, 3)" \
		'[p["name"] for p in j["run"]["program"]["phases"]]' "create stat read unlink" \
		'"-o" in j["run"]["argv"] or "--output" in j["run"]["argv"]' False
	# the config: its text and hash go together
	expect "$base" \
		'(j["environment"]["kernel"]["config"] is None) == (j["environment"]["kernel"]["config_sha256"] is None)' True
	# --json on stdout: the same members
	start --seed 11 --json >"$tmp/one.json" || fail "start --json exited $?"
	expect "$tmp/one.json" \
		'sorted(k for k in j if k in ("result", "fsload", "environment", "run"))' \
		"environment fsload result run" \
		'len(j["phases"])' 4
}

t_rerun() {
	[ -f "$base" ] || t_output >/dev/null
	start --rerun "$base" --files 50 -o "$tmp/rerun.json" >/dev/null ||
		fail "start --rerun exited $?"
	expect "$tmp/rerun.json" \
		'j["run"]["rerun_of"]' "$base" \
		'j["run"]["seed"]' 11 \
		'j["run"]["params"]["files"]' 50 \
		'j["run"]["params"]["iterations"]' 3 \
		'[p["ops"] for p in j["iterations"][0]["phases"]]' "50 50 50 50"
	# a job file travels in the result file
	printf '[global]\nfiles = 30\n\n[phase make]\nop = create\n\n[phase look]\nop = stat\n' >"$tmp/j.ini"
	"$ctl" start --engine user --job "$tmp/j.ini" --dir "$tmp/d" --idle-ms 0 \
		--quiet -o "$tmp/job.json" >/dev/null || fail "start --job exited $?"
	rm "$tmp/j.ini"
	"$ctl" start --rerun "$tmp/job.json" --json >"$tmp/job2.json" ||
		fail "start --rerun of a job file exited $?"
	expect "$tmp/job2.json" '[p["name"] for p in j["phases"]]' "make look" \
		'[p["ops"] for p in j["phases"]]' "30 30"
	"$ctl" start --rerun "$tmp/nope.json" 2>/dev/null
	[ $? = 2 ] || fail "--rerun of a missing file: not exit 2"
}

t_compare_verdicts() {
	local rc

	[ -f "$base" ] || t_output >/dev/null
	"$ctl" compare "$base" "$base" >"$tmp/same.txt" || fail "compare of a file with itself exited $?"
	grep -q 'no significant change' "$tmp/same.txt" || fail "no verdict: $(cat "$tmp/same.txt")"
	# every create costs 200 % more, with the same small spread (set
	# values: the host's noise in $base can be as large as any shift)
	edit "$base" "$tmp/fast.json" '
for p, v in zip(phases("create"), (1000.0, 1010.0, 990.0)):
    p["cpu"]["worker_ns_per_op"] = v'
	edit "$base" "$tmp/slow.json" '
for p, v in zip(phases("create"), (3000.0, 3010.0, 2990.0)):
    p["cpu"]["worker_ns_per_op"] = v'
	"$ctl" --json compare "$tmp/fast.json" "$tmp/slow.json" --metric cpu_ns_per_op >"$tmp/c1.json"
	rc=$?
	[ $rc = 1 ] || fail "a regression: exit $rc, not 1"
	expect "$tmp/c1.json" 'row("create", "cpu_ns_per_op")["verdict"]' regressed \
		'row("create", "cpu_ns_per_op")["mode"]' welch \
		'row("create", "cpu_ns_per_op")["p"] < 0.05' True \
		'round(row("create", "cpu_ns_per_op")["change_pct"])' 200 \
		'row("stat", "cpu_ns_per_op")["verdict"]' "no significant change" \
		'j["regressions"]' 1
	# the other way round it is an improvement: exit 0
	"$ctl" --json compare "$tmp/slow.json" "$tmp/fast.json" --metric cpu_ns_per_op >"$tmp/c2.json" ||
		fail "an improvement: exit $?"
	expect "$tmp/c2.json" 'row("create", "cpu_ns_per_op")["verdict"]' improved
	# ops/s: higher is better (set values, not the host's noise)
	edit "$base" "$tmp/q1.json" '
for p, v in zip(phases("stat"), (1000.0, 1010.0, 990.0)):
    p["ops_per_sec"] = v'
	edit "$base" "$tmp/q2.json" '
for p, v in zip(phases("stat"), (500.0, 505.0, 495.0)):
    p["ops_per_sec"] = v'
	"$ctl" --json compare "$tmp/q1.json" "$tmp/q2.json" --metric ops_per_sec --phase stat >"$tmp/c3.json"
	[ $? = 1 ] || fail "half the ops/s is not a regression"
	expect "$tmp/c3.json" '[r["phase"] for r in j["rows"]]' stat \
		'round(row("stat", "ops_per_sec")["change_pct"])' -50 \
		'row("stat", "ops_per_sec")["verdict"]' regressed
}

t_compare_threshold() {
	[ -f "$base" ] || t_output >/dev/null
	# the instruction clock within one boot: no variance at all, and the
	# noise between boots not measured: threshold only, never "exact"
	edit "$base" "$tmp/e1.json" '
for p in phases("create"):
    p["cpu"]["worker_ns_per_op"] = 1000.0'
	edit "$base" "$tmp/e2.json" '
for p in phases("create"):
    p["cpu"]["worker_ns_per_op"] = 1004.0'
	edit "$base" "$tmp/e3.json" '
for p in phases("create"):
    p["cpu"]["worker_ns_per_op"] = 1030.0'
	"$ctl" --json compare "$tmp/e1.json" "$tmp/e2.json" --metric cpu_ns_per_op \
		--phase create >"$tmp/x1.json" || fail "0.4 % under a 1 % threshold: exit $?"
	expect "$tmp/x1.json" 'row("create", "cpu_ns_per_op")["mode"]' threshold \
		'"noise not measured" in row("create", "cpu_ns_per_op")["note"]' True \
		'row("create", "cpu_ns_per_op")["verdict"]' "no significant change" \
		'row("create", "cpu_ns_per_op")["p"]' None
	"$ctl" compare "$tmp/e1.json" "$tmp/e2.json" --metric cpu_ns_per_op \
		--phase create >"$tmp/x1.txt" 2>&1
	! grep -qw exact "$tmp/x1.txt" || fail "a comparison called exact: $(cat "$tmp/x1.txt")"
	"$ctl" --json compare "$tmp/e1.json" "$tmp/e3.json" --metric cpu_ns_per_op \
		--phase create >"$tmp/x2.json"
	[ $? = 1 ] || fail "3 % over a 1 % threshold is a regression in exact mode"
	"$ctl" compare "$tmp/e1.json" "$tmp/e3.json" --metric cpu_ns_per_op \
		--phase create --threshold 5 >/dev/null || fail "3 % under --threshold 5: exit $?"
}

# The average latency counts the operations its sum covers: the
# successful ones (issue 20), not the failed ones too.
t_compare_lat_avg_errors() {
	[ -f "$base" ] || t_output >/dev/null
	edit "$base" "$tmp/l1.json" '
for p in phases("stat"):
    t = p["ops_by_type"][0]
    t["ops"], t["errors"], t["lat_sum_ns"] = 100, 100, 100 * 1000.0
    t["sampled"] = 100'
	"$ctl" --json compare "$tmp/l1.json" "$tmp/l1.json" --metric lat_avg_ns \
		--phase stat >"$tmp/l.json" || fail "compare: exit $?"
	expect "$tmp/l.json" 'row("stat", "lat_avg_ns")["base"]["mean"]' 1000.0
}

# boots BASE OUT PHASE V1 V2 ...: OUT holds one boot per value, each with
# BASE's first iteration, worker_ns_per_op of PHASE set to the value
boots() {
	local in=$1 out=$2 phase=$3

	shift 3
	edit "$in" "$out" '
import copy
it0 = j["iterations"][0]
j["boots"] = []
for v in '"[$(IFS=,; echo "$*")]"':
    it = copy.deepcopy(it0)
    for p in it["phases"]:
        if p["name"] == "'"$phase"'":
            p["cpu"]["worker_ns_per_op"] = float(v)
    j["boots"].append({"iterations": [it]})
del j["iterations"]'
}

t_compare_noise() {
	local rc

	[ -f "$base" ] || t_output >/dev/null
	# three boots 1000 +- 2: t(0.975, 2) 4.303 * 2 * sqrt(1/3 + 1) / 1000
	# is a noise band of 0.994 %
	boots "$base" "$tmp/b3.json" create 1000 1002 998
	boots "$base" "$tmp/n1008.json" create 1008
	boots "$base" "$tmp/n1015.json" create 1015
	boots "$base" "$tmp/n990.json" create 985
	"$ctl" --json compare "$tmp/b3.json" "$tmp/n1008.json" --metric cpu_ns_per_op \
		--phase create --threshold 0.5 >"$tmp/nz1.json" ||
		fail "+0.8 % inside a 0.99 % noise band: exit $?"
	expect "$tmp/nz1.json" 'row("create", "cpu_ns_per_op")["mode"]' noise \
		'round(row("create", "cpu_ns_per_op")["noise_pct"], 3)' 0.994 \
		'row("create", "cpu_ns_per_op")["base"]["n"]' 3 \
		'row("create", "cpu_ns_per_op")["verdict"]' "no significant change"
	"$ctl" --json compare "$tmp/b3.json" "$tmp/n1015.json" --metric cpu_ns_per_op \
		--phase create --threshold 0.5 >"$tmp/nz2.json"
	rc=$?
	[ $rc = 1 ] || fail "+1.5 % beyond the noise band: exit $rc, not 1"
	expect "$tmp/nz2.json" 'row("create", "cpu_ns_per_op")["verdict"]' regressed
	"$ctl" --json compare "$tmp/b3.json" "$tmp/n990.json" --metric cpu_ns_per_op \
		--phase create --threshold 0.5 >"$tmp/nz3.json" || fail "an improvement: exit $?"
	expect "$tmp/nz3.json" 'row("create", "cpu_ns_per_op")["verdict"]' improved
	# beyond the noise but under --threshold: no change
	"$ctl" compare "$tmp/b3.json" "$tmp/n1015.json" --metric cpu_ns_per_op \
		--phase create --threshold 2 >/dev/null || fail "under --threshold 2: exit $?"
	# the text says how many boots and the band
	"$ctl" compare "$tmp/b3.json" "$tmp/n1015.json" --metric cpu_ns_per_op \
		--phase create >"$tmp/nz.txt"
	grep -q '(3 runs, 3 boots)' "$tmp/nz.txt" || fail "no boot count: $(cat "$tmp/nz.txt")"
	grep -q 'noise ±0.994% over 3 boots' "$tmp/nz.txt" || fail "no noise band: $(cat "$tmp/nz.txt")"
}

t_compare_workload() {
	local rc

	[ -f "$base" ] || t_output >/dev/null
	edit "$base" "$tmp/w1.json" 'j["run"]["params"]["files"] = 300'
	edit "$base" "$tmp/w2.json" 'j["run"]["params"]["iterations"] = 5'
	edit "$base" "$tmp/w3.json" 'j["run"]["params"]["profile"] = "metadata"'
	edit "$base" "$tmp/w4.json" 'j["run"]["params"]["seed"] = 12; j["run"]["params"]["dir"] = "/x"'
	for w in w1:files w2:iterations w3:profile; do
		"$ctl" compare "$base" "$tmp/${w%%:*}.json" >"$tmp/w.out" 2>"$tmp/w.err"
		rc=$?
		[ $rc = 2 ] || fail "another --${w#*:}: exit $rc, not 2"
		grep -q "the workloads differ: parameter --${w#*:}" "$tmp/w.err" ||
			fail "no error for --${w#*:}: $(cat "$tmp/w.err")"
		[ ! -s "$tmp/w.out" ] || fail "a table for another workload: $(cat "$tmp/w.out")"
	done
	"$ctl" compare "$base" "$tmp/w1.json" --force >"$tmp/w.out" 2>/dev/null
	rc=$?
	[ $rc = 0 ] || [ $rc = 1 ] || fail "--force: exit $rc"
	grep -q 'parameter --files differs' "$tmp/w.out" || fail "--force: no warning"
	# the seed and the directory are not the workload
	"$ctl" compare "$base" "$tmp/w4.json" >/dev/null 2>&1
	rc=$?
	[ $rc = 0 ] || [ $rc = 1 ] || fail "another seed and dir: exit $rc"
}

t_compare_environment() {
	local rc cs base_env

	[ -f "$base" ] || t_output >/dev/null
	edit "$base" "$tmp/env.json" '
j["environment"]["filesystem"]["mount_options"] = "rw,noatime,test"
j["environment"]["mitigations"]["spectre_v2"] = "Vulnerable (test)"'
	"$ctl" compare "$base" "$tmp/env.json" 2>"$tmp/env.err" >"$tmp/env.out"
	grep -q 'mount options differs' "$tmp/env.out" || fail "no mount options warning: $(cat "$tmp/env.out")"
	grep -q 'mitigations: spectre_v2 differs' "$tmp/env.out" || fail "no mitigation warning"
	# the kernel's clocksource, which the engines' fallback clocks read
	# (issue 31: an hpet costs an emulated MMIO read in a TCG guest)
	cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
	[ ! -r $cs ] || expect "$base" 'j["environment"]["kernel"]["clocksource"]' "$(cat $cs)"
	edit "$base" "$tmp/cs.json" 'j["environment"]["kernel"]["clocksource"] = "hpet-test"'
	"$ctl" compare "$base" "$tmp/cs.json" >"$tmp/cs.out" 2>&1
	grep -q 'kernel clocksource differs' "$tmp/cs.out" || fail "no clocksource warning: $(cat "$tmp/cs.out")"
	# the op clock the engine timed with: its own cost per op is in
	# every figure (122 instructions with ktime, 85 with the TSC)
	edit "$base" "$tmp/oc.json" 'j["iterations"][0]["job"]["op_clock"] = "ktime-test"'
	"$ctl" compare "$base" "$tmp/oc.json" >"$tmp/oc.out" 2>&1
	grep -q 'op clock differs' "$tmp/oc.out" || fail "no op clock warning: $(cat "$tmp/oc.out")"
	# a debug kernel is one with KASAN, lockdep and their kin; DEBUG_LIST,
	# which Debian's stock 6.1 and 6.12 enable, is hardening, also in a
	# result written before that was told apart (issue 29: 6.1 was
	# refused against 7.x's config-less result)
	edit "$base" "$tmp/hard.json" '
j["environment"]["kernel"]["debug"].update(options=["DEBUG_LIST"], debug_kernel=True, lockdep_or_kmemleak_present=False)'
	edit "$base" "$tmp/prod.json" '
j["environment"]["kernel"]["debug"].update(options=[], debug_kernel=False, lockdep_or_kmemleak_present=False)'
	"$ctl" compare "$tmp/hard.json" "$tmp/prod.json" >/dev/null 2>"$tmp/hard.err"
	rc=$?
	[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 7 ] ||
		fail "DEBUG_LIST vs none: exit $rc: $(cat "$tmp/hard.err")"
	# Debian's 7.x ships UBSAN's bounds and shift checks: hardening too
	# (issue 29: 7.x's smallfiles results were refused against 6.1's)
	edit "$base" "$tmp/ubsan.json" '
j["environment"]["kernel"]["debug"].update(options=["UBSAN", "UBSAN_BOUNDS", "UBSAN_SHIFT", "DEBUG_LIST"], debug_kernel=True, lockdep_or_kmemleak_present=False)'
	"$ctl" compare "$tmp/ubsan.json" "$tmp/prod.json" >/dev/null 2>"$tmp/hard.err"
	rc=$?
	[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 7 ] ||
		fail "UBSAN bounds and shift vs none: exit $rc: $(cat "$tmp/hard.err")"
	edit "$base" "$tmp/ubsan-all.json" '
j["environment"]["kernel"]["debug"].update(options=["UBSAN", "UBSAN_BOUNDS", "UBSAN_ALIGNMENT"], debug_kernel=True, lockdep_or_kmemleak_present=False)'
	"$ctl" compare "$tmp/ubsan-all.json" "$tmp/prod.json" >/dev/null 2>"$tmp/hard.err"
	rc=$?
	[ $rc = 2 ] || fail "UBSAN_ALIGNMENT vs none: exit $rc, not 2"
	edit "$base" "$tmp/dbg.json" '
j["environment"]["kernel"]["debug"].update(options=["DEBUG_LIST", "KASAN"], debug_kernel=True, lockdep_or_kmemleak_present=False)'
	edit "$base" "$tmp/base.json" '
j["environment"]["kernel"]["debug"].update(options=["DEBUG_LIST"], debug_kernel=False, lockdep_or_kmemleak_present=False)'
	base_env=$base
	base=$tmp/base.json
	"$ctl" compare "$base" "$tmp/dbg.json" >/dev/null 2>"$tmp/dbg.err"
	rc=$?
	[ $rc = 2 ] || fail "debug vs production: exit $rc, not 2"
	grep -q 'refusing' "$tmp/dbg.err" || fail "no refusal message: $(cat "$tmp/dbg.err")"
	"$ctl" compare "$base" "$tmp/dbg.json" --force >/dev/null 2>&1
	rc=$?
	[ $rc = 0 ] || [ $rc = 1 ] || fail "--force: exit $rc"
	base=$base_env
	# geometry: what changes with use (the journal's checksum) is noise
	edit "$base" "$tmp/g1.json" '
j["environment"]["filesystem"]["geometry"] = {"Block count": "65536", "Journal checksum": "0x1"}'
	edit "$base" "$tmp/g2.json" '
j["environment"]["filesystem"]["geometry"] = {"Block count": "65536", "Journal checksum": "0x2"}'
	edit "$base" "$tmp/g3.json" '
j["environment"]["filesystem"]["geometry"] = {"Block count": "131072", "Journal checksum": "0x1"}'
	"$ctl" compare "$tmp/g1.json" "$tmp/g2.json" >"$tmp/g.out" 2>&1
	! grep -q 'differs' "$tmp/g.out" || fail "the journal checksum is not the environment: $(grep differs "$tmp/g.out")"
	"$ctl" compare "$tmp/g1.json" "$tmp/g3.json" >"$tmp/g.out" 2>&1
	grep -q 'geometry: Block count differs' "$tmp/g.out" || fail "no geometry warning: $(cat "$tmp/g.out")"
}

# A result under QEMU's instruction clock counts instructions, not time:
# compare refuses to set it beside a wall-clock one without --force
# (issue 15).  A run outside scripts/vm-run says "wall"; an older file
# that says nothing is compared, with a warning.
t_compare_clock() {
	local rc

	[ -f "$base" ] || t_output >/dev/null
	expect "$base" 'j["environment"]["harness"]["clock"]' "${FSLOAD_CLOCK:-wall}"
	edit "$base" "$tmp/wall.json" 'j["environment"]["harness"]["clock"] = "wall"'
	edit "$base" "$tmp/icount.json" 'j["environment"]["harness"]["clock"] = "icount"'
	edit "$base" "$tmp/noclock.json" 'j["environment"]["harness"]["clock"] = None'
	compare_says 2 'refusing .*wall clock .*icount clock' \
		"$tmp/wall.json" "$tmp/icount.json"
	"$ctl" compare "$tmp/icount.json" "$tmp/wall.json" >/dev/null 2>&1
	rc=$?
	[ $rc = 2 ] || fail "icount vs wall: exit $rc, not 2"
	"$ctl" compare "$tmp/wall.json" "$tmp/icount.json" --force >"$tmp/clk.out" 2>&1
	rc=$?
	[ $rc = 0 ] || [ $rc = 1 ] || fail "--force: exit $rc"
	grep -q 'clock differs: "wall" -> "icount"' "$tmp/clk.out" ||
		fail "--force: no warning: $(cat "$tmp/clk.out")"
	compare_says "0 1" 'only one result says which clock' \
		"$tmp/noclock.json" "$tmp/icount.json"
}

# The CPU a result was taken on (issue 29): its identity (vendor, family,
# model, stepping: under QEMU the -cpu model) and the flags by which Linux
# picks its string routines (rep_good, erms, fsrm; fsrs from CPUID), in
# the result and the text header.  QEMU's instruction clock counts a rep
# string instruction per iteration, so `-cpu max` (erms: memset is rep
# stosb) and a K8 model without erms gave a cached stat 7201 and 3535
# instructions: compare refuses results of two identities or flag sets
# unless forced, and warns where only one side says.
t_compare_cpu() {
	local cpu='j["environment"]["cpu"]' f rc

	[ -f "$base" ] || t_output >/dev/null
	expect "$base" \
		"sorted(${cpu}[\"id\"])" "family model stepping vendor" \
		"sorted(${cpu}[\"string_ops\"])" "erms fsrm fsrs rep_good" \
		"${cpu}[\"id\"][\"family\"] == int([l for l in open('/proc/cpuinfo') if l.startswith('cpu family')][0].split(':')[1])" True \
		"${cpu}[\"string_ops\"][\"erms\"] == (' erms' in [l for l in open('/proc/cpuinfo') if l.startswith('flags')][0])" True
	start --seed 11 >"$tmp/cpu.txt" || fail "start exited $?"
	grep -q '^cpu: [^ ]* family [0-9]* model [0-9]* stepping [0-9]*, string ops: ' \
		"$tmp/cpu.txt" || fail "no cpu line in the text header: $(head -5 "$tmp/cpu.txt")"
	edit "$base" "$tmp/k8.json" "
${cpu}['id'] = {'vendor': 'AuthenticAMD', 'family': 15, 'model': 4, 'stepping': 0}
${cpu}['string_ops'] = {'rep_good': False, 'erms': False, 'fsrm': False, 'fsrs': False}"
	edit "$tmp/k8.json" "$tmp/k8b.json" "${cpu}['model'] = 'another name'"
	edit "$tmp/k8.json" "$tmp/fam.json" "${cpu}['id']['family'] = 25"
	edit "$tmp/k8.json" "$tmp/erms.json" "
${cpu}['id']['model'] = 107
${cpu}['id']['stepping'] = 1
${cpu}['string_ops']['rep_good'] = True
${cpu}['string_ops']['erms'] = True"
	edit "$tmp/k8.json" "$tmp/nofsrs.json" "${cpu}['string_ops']['fsrs'] = None"
	edit "$tmp/k8.json" "$tmp/oldcpu.json" "
del ${cpu}['id']
del ${cpu}['string_ops']"
	# the same identity and flags (the model name aside): compared
	for f in k8b nofsrs; do # fsrs unknown (null: no CPUID): no difference
		"$ctl" compare "$tmp/k8.json" "$tmp/$f.json" >/dev/null 2>"$tmp/cpu.err"
		rc=$?
		[ $rc = 0 ] || [ $rc = 1 ] || fail "same CPU ($f): exit $rc: $(cat "$tmp/cpu.err")"
		! grep -q 'CPU' "$tmp/cpu.err" || fail "same CPU ($f): $(cat "$tmp/cpu.err")"
	done
	compare_says 2 'refusing to compare results taken on different CPUs .*family 15 -> 25' \
		"$tmp/k8.json" "$tmp/fam.json"
	compare_says 2 'different CPUs .*model 4 -> 107, stepping 0 -> 1, rep_good false -> true, erms false -> true' \
		"$tmp/k8.json" "$tmp/erms.json"
	compare_says "0 1" 'comparing results taken on different CPUs (--force): .*erms false -> true' \
		"$tmp/k8.json" "$tmp/erms.json" --force
	"$ctl" compare "$tmp/k8.json" "$tmp/erms.json" --force >"$tmp/cpu.out" 2>/dev/null
	grep -q 'CPU string ops: erms differs: false -> true' "$tmp/cpu.out" ||
		fail "--force: no difference in the report: $(cat "$tmp/cpu.out")"
	compare_says "0 1" "only $tmp/k8.json records its CPU" \
		"$tmp/oldcpu.json" "$tmp/k8.json"
}

# --lat-sample N: the run records it (text header, JSON), each op type's
# latencies cover its sampled ops, and compare refuses results timed with
# another N unless forced (an older file without it timed every op).
t_compare_lat_sample() {
	local rc

	[ -f "$base" ] || t_output >/dev/null
	start --lat-sample 4 -o "$tmp/s4one.json" >"$tmp/s4.txt" ||
		fail "start --lat-sample 4 exited $?"
	grep -q ' lat sample 1/4,' "$tmp/s4.txt" ||
		fail "no 'lat sample 1/4' in the header: $(head -3 "$tmp/s4.txt")"
	# the latency table counts the ops its percentiles summarise (issue 31)
	python3 - "$tmp/s4one.json" "$tmp/s4.txt" <<'PY' ||
import json, sys
j = json.load(open(sys.argv[1]))
want = {}
for p in j["phases"]:
    for t in p["ops_by_type"]:
        name = p["name"] if len(p["ops_by_type"]) == 1 else p["name"] + "/" + t["op"]
        want[name] = t["sampled"]
lines = open(sys.argv[2]).read().split("\n")
i = [k for k, l in enumerate(lines) if l.startswith("latency_us ")][0]
got = {}
for l in lines[i + 1:]:
    if not l.strip():
        break
    got[l.split()[0]] = int(l.split()[1])
assert got == want, (got, want)
assert lines[i].split()[1] == "timed", lines[i]
PY
		fail "the latency table's counts are not the timed ops"
	start --lat-sample 4 --iterations 3 --seed 11 -o "$tmp/s4.json" \
		>/dev/null || fail "start --lat-sample 4 --iterations 3 exited $?"
	python3 - "$tmp/s4.json" <<'PY' || fail "the sampled result does not add up"
import json, sys
j = json.load(open(sys.argv[1]))
it = j["iterations"][0]
assert it["job"]["lat_sample"] == 4, it["job"]["lat_sample"]
for p in it["phases"]:
    for t in p["ops_by_type"]:
        assert 0 < t["sampled"] < t["ops"], (p["name"], t["sampled"], t["ops"])
        assert abs(t["lat_avg_ns"] * t["sampled"] - t["lat_sum_ns"]) <= t["sampled"]
        assert sum(b[2] for b in t["latency"]["histogram"]) == t["sampled"]
PY
	"$ctl" start --lat-sample 0 --profile null --dir "$tmp/d" --engine user \
		2>"$tmp/ls.err" >/dev/null
	rc=$?
	[ $rc = 2 ] || fail "--lat-sample 0: exit $rc, not 2"
	grep -q -- '--lat-sample: 0 is not 1 to 65536' "$tmp/ls.err" ||
		fail "--lat-sample 0: $(cat "$tmp/ls.err")"
	edit "$base" "$tmp/old.json" 'del j["run"]["params"]["lat-sample"]'
	compare_says 2 'refusing .*timed 1 op in 1 .*timed 1 op in 4' \
		"$base" "$tmp/s4.json"
	compare_says "0 1" 'timed 1 op in 1 with one that timed 1 op in 4' \
		"$base" "$tmp/s4.json" --force
	"$ctl" compare "$tmp/old.json" "$base" >/dev/null 2>"$tmp/ls.err"
	rc=$?
	[ $rc = 0 ] || [ $rc = 1 ] ||
		fail "a file without lat-sample (every op timed): exit $rc, $(cat "$tmp/ls.err")"
	edit "$tmp/s4.json" "$tmp/s4e.json" '
for p in phases("stat"):
    t = p["ops_by_type"][0]
    t["ops"], t["sampled"], t["lat_sum_ns"] = 400, 100, 100 * 1000.0'
	"$ctl" --json compare "$tmp/s4e.json" "$tmp/s4e.json" --metric lat_avg_ns \
		--phase stat >"$tmp/l.json" || fail "compare: exit $?"
	expect "$tmp/l.json" 'row("stat", "lat_avg_ns")["base"]["mean"]' 1000.0
}

t_compare_usage() {
	[ -f "$base" ] || t_output >/dev/null
	"$ctl" compare "$base" 2>/dev/null
	[ $? = 2 ] || fail "one file: not exit 2"
	"$ctl" compare "$base" "$base" --metric nonsense 2>"$tmp/u.err"
	[ $? = 2 ] || fail "unknown metric: not exit 2"
	grep -q 'cpu_ns_per_op' "$tmp/u.err" || fail "the metrics are not listed: $(cat "$tmp/u.err")"
	# a phase that matches nothing (a typo) must not compare nothing
	"$ctl" compare "$base" "$base" --phase craete >"$tmp/u.out" 2>"$tmp/u.err"
	[ $? = 2 ] || fail "unknown phase: not exit 2"
	grep -q "unknown phase 'craete'.*create, stat, read, unlink" "$tmp/u.err" ||
		fail "the phases are not listed: $(cat "$tmp/u.err")"
	"$ctl" compare "$base" "$base" --phase create,stat,nope 2>/dev/null >/dev/null
	[ $? = 2 ] || fail "one unknown phase of three: not exit 2"
	# a phase NEW lacks, a metric no phase has: nothing compared
	edit "$base" "$tmp/u1.json" '
for p in phases("stat"):
    p["name"] = "stat2"'
	"$ctl" compare "$base" "$tmp/u1.json" --phase stat >/dev/null 2>"$tmp/u.err"
	[ $? = 2 ] || fail "a phase NEW lacks: not exit 2"
	grep -q 'nothing compared for phase stat' "$tmp/u.err" || fail "no message: $(cat "$tmp/u.err")"
	edit "$base" "$tmp/u2.json" '
for it in j["iterations"]:
    for p in it["phases"]:
        p.pop("cpu", None)'
	"$ctl" compare "$base" "$tmp/u2.json" --metric cpu_ns_per_op >/dev/null 2>"$tmp/u.err"
	[ $? = 2 ] || fail "no metric on both sides: not exit 2"
	"$ctl" compare "$base" "$tmp/u2.json" --metric cpu_ns_per_op,ops_per_sec >/dev/null 2>"$tmp/u.err"
	[ $? = 2 ] || fail "one metric that compares nothing: not exit 2"
	grep -q 'nothing compared for metric cpu_ns_per_op' "$tmp/u.err" || fail "no message: $(cat "$tmp/u.err")"
	"$ctl" compare "$base" "$base" --alpha 2 2>/dev/null
	[ $? = 2 ] || fail "--alpha 2: not exit 2"
	echo '{"x": 1}' >"$tmp/junk.json"
	"$ctl" compare "$base" "$tmp/junk.json" 2>/dev/null
	[ $? = 2 ] || fail "not a result: not exit 2"
	echo '{"x": ' >"$tmp/bad.json"
	"$ctl" compare "$base" "$tmp/bad.json" 2>/dev/null
	[ $? = 2 ] || fail "broken JSON: not exit 2"
}

# prof IN OUT SPEC: OUT is IN with a CPU profile of the create phase in
# every iteration: SPEC "name:samples,..." (1 000 ops, a sample 10
# instructions per op), iteration i's first function with i extra samples
# when VARY is set.  Three iterations of one sample each: a function's
# sampling error is sqrt(mean * 10 / 3) per op.
prof() {
	edit "$1" "$2" '
spec = [(f.split(":")[0], int(f.split(":")[1])) for f in "'"$3"'".split(",")]
for i, p in enumerate(phases("create")):
    fns = [{"function": n, "self_samples": s + (i if k == 0 and "'"${VARY:-}"'" else 0),
            "total_samples": s} for k, (n, s) in enumerate(spec)]
    for f in fns:
        f["self_per_op"] = f["self_samples"] * 10.0
        f["total_per_op"] = f["total_samples"] * 10.0 + 5
    n = sum(f["self_samples"] for f in fns)
    p["cpu_profile"] = {"clock": "cpu-clock", "unit": "instructions", "hz": 1000,
        "period": 10000, "samples": n, "dropped": 0,
        "by_op": [{"op": "create", "ops": 1000, "samples": n,
                   "cost_per_op": n * 10.0, "functions": fns}]}'
}

# compare --functions: the functions whose self cost per op changed most,
# first, with the rows' verdicts; between runs that do not vary, a change
# within the sampling error (Poisson: a function's samples) does not
# count, one beyond it does; a function only one side sampled is 0 on the
# other; --functions 0 leaves them out; and a phase without a profile on
# one side is not compared.
t_compare_functions() {
	local f

	[ -f "$base" ] || t_output >/dev/null
	prof "$base" "$tmp/pa.json" "ext4_create:100,alloc_inode:50,tiny:2,same:40"
	prof "$base" "$tmp/pb.json" "ext4_create:100,alloc_inode:90,tiny:3,same:40,newfn:30"
	"$ctl" --json compare "$tmp/pa.json" "$tmp/pb.json" --phase create \
		>"$tmp/f.json"
	f='[v for v in j["functions"] if v["phase"] == "create" and v["op"] == "create"][0]'
	expect "$tmp/f.json" \
		"len(j[\"functions\"])" 1 \
		"${f}[\"unit\"], ${f}[\"base_cost_per_op\"], ${f}[\"new_cost_per_op\"]" \
		"('instructions', 1920.0, 2630.0)" \
		"[x[\"function\"] for x in ${f}[\"functions\"]]" \
		"alloc_inode newfn tiny ext4_create same" \
		"[x[\"verdict\"] for x in ${f}[\"functions\"]][:3]" \
		"regressed regressed no significant change" \
		"[round(x[\"change_per_op\"], 1) for x in ${f}[\"functions\"]][:3]" \
		"400.0 300.0 10.0" \
		"${f}[\"functions\"][0][\"mode\"]" threshold \
		"round(${f}[\"functions\"][0][\"sampling_z\"], 2)" 5.86 \
		"'sampling error' in ${f}[\"functions\"][2][\"note\"]" True \
		"${f}[\"functions\"][1][\"base_self_per_op\"][\"mean\"]" 0.0
	"$ctl" compare "$tmp/pa.json" "$tmp/pb.json" --phase create >"$tmp/f.txt"
	grep -Eq '^ +500\.0 +900\.0 +\+400\.0 +\+80\.0% +\+400\.0 +regressed +regressed +alloc_inode$' "$tmp/f.txt" ||
		fail "no alloc_inode line: $(cat "$tmp/f.txt")"
	grep -q '^create, create: 1920.0 -> 2630.0 instructions per op' "$tmp/f.txt" ||
		fail "no op line: $(cat "$tmp/f.txt")"
	"$ctl" --json compare "$tmp/pa.json" "$tmp/pb.json" --functions 2 >"$tmp/f2.json"
	expect "$tmp/f2.json" "len(${f}[\"functions\"])" 2
	"$ctl" --json compare "$tmp/pa.json" "$tmp/pb.json" --functions 0 >"$tmp/f3.json"
	expect "$tmp/f3.json" '"functions" in j' False
	"$ctl" --json compare "$tmp/pa.json" "$base" >"$tmp/f4.json"
	expect "$tmp/f4.json" 'len(j["functions"])' 0
	# iterations that vary: the t-test over them decides, not the sampling
	VARY=1 prof "$base" "$tmp/pv.json" "ext4_create:100,alloc_inode:50"
	"$ctl" --json compare "$tmp/pv.json" "$tmp/pv.json" --phase create >"$tmp/f5.json"
	expect "$tmp/f5.json" \
		"[(x[\"mode\"], x[\"verdict\"]) for x in ${f}[\"functions\"] if x[\"function\"] == \"ext4_create\"][0]" \
		"('welch', 'no significant change')"
}

# Two single wall-clock runs (issue 31): one run a side measures no noise,
# and a 3 % change of one is a coin toss, not a regression.  compare says
# "noise not measured", tells what to run and exits 7, which a script
# tells from 1; within the threshold it is no change (exit 0).  Under the
# instruction clock a run repeats within a boot: the threshold judges.
# One side with several runs measures the noise for the other's one.
t_compare_single_runs() {
	local rc

	[ -f "$base" ] || t_output >/dev/null
	one() {
		edit "$base" "$1" '
j["iterations"] = j["iterations"][:1]
j["environment"]["harness"]["clock"] = "'"$3"'"
for p in phases("create"):
    p["cpu"]["worker_ns_per_op"] = '"$2"
	}
	one "$tmp/s1.json" 1000.0 wall
	one "$tmp/s2.json" 1030.0 wall
	one "$tmp/s3.json" 1004.0 wall
	"$ctl" --json compare "$tmp/s1.json" "$tmp/s2.json" --metric cpu_ns_per_op \
		--phase create >"$tmp/s.json" 2>"$tmp/s.err"
	rc=$?
	[ $rc = 7 ] || fail "two single wall-clock runs 3 % apart: exit $rc, not 7"
	expect "$tmp/s.json" 'row("create", "cpu_ns_per_op")["verdict"]' "noise not measured" \
		'row("create", "cpu_ns_per_op")["mode"]' unmeasured \
		'[j["regressions"], j["noise_not_measured"]]' "0 1"
	grep -q 'noise is not measured.*--iterations N' "$tmp/s.err" ||
		fail "no advice on stderr: $(cat "$tmp/s.err")"
	"$ctl" compare "$tmp/s1.json" "$tmp/s2.json" --metric cpu_ns_per_op \
		--phase create >"$tmp/s.txt" 2>/dev/null
	grep -q 'noise not measured (one run a side: repeat with start --iterations N)' \
		"$tmp/s.txt" || fail "no verdict in the text: $(cat "$tmp/s.txt")"
	! grep -q regressed "$tmp/s.txt" || fail "called a regression: $(cat "$tmp/s.txt")"
	"$ctl" compare "$tmp/s1.json" "$tmp/s3.json" --metric cpu_ns_per_op \
		--phase create >/dev/null 2>&1 || fail "0.4 % under the threshold: exit $?"
	# the instruction clock: one run a side, judged by the threshold
	one "$tmp/i1.json" 1000.0 icount
	one "$tmp/i2.json" 1030.0 icount
	"$ctl" compare "$tmp/i1.json" "$tmp/i2.json" --metric cpu_ns_per_op \
		--phase create >/dev/null 2>&1
	rc=$?
	[ $rc = 1 ] || fail "icount, 3 % over the threshold: exit $rc, not 1"
	# BASE's three runs (1000 +- 10: a band of 4.97 %) against one run
	edit "$base" "$tmp/m3.json" '
j["environment"]["harness"]["clock"] = "wall"
for p, v in zip(phases("create"), (1000.0, 1010.0, 990.0)):
    p["cpu"]["worker_ns_per_op"] = v'
	"$ctl" --json compare "$tmp/m3.json" "$tmp/s2.json" --metric cpu_ns_per_op \
		--phase create >"$tmp/m.json" || fail "+3 % inside BASE's noise: exit $?"
	expect "$tmp/m.json" 'row("create", "cpu_ns_per_op")["mode"]' noise \
		'round(row("create", "cpu_ns_per_op")["noise_pct"], 2)' 4.97 \
		'row("create", "cpu_ns_per_op")["verdict"]' "no significant change"
	one "$tmp/s4.json" 1100.0 wall
	"$ctl" compare "$tmp/m3.json" "$tmp/s4.json" --metric cpu_ns_per_op \
		--phase create >/dev/null 2>&1
	rc=$?
	[ $rc = 1 ] || fail "+10 % beyond BASE's noise: exit $rc, not 1"
}

ktap_plan 14
ktap_run result_file_members t_output
ktap_run rerun_repeats_a_run t_rerun
ktap_run compare_verdicts t_compare_verdicts
ktap_run compare_threshold_mode t_compare_threshold
ktap_run compare_noise_band t_compare_noise
ktap_run compare_single_runs t_compare_single_runs
ktap_run compare_workload_mismatch t_compare_workload
ktap_run compare_environments t_compare_environment
ktap_run compare_clock_mismatch t_compare_clock
ktap_run compare_usage t_compare_usage
ktap_run compare_lat_avg_with_errors t_compare_lat_avg_errors
ktap_run compare_lat_sample t_compare_lat_sample
ktap_run compare_cpu_mismatch t_compare_cpu
ktap_run compare_functions t_compare_functions
ktap_finish
