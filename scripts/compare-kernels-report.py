#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The parts of scripts/compare-kernels that read result files.

  compare-kernels-report.py rate PLAIN.json SAMPLES MAX_HZ
      the --cpu-profile rate (Hz of CPU time: under the instruction clock,
      per 10^9 instructions) that gives each phase and op type of the
      unprofiled run PLAIN.json SAMPLES samples, at most MAX_HZ
  compare-kernels-report.py geometry DIR KERNEL...
      exit 2 naming the first difference when the filesystem geometry of
      any result in DIR differs from the first kernel's first boot's (a
      line only one version of the geometry tool prints is listed, not
      compared)
  compare-kernels-report.py report DIR KERNEL...
      DIR/report.txt and DIR/report.html from DIR/compare-*.json and
      DIR/functions-*.json
"""
import glob
import html
import json
import math
import os
import sys

NO_CHANGE = "no significant change"


def load(path):
    with open(path) as f:
        return json.load(f)


def boots_of(doc):
    """The per-boot figures of a (merged) result file."""
    return doc.get("boots") or [doc]


def op_cpu(doc):
    """{(phase, op): (worker ns, ops of the op type)} of a result."""
    out = {}
    for ph in boots_of(doc)[0].get("phases", []):
        ns = (ph.get("cpu") or {}).get("worker_ns") or 0
        total = ph.get("ops") or 0
        for o in ph.get("ops_by_type", []):
            if total and o.get("ops"):
                out[(ph["name"], o["op"])] = (ns * o["ops"] / total, o["ops"])
    return out


def cmd_rate(plain, samples, max_hz):
    samples, max_hz = int(samples), int(max_hz)
    need = []
    for (ph, op), (ns, ops) in sorted(op_cpu(load(plain)).items()):
        if ops < 2 or ns <= 0:
            continue  # one op (a tree's root) is no cost per op
        need.append((samples * 1e9 / ns, ph, op, ns))
    if not need:
        sys.exit("no phase with operations in %s" % plain)
    hz = min(max_hz, max(n for n, *_ in need))
    # two significant digits, up
    mag = 10 ** max(0, int(math.floor(math.log10(hz))) - 1)
    hz = min(max_hz, int(math.ceil(hz / mag) * mag))
    for n, ph, op, ns in need:
        got = hz * ns / 1e9
        if got < samples:
            print("compare-kernels: %s, %s: %.0f samples a boot at %d Hz (wanted %d): "
                  "sampling error %.1f%% (1 s.d.) a boot" % (ph, op, got, hz, samples,
                                                     100 / math.sqrt(max(got, 1))),
                  file=sys.stderr)
    print(hz)


def geometry(doc):
    env = doc.get("environment") or {}
    fs = env.get("filesystem") or {}
    return fs.get("geometry"), fs.get("type"), (fs.get("geometry_tool") or {}).get("version")


NIL_UUID = "00000000-0000-0000-0000-000000000000"


def normal(g):
    """A geometry with lines two tool versions print differently for the
    same filesystem made alike: btrfs's metadata_uuid, when the filesystem
    has none of its own, is its fsid to btrfs-progs 6.2 and the nil UUID
    to 6.14."""
    if g.get("metadata_uuid") == NIL_UUID and "fsid" in g:
        g = dict(g, metadata_uuid=g["fsid"])
    return g


def cmd_geometry(d, kernels):
    """Every result's geometry against the first: a line both tools print
    must be equal; a line only one version of the tool prints (xfs_info
    6.13 prints meta-data.exchange, 6.1 does not) is listed, not refused,
    since every kernel mounts the same image (a line one and the same
    version prints for one result and not another is a difference)."""
    ref = None
    one_tool = {}
    for k in kernels:
        files = sorted(glob.glob(os.path.join(d, k, "boot*", "*.json")))
        files += [f for f in (os.path.join(d, k, "plain.json"), os.path.join(d, k, "prof.json"))
                  if os.path.exists(f)]
        if not files:
            print("compare-kernels: no results of %s in %s" % (k, d), file=sys.stderr)
            return 2
        for f in files:
            g, t, tool = geometry(load(f))
            if g is None:
                print("compare-kernels: %s records no filesystem geometry" % f, file=sys.stderr)
                return 2
            g = normal(g)
            if ref is None:
                ref = (f, g, t, tool)
                continue
            rf, rg, rt, rtool = ref
            if t != rt:
                print("compare-kernels: refused: filesystem type %s in %s, %s in %s"
                      % (rt, rf, t, f), file=sys.stderr)
                return 2
            for key in sorted(set(rg) | set(g)):
                if rg.get(key) == g.get(key):
                    continue
                if (key in rg) != (key in g) and tool != rtool:
                    one_tool.setdefault(key, (tool if key in g else rtool,
                                              g.get(key, rg.get(key))))
                    continue
                print("compare-kernels: refused: the filesystem geometry differs: "
                      "%r is %r in %s but %r in %s" % (key, rg.get(key), rf, g.get(key), f),
                      file=sys.stderr)
                return 2
    both = len([key for key in ref[1] if key not in one_tool])
    print("compare-kernels: filesystem geometry identical in every result (%d lines)"
          % both, file=sys.stderr)
    for key, (tool, v) in sorted(one_tool.items()):
        print("compare-kernels: %s=%s: printed only by %s, not compared"
              % (key, v, tool), file=sys.stderr)
    return 0


def fmt(v, digits=1):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    return "%.*f" % (digits, v)


def pct(v):
    if v is None or (isinstance(v, float) and (math.isnan(v) or math.isinf(v))):
        return "-"
    return "%+.2f%%" % v


def short(v):
    return "-" if v in (None, NO_CHANGE) else v


def table(rows, head):
    w = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]
    line = lambda r: "  ".join(str(c).rjust(w[i]) if i and i < len(r) - 1 else
                               str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip()
    return [line(head)] + [line(r) for r in rows]


def unlike_plain(plain, phase_ops, op, f, err_base, err_new):
    """A warning when the profiled boots' change of a one-op phase is not
    the unprofiled boots' beyond the sampling error and the noise band:
    the profiler's interrupts moved the work (a deferred worker's timing,
    say), so its functions explain the profiled change, not necessarily
    the unprofiled one."""
    if not plain or "," in phase_ops or phase_ops != op:
        return None
    b, n = f.get("base_cost_per_op"), f.get("new_cost_per_op")
    if not b or not n or math.isnan(err_base) or math.isnan(err_new):
        return None
    prof = (n / b - 1) * 100
    band = math.hypot(err_base, err_new) + plain[1]
    if abs(prof - plain[0]) <= band:
        return None
    return ("warning: the profiled boots changed %+.1f%%, the unprofiled %+.1f%% "
            "(further apart than the sampling error and noise, %.1f%%): profiling "
            "moved this phase's work; the functions explain the profiled change, "
            "not necessarily the unprofiled one"
            % (prof, plain[0], band))


def cmd_report(d, kernels):
    base = kernels[0]
    rate = open(os.path.join(d, "rate")).read().strip() if os.path.exists(os.path.join(d, "rate")) else "?"
    mkfs = open(os.path.join(d, "fs.img.mkfs")).read().strip() if os.path.exists(os.path.join(d, "fs.img.mkfs")) else "?"
    txt = []
    htm = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>compare-kernels</title>",
           "<style>body{font-family:sans-serif} table{border-collapse:collapse} "
           "td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right} "
           "td.l,th.l{text-align:left} .regressed{background:#fcc} .improved{background:#cdf}</style>",
           "</head><body>"]
    plain0 = load(os.path.join(d, base, "plain.json"))
    run = (plain0.get("run") or {}).get("argv") or []
    nboots = len(boots_of(plain0))
    intro = ["kernels: %s (base: %s); %d boots each, instruction clock (costs are instructions)"
             % (", ".join(kernels), base, nboots),
             "workload: %s" % " ".join(run),
             "filesystem: one image for all, %s" % mkfs,
             "CPU profiles: %s Hz (a period of %s instructions)"
             % (rate, "%.0f" % (1e9 / float(rate)) if rate not in ("?", "0") else "-")]
    txt += intro
    htm += ["<h1>compare-kernels</h1>"] + ["<p>%s</p>" % html.escape(x) for x in intro]
    regressions = 0
    for k in kernels[1:]:
        cmp = load(os.path.join(d, "compare-%s.json" % k))
        fnf = os.path.join(d, "functions-%s.json" % k)
        fns = load(fnf).get("functions", []) if os.path.exists(fnf) else []
        prof = load(os.path.join(d, k, "prof.json")) if os.path.exists(os.path.join(d, k, "prof.json")) else None
        ops = {}
        for ph in boots_of(plain0)[0].get("phases", []):
            ops[ph["name"]] = ",".join(o["op"] for o in ph.get("ops_by_type", []))
        head = ["phase", "op", "metric", base, k, "change", "noise band", "verdict"]
        rows, changed, plain_change = [], set(), {}
        for r in cmp.get("rows", []):
            if r.get("metric") == "cpu_ns_per_op" and r.get("change_pct") is not None:
                plain_change[r["phase"]] = (r["change_pct"], r.get("noise_pct") or 0)
            v = r.get("verdict")
            if v == "regressed":
                regressions += 1
            if v not in (None, NO_CHANGE):
                changed.add(r["phase"])
            noise = r.get("noise_pct")
            rows.append([r["phase"], ops.get(r["phase"], "?"), r["metric"],
                         fmt(r["base"]["mean"]), fmt(r["new"]["mean"]), pct(r.get("change_pct")),
                         "+-%.2f%%" % noise if noise is not None else "(%s)" % r.get("mode"),
                         short(v)])
        txt += ["", "== %s -> %s: per phase and op (mean of the boots; noise band: the %s boots' "
                "prediction interval, compare's noise mode)" % (base, k, base)]
        txt += table(rows, head)
        htm.append("<h2>%s &rarr; %s</h2><table><tr>%s</tr>" % (
            html.escape(base), html.escape(k), "".join("<th>%s</th>" % html.escape(h) for h in head)))
        for r in rows:
            htm.append("<tr class='%s'>%s</tr>" % (html.escape(r[-1]), "".join(
                "<td%s>%s</td>" % (" class='l'" if i in (0, 1, 2, 7) else "", html.escape(str(c)))
                for i, c in enumerate(r))))
        htm.append("</table>")
        # sampling and functions, per phase and op type
        for f in fns:
            ph, op = f["phase"], f["op"]
            bs, ns = f.get("base_samples") or 0, f.get("new_samples") or 0
            err = lambda n: 196 / math.sqrt(n) if n else float("nan")
            head = "%s, %s: %s -> %s %s per op sampled; %d and %d samples (sampling error of the op's cost, 95%%: +-%.1f%% and +-%.1f%%)" % (
                ph, op, fmt(f.get("base_cost_per_op")), fmt(f.get("new_cost_per_op")), f.get("unit"),
                bs, ns, err(bs), err(ns))
            sig = [x for x in f.get("functions", [])
                   if x.get("verdict") not in (None, NO_CHANGE) or
                   x.get("total_verdict") not in (None, NO_CHANGE)]
            if ph not in changed and not sig:
                continue
            txt += ["", head]
            htm.append("<h3>%s</h3>" % html.escape(head))
            warn = unlike_plain(plain_change.get(ph), ops.get(ph, ""), op, f, err(bs), err(ns))
            if warn:
                txt.append("  " + warn)
                htm.append("<p><b>%s</b></p>" % html.escape(warn))
            if sig:
                fr = [[x["function"], fmt(x["base_self_per_op"]["mean"]), fmt(x["new_self_per_op"]["mean"]),
                       "%+.1f" % x["change_per_op"], short(x.get("verdict")),
                       fmt(x.get("base_total_per_op")), fmt(x.get("new_total_per_op")),
                       "%+.1f" % x["total_change_per_op"], short(x.get("total_verdict"))]
                      for x in sig]
                fh = ["function", "self/op " + base, "self/op " + k, "change", "verdict",
                      "total/op " + base, "total/op " + k, "change", "verdict"]
                txt += ["  " + x for x in table(fr, fh)]
                htm.append("<table><tr>%s</tr>%s</table>" % (
                    "".join("<th>%s</th>" % html.escape(h) for h in fh),
                    "".join("<tr>%s</tr>" % "".join("<td%s>%s</td>" % (" class='l'" if i == 0 else "",
                                                                        html.escape(str(c)))
                                                       for i, c in enumerate(r)) for r in fr)))
            else:
                txt.append("  no function changed beyond its error")
            svg = f.get("flamegraph")
            if svg and ph in changed:
                txt.append("  differential flame graph: %s" % os.path.relpath(svg, d))
                htm.append("<p><object data='%s' type='image/svg+xml' width='100%%'></object></p>"
                           % html.escape(os.path.relpath(svg, d)))
        if not changed:
            txt.append("no phase changed beyond the noise")
    htm.append("</body></html>")
    with open(os.path.join(d, "report.txt"), "w") as f:
        f.write("\n".join(txt) + "\n")
    with open(os.path.join(d, "report.html"), "w") as f:
        f.write("\n".join(htm) + "\n")
    return 0


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cmd = sys.argv[1]
    if cmd == "rate" and len(sys.argv) == 5:
        cmd_rate(*sys.argv[2:])
    elif cmd == "geometry" and len(sys.argv) >= 4:
        sys.exit(cmd_geometry(sys.argv[2], sys.argv[3:]))
    elif cmd == "report" and len(sys.argv) >= 4:
        sys.exit(cmd_report(sys.argv[2], sys.argv[3:]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
