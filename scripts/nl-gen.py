#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate the fsload protocol's code from its netlink spec
(Documentation/netlink/specs/fsload.yaml), the one place the protocol is
written:

  include/uapi/linux/fsload.h   the uapi header: ynl-gen-c --mode uapi
  module/fsload-nl-gen.[ch]     the request policies (and their ranges) of
                                the module: ynl-gen-c's kernel code, without
                                its op table and family (module/netlink.c
                                has them: 6.1 has no split ops, and the
                                handlers' hooks are the module's)
  ctl/nl/fsload-nl-gen.[ch]     fsloadctl's attribute tables (names,
                                types, nesting) and job state names: this script

The kernel's ynl-gen-c comes with a linux-source of 6.4 or newer: FSLOAD_YNL
(a tools/net/ynl directory), else Debian's linux-source-6.12 (the host's:
Debian 12 has it in bookworm-security, and scripts/deps.sh installs it for
make gen and make check; or the one `scripts/kernels.sh ynl` installs in
the trixie root), extracted into FSLOAD_CACHE.  Without it: exit 4.

    scripts/nl-gen.py [--out DIR]    write the files under DIR (default:
                                     the repository)
"""

import argparse
import glob
import importlib.util
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

import yaml

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC_REL = "Documentation/netlink/specs/fsload.yaml"
UAPI = "include/uapi/linux/fsload.h"
KERNEL = "module/fsload-nl-gen"
CTL = "ctl/nl/fsload-nl-gen"
CACHE = os.environ.get("FSLOAD_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
    "fsload")
YNL_SOURCE = "linux-source-6.12"
EXIT_SKIP = 4

# The enums whose names fsloadctl prints as the spec writes them (op
# types are named by the engine, engine.h, as the command line spells them).
CTL_ENUMS = ["job-state", "names", "op-clock"]

# fsloadctl names two attributes as its command line does.
CTL_NAMES = {
    ("op", "size-bytes"): "size",
    ("op", "block-bytes"): "block",
}


def ynl_tarballs():
    """The linux-source tarballs that have ynl-gen-c, first choice first:
    the host's (Debian 12's bookworm-security, Debian 13's own: make gen's
    and make check's dependency), then the one scripts/kernels.sh installs
    in the trixie root."""
    root = os.environ.get("FSLOAD_ROOT") or os.path.join(CACHE, "roots",
                                                         "trixie")
    return [os.path.join(d, "usr/src", YNL_SOURCE + ".tar.xz")
            for d in ("/", root)]


def find_ynl():
    """The tools/net/ynl directory of a kernel source, or None: extracted
    (with the schemas) into FSLOAD_CACHE from the first tarball there is,
    again when that tarball changes (a new point release)."""
    env = os.environ.get("FSLOAD_YNL")
    if env:
        return env
    dest = os.path.join(CACHE, YNL_SOURCE)
    ynl = os.path.join(dest, "tools/net/ynl")
    stamp = os.path.join(dest, ".tarball")
    tarball = next((t for t in ynl_tarballs() if os.path.isfile(t)), None)
    if not tarball:
        # extracted before, its tarball gone: still ynl-gen-c
        return ynl if os.path.isfile(os.path.join(ynl, "ynl-gen-c.py")) \
            else None
    st = os.stat(tarball)
    ident = f"{tarball} {st.st_size} {int(st.st_mtime)}\n"
    if os.path.isfile(os.path.join(ynl, "ynl-gen-c.py")) and \
            os.path.isfile(stamp):
        with open(stamp, encoding="utf-8") as f:
            if f.read() == ident:
                return ynl
    # ynl-gen-c and the schemas it validates specs against.
    os.makedirs(CACHE, exist_ok=True)
    tmp = tempfile.mkdtemp(dir=CACHE, prefix=YNL_SOURCE + ".")
    try:
        with tarfile.open(tarball) as tar:
            want = [m for m in tar if
                    m.name.startswith(YNL_SOURCE + "/tools/net/ynl/") or
                    (m.name.startswith(YNL_SOURCE + "/Documentation/netlink/")
                     and m.name.count("/") == 3)]
            tar.extractall(tmp, members=want)
        with open(os.path.join(tmp, YNL_SOURCE, ".tarball"), "w",
                  encoding="utf-8") as f:
            f.write(ident)
        shutil.rmtree(dest, ignore_errors=True)
        os.rename(os.path.join(tmp, YNL_SOURCE), dest)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return ynl


def kernel_tree(ynl, spec):
    """A directory laid out as ynl-gen-c wants a kernel tree: the spec
    beside the schemas, MAINTAINERS at the top (it finds the tree by it,
    for the spec's path in the banner)."""
    top = tempfile.mkdtemp(prefix="fsload-nl-gen.")
    doc = os.path.join(top, "Documentation/netlink")
    os.makedirs(os.path.join(doc, "specs"))
    for f in glob.glob(os.path.join(ynl, "../../../Documentation/netlink/*.yaml")):
        shutil.copy(f, doc)
    shutil.copy(spec, os.path.join(top, SPEC_REL))
    open(os.path.join(top, "MAINTAINERS"), "w").close()
    return top, os.path.join(top, SPEC_REL)


def write(out, rel, text):
    path = os.path.join(out, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def gen_uapi(ynl, spec, out):
    os.makedirs(os.path.dirname(os.path.join(out, UAPI)), exist_ok=True)
    res = subprocess.run([sys.executable, os.path.join(ynl, "ynl-gen-c.py"),
                          "--mode", "uapi", "--header", "--spec", spec,
                          "-o", os.path.join(out, UAPI)],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, check=False)
    if res.returncode:
        sys.exit(f"nl-gen: ynl-gen-c failed:\n{res.stdout}")


def load_ynl(ynl):
    sys.path.insert(0, ynl)
    mod = importlib.util.spec_from_file_location(
        "ynl_gen_c", os.path.join(ynl, "ynl-gen-c.py"))
    gen = importlib.util.module_from_spec(mod)
    mod.loader.exec_module(gen)
    return gen


def gen_kernel(ynl, spec, out):
    """ynl-gen-c's kernel header and source, policies only: what its
    main() writes for --mode kernel, without the op table, the multicast
    groups and the family."""
    g = load_ynl(ynl)
    family = g.Family(spec, [])
    base = os.path.basename(KERNEL)
    for header in (True, False):
        buf = io.StringIO()
        cw = g.CodeWriter(g.BaseNlLib())
        cw._out = buf
        if header:
            cw.p(f"/* SPDX-License-Identifier: {family.license} */")
        else:
            cw.p(f"// SPDX-License-Identifier: {family.license}")
        cw.p("/* Do not edit directly, auto-generated from: */")
        cw.p(f"/*\t{SPEC_REL} */")
        cw.p(f"/* YNL-GEN kernel {'header' if header else 'source'}, "
             "policies only: scripts/nl-gen.py */")
        cw.nl()
        guard = f"_{family.c_name.upper()}_NL_GEN_H"
        if header:
            cw.p("#ifndef " + guard)
            cw.p("#define " + guard)
            cw.nl()
        cw.p("#include <net/netlink.h>")
        cw.nl()
        if not header:
            cw.p(f'#include "{base}.h"')
            cw.nl()
        cw.p(f"#include <uapi/{family.uapi_header}>")
        cw.nl()
        print_policy = g.print_req_policy_fwd if header else g.print_req_policy
        if not header:
            g.print_kernel_policy_ranges(family, cw)
        nested = sorted(family.pure_nested_structs.items())
        if any(s.request for _, s in nested):
            cw.p("/* Common nested types */")
        for _, struct in nested:
            if struct.request:
                print_policy(cw, struct)
        cw.nl()
        for _, op in family.ops.items():
            for mode in ("do", "dump"):
                if mode in op and "request" in op[mode]:
                    if not header:
                        cw.p(f"/* {op.enum_name} - {mode} */")
                    ri = g.RenderInfo(cw, family, "kernel", op, mode)
                    print_policy(cw, ri.struct["request"], ri=ri)
                    cw.nl()
        if header:
            cw.p(f"#endif /* {guard} */")
        cw._out = sys.stdout  # nothing left for its destructor to write
        text = buf.getvalue().rstrip("\n") + "\n"
        # 6.1's NLA_POLICY_FULL_RANGE() takes a pointer to a range that is
        # not const (const from 6.2): the ranges are not, on every kernel.
        text = text.replace("static const struct netlink_range_validation",
                            "static struct netlink_range_validation")
        write(out, KERNEL + (".h" if header else ".c"), text)


# --- fsloadctl's tables --------------------------------------------------------


def c_upper(name):
    return name.upper().replace("-", "_")


def c_lower(name):
    return name.lower().replace("-", "_")


def attr_entries(aset):
    """(attribute, its C name) in value order."""
    pfx = aset["name-prefix"]
    value, res = 0, []
    for a in aset["attributes"]:
        value = a.get("value", value + 1)
        res.append((a, c_upper(pfx + a["name"])))
    return res


# The spec's attribute types, as struct attr_set's types (attrs.h) name them.
CTL_TYPES = {t: "ATTR_" + t.upper() for t in
             ("u8", "u16", "u32", "u64", "s32", "string", "binary", "flag",
              "nest", "pad")}


def table_name(aset):
    """job_attrs for fsload-a-job-: the set's C prefix, short."""
    short = aset["name-prefix"][len("fsload-a-"):].rstrip("-")
    return c_lower(short) + "_attrs"


def gen_ctl(doc, out):
    sets = {s["name"]: s for s in doc["attribute-sets"]}
    ban = ["/* Do not edit directly, auto-generated from: */",
           f"/*\t{SPEC_REL} */",
           "/* by scripts/nl-gen.py: fsloadctl's attribute tables */"]
    h = ["/* SPDX-License-Identifier: GPL-2.0 */"] + ban + [
        "",
        "#ifndef FSLOADCTL_NL_GEN_H",
        "#define FSLOADCTL_NL_GEN_H",
        "",
        "struct attr_set;",
        "",
        "/* The attribute sets of the spec (struct attr_set: attrs.h). */"]
    c = ["// SPDX-License-Identifier: GPL-2.0"] + ban + [
        "",
        "#include <stddef.h>",
        "",
        "#include <linux/fsload.h>",
        "",
        '#include "nl/attrs.h"',
        '#include "nl/fsload-nl-gen.h"',
        ""]
    for aset in doc["attribute-sets"]:
        h.append(f"extern const struct attr_set {table_name(aset)};")
    h.append("")
    # A set is defined before the sets that nest it.
    done, order = set(), []

    def visit(name):
        if name in done:
            return
        done.add(name)
        for a in sets[name]["attributes"]:
            if a["type"] == "nest" and a["nested-attributes"] != name:
                visit(a["nested-attributes"])
        order.append(sets[name])

    for aset in doc["attribute-sets"]:
        visit(aset["name"])
    for aset in order:
        tname = table_name(aset)
        base = tname[:-len("attrs")]
        mx = c_upper(aset["name-prefix"] + "max")
        ents = attr_entries(aset)
        c.append(f"static const char *const {base}attr_names[{mx} + 1] = {{")
        for a, cname in ents:
            name = CTL_NAMES.get((aset["name"], a["name"]), a["name"])
            c.append(f'\t[{cname}] = "{name}",')
        c += ["};", ""]
        c.append(f"static const unsigned char {base}attr_types[{mx} + 1] = {{")
        for a, cname in ents:
            if a["type"] not in CTL_TYPES:
                sys.exit(f"nl-gen: {aset['name']} {a['name']}: type "
                         f"{a['type']} unknown to fsloadctl (CTL_TYPES)")
            c.append(f'\t[{cname}] = {CTL_TYPES[a["type"]]},')
        c += ["};", ""]
        nests = [(a, cname) for a, cname in ents if a["type"] == "nest"]
        if nests:
            c.append(f"static const struct attr_set *const "
                     f"{base}nested[{mx} + 1] = {{")
            for a, cname in nests:
                sub = table_name(sets[a["nested-attributes"]])
                c.append(f"\t[{cname}] = &{sub},")
            c += ["};", ""]
        c += [f"const struct attr_set {tname} = {{",
              f'\t.name = "{aset["name"]}",',
              f"\t.max = {mx},",
              f"\t.names = {base}attr_names,",
              f"\t.types = {base}attr_types,"]
        if nests:
            c.append(f"\t.nested = {base}nested,")
        # A nest's instances are labelled by their name attribute.
        label = [cname for a, cname in ents
                 if a["name"] == "name" and a["type"] == "string"]
        if label:
            c.append(f"\t.label_attr = {label[0]},")
        c += ["};", ""]
    # Enum names, as the spec writes them.
    h.append("/* Names of enum values, indexed by value (NULL: none). */")
    for d in doc["definitions"]:
        if d["name"] not in CTL_ENUMS:
            continue
        arr = f"fsload_{c_lower(d['name'])}_names"
        pfx = d.get("name-prefix", f"fsload-{d['name']}-")
        ents = [(e if isinstance(e, str) else e["name"]) for e in d["entries"]]
        last = c_upper(pfx + ents[-1])
        h.append(f"extern const char *const {arr}[{last} + 1];")
        c.append(f"const char *const {arr}[{last} + 1] = {{")
        for e in ents:
            c.append(f'\t[{c_upper(pfx + e)}] = "{e}",')
        c += ["};", ""]
    h += ["", "#endif /* FSLOADCTL_NL_GEN_H */"]
    write(out, CTL + ".h", "\n".join(h) + "\n")
    write(out, CTL + ".c", "\n".join(c).rstrip("\n") + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=REPO)
    args = ap.parse_args()
    ynl = find_ynl()
    if not ynl:
        print(f"nl-gen: no ynl-gen-c: no {YNL_SOURCE} (install it: "
              "scripts/deps.sh gen; or set FSLOAD_YNL)", file=sys.stderr)
        return EXIT_SKIP
    spec = os.path.join(REPO, SPEC_REL)
    with open(spec, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    top, tspec = kernel_tree(ynl, spec)
    try:
        gen_uapi(ynl, tspec, args.out)
        gen_kernel(ynl, tspec, args.out)
    finally:
        shutil.rmtree(top)
    gen_ctl(doc, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
