#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# The option matrix: one profile over filesystem types x mkfs options x
# mount options (x write cache x thread counts), each cell on a freshly
# made filesystem, and one comparison table: throughput (the profile's
# metric), CPU per op, latency p50/p99, extents per file and the time a
# read-only fsck takes on what the run left behind.  A cell that cannot
# be made (mkfs or mount refuses an option, a write cache that cannot be
# set) is a row saying so with the tool's message, never dropped.
#
#   matrix.py run --device DEV --mnt DIR --out DIR [CELLS] [-- FSLOADCTL-ARGS]
#       on this machine, as root, with fsload loaded: every cell on DEV
#       (mkfs, mount on DIR, fsloadctl --json, umount, timed fsck).  DEV
#       must carry no filesystem signature unless --force.
#   matrix.py vm [VM-OPTIONS] [CELLS] [-- FSLOADCTL-ARGS]
#       the same in one QEMU guest (scripts/vm-run --fs none): DEV is the
#       guest's scratch device, the log device a loop device on tmpfs.
#   matrix.py show DIR [--csv]
#       the table of a finished matrix again.
#
# CELLS: --preset NAME, and/or the product of --fs, --mkfs, --mount,
# --write-cache and --threads; `matrix.py help` or -h for all of it.
# The output directory gets matrix.txt, matrix.json, matrix.csv and per
# cell NN-NAME.json (fsloadctl's full result) and NN-NAME.log.

import argparse
import csv
import datetime
import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Fixed identities, as scripts/vm-guest.sh uses: two runs build the same
# filesystem.
UUID = "f5104ad0-5eed-4000-8000-000000000001"
HASH_SEED = "f5104ad0-5eed-4000-8000-000000000002"
LOG_UUID = "f5104ad0-5eed-4000-8000-000000000003"

FILESYSTEMS = ("block", "ext2", "ext3", "ext4", "xfs", "btrfs",
               "ext3+log", "ext4+log", "xfs+log")

# The block cell: bio size when the fsloadctl arguments give no --block
# (the profiles' defaults), and the mode standing for each profile.
PROFILE_BLOCK = {"largefile": "512K", "untar": "10K"}
BLOCK_RW = {"randrw": "randwrite"}

PRESETS = {
    "classic": ("the raw device vs ext2 vs ext3 vs ext4, xfs and btrfs", [
        ("block", "", ""), ("ext2", "", ""), ("ext3", "", ""),
        ("ext4", "", ""), ("xfs", "", ""), ("btrfs", "", "")]),
    "ext4-options": ("ext4, one option changed at a time: flex_bg, "
                     "uninit_bg/metadata_csum, inode size, data mode, "
                     "barriers, external journal", [
        ("ext4", "", ""),
        ("ext4", "-O ^flex_bg", ""),
        ("ext4", "-O ^metadata_csum,uninit_bg", ""),
        ("ext4", "-O ^metadata_csum,^uninit_bg", ""),
        ("ext4", "-I 128", ""),
        ("ext4", "-I 512", ""),
        ("ext4", "", "data=writeback"),
        ("ext4", "", "barrier=0"),
        ("ext4+log", "", "")]),
    "xfs-options": ("xfs: allocation groups, inode64/inode32, barriers "
                    "(nobarrier is gone since 4.19: the device's write "
                    "cache instead), external log", [
        ("xfs", "", ""),
        ("xfs", "-d agcount=4", ""),
        ("xfs", "-d agcount=16", ""),
        ("xfs", "", "inode64"),
        ("xfs", "", "inode32"),
        ("xfs", "", "nobarrier"),
        ("xfs", "", "", "off"),
        ("xfs", "", "", "on"),
        ("xfs+log", "", "")]),
}
PRESETS["options"] = ("ext4-options and xfs-options",
                      PRESETS["ext4-options"][1] + PRESETS["xfs-options"][1])

WC_VALUES = {"on": "write back", "off": "write through"}


class Usage(Exception):
    pass


def log(msg):
    sys.stderr.write("matrix: %s\n" % msg)
    sys.stderr.flush()


# --- the cells ------------------------------------------------------------

def fs_keyed(values, what):
    """["ext4,xfs=-I 128", ...] -> {fs: [opts, ...]} (keys: FILESYSTEMS
    or '*', every filesystem but block)."""
    out = {}
    for v in values or []:
        if "=" not in v:
            raise Usage("%s %r: want FS=OPTIONS (FS a list, or *)" % (what, v))
        keys, opts = v.split("=", 1)
        for k in keys.split(","):
            names = [f for f in FILESYSTEMS if f != "block"] if k == "*" \
                else [k]
            for n in names:
                if n not in FILESYSTEMS:
                    raise Usage("%s: unknown filesystem %r (%s)" % (
                        what, n, ", ".join(FILESYSTEMS)))
                out.setdefault(n, []).append(opts.strip())
    return out


def threads_list(s):
    try:
        t = [int(x) for x in s.split(",")]
    except ValueError:
        raise Usage("--threads %r: want N or a list N,M,..." % s)
    if not t or min(t) < 1:
        raise Usage("--threads %r: counts start at 1" % s)
    return t


def make_cells(a):
    """The cells in table order: presets first, then the product."""
    base = []
    for p in a.preset or []:
        if p not in PRESETS:
            raise Usage("--preset %r: one of %s" % (p, ", ".join(PRESETS)))
        for c in PRESETS[p][1]:
            base.append({"fs": c[0], "mkfs": c[1], "mount": c[2],
                         "wc": c[3] if len(c) > 3 else None})
    mkfs = fs_keyed(a.mkfs, "--mkfs")
    mount = fs_keyed(a.mount, "--mount")
    wcs = [None]
    if a.write_cache:
        wcs = [w if w != "keep" else None for w in a.write_cache.split(",")]
        for w in wcs:
            if w is not None and w not in WC_VALUES:
                raise Usage("--write-cache: on, off or keep, not %r" % w)
    fss = a.fs.split(",") if a.fs else []
    if not fss and not base:
        fss = [f for f in FILESYSTEMS if f in mkfs or f in mount]
    if not fss and not base:
        raise Usage("no cells: give --fs LIST or --preset NAME")
    for what, d in (("--mkfs", mkfs), ("--mount", mount)):
        for f in d:
            if f not in fss:
                raise Usage("%s %s=...: %s is not in --fs" % (what, f, f))
    for f in fss:
        if f not in FILESYSTEMS:
            raise Usage("--fs: unknown %r (%s)" % (f, ", ".join(FILESYSTEMS)))
        if f == "block":
            base.append({"fs": f, "mkfs": "", "mount": "", "wc": None})
            continue
        for m in mkfs.get(f, [""]):
            for o in mount.get(f, [""]):
                for w in wcs:
                    base.append({"fs": f, "mkfs": m, "mount": o, "wc": w})
    cells = []
    for c in base:
        for t in a.threads:
            cells.append(dict(c, threads=t))
    for i, c in enumerate(cells):
        c["index"] = i + 1
        c["name"] = cell_name(c, len(a.threads) > 1)
    return cells


def cell_name(c, with_threads):
    parts = [c["fs"]]
    if c["mkfs"]:
        parts.append(c["mkfs"])
    if c["mount"]:
        parts.append("-o " + c["mount"])
    if c["wc"]:
        parts.append("wc=" + c["wc"])
    if with_threads:
        parts.append("t%d" % c["threads"])
    return " ".join(parts)


def slug(c):
    s = re.sub(r"[^A-Za-z0-9.=+-]+", "_", c["name"]).strip("_")
    return "%02d-%s" % (c["index"], s[:60])


# --- commands -----------------------------------------------------------------

def base_fs(fs):
    return fs.split("+")[0]


def mkfs_cmds(c, dev, logdev):
    """The commands that make cell c's filesystem, in order."""
    fs, opts = base_fs(c["fs"]), shlex.split(c["mkfs"])
    ext = []
    if fs.startswith("ext"):
        # lazy init off (ext4lazyinit would run during the measurement);
        # the cell's own -E values join these (later ones win).
        evals = ["lazy_itable_init=0", "lazy_journal_init=0",
                 "hash_seed=" + HASH_SEED]
        rest, i = [], 0
        while i < len(opts):
            if opts[i] == "-E" and i + 1 < len(opts):
                evals.append(opts[i + 1])
                i += 2
                continue
            if opts[i].startswith("-E") and len(opts[i]) > 2:
                evals.append(opts[i][2:])
            else:
                rest.append(opts[i])
            i += 1
        cmds = []
        if c["fs"].endswith("+log"):
            bs = "4096"
            for j, o in enumerate(rest):
                if o == "-b" and j + 1 < len(rest):
                    bs = rest[j + 1]
            cmds.append(["mke2fs", "-q", "-F", "-O", "journal_dev", "-b", bs,
                         "-U", LOG_UUID, logdev])
            ext = ["-b", bs, "-J", "device=" + logdev] \
                if "-b" not in rest else ["-J", "device=" + logdev]
        cmds.append(["mke2fs", "-t", fs, "-q", "-F", "-U", UUID, "-E",
                     ",".join(evals)] + ext + rest + [dev])
        return cmds
    if fs == "xfs":
        if c["fs"].endswith("+log"):
            ext = ["-l", "logdev=" + logdev]
        return [["mkfs.xfs", "-q", "-f", "-m", "uuid=" + UUID] + ext +
                opts + [dev]]
    if fs == "btrfs":
        return [["mkfs.btrfs", "-q", "-f", "-U", UUID] + opts + [dev]]
    raise Usage("no mkfs for %s" % c["fs"])


def mount_cmd(c, dev, mnt, logdev):
    fs = base_fs(c["fs"])
    opts = [o for o in c["mount"].split(",") if o]
    if c["fs"].endswith("+log"):
        opts.insert(0, ("journal_path=" if fs.startswith("ext") else
                        "logdev=") + logdev)
    cmd = ["mount", "-t", fs]
    if opts:
        cmd += ["-o", ",".join(opts)]
    return cmd + [dev, mnt]


def fsck_cmd(c, dev, logdev):
    fs = base_fs(c["fs"])
    log = c["fs"].endswith("+log")
    if fs.startswith("ext"):
        return ["e2fsck", "-fn"] + (["-j", logdev] if log else []) + [dev]
    if fs == "xfs":
        return ["xfs_repair", "-n"] + (["-l", logdev] if log else []) + [dev]
    return ["btrfs", "check", "--readonly", dev]


def fsloadctl_cmd(a, c, profile_args, mnt):
    return [a.fsloadctl, "--json", "start", "--profile", a.profile, "--dir",
            mnt, "--threads", str(c["threads"]), "--seed", str(a.seed),
            "--quiet"] + (["--keep"] if a.keep else []) + profile_args


def opt_value(args, *names):
    """The value of the last of names in an option list."""
    v = None
    for i, x in enumerate(args):
        for n in names:
            if x == n and i + 1 < len(args):
                v = args[i + 1]
            elif x.startswith(n + "="):
                v = x.split("=", 1)[1]
    return v


def parse_bytes(s):
    m = re.fullmatch(r"(\d+)([KMGkmg]?)", s or "")
    if not m:
        return None
    return int(m.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30}[
        m.group(2).lower()]


def block_cmd(a, c, profile_args, dev, dev_bytes, like):
    """The block profile standing for a.profile: the same bytes (those
    the metric counts in `like`, the first finished filesystem cell of
    the same thread count) written to the raw device."""
    bs = opt_value(profile_args, "--block", "--bs") or \
        PROFILE_BLOCK.get(a.profile, "4K")
    bs_bytes = parse_bytes(bs)
    cmd = [a.fsloadctl, "--json", "start", "--profile", "block", "--device",
           dev, "--threads", str(c["threads"]), "--seed", str(a.seed),
           "--quiet", "--force", "--rw", BLOCK_RW.get(a.profile, "write"),
           "--bs", bs]
    if a.block_args is not None:
        return cmd + shlex.split(a.block_args), None
    if like is None:
        return None, ("no filesystem cell of %d thread(s) finished to take "
                      "the bytes from: give --block-args" % c["threads"])
    total = like["metric_bytes"]
    if not total or not bs_bytes:
        return None, ("the profile's metric counts no bytes: give "
                      "--block-args")
    region = min(total, dev_bytes) // bs_bytes * bs_bytes
    ops = max(1, total // bs_bytes // c["threads"])
    return cmd + ["--size", str(region), "--ops", str(ops)], None


# --- running commands ---------------------------------------------------------

class Runner:
    """Runs a cell's commands; each, its output and status go to the
    cell's log."""

    def __init__(self, logf):
        self.logf = logf

    def run(self, cmd, split=False):
        """(rc, output, seconds); split: output is (stdout, stderr), for
        fsloadctl's JSON, and only stderr goes to the log."""
        self.logf.write("$ %s\n" % " ".join(shlex.quote(x) for x in cmd))
        t0 = time.monotonic()
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE if split
                               else subprocess.STDOUT, text=True,
                               errors="replace")
            rc, out, err = p.returncode, p.stdout, p.stderr or ""
        except OSError as e:
            rc, out, err = 127, "", "%s: %s\n" % (cmd[0], e.strerror)
        dt = time.monotonic() - t0
        if split:
            self.logf.write(err + "[stdout: %d bytes]\n" % len(out))
        else:
            out += err
            self.logf.write(out)
        self.logf.write("[exit %d, %.3f s]\n" % (rc, dt))
        self.logf.flush()
        return rc, (out, err) if split else out, dt


def kmsg_lines():
    try:
        p = subprocess.run(["dmesg"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True,
                           errors="replace")
        return p.stdout.splitlines()
    except OSError:
        return []


def tool_message(out, limit=4):
    """The lines that say why, without a usage text or mount's hint."""
    lines = []
    for x in out.splitlines():
        x = x.strip()
        if x.startswith("Usage:"):
            break
        if x and not x.startswith("dmesg(1) may have more"):
            lines.append(x)
    return " / ".join(lines[:limit]) + (" ..." if len(lines) > limit else "")


def sysfs_queue(dev):
    """/sys/.../queue of dev (a partition: its disk's)."""
    name = os.path.basename(os.path.realpath(dev))
    p = os.path.realpath("/sys/class/block/" + name)
    for d in (p, os.path.dirname(p)):
        if os.path.isdir(os.path.join(d, "queue")):
            return os.path.join(d, "queue")
    return None


def read_file(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def write_sysfs(path, value):
    """None, or the error message."""
    try:
        with open(path, "w") as f:
            f.write(value)
        return None
    except OSError as e:
        return "%s: %s" % (path, e.strerror)


# --- safety on real machines --------------------------------------------------

def device_problem(dev, force):
    """Why dev may not be used (None: it may)."""
    try:
        st = os.stat(dev)
    except OSError as e:
        return "%s: %s" % (dev, e.strerror)
    if not stat.S_ISBLK(st.st_mode):
        return "%s is not a block device" % dev
    want = "%d:%d" % (os.major(st.st_rdev), os.minor(st.st_rdev))
    with open("/proc/self/mountinfo") as f:
        for line in f:
            w = line.split()
            if w[2] == want:
                return "%s is mounted on %s" % (dev, w[4])
    # Held by device-mapper, md, a swap, an exclusive opener: O_EXCL on a
    # block device fails with EBUSY then.
    try:
        os.close(os.open(dev, os.O_RDONLY | os.O_EXCL))
    except OSError as e:
        return "%s is in use: %s" % (dev, e.strerror)
    p = subprocess.run(["blkid", "-p", "-o", "export", dev],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode == 0 and not force:
        kv = dict(x.split("=", 1) for x in p.stdout.split() if "=" in x)
        what = kv.get("TYPE") or kv.get("PTTYPE") or "some"
        return ("%s carries a %s signature: every cell would destroy it "
                "(--force to use it anyway)" % (dev, what))
    return None


# --- results --------------------------------------------------------------------

def figures(result):
    """The table's figures from one fsloadctl --json result: its summary,
    which fsloadctl computes over the profile's headline op and phases
    (ctl/workload/profile.c)."""
    s = result.get("summary") or {}
    fixed = {"metric", "ops", "elapsed_ns", "lat_avg_ns", "bytes",
             "lat_p50_ns", "lat_p99_ns", "cpu_ns", "extents_per_file",
             "extents", "files_counted"}
    key = next((k for k in s if k not in fixed), None)
    ops, cpu, nbytes = s.get("ops"), s.get("cpu_ns"), s.get("bytes")
    return {
        "metric": s.get("metric"),
        "value": s.get(key) if key else None,
        "metric_ops": ops,
        "metric_bytes": nbytes,
        "cpu_ns_per_op": cpu / ops if cpu is not None and ops else None,
        "cpu_ns_per_mib": cpu / (nbytes / 2**20) if cpu is not None and
        nbytes else None,
        "p50_ns": s.get("lat_p50_ns"),
        "p99_ns": s.get("lat_p99_ns"),
        "extents_per_file": s.get("extents_per_file"),
    }


# --- one cell -------------------------------------------------------------------

def new_row(c):
    row = dict(c)
    row.update(status=None, stage=None, message="", metric=None, value=None,
               metric_ops=None, metric_bytes=None, cpu_ns_per_op=None,
               cpu_ns_per_mib=None, p50_ns=None, p99_ns=None,
               extents_per_file=None, mkfs_s=None, fsck_s=None,
               fsck_clean=None, commands=[], result_file=None,
               log_file=None)
    return row


def cannot_make(row, stage, msg):
    row.update(status="cannot-make", stage=stage, message=msg)
    return row


def run_fsloadctl(r, row, cmd, out_dir):
    row["commands"].append(" ".join(shlex.quote(x) for x in cmd))
    rc, out, _ = r.run(cmd, split=True)
    res = None
    try:
        res = json.loads(out[0]) if out[0].strip() else None
    except ValueError:
        pass
    if res is not None:
        name = slug(row) + ".json"
        with open(os.path.join(out_dir, name), "w") as f:
            json.dump(res, f, indent=1)
        row["result_file"] = name
        row.update(figures(res))
    if rc != 0:
        job = (res or {}).get("job") or {}
        msg = job.get("error") or tool_message(out[1]) or \
            "fsloadctl exited %d" % rc
        row.update(status="run-failed", stage="run", message=msg)
        return False
    row["status"] = "ok"
    return True


def fs_cell(a, c, ctx, r):
    row = new_row(c)
    dev, mnt, logdev = a.device, a.mnt, ctx["logdev"]
    if c["fs"].endswith("+log"):
        if not logdev:
            return cannot_make(row, "logdev", "no log device: give --logdev "
                               "DEV or --logdev-loop MIB")
    wc_old = None
    if c["wc"]:
        q = ctx["queue"]
        if not q:
            return cannot_make(row, "write-cache",
                               "no queue/write_cache for %s" % dev)
        wc_old = read_file(os.path.join(q, "write_cache"))
        err = write_sysfs(os.path.join(q, "write_cache"), WC_VALUES[c["wc"]])
        row["commands"].append("echo '%s' > %s/write_cache" % (
            WC_VALUES[c["wc"]], q))
        if err:
            return cannot_make(row, "write-cache", err)
    try:
        return fs_cell_made(a, c, ctx, r, row, dev, mnt, logdev)
    finally:
        if wc_old is not None:
            w = "write back" if wc_old.startswith("write back") \
                else "write through"
            write_sysfs(os.path.join(ctx["queue"], "write_cache"), w)


def fs_cell_made(a, c, ctx, r, row, dev, mnt, logdev):
    t = 0.0
    # No signature of an earlier cell is left for mkfs to trip over
    # (mkfs.btrfs refuses a UUID that blkid still finds on the device).
    wipe = [["wipefs", "-a", "-q", dev]]
    if c["fs"].endswith("+log"):
        wipe.append(["wipefs", "-a", "-q", logdev])
    for cmd in wipe + mkfs_cmds(c, dev, logdev):
        row["commands"].append(" ".join(shlex.quote(x) for x in cmd))
        rc, out, dt = r.run(cmd)
        t += dt
        if rc != 0:
            return cannot_make(row, "mkfs", "%s: %s" % (
                cmd[0], tool_message(out) or "exit %d" % rc))
    row["mkfs_s"] = t
    cmd = mount_cmd(c, dev, mnt, logdev)
    row["commands"].append(" ".join(shlex.quote(x) for x in cmd))
    before = len(kmsg_lines())
    rc, out, _ = r.run(cmd)
    if rc != 0:
        kern = [x for x in kmsg_lines()[before:] if x.strip()]
        msg = tool_message(out) or "exit %d" % rc
        if kern:
            msg += " / kernel: " + " / ".join(
                re.sub(r"^\[[^]]*\]\s*", "", x) for x in kern[-3:])
        return cannot_make(row, "mount", msg)
    try:
        ok = run_fsloadctl(r, row, fsloadctl_cmd(a, c, ctx["profile_args"],
                                                 mnt), a.out)
    finally:
        rc, out, _ = r.run(["umount", mnt])
        if rc != 0:
            # The next mkfs would fail on a mounted device: stop here.
            raise RuntimeError("umount %s failed: %s" % (mnt,
                                                         tool_message(out)))
    # The filesystem the run left behind, read from the device: no cached
    # block device pages from mkfs or the run.
    write_sysfs("/proc/sys/vm/drop_caches", "3")
    cmd = fsck_cmd(c, dev, logdev)
    row["commands"].append(" ".join(shlex.quote(x) for x in cmd))
    rc, out, dt = r.run(cmd)
    row["fsck_s"], row["fsck_clean"] = dt, rc == 0
    if rc != 0 and ok:
        row.update(status="fsck-problems", stage="fsck",
                   message="%s exited %d: %s" % (cmd[0], rc,
                                                 tool_message(out)))
    return row


def block_cell(a, c, ctx, r, rows):
    row = new_row(c)
    like = next((x for x in rows if x and x["status"] == "ok" and
                 x["fs"] != "block" and x["threads"] == c["threads"]), None)
    cmd, why = block_cmd(a, c, ctx["profile_args"], a.device,
                         ctx["dev_bytes"], like)
    if cmd is None:
        return cannot_make(row, "block", why)
    run_fsloadctl(r, row, cmd, a.out)
    return row


# --- the table ------------------------------------------------------------------

def fmt(v, p=1, scale=1.0):
    if v is None:
        return "-"
    return "%.*f" % (p, v / scale)


COLUMNS = [
    # header, width, row -> text
    ("#", 2, lambda x: str(x["index"])),
    ("fs", 8, lambda x: x["fs"]),
    ("mkfs", 0, lambda x: x["mkfs"] or "-"),
    ("mount", 0, lambda x: x["mount"] or "-"),
    ("wc", 0, lambda x: x["wc"] or "-"),
    ("thr", 3, lambda x: str(x["threads"])),
    ("status", 0, lambda x: x["status"] + (
        " (%s)" % x["stage"] if x["status"] == "cannot-make" else "")),
    ("METRIC", 0, lambda x: fmt(x["value"])),
    ("cpu_us/op", 0, lambda x: fmt(x["cpu_ns_per_op"], 1, 1e3)),
    ("cpu_us/MiB", 0, lambda x: fmt(x["cpu_ns_per_mib"], 1, 1e3)),
    ("p50_us", 0, lambda x: fmt(x["p50_ns"], 1, 1e3)),
    ("p99_us", 0, lambda x: fmt(x["p99_ns"], 1, 1e3)),
    ("ext/file", 0, lambda x: fmt(x["extents_per_file"], 2)),
    ("fsck_s", 0, lambda x: fmt(x["fsck_s"], 3) + (
        "!" if x["fsck_clean"] is False else "")),
]


def table_text(doc):
    rows = doc["cells"]
    label = doc.get("metric") or "metric"
    cols = []
    for h, w, f in COLUMNS:
        if h == "wc" and not any(x["wc"] for x in rows):
            continue
        if h == "cpu_us/MiB" and "MiB" not in label:
            continue
        if h == "ext/file" and all(x["extents_per_file"] is None
                                   for x in rows):
            continue
        cols.append((label if h == "METRIC" else h, w, f))
    cells = [[f(x) for _, _, f in cols] for x in rows]
    widths = [max([len(h), w] + [len(r[i]) for r in cells])
              for i, (h, w, _) in enumerate(cols)]
    left = {"fs", "mkfs", "mount", "wc", "status"}

    def line(vals):
        return "  ".join(v.ljust(widths[i]) if cols[i][0] in left
                         else v.rjust(widths[i])
                         for i, v in enumerate(vals)).rstrip()

    out = [line([h for h, _, _ in cols])]
    for x, r in zip(rows, cells):
        out.append(line(r))
        if x["message"]:  # it starts with the tool's name
            out.append("    " + x["message"])
    notes = doc.get("notes") or []
    return "\n".join(out + notes) + "\n"


CSV_FIELDS = ["index", "name", "fs", "mkfs", "mount", "wc", "threads",
              "status", "stage", "metric", "value", "metric_ops",
              "metric_bytes", "cpu_ns_per_op", "cpu_ns_per_mib", "p50_ns",
              "p99_ns", "extents_per_file", "mkfs_s", "fsck_s", "fsck_clean",
              "result_file", "log_file", "message"]


def write_outputs(doc, out):
    with open(os.path.join(out, "matrix.json"), "w") as f:
        json.dump(doc, f, indent=1)
    with open(os.path.join(out, "matrix.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, CSV_FIELDS, extrasaction="ignore",
                           lineterminator="\n")
        w.writeheader()
        for x in doc["cells"]:
            w.writerow({k: ("" if x.get(k) is None else x[k])
                        for k in CSV_FIELDS})
    with open(os.path.join(out, "matrix.txt"), "w") as f:
        f.write(header_text(doc) + table_text(doc))


def header_text(doc):
    return ("matrix: profile %s %s, %s on %s (%d MiB)%s, %s\n" % (
        doc["profile"], " ".join(doc["fsloadctl_args"]) or "(defaults)",
        doc["kernel"], doc["device"], doc["device_bytes"] >> 20,
        ", log device %s" % doc["logdev"] if doc["logdev"] else "",
        doc["started"]))


# --- run ----------------------------------------------------------------------

def need_modules(cells):
    """Load what the cells need (in a guest the kernel cannot autoload
    from the shared root: machine-notes).  Failures surface at mount."""
    mods = {base_fs(c["fs"]) for c in cells if c["fs"] != "block"}
    if mods & {"ext2", "ext3", "ext4", "xfs", "btrfs"}:
        for m in ("crc32c-intel", "crc32c_generic", "crc32c"):
            subprocess.run(["modprobe", "-q", m], stderr=subprocess.DEVNULL)
    for m in sorted(mods):
        subprocess.run(["modprobe", "-q", m], stderr=subprocess.DEVNULL)


def make_loop(mib):
    """A loop device over a file on tmpfs (/dev/shm): the second device of
    the two-device cells."""
    subprocess.run(["modprobe", "-q", "loop"], stderr=subprocess.DEVNULL)
    path = "/dev/shm/fsload-matrix-%d.img" % os.getpid()
    with open(path, "w") as f:
        f.truncate(mib << 20)
    p = subprocess.run(["losetup", "--find", "--show", path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode != 0:
        os.unlink(path)
        raise RuntimeError("losetup: %s" % p.stderr.strip())
    return p.stdout.strip(), path


def cmd_run(a, profile_args):
    cells = make_cells(a)
    check_profile_args(profile_args)
    needs_log = any(c["fs"].endswith("+log") for c in cells)
    if a.dry_run:
        return dry_run(a, cells, profile_args)
    if os.geteuid() != 0:
        raise Usage("run needs root (mkfs, mount, fsload)")
    if not a.device or not a.mnt or not a.out:
        raise Usage("run needs --device DEV, --mnt DIR and --out DIR")
    if a.logdev and a.logdev_loop:
        raise Usage("--logdev or --logdev-loop, not both")
    for d in [a.device] + ([a.logdev] if a.logdev else []):
        why = device_problem(d, a.force)
        if why:
            log("refusing: " + why)
            return 2
    if shutil.which(a.fsloadctl) is None:
        here = os.path.join(REPO, "ctl", "fsloadctl")
        if a.fsloadctl != "fsloadctl" or not os.access(here, os.X_OK):
            raise Usage("%s not found (--fsloadctl PATH)" % a.fsloadctl)
        a.fsloadctl = here
    os.makedirs(a.mnt, exist_ok=True)
    os.makedirs(a.out, exist_ok=True)
    need_modules(cells)
    loop = None
    logdev = a.logdev
    if needs_log and not logdev and a.logdev_loop:
        logdev, loop = make_loop(a.logdev_loop)
    with open(a.device, "rb") as f:
        dev_bytes = f.seek(0, 2)
    ctx = {"logdev": logdev, "queue": sysfs_queue(a.device),
           "profile_args": profile_args, "dev_bytes": dev_bytes}
    doc = {
        "fsload_matrix_version": 1,
        "profile": a.profile,
        "fsloadctl_args": profile_args,
        "seed": a.seed,
        "keep": a.keep,
        "device": a.device,
        "device_bytes": dev_bytes,
        "logdev": logdev,
        "write_cache": read_file(os.path.join(ctx["queue"], "write_cache"))
        if ctx["queue"] else None,
        "kernel": os.uname().release,
        "vm": os.environ.get("FSLOAD_VM") == "1",
        "started": datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y-%m-%dT%H:%M:%SZ"),
        "metric": None,
        "notes": [],
        "cells": [],
    }
    sys.stdout.write(header_text(doc))
    sys.stdout.flush()
    rows = [None] * len(cells)
    # Filesystem cells first: a block cell takes its bytes from one.
    order = [c for c in cells if c["fs"] != "block"] + \
        [c for c in cells if c["fs"] == "block"]
    failed = 0
    try:
        for c in order:
            log("cell %d/%d: %s" % (c["index"], len(cells), c["name"]))
            lname = slug(c) + ".log"
            with open(os.path.join(a.out, lname), "w") as lf:
                r = Runner(lf)
                if c["fs"] == "block":
                    row = block_cell(a, c, ctx, r, rows)
                else:
                    row = fs_cell(a, c, ctx, r)
            row["log_file"] = lname
            rows[c["index"] - 1] = row
            if row["status"] in ("run-failed", "fsck-problems"):
                failed += 1
            if row["status"] != "ok":
                log("cell %d: %s (%s): %s" % (c["index"], row["status"],
                                               row["stage"], row["message"]))
    finally:
        if loop:
            subprocess.run(["losetup", "-d", logdev])
            os.unlink(loop)
        done = [x for x in rows if x]
        doc["cells"] = done
        fsm = next((x["metric"] for x in done
                    if x["fs"] != "block" and x["metric"]), None)
        doc["metric"] = fsm or next((x["metric"] for x in done
                                     if x["metric"]), None)
        if any(x["fs"] == "block" for x in done):
            doc["notes"].append(
                "block rows: the block profile (%s, same bytes as a "
                "filesystem row; per op = per bio)" % BLOCK_RW.get(
                    a.profile, "write"))
        if done:
            write_outputs(doc, a.out)
    sys.stdout.write(table_text(doc))
    if os.environ.get("FSLOAD_VM") != "1":  # vm: the host says where
        sys.stdout.write("results: %s\n" % a.out)
    return 1 if failed else 0


def check_profile_args(args):
    for x in args:
        for o in ("--threads", "--json", "--dir", "--profile", "--device"):
            if x == o or x.startswith(o + "="):
                raise Usage("%s is the matrix's to give (--threads LIST: "
                            "a dimension of the matrix)" % o)


def dry_run(a, cells, profile_args):
    dev = getattr(a, "device", None) or "DEV"
    logdev = getattr(a, "logdev", None) or "LOGDEV"
    mnt = getattr(a, "mnt", None) or "MNT"
    for c in cells:
        print("cell %d: %s" % (c["index"], c["name"]))
        if c["fs"] == "block":
            cmd, why = block_cmd(a, c, profile_args, dev, 1 << 40,
                                 {"metric_bytes": None})
            print("  " + (" ".join(shlex.quote(x) for x in cmd) if cmd
                          else "block profile, the bytes of a filesystem "
                          "cell of %d thread(s)" % c["threads"]))
            continue
        if c["wc"]:
            print("  echo '%s' > /sys/block/.../queue/write_cache" %
                  WC_VALUES[c["wc"]])
        for cmd in mkfs_cmds(c, dev, logdev) + [
                mount_cmd(c, dev, mnt, logdev),
                fsloadctl_cmd(a, c, profile_args, mnt), ["umount", mnt],
                fsck_cmd(c, dev, logdev)]:
            print("  " + " ".join(shlex.quote(x) for x in cmd))
    return 0


# --- vm -----------------------------------------------------------------------

def cmd_vm(a, run_argv, profile_args):
    cells = make_cells(a)
    check_profile_args(profile_args)
    out = os.path.abspath(a.out or os.path.join(
        REPO, "build", "matrix",
        datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y%m%dT%H%M%SZ")))
    needs_log = any(c["fs"].endswith("+log") for c in cells)
    inner = ["scripts/matrix.py", "run", "--device", "@DEV@", "--mnt",
             "/tmp/fsload-matrix", "--out", "@OUT@"] + run_argv
    if needs_log:
        inner += ["--logdev-loop", str(a.logdev_size)]
    if profile_args:
        inner += ["--"] + profile_args
    guest = " ".join('"$FSLOAD_DEV"' if x == "@DEV@" else
                     '"$FSLOAD_OUT"' if x == "@OUT@" else shlex.quote(x)
                     for x in inner)
    vm = [os.path.join(REPO, "scripts", "vm-run"), "--fs", "none", "--dev",
          a.dev, "--size", str(a.dev_size), "--timeout", str(a.timeout),
          "--out", out]
    if a.nullb:
        vm += ["--nullb", a.nullb]
    if a.kernel:
        vm += ["--kernel", a.kernel]
    vm += shlex.split(a.vm_args or "") + ["--", guest]
    if a.dry_run:
        print(" ".join(shlex.quote(x) for x in vm))
        return dry_run(a, cells, profile_args)
    os.makedirs(out, exist_ok=True)
    log("%d cells in one guest (%s %d MiB); results in %s" % (
        len(cells), a.dev, a.dev_size, out))
    rc = subprocess.run(vm, cwd=REPO).returncode
    if rc != 0:
        log("the guest exited %d (console: %s/console.log)" % (rc, out))
    log("results: %s" % out)
    return rc


# --- show ---------------------------------------------------------------------

def cmd_show(a):
    path = a.dir if a.dir.endswith(".json") else os.path.join(a.dir,
                                                              "matrix.json")
    with open(path) as f:
        doc = json.load(f)
    if a.csv:
        with open(os.path.join(os.path.dirname(path), "matrix.csv")) as f:
            sys.stdout.write(f.read())
    else:
        sys.stdout.write(header_text(doc) + table_text(doc))
    return 0


# --- options ------------------------------------------------------------------

EPILOG = """\
cells, in table order: each --preset's cells, then for each --fs the
product of its --mkfs variants x --mount variants x --write-cache values
(a filesystem without --mkfs/--mount gets its defaults), all x --threads.
FS names: %s (+log: external journal, mke2fs -O journal_dev + -J device=,
or xfs -l logdev= + mount logdev=, on the log device).  Every mkfs gets a
fixed UUID (ext*: and hash seed, lazy init off; an -E joins those).
presets:
%s
Everything after -- goes to fsloadctl start for every filesystem cell
(--keep and --seed 1 by default: fsck walks the file set).  A block cell
runs the block profile (--rw write; randwrite for randrw) over as many
bytes as the first finished filesystem cell of its thread count wrote for
the metric, in --block-sized bios; --block-args replaces that.
exit status: 0 the matrix ran (cannot-make rows included); 1 a cell's run
failed or fsck found problems; 2 usage, or a device refused.""" % (
    ", ".join(FILESYSTEMS),
    "\n".join("  %-13s %s" % (k, v[0]) for k, v in PRESETS.items()))


def matrix_options(p):
    g = p.add_argument_group("cells")
    g.add_argument("--profile", default="largefile",
                   help="fsloadctl profile (default largefile)")
    g.add_argument("--preset", action="append", metavar="NAME",
                   help="a preset's cells: " + ", ".join(PRESETS))
    g.add_argument("--fs", metavar="LIST",
                   help="filesystems, e.g. block,ext2,ext3")
    g.add_argument("--mkfs", action="append", metavar="FS=OPTS",
                   help="a mkfs variant of FS (a list, or *); repeat")
    g.add_argument("--mount", action="append", metavar="FS=OPTS",
                   help="a mount -o variant of FS; repeat")
    g.add_argument("--write-cache", metavar="LIST",
                   help="on,off,keep: the device's queue/write_cache")
    g.add_argument("--threads", type=threads_list, default=[1],
                   metavar="LIST", help="thread counts (default 1)")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--no-keep", dest="keep", action="store_false",
                   help="let the profile remove its files before fsck")
    g.add_argument("--block-args", metavar="ARGS",
                   help="block cells: these fsloadctl options instead of "
                   "--size/--ops from a filesystem cell")
    g.add_argument("--fsloadctl", default="fsloadctl", metavar="PATH")
    g.add_argument("--dry-run", action="store_true",
                   help="print the cells' commands, run nothing")


def parser():
    p = argparse.ArgumentParser(
        prog="matrix.py", allow_abbrev=False,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Run a profile over a matrix of filesystems, mkfs and "
        "mount options, a fresh filesystem per cell; print one table.",
        epilog=EPILOG)
    sub = p.add_subparsers(dest="cmd", metavar="run|vm|show")
    r = sub.add_parser("run", allow_abbrev=False, help="on this machine",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog=EPILOG)
    g = r.add_argument_group("run")
    g.add_argument("--device", help="the scratch device (every cell's)")
    g.add_argument("--mnt", help="mount point")
    g.add_argument("--out", help="output directory")
    g.add_argument("--logdev", metavar="DEV",
                   help="second device for the +log cells")
    g.add_argument("--logdev-loop", type=int, metavar="MIB",
                   help="make the second device: a loop device on tmpfs")
    g.add_argument("--force", action="store_true",
                   help="use devices that carry a filesystem signature")
    matrix_options(r)
    v = sub.add_parser("vm", allow_abbrev=False, help="in one QEMU guest",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog=EPILOG)
    matrix_options(v)
    g = v.add_argument_group("vm")
    for o in VM_OPTIONS:
        g.add_argument(o[0], **o[1])
    s = sub.add_parser("show", help="print a matrix's table again")
    s.add_argument("dir", help="output directory (or its matrix.json)")
    s.add_argument("--csv", action="store_true")
    return p


VM_OPTIONS = [
    ("--out", {"help": "host directory (default build/matrix/DATE)"}),
    ("--dev", {"default": "ram", "choices": ["ram", "nullb", "virtio"],
               "help": "the guest's scratch device (vm-run --dev)"}),
    ("--dev-size", {"type": int, "default": 1024, "metavar": "MIB",
                    "help": "its size (default 1024; xfs needs >= 300)"}),
    ("--nullb", {"metavar": "ATTRS", "help": "vm-run --nullb"}),
    ("--logdev-size", {"type": int, "default": 128, "metavar": "MIB",
                       "help": "the +log cells' loop device (default 128; "
                       "xfs logs need >= 64)"}),
    ("--kernel", {"help": "vm-run --kernel"}),
    ("--timeout", {"type": int, "default": 3600, "metavar": "SEC",
                   "help": "the guest's limit (default 3600)"}),
    ("--vm-args", {"metavar": "ARGS", "help": "more vm-run options"}),
]


def main(argv):
    if "--" in argv:
        i = argv.index("--")
        argv, profile_args = argv[:i], argv[i + 1:]
    else:
        profile_args = []
    if argv and argv[0] == "help":
        argv = ["-h"]
    p = parser()
    a = p.parse_args(argv)
    try:
        if a.cmd == "run":
            return cmd_run(a, profile_args)
        if a.cmd == "vm":
            # What the guest's run gets: these options minus the vm's.
            vmp = argparse.ArgumentParser(allow_abbrev=False, add_help=False)
            for o in VM_OPTIONS:
                vmp.add_argument(o[0], **o[1])
            _, run_argv = vmp.parse_known_args(argv[1:])
            return cmd_vm(a, run_argv, profile_args)
        if a.cmd == "show":
            return cmd_show(a)
        p.print_usage(sys.stderr)
        return 2
    except Usage as e:
        log(str(e))
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
