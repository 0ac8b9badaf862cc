# SPDX-License-Identifier: GPL-2.0
#
# What the guest sides of the benchmarks (bench-guest.py, fidelity-guest.py)
# share, in a guest of scripts/vm-run.

import os
import subprocess


def fresh_filesystem():
    """Make the scratch filesystem anew, as vm-run made it."""
    mnt = os.environ["FSLOAD_DIR"]
    subprocess.run(["sync"], check=True)
    subprocess.run(["umount", mnt], check=True)
    subprocess.run(os.environ["FSLOAD_MKFS"].split(), check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(os.environ["FSLOAD_MOUNT"].split(), check=True)
