#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of `make fidelity` (scripts/fidelity.sh): fs_mark
# (Debian's fsmark package) and fsload's fsmark profile through the kernel
# and the user engine, the same work (FILES files of SIZE bytes, one
# thread, one directory, fs_mark's names, -S 0), each on the scratch
# filesystem made afresh at $FSLOAD_DIR ($FSLOAD_MKFS, $FSLOAD_MOUNT).
# Writes the figures, per phase, to $FSLOAD_OUT/<fs>.json.
#
#   fidelity-guest.py FS FILES SIZE

import json
import os
import subprocess
import sys

from vmguest import fresh_filesystem


def fs_mark(files, size):
    """
    fs_mark -v: per-file ns of its timed system calls, its overhead.

    Run in the mount point with -d fs_mark, a relative directory: fs_mark
    names each file by its -d path joined to the name, so its creat and
    unlink walk "fs_mark//NAME", two components as fsload's
    "t000/NAME" from the job directory.  An absolute -d
    (/run/fsload/mnt/fs_mark) walked four more (/, run, fsload, mnt and
    the mount crossing) inside each timed call: 2 400 instructions more
    per create and unlink on ext4, the whole of the 3.2-3.7% that fsload
    measured below fs_mark before.
    """
    cmd = ["fs_mark", "-d", "fs_mark", "-n", str(files), "-s", str(size),
           "-w", str(size), "-S", "0", "-v", "-l", "/tmp/fs_mark.log"]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True,
                         check=True, cwd=os.environ["FSLOAD_DIR"]).stdout
    row = None
    for line in out.splitlines():
        f = line.split()
        if len(f) == 23 and f[0].isdigit():
            row = f
    if not row:
        sys.exit("fidelity: no result row in fs_mark's output:\n" + out)
    count, files_per_sec, overhead_us = int(row[1]), float(row[3]), int(row[4])
    loop_us = count / files_per_sec * 1e6
    # CREAT, WRITE, FSYNC, SYNC, CLOSE, UNLINK: (min, avg, max) each, us
    avg = {k: int(row[5 + 3 * i + 1]) for i, k in
           enumerate(["creat", "write", "fsync", "sync", "close", "unlink"])}
    return {
        "command": " ".join(cmd),
        # the loop's time less App overhead: its timed calls, per file
        "create": (loop_us - overhead_us) * 1000 / count,
        "create_calls": {k: avg[k] * 1000 for k in ("creat", "write",
                                                   "close")},
        "app_overhead": overhead_us * 1000 / count,
        # its average is its sum divided by the count in integers: whole
        # us, rounded down; the middle of that microsecond, +-500
        "unlink": avg["unlink"] * 1000 + 500,
        "unlink_floor": avg["unlink"] * 1000,
    }


def fsload(engine, files, size):
    """
    fsload's fsmark profile: per-op ns of create and unlink, without the
    phases' sync tail (fs_mark unlinks files whose data is not yet written
    back; after a sync, each unlink frees allocated blocks).
    """
    cmd = ["fsloadctl", "start", "--profile", "fsmark", "--dir",
           os.environ["FSLOAD_DIR"], "--engine", engine, "--files",
           str(files), "--size", str(size), "--block", str(size), "--sync",
           "0", "--no-sync-tail", "--seed", "1", "--json", "--quiet"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
    if p.returncode:
        sys.exit("fidelity: %s exited %d" % (" ".join(cmd), p.returncode))
    j = json.loads(p.stdout)
    out = {"command": " ".join(cmd),
           "overhead": j["job"].get("overhead_ns_per_op")}
    for ph in j["phases"]:
        if ph["ops"]:
            lat = sum(o["lat_sum_ns"] for o in ph["ops_by_type"]) / ph["ops"]
            out[ph["name"]] = lat
    return out


def main():
    fs, files, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    res = {"fs": fs, "files": files, "size": size}
    for tool in ("fs_mark", "kernel", "user"):
        fresh_filesystem()
        sys.stderr.write("fidelity: %s, %s\n" % (fs, tool))
        res[tool] = (fs_mark(files, size) if tool == "fs_mark" else
                     fsload(tool, files, size))
    with open(os.path.join(os.environ["FSLOAD_OUT"], fs + ".json"),
              "w") as f:
        json.dump(res, f, indent=1)


main()
