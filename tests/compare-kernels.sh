#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/compare-kernels end to end (make check-compare-kernels; not in
# make check: 5 guests of a small workload under the instruction clock,
# ~3 minutes on a loaded 2-CPU host). KTAP.
#
#   tests/compare-kernels.sh [--reuse] [BASE NEW]     (default 6.1 6.12)
#
# --reuse: no guests, check the results of the last run again.
#
# One run of scripts/compare-kernels BASE NEW --boots 2 on --profile
# metadata --items 300, then its results are checked:
#   geometry   every result of every boot of both kernels records the same
#              filesystem geometry, and the same image (its sha256) was
#              written in every guest
#   tables     report.txt has a table per kernel pair with a row for every
#              phase of the workload, each with a change, a noise band and
#              a verdict
#   profiles   both kernels' profiled runs have samples at the chosen rate,
#              and compare's functions carry total verdicts
#   svgs       a differential flame graph per phase and op type, a
#              well-formed SVG whose boxes are coloured by the change
#   refuses    --report of a copy whose one boot's geometry was changed
#              (an inode size) exits 2 naming the line
#   perturbed  a phase whose unprofiled change is made far from its
#              profiled one gets the report's warning; the untouched
#              results get none for it
#   one_tool   a line one boot's newer geometry tool prints and the other
#              results' tool does not (xfs_info 6.13's meta-data.exchange)
#              is listed, not refused; the same line with the same tool
#              version is refused; btrfs's metadata_uuid, nil to one
#              btrfs-progs and the fsid to another, is the same
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/ktap.sh
. "$repo/tests/ktap.sh"

reuse=0
if [ "${1:-}" = --reuse ]; then
	reuse=1
	shift
fi
base=${1:-6.1}
new=${2:-6.12}
work=$repo/build/test-compare-kernels
out=$work/out

ktap_plan 7
if [ $reuse = 0 ] || [ ! -f "$work/run.rc" ]; then
	rm -rf "$work"
	mkdir -p "$work"
	s=$(date +%s)
	"$repo/scripts/compare-kernels" --boots 2 --size 512 --samples 300 --out "$out" \
		"$base" "$new" -- --profile metadata --items 300 >"$work/run.log" 2>&1
	echo $? >"$work/run.rc"
	ktap_diag "compare-kernels exit $(cat "$work/run.rc") in $(($(date +%s) - s)) s"
fi
sed 's/^/# /' "$work/run.log" | tail -n 40
run_rc=$(cat "$work/run.rc")
ran() {
	[ "$run_rc" -le 1 ] || fail "scripts/compare-kernels exited $run_rc"
}

t_geometry() {
	ran
	python3 - "$out" "$base" "$new" <<'PY' || exit 1
import glob, json, sys
d, ks = sys.argv[1], sys.argv[2:]
geo, sha = set(), set()
n = 0
for k in ks:
    for f in glob.glob("%s/%s/boot*/*.json" % (d, k)):
        j = json.load(open(f))
        g = j["environment"]["filesystem"]["geometry"]
        if not g:
            sys.exit("FAIL: %s: no geometry" % f)
        geo.add(json.dumps(g, sort_keys=True))
        n += 1
    for f in glob.glob("%s/%s/boot*/vm-info.txt" % (d, k)):
        sha |= {l.split()[2].rstrip(",") for l in open(f) if l.startswith("fs_image:")}
if n < 2 * len(ks) * 2 or len(geo) != 1 or len(sha) != 1:
    sys.exit("FAIL: %d results, %d geometries, %d images" % (n, len(geo), len(sha)))
print("%d results, one geometry, one image %s" % (n, sha.pop()[:12]))
PY
}

t_tables() {
	ran
	python3 - "$out" "$base" "$new" <<'PY' || exit 1
import json, sys
d, base, new = sys.argv[1:]
txt = open("%s/report.txt" % d).read()
phases = [p["name"] for p in json.load(open("%s/%s/plain.json" % (d, base)))["boots"][0]["phases"]]
sec = txt.split("== %s -> %s" % (base, new))
if len(sec) != 2:
    sys.exit("FAIL: no table %s -> %s in report.txt" % (base, new))
rows = [l.split() for l in sec[1].splitlines()[2:] if l.strip() and not l.startswith(" ")]
seen = {}
for r in rows:
    if r[0] in phases and len(r) >= 8:
        seen[r[0]] = r
missing = [p for p in phases if p not in seen and p not in ("tree-create", "tree-remove")]
if missing:
    sys.exit("FAIL: phases without a row: %s" % missing)
for p, r in seen.items():
    verdict = " ".join(r[7:])
    if verdict not in ("-", "improved", "regressed"):
        sys.exit("FAIL: %s: verdict %r" % (p, verdict))
    if not r[6].startswith("+-") and not r[6].startswith("("):
        sys.exit("FAIL: %s: no noise band: %r" % (p, r))
print("%d phases, each with a change, a noise band and a verdict" % len(seen))
PY
}

t_profiles() {
	ran
	python3 - "$out" "$base" "$new" <<'PY' || exit 1
import json, sys
d, base, new = sys.argv[1:]
rate = int(open("%s/rate" % d).read())
for k in (base, new):
    j = json.load(open("%s/%s/prof.json" % (d, k)))
    for b in j["boots"]:
        if b["job"]["cpu_profile"]["hz"] != rate:
            sys.exit("FAIL: %s: profiled at %s, not %d" % (k, b["job"]["cpu_profile"]["hz"], rate))
f = json.load(open("%s/functions-%s.json" % (d, new)))["functions"]
if not f or not all("total_verdict" in x for o in f for x in o["functions"]):
    sys.exit("FAIL: compare's functions without total verdicts")
print("rate %d Hz; %d phases and op types with functions" % (rate, len(f)))
PY
}

t_svgs() {
	local n=0 svg
	ran
	for svg in "$out/flame-$new"-*.svg; do
		[ -f "$svg" ] || continue
		n=$((n + 1))
		python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$svg" ||
			fail "$svg: not well-formed"
		grep -q 'fill="#d8d8d8"\|fill="#ff\|fill="#[0-9a-f]\{4\}ff"' "$svg" ||
			fail "$svg: no box coloured by the change"
	done
	[ $n -ge 5 ] || fail "$n differential flame graphs"
	grep -q '<object data=' "$out/report.html" || ktap_diag "no phase changed: report.html shows no flame graph"
	echo "$n differential flame graphs"
}

t_refuses() {
	local copy=$work/copy r
	ran
	rm -rf "$copy"
	cp -r "$out" "$copy"
	python3 - "$copy/$new/boot2/plain.json" <<'PY' || exit 1
import json, sys
j = json.load(open(sys.argv[1]))
j["environment"]["filesystem"]["geometry"]["Inode size"] = "128"
json.dump(j, open(sys.argv[1], "w"))
PY
	"$repo/scripts/compare-kernels" --report "$copy" >"$work/refuses.log" 2>&1
	r=$?
	cat "$work/refuses.log"
	[ $r = 2 ] || fail "exit $r, not 2"
	grep -q "refused: the filesystem geometry differs: 'Inode size'" "$work/refuses.log" ||
		fail "the refusal does not name the line"
	# and the untouched copy is reported again with the same verdicts
	"$repo/scripts/compare-kernels" --report "$out" >"$work/again.log" 2>&1
	r=$?
	[ $r -le 1 ] || fail "--report of the results: exit $r"
}

t_perturbed() {
	local copy=$work/copy-perturbed ph
	ran
	rm -rf "$copy"
	cp -r "$out" "$copy"
	# the first one-op phase the profiles cover, its unprofiled change +90 %
	ph=$(python3 - "$copy" "$new" <<'PY'
import json, sys
d, k = sys.argv[1:]
fns = json.load(open("%s/functions-%s.json" % (d, k)))["functions"]
byph = {}
for f in fns:
    byph.setdefault(f["phase"], []).append(f)
cmp = json.load(open("%s/compare-%s.json" % (d, k)))
for r in cmp["rows"]:
    fs = byph.get(r["phase"], [])
    if r["metric"] == "cpu_ns_per_op" and len(fs) == 1 and fs[0]["new_samples"] > 100:
        r["change_pct"] = 90.0
        r["verdict"] = "regressed"
        json.dump(cmp, open("%s/compare-%s.json" % (d, k), "w"))
        print(r["phase"])
        break
PY
)
	[ -n "$ph" ] || fail "no one-op phase with profiles to perturb"
	grep -q "^$ph, .*per op sampled" "$out/report.txt" &&
		grep -A1 "^$ph, .*per op sampled" "$out/report.txt" | grep -q warning &&
		fail "$ph: warned before the change was made"
	python3 "$repo/scripts/compare-kernels-report.py" report "$copy" "$base" "$new" ||
		fail "the report of the copy failed"
	grep -A1 "^$ph, .*per op sampled" "$copy/report.txt" |
		grep -q "warning: the profiled boots changed .*, the unprofiled +90.0%" ||
		fail "$ph: no warning that the profile is not the unprofiled runs' change"
	echo "$ph warned"
}

t_one_tool() {
	local copy=$work/copy-tool r rc
	ran
	# $1: the result to change, $2: the tool version it then records
	# ("" keeps its own)
	one_tool_case() {
		rm -rf "$copy"
		cp -r "$out" "$copy"
		python3 - "$copy/$1" "$2" <<'PY' || exit 1
import json, sys
j = json.load(open(sys.argv[1]))
fs = j["environment"]["filesystem"]
fs["geometry"]["meta-data.exchange"] = "0"
if sys.argv[2]:
    fs["geometry_tool"]["version"] = sys.argv[2]
json.dump(j, open(sys.argv[1], "w"))
PY
		"$repo/scripts/compare-kernels" --report "$copy" >"$work/one-tool.log" 2>&1
	}
	# the base's second boot: the same tool as its first
	one_tool_case "$base/boot2/plain.json" ""
	r=$?
	cat "$work/one-tool.log"
	[ $r = 2 ] || fail "a line the same tool prints for one boot only: exit $r, not 2"
	grep -q "refused: the filesystem geometry differs: 'meta-data.exchange'" \
		"$work/one-tool.log" || fail "the refusal does not name the line"
	one_tool_case "$new/boot2/plain.json" "geometry tool 99.0"
	r=$?
	cat "$work/one-tool.log"
	[ $r -le 1 ] || fail "a line only a newer tool prints: exit $r"
	grep -q "meta-data.exchange=0: printed only by geometry tool 99.0, not compared" \
		"$work/one-tool.log" || fail "the line only one tool prints is not listed"
	# btrfs-progs 6.14 prints a nil metadata_uuid where 6.2 prints the
	# fsid: the same, and another UUID is not
	for r in fsid nil other; do
		rm -rf "$copy"
		cp -r "$out" "$copy"
		python3 - "$copy" "$new" "$r" <<'PY' || exit 1
import glob, json, sys
d, new, r = sys.argv[1:]
u = "f5104ad0-5eed-4000-8000-000000000001"
for f in glob.glob(d + "/*/boot*/*.json") + glob.glob(d + "/*/p*.json"):
    j = json.load(open(f))
    g = j["environment"]["filesystem"]["geometry"]
    g["fsid"] = u
    g["metadata_uuid"] = u
    if f.startswith("%s/%s/boot2/" % (d, new)) and r != "fsid":
        g["metadata_uuid"] = ("00000000-0000-0000-0000-000000000000" if r == "nil"
                              else "f5104ad0-5eed-4000-8000-000000000009")
    json.dump(j, open(f, "w"))
PY
		python3 "$repo/scripts/compare-kernels-report.py" geometry "$copy" "$base" "$new" \
			>"$work/one-tool.log" 2>&1
		rc=$?
		case $r in
		other) [ $rc = 2 ] || fail "another metadata_uuid: exit $rc, not 2" ;;
		*) [ $rc = 0 ] || fail "metadata_uuid $r: exit $rc: $(cat "$work/one-tool.log")" ;;
		esac
	done
}

ktap_run geometry t_geometry
ktap_run tables t_tables
ktap_run profiles t_profiles
ktap_run svgs t_svgs
ktap_run refuses t_refuses
ktap_run one_tool t_one_tool
ktap_run perturbed t_perturbed
ktap_finish
