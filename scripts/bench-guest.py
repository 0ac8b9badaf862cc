#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of `make bench` (scripts/bench.sh): runs the standard
# set of profiles with the kernel and the user engine, alternately,
# ITERATIONS times each, each run on a scratch filesystem made afresh at
# $FSLOAD_DIR ($FSLOAD_MKFS, $FSLOAD_MOUNT), and writes every run's JSON
# result and a summary to $FSLOAD_OUT/<fs>.json.
#
#   bench-guest.py FS ITERATIONS

import json
import math
import os
import subprocess
import sys

from vmguest import fresh_filesystem

# profile, fsloadctl options: small enough for the instruction clock.
PROFILES = [
    ("null", ["--files", "20000"]),
    ("smallfiles", ["--files", "2000"]),
    ("metadata", ["--files", "2000"]),
    ("largefile", ["--files", "2", "--size", "8M", "--block", "512K"]),
    ("randrw", ["--files", "4", "--size", "4M", "--ops", "2000"]),
]
ENGINES = ["kernel", "user"]


def run(profile, opts, engine):
    cmd = ["fsloadctl", "start", "--profile", profile, "--dir",
           os.environ["FSLOAD_DIR"], "--engine", engine, "--seed", "1",
           "--json", "--quiet"] + opts
    p = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.stderr.write("bench: %s exited %d\n" % (" ".join(cmd),
                                                    p.returncode))
        return None
    return json.loads(p.stdout)


def phase_figures(result):
    """name -> figures of one run, per phase."""
    out = {}
    for ph in result["phases"]:
        n = ph["ops"] + ph["errors"]
        if not n:
            continue
        cpu = ph.get("cpu", {})
        out[ph["name"]] = {
            "ops": n,
            "worker_ns_per_op": cpu.get("worker_ns_per_op"),
            "total_ns_per_op": cpu.get("total_ns_per_op"),
            # the latency sum covers the successful ops only
            "lat_avg_ns": (sum(o["lat_sum_ns"] for o in ph["ops_by_type"]) /
                           ph["ops"] if ph["ops"] else None),
            "elapsed_ns": ph["elapsed_ns"],
        }
    return out


def stats(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    mean = sum(values) / len(values)
    sd = (math.sqrt(sum((v - mean) ** 2 for v in values) /
                    (len(values) - 1)) if len(values) > 1 else 0.0)
    return {"mean": mean, "stddev": sd,
            "cov_percent": 100.0 * sd / mean if mean else None,
            "n": len(values)}


def main():
    fs, iterations = sys.argv[1], int(sys.argv[2])
    raw = {}
    summary = []
    for profile, opts in PROFILES:
        runs = {e: [] for e in ENGINES}
        for _ in range(iterations):
            for engine in ENGINES:
                fresh_filesystem()
                r = run(profile, opts, engine)
                if r is not None:
                    runs[engine].append(r)
        raw[profile] = runs
        figs = {e: [phase_figures(r) for r in runs[e]] for e in ENGINES}
        names = [p["name"] for p in runs["kernel"][0]["phases"]] \
            if runs["kernel"] else []
        for name in names:
            row = {"fs": fs, "profile": profile, "phase": name}
            for e in ENGINES:
                per = [f[name] for f in figs[e] if name in f]
                row[e] = {k: stats([p[k] for p in per])
                          for k in ("worker_ns_per_op", "total_ns_per_op",
                                    "lat_avg_ns")}
                row[e]["ops"] = sorted({p["ops"] for p in per})
                # the engine's own cost per op in these jobs (calibration)
                row[e]["engine_ns_per_op"] = stats(
                    [r["job"].get("overhead_ns_per_op") for r in runs[e]])
            k = row["kernel"]["worker_ns_per_op"]
            u = row["user"]["worker_ns_per_op"]
            row["ratio_user_kernel"] = (u["mean"] / k["mean"]
                                        if k and u and k["mean"] else None)
            summary.append(row)
    job = next((r["job"] for runs in raw.values() for r in runs["kernel"]),
               {})
    doc = {"fs": fs, "iterations": iterations,
           "fresh_filesystem_per_iteration": True,
           "mkfs": os.environ["FSLOAD_MKFS"],
           "mount": os.environ["FSLOAD_MOUNT"],
           "kernel_job": job, "summary": summary, "runs": raw}
    with open(os.path.join(os.environ["FSLOAD_OUT"], fs + ".json"),
              "w") as f:
        json.dump(doc, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
