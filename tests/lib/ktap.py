# SPDX-License-Identifier: GPL-2.0
"""KTAP for the host suites written in Python (tests/spec.py, deps.py,
layers.py): a case is a name and a function that returns when it passes
and raises Skip or Fail (or one of the exceptions @also_fail names)
otherwise.

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
    from ktap import Fail, Skip, run
    sys.exit(run([("name", fn), ...]))
"""


class Fail(Exception):
    pass


class Skip(Exception):
    pass


def run(cases, also_fail=()):
    """Run @cases in order, print KTAP and the totals; the exit status:
    1 when a case failed, else 0."""
    print("TAP version 13")
    print(f"1..{len(cases)}", flush=True)
    npass = nfail = nskip = 0
    for i, (name, fn) in enumerate(cases, 1):
        try:
            fn()
            print(f"ok {i} {name}")
            npass += 1
        except Skip as e:
            print(f"ok {i} {name} # SKIP {e}")
            nskip += 1
        except (Fail,) + tuple(also_fail) as e:
            print(f"# FAIL: {e}")
            print(f"not ok {i} {name}")
            nfail += 1
        print(end="", flush=True)
    print(f"# Totals: pass:{npass} fail:{nfail} xfail:0 xpass:0 "
          f"skip:{nskip} error:0")
    return 1 if nfail else 0
