#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The measurement mechanisms of a result (issue 4), not speed: latency
# histograms and percentiles, worker CPU consistent with elapsed time and
# threads, system and background CPU, the sync tail, the busiest other
# threads, the idle baseline and the engine overhead.  Run in a guest:
# scripts/vm-run --fs ext4 -- tests/guest/measure.sh
set -uo pipefail

# shellcheck source=tests/guest/lib.sh
. "$(dirname "$0")/lib.sh"
lib_need dir module

t_smallfiles_measured() {
	local out=$work/sf.json

	fsloadctl start --profile smallfiles --files 400 --threads 2 \
		--dir "$FSLOAD_DIR" --json --quiet >"$out" ||
		fail "fsloadctl exited $?"
	check_json "$out" '
job = j["job"]
if not job["cpus"] or job["cpus"] < 1: bad("cpus: %r" % job["cpus"])
if job["idle_ms"] != 250: bad("idle_ms %r, not the default 250" % job["idle_ms"])
if not (200e6 <= job["idle_ns"] <= 5e9): bad("idle window %r ns" % job["idle_ns"])
if not (0 <= job["idle_busy_ns"] <= job["idle_ns"] * job["cpus"]):
    bad("idle busy %r of %r ns" % (job["idle_busy_ns"], job["idle_ns"]))
if job["overhead_ops"] != 16384 or not job["overhead_ns"]:
    bad("overhead: %r ops in %r ns" % (job["overhead_ops"], job["overhead_ns"]))
for p in j["phases"]:
    n, el, thr = p["ops"] + p["errors"], p["elapsed_ns"], p["threads"]
    c = p["cpu"]
    name = p["name"]
    if n != 800: bad("%s: %d ops" % (name, n))
    # The workers ran on at most threads CPUs for at most the phase.
    if not (0 < c["worker_ns"] <= el * thr * 1.02 + 2e6):
        bad("%s: worker CPU %r ns, elapsed %r ns x %d threads" % (name, c["worker_ns"], el, thr))
    if c["system_ns"] is None or c["system_ns"] > el * job["cpus"] * 1.02 + 2e6:
        bad("%s: system CPU %r ns over %r ns x %d CPUs" % (name, c["system_ns"], el, job["cpus"]))
    if c["system_ns"] is not None and c["system_ns"] < c["worker_ns"] * 0.8 - 2e6:
        bad("%s: system CPU %r below the workers %r" % (name, c["system_ns"], c["worker_ns"]))
    if c["tail_ns"] is None or c["tail_cpu_ns"] is None:
        bad("%s: no sync tail" % name)
    tot = c["total_ns_per_op"]
    parts = c["worker_ns_per_op"] + c["background_ns_per_op"] + c["tail_ns_per_op"]
    if tot is None or abs(tot - parts) > 1e-6 * max(tot, 1):
        bad("%s: total %r is not worker + background + tail %r" % (name, tot, parts))
    if c["worker_ns_per_op"] is None or abs(c["worker_ns_per_op"] - c["worker_ns"] / n) > 1:
        bad("%s: worker ns/op %r" % (name, c["worker_ns_per_op"]))
    if c["instructions"] is None and c["instructions_per_op"] is not None:
        bad("%s: instructions per op without instructions" % name)
    for t in p["top_threads"]:
        if not t["name"] or t["cpu_ns"] <= 0 or t["pid"] in job["worker_pids"]:
            bad("%s: top thread %r" % (name, t))
    for o in p["ops_by_type"]:
        h = o["latency"]["histogram"]
        if sum(b[2] for b in h) != o["ops"]:
            bad("%s/%s: histogram holds %d, ops %d" % (name, o["op"], sum(b[2] for b in h), o["ops"]))
        if any(b[0] >= b[1] for b in h) or any(h[i][1] > h[i + 1][0] for i in range(len(h) - 1)):
            bad("%s/%s: buckets not ascending: %r" % (name, o["op"], h[:5]))
        if h and not (h[0][0] <= o["lat_min_ns"] < h[0][1] and h[-1][0] <= o["lat_max_ns"] < h[-1][1]):
            bad("%s/%s: min %r / max %r outside the first / last bucket" % (name, o["op"], o["lat_min_ns"], o["lat_max_ns"]))
        ps = [o["latency"][k] for k in ("p50_ns", "p90_ns", "p99_ns", "p99_9_ns")]
        if None in ps or ps != sorted(ps) or ps[0] < o["lat_min_ns"] or ps[-1] > o["lat_max_ns"]:
            bad("%s/%s: percentiles %r, min %r, max %r" % (name, o["op"], ps, o["lat_min_ns"], o["lat_max_ns"]))
'
}

# A CPU-bound phase (stat of cached files): the worker is on CPU most of
# the phase.
t_cpu_bound() {
	local out=$work/stat.json

	fsloadctl start --profile smallfiles --files 2000 --dir "$FSLOAD_DIR" \
		--json --quiet >"$out" || fail "fsloadctl exited $?"
	check_json "$out" '
p = [p for p in j["phases"] if p["name"] == "stat"][0]
r = p["cpu"]["worker_ns"] / p["elapsed_ns"]
print("# stat: worker CPU %.1f%% of the phase" % (100 * r))
if not 0.5 <= r <= 1.02: bad("stat: worker CPU %.3f of elapsed" % r)
'
}

t_no_tail_no_idle() {
	local out=$work/notail.json

	fsloadctl start --profile smallfiles --files 50 --dir "$FSLOAD_DIR" \
		--no-sync-tail --idle-ms 0 --json --quiet >"$out" ||
		fail "fsloadctl exited $?"
	check_json "$out" '
job = j["job"]
if job["idle_ns"] is not None: bad("idle measured with --idle-ms 0")
if job["overhead_ops"] != 16384: bad("no overhead measured")
for p in j["phases"]:
    if p["cpu"]["tail_ns"] is not None: bad("%s: a tail with --no-sync-tail" % p["name"])
    if p["cpu"]["system_ns"] is None: bad("%s: no system CPU" % p["name"])
'
}

# The text report has the three tables and names the missing PMU.
t_text_tables() {
	local out=$work/text

	fsloadctl start --profile smallfiles --files 50 --dir "$FSLOAD_DIR" \
		--quiet >"$out" || fail "fsloadctl exited $?"
	grep -q '^latency_us .*p50 .*p90 .*p99 .*p99.9 .*max' "$out" ||
		fail "no latency table"
	grep -q '^cpu_per_op .*worker_ns .*backgr_ns .*tail_ns .*total_ns' "$out" ||
		fail "no CPU table"
	grep -q 'engine overhead [0-9.]* ns/op' "$out" || fail "no engine overhead"
	if grep -q 'PMU none' "$out"; then
		grep -q 'n/a (no PMU)' "$out" || fail "no PMU, not said"
	fi
	cat "$out"
}

# The null profile: the engine's cost alone, near the measured overhead.
t_null_overhead() {
	local out=$work/null.json

	fsloadctl start --profile null --files 20000 --dir "$FSLOAD_DIR" \
		--json --quiet >"$out" || fail "fsloadctl exited $?"
	check_json "$out" '
job = j["job"]
oh = job["overhead_ns"] / job["overhead_ops"]
p = j["phases"][0]
avg = p["ops_by_type"][0]["lat_avg_ns"]
print("# overhead %.1f ns/op, null phase %.1f ns/op" % (oh, avg))
if not (0 < oh and 0 < avg): bad("overhead %r, null avg %r" % (oh, avg))
'
}

# The tracepoints: phase start and end, every operation.
t_tracepoints() {
	local tr=/sys/kernel/tracing n

	[ -d "$tr/events" ] || mount -t tracefs nodev "$tr" 2>/dev/null
	[ -d "$tr/events/fsload" ] || { echo "no fsload trace events"; exit 4; }
	echo 0 >"$tr/tracing_on"
	: >"$tr/trace"
	echo 1 >"$tr/events/fsload/enable"
	echo 1 >"$tr/tracing_on"
	fsloadctl start --profile smallfiles --files 100 --threads 2 \
		--dir "$FSLOAD_DIR" --quiet >/dev/null || fail "fsloadctl exited $?"
	echo 0 >"$tr/tracing_on"
	echo 0 >"$tr/events/fsload/enable"
	grep -m2 'fsload_op: .* op=2' "$tr/trace"
	grep -q 'fsload_op: .* op=1 ' "$tr/trace" && fail "the engine's calibration was traced"
	n=$(grep -c 'fsload_op: .* op=2 ret=4096' "$tr/trace")
	[ "$n" -eq 200 ] || fail "$n create events, not 200"
	n=$(grep -c 'fsload_phase_start: .* threads=2' "$tr/trace")
	[ "$n" -eq 4 ] || fail "$n phase starts, not 4"
	n=$(grep -c 'fsload_phase_end: ' "$tr/trace")
	[ "$n" -eq 4 ] || fail "$n phase ends, not 4"
	: >"$tr/trace"
}

# The user engine's CPU in the scheduler's ns (issue 15): the workers'
# from their thread clocks, the machine's busy time from /proc/schedstat
# (its ticks only where the kernel has no such file, and then said),
# never more than 100% of the CPUs, even for phases of one operation a
# thread; and the result says which clock vm-run runs the guest on.
t_user_cpu_ns() {
	local out from=ticks n

	[ -r /proc/schedstat ] && from=schedstat
	for n in 1 20; do
		out=$work/user$n.json
		fsloadctl start --engine user --profile smallfiles --files "$n" \
			--threads 2 --dir "$FSLOAD_DIR" --json --quiet >"$out" ||
			fail "fsloadctl exited $?"
		check_json "$out" '
job = j["job"]
if job["system_cpu_from"] != "'"$from"'": bad("busy time from %r" % job["system_cpu_from"])
if j["environment"]["harness"]["clock"] != "'"${FSLOAD_CLOCK:-}"'":
    bad("clock %r, FSLOAD_CLOCK '"${FSLOAD_CLOCK:-}"'" % j["environment"]["harness"]["clock"])
for p in j["phases"]:
    c, name = p["cpu"], p["name"]
    if c["worker_ns"] % 10000000 == 0: bad("%s: worker CPU %r ns: ticks?" % (name, c["worker_ns"]))
    if c["system_ns"] is None or c["system_ns"] > p["elapsed_ns"] * job["cpus"]:
        bad("%s: system CPU %r over %r ns x %d CPUs" % (name, c["system_ns"], p["elapsed_ns"], job["cpus"]))
    if c["cpu_percent"] is None or c["cpu_percent"] > 100: bad("%s: cpu_percent %r" % (name, c["cpu_percent"]))
    if c["tail_cpu_ns"] > c["tail_ns"] * job["cpus"]:
        bad("%s: tail CPU %r over %r ns x %d CPUs" % (name, c["tail_cpu_ns"], c["tail_ns"], job["cpus"]))
' || return
	done
}

ktap_plan 7
ktap_run smallfiles_measured t_smallfiles_measured
ktap_run cpu_bound t_cpu_bound
ktap_run no_tail_no_idle t_no_tail_no_idle
ktap_run text_tables t_text_tables
ktap_run null_overhead t_null_overhead
ktap_run tracepoints t_tracepoints
ktap_run user_cpu_ns t_user_cpu_ns
ktap_finish
