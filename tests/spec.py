#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The netlink spec (Documentation/netlink/specs/fsload.yaml) says what the
uapi header (include/uapi/linux/fsload.h) says: family name and version,
multicast groups, constants, every enum and flags entry, every attribute
set with each attribute's name, value and type, every command and its id;
and nothing in the header is missing from the spec.  The spec's own
references (attribute sets, enums, the attributes of each operation) must
resolve.  When a kernel source with the netlink schema is at hand
(FSLOAD_NETLINK_SCHEMA=FILE, KSRC=DIR, or a linux-source tarball of 6.3 or
newer in /usr/src) and python3-jsonschema is installed, the spec is also
validated against Documentation/netlink/genetlink-legacy.yaml, as the
kernel's ynl tool validates a spec when it loads one.

Host-side, KTAP output; exit 0 unless a case failed.

    tests/spec.py [SPEC [HEADER]]
"""

import glob
import os
import re
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    print("1..0 # SKIP PyYAML is not installed (python3-yaml)")
    sys.exit(4)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from ktap import Fail, Skip, run  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.path.join(REPO, "Documentation/netlink/specs/fsload.yaml")
HEADER = os.path.join(REPO, "include/uapi/linux/fsload.h")
SCHEMA = "Documentation/netlink/genetlink-legacy.yaml"


def check(cond, msg):
    if not cond:
        raise Fail(msg)


def c_upper(name):
    return name.upper().replace("-", "_")


def c_lower(name):
    return name.lower().replace("-", "_")


# --- the header -------------------------------------------------------------

def c_eval(expr, env):
    """Value of a C integer constant expression over names in env."""
    def name(m):
        if m.group(0) not in env:
            raise Fail(f"header: unknown name {m.group(0)} in '{expr}'")
        return str(env[m.group(0)])

    py = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b", r"\1", expr)
    py = re.sub(r"\b[A-Za-z_]\w*\b", name, py)
    if not re.fullmatch(r"[\s0-9a-fA-FxX()+\-*|&<>~]*", py):
        raise Fail(f"header: cannot evaluate '{expr}'")
    return eval(py, {"__builtins__": {}})  # digits and operators only


def split_items(body):
    """Enum members split on top-level commas, comments kept."""
    items, cur, i = [], "", 0
    while i < len(body):
        if body.startswith("/*", i):
            j = body.index("*/", i) + 2
            cur += body[i:j]
            i = j
        elif body[i] == ",":
            items.append(cur)
            cur = ""
            i += 1
        else:
            cur += body[i]
            i += 1
    items.append(cur)
    return items


def parse_header(path):
    """(#defines {name: raw value}, enums [(name or None, [members])]);
    a member is (NAME, value, comment after it or "")."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    defines = {}
    for m in re.finditer(r"^#define[ \t]+(\w+)[ \t]+((?:[^\n\\]|\\\n)*)",
                         text, re.M):
        raw = re.sub(r"/\*.*?\*/", "", m.group(2).replace("\\\n", " "),
                     flags=re.S)
        defines[m.group(1)] = raw.strip()
    nocomment = re.sub(r"/\*.*?\*/", lambda m: " " * len(m.group(0)), text,
                       flags=re.S)
    enums = []
    for m in re.finditer(r"\benum\s+(\w+)?\s*\{([^}]*)\}\s*;", nocomment):
        body = text[m.start(2):m.end(2)]
        items = split_items(body)
        env, members, value = {}, [], -1
        for n, item in enumerate(items):
            code = re.sub(r"/\*.*?\*/", " ", item, flags=re.S).strip()
            if not code:
                continue
            mm = re.fullmatch(r"([A-Za-z_]\w*)\s*(?:=\s*(.+))?", code, re.S)
            check(mm, f"header: cannot parse enum member '{code}'")
            nm = mm.group(1)
            value = c_eval(mm.group(2), env) if mm.group(2) else value + 1
            env[nm] = value
            comment = ""
            if n + 1 < len(items):
                cm = re.match(r"[ \t]*/\*(.*?)\*/", items[n + 1], re.S)
                if cm:
                    comment = " ".join(
                        re.sub(r"\n\s*\*", " ", cm.group(1)).split())
            members.append((nm, value, comment))
        enums.append((m.group(1), members))
    return defines, enums


def define_int(defines, name):
    check(name in defines, f"header: no #define {name}")
    return c_eval(defines[name], LazyEnv(defines))


class LazyEnv(dict):
    """#defines and enum members as a c_eval environment; a define is
    evaluated when used."""

    def __init__(self, defines):
        super().__init__()
        self.defines = defines
        self.members = {n: v for _, ms in ENUMS for n, v, _ in ms}

    def __contains__(self, key):
        return key in self.defines or key in self.members

    def __getitem__(self, key):
        if key in self.members:
            return self.members[key]
        return c_eval(self.defines[key], self)


def differ(what, got, want):
    """Fail naming what only the header and what only the spec has."""
    if got == want:
        return
    only_h = [f"{n}={v}" for n, v in got if (n, v) not in want]
    only_s = [f"{n}={v}" for n, v in want if (n, v) not in got]
    if not only_h and not only_s:
        raise Fail(f"{what}: same members in another order")
    raise Fail(f"{what}: only in the header: {', '.join(only_h) or '-'}; "
               f"only in the spec: {', '.join(only_s) or '-'}")


# --- the spec ---------------------------------------------------------------

def entries(defn):
    """(name, value, C name) of an enum or flags definition."""
    family = SPECDOC["name"]
    prefix = defn.get("name-prefix", f"{family}-{defn['name']}-")
    start = defn.get("value-start", 0)
    out, prev = [], None
    for e in defn.get("entries", []):
        e = {"name": e} if isinstance(e, str) else e
        v = e.get("value", prev + 1 if prev is not None else start)
        prev = v
        raw = 1 << v if defn["type"] == "flags" else v
        out.append((e["name"], raw, c_upper(prefix + e["name"])))
    return out


def enum_c_name(defn):
    if "enum-name" in defn:
        return c_lower(defn["enum-name"]) if defn["enum-name"] else None
    return c_lower(f"{SPECDOC['name']}-{defn['name']}")


def attr_prefix(aset):
    return c_upper(aset.get("name-prefix",
                            f"{SPECDOC['name']}-a-{aset['name']}-"))


def attributes(aset):
    """(spec attribute, value, C name) of an attribute set."""
    out, val = [], 1
    for a in aset["attributes"]:
        val = a.get("value", val)
        out.append((a, val, attr_prefix(aset) + c_upper(a["name"])))
        val += 1
    return out


def operations():
    """(spec operation, value, C name) in the unified model."""
    ops = SPECDOC["operations"]
    prefix = c_upper(ops.get("name-prefix", f"{SPECDOC['name']}-cmd-"))
    out, val = [], 1
    for op in ops["list"]:
        val = op.get("value", val)
        out.append((op, val, prefix + c_upper(op["name"])))
        val += 1
    return out


# --- the cases --------------------------------------------------------------

def t_parses():
    for key in ("name", "doc", "protocol", "attribute-sets", "operations",
                "mcast-groups", "definitions"):
        check(key in SPECDOC, f"spec: no '{key}'")
    check(SPECDOC["protocol"] == "genetlink-legacy",
          "spec: protocol is not genetlink-legacy (it sets the version)")
    check(SPECDOC.get("operations", {}).get("enum-model", "unified")
          == "unified", "spec: operations are not in the unified model")


def skip(why):
    """Skip a case that needs the kernel's tools; under make check
    (FSLOAD_SPEC_STRICT=1, whose dependencies install them: scripts/deps.sh
    check) their absence fails it: the protocol is regenerated there."""
    if os.environ.get("FSLOAD_SPEC_STRICT") == "1":
        raise Fail(why + " (make check installs it: scripts/deps.sh check)")
    raise Skip(why)


def find_schema():
    """The schema file, or raise Skip."""
    path = os.environ.get("FSLOAD_NETLINK_SCHEMA")
    if path:
        check(os.path.isfile(path), f"FSLOAD_NETLINK_SCHEMA={path}: no file")
        return path
    ksrc = os.environ.get("KSRC")
    if ksrc and os.path.isfile(os.path.join(ksrc, SCHEMA)):
        return os.path.join(ksrc, SCHEMA)
    cache = os.environ.get("FSLOAD_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
        "fsload")
    # Debian's linux-source packages: the host's, and those installed in
    # the newer suites' roots of scripts/kernels.sh.
    tarballs = glob.glob("/usr/src/linux-source-*.tar.xz") + glob.glob(
        os.path.join(cache, "roots/*/usr/src/linux-source-*.tar.xz"))
    for tarball in sorted(tarballs):
        top = os.path.basename(tarball)[:-len(".tar.xz")]
        ver = re.match(r"linux-source-(\d+)\.(\d+)", top)
        # the schema came with ynl, in Linux 6.3
        if not ver or (int(ver.group(1)), int(ver.group(2))) < (6, 3):
            continue
        dest = os.path.join(cache, top)
        if not os.path.isfile(os.path.join(dest, SCHEMA)):
            os.makedirs(cache, exist_ok=True)
            subprocess.run(["tar", "-xJf", tarball, "-C", cache,
                            f"{top}/{SCHEMA}"],
                           stderr=subprocess.DEVNULL, check=False)
        if os.path.isfile(os.path.join(dest, SCHEMA)):
            return os.path.join(dest, SCHEMA)
    skip("no netlink schema: no kernel source of 6.3 or newer "
         "(set KSRC or FSLOAD_NETLINK_SCHEMA)")


def t_schema():
    schema_path = find_schema()
    try:
        import jsonschema
    except ImportError:
        skip("python3-jsonschema is not installed")
    with open(schema_path, encoding="utf-8") as f:
        schema = yaml.safe_load(f)
    try:
        jsonschema.validate(SPECDOC, schema)
    except jsonschema.ValidationError as e:
        raise Fail(f"spec does not follow {schema_path}: {e.message} "
                   f"at {'/'.join(map(str, e.absolute_path))}")
    print(f"# valid against {schema_path}")


def t_references():
    defs = {d["name"]: d for d in SPECDOC["definitions"]}
    sets = {s["name"]: s for s in SPECDOC["attribute-sets"]}
    groups = {g["name"] for g in SPECDOC["mcast-groups"]["list"]}
    ops = {op["name"]: op for op in SPECDOC["operations"]["list"]}
    check(len(defs) == len(SPECDOC["definitions"]), "duplicate definitions")
    check(len(sets) == len(SPECDOC["attribute-sets"]), "duplicate sets")
    check(len(ops) == len(SPECDOC["operations"]["list"]),
          "duplicate operations")
    names = list(defs) + list(sets) + list(ops) + list(groups)
    for s in sets.values():
        anames = [a["name"] for a in s["attributes"]]
        check(len(set(anames)) == len(anames), f"set {s['name']}: duplicates")
        names += anames
        for a in s["attributes"]:
            where = f"{s['name']}.{a['name']}"
            if a["type"] == "nest":
                check(a.get("nested-attributes") in sets,
                      f"{where}: nested-attributes names no attribute set")
            if "enum" in a:
                check(a["enum"] in defs and defs[a["enum"]]["type"]
                      in ("enum", "flags"), f"{where}: no enum {a['enum']}")
            mask = a.get("checks", {}).get("flags-mask")
            if mask:
                check(defs.get(mask, {}).get("type") == "flags",
                      f"{where}: flags-mask {mask} is not a flags definition")
    for n in names:
        check(re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", str(n)),
              f"'{n}' is not a lower-case, dash-separated name")
    for op in ops.values():
        if "notify" in op:
            check(op["notify"] in ops and "do" in ops[op["notify"]],
                  f"{op['name']}: notify names no operation with a do")
        if "mcgrp" in op:
            check(op["mcgrp"] in groups,
                  f"{op['name']}: no group {op['mcgrp']}")
        if "notify" in op or "event" in op:
            check("mcgrp" in op, f"{op['name']}: a notification without mcgrp")
            continue
        aset = sets.get(op.get("attribute-set"))
        check(aset, f"{op['name']}: no attribute-set")
        known = {a["name"] for a in aset["attributes"]}
        check("do" in op or "dump" in op, f"{op['name']}: neither do nor dump")
        for kind in ("do", "dump"):
            for part in ("request", "reply"):
                for n in op.get(kind, {}).get(part, {}).get("attributes", []):
                    check(n in known, f"{op['name']} {kind} {part}: "
                          f"{n} is not in the set {aset['name']}")


def t_family():
    family = SPECDOC["name"]
    fname = c_upper(SPECDOC.get("c-family-name", f"{family}-family-name"))
    vname = c_upper(SPECDOC.get("c-version-name", f"{family}-family-version"))
    check(DEFINES.get(fname) == f'"{family}"',
          f"header: {fname} is {DEFINES.get(fname)}, spec name is {family}")
    check(define_int(DEFINES, vname) == SPECDOC.get("version", 1),
          f"header: {vname} is {DEFINES.get(vname)}, spec version is "
          f"{SPECDOC.get('version', 1)}")
    want = {}
    for g in SPECDOC["mcast-groups"]["list"]:
        d = c_upper(g.get("c-define-name", f"{family}-mcgrp-{g['name']}"))
        check(DEFINES.get(d) == f'"{g["name"]}"',
              f"header: {d} is {DEFINES.get(d)}, spec group is {g['name']}")
        want[d] = g["name"]
    for d in DEFINES:
        if d.startswith(c_upper(f"{family}-mcgrp-")):
            check(d in want, f"header: group {d} is not in the spec")


def t_constants():
    family = SPECDOC["name"]
    seen = set()
    for d in SPECDOC["definitions"]:
        if d["type"] != "const":
            continue
        cname = c_upper(d.get("name-prefix", f"{family}-") + d["name"])
        seen.add(cname)
        check(define_int(DEFINES, cname) == d["value"],
              f"{cname}: header {DEFINES.get(cname)}, spec {d['value']}")
    # Every numeric constant of the header, except the family version.
    for name, raw in DEFINES.items():
        if (name in seen or name.startswith("_") or raw.startswith('"')
                or name.endswith("FAMILY_VERSION")):
            continue
        raise Fail(f"header: #define {name} is not a const of the spec")


def t_enums():
    named = {n: members for n, members in ENUMS if n}
    cmd_enum = c_lower(SPECDOC["operations"].get("enum-name", ""))
    covered = {cmd_enum}
    for d in SPECDOC["definitions"]:
        if d["type"] not in ("enum", "flags"):
            continue
        ename = enum_c_name(d)
        check(ename in named, f"header: no enum {ename} (spec {d['name']})")
        covered.add(ename)
        got = [(n, v) for n, v, _ in named[ename]]
        want = [(c, v) for _, v, c in entries(d)]
        if d.get("render-max"):
            pfx = c_upper(d.get("name-prefix",
                                f"{SPECDOC['name']}-{d['name']}-"))
            if d["type"] == "flags":
                # The mask of every flag.
                total = 0
                for _, v in want:
                    total |= v
                want += [(f"{pfx}MASK", total)]
            else:
                last = want[-1][1] if want else 0
                want += [(f"__{pfx}MAX", last + 1), (f"{pfx}MAX", last)]
        differ(f"enum {ename}", got, want)
    for n in named:
        check(n in covered, f"header: enum {n} is not in the spec")


def comment_facts(comment):
    """(type, enum C name, nested prefix, repeated) from "u32: enum x"."""
    m = re.match(r"(u8|u16|u32|u64|s8|s16|s32|s64|string|nest|flag|binary)\b",
                 comment)
    if not m:
        return None, None, None, False
    e = re.search(r"\benum (\w+)", comment)
    n = re.search(r"\b(\w+_)\*", comment)
    return (m.group(1), e.group(1) if e else None, n.group(1) if n else None,
            "repeated" in comment)


def t_attribute_sets():
    anon = [members for n, members in ENUMS if not n]
    sets = {s["name"]: s for s in SPECDOC["attribute-sets"]}
    defs = {d["name"]: d for d in SPECDOC["definitions"]}
    used = set()
    # A header enum is the set's whose prefix is the longest one its first
    # member starts with (FSLOAD_A_SAMPLE_OP_TYPE is sample-op's, not
    # sample's).
    prefixes = [attr_prefix(s) for s in SPECDOC["attribute-sets"]
                if "subset-of" not in s]

    def owner(cname):
        return max((p for p in prefixes if cname.startswith(p)), key=len,
                   default=None)

    for s in SPECDOC["attribute-sets"]:
        if "subset-of" in s:
            continue
        pfx = attr_prefix(s)
        match = [i for i, members in enumerate(anon)
                 if members and owner(members[0][0]) == pfx]
        check(len(match) == 1, f"set {s['name']}: {len(match)} header enums "
              f"of {pfx}*")
        used.add(match[0])
        members = anon[match[0]]
        attrs = attributes(s)
        want = [(c, v) for _, v, c in attrs]
        cnt = c_upper(s.get("attr-cnt-name", f"__{pfx}MAX"))
        mx = c_upper(s.get("attr-max-name", f"{pfx}MAX"))
        last = want[-1][1]
        want += [(cnt, last + 1), (mx, last)]
        got = [(n, v) for n, v, _ in members]
        differ(f"set {s['name']}", got, want)
        # The header's comments give types; the spec must agree.
        for (a, _, cname), (_, _, comment) in zip(attrs, members):
            typ, enum, nest, multi = comment_facts(comment)
            where = f"{cname} ({s['name']}.{a['name']})"
            if typ is None:
                check(a["type"] == "pad" or not cname.endswith("_PAD"),
                      f"{where}: a pad attribute of type {a['type']}")
                check(a["type"] == "pad" or comment == "",
                      f"{where}: header comment has no type: '{comment}'")
                continue
            check(a["type"] == typ, f"{where}: header {typ}, spec {a['type']}")
            if enum:
                check(a.get("enum") and enum_c_name(defs[a["enum"]]) == enum,
                      f"{where}: header says enum {enum}, "
                      f"spec {a.get('enum')}")
            if nest:
                sub = sets.get(a.get("nested-attributes"), {})
                check(sub and attr_prefix(sub) == nest,
                      f"{where}: header nests {nest}*, spec "
                      f"{a.get('nested-attributes')}")
            check(bool(a.get("multi-attr")) == multi,
                  f"{where}: header {'says' if multi else 'does not say'} "
                  f"repeated, spec multi-attr {a.get('multi-attr', False)}")
            if typ == "u64":
                check(any(x["type"] == "pad" for x in s["attributes"]),
                      f"set {s['name']}: u64 attributes and no pad")
    for i, members in enumerate(anon):
        check(i in used, f"header: attribute enum {members[0][0]}... is not "
              "in the spec")


def t_commands():
    ename = c_lower(SPECDOC["operations"].get("enum-name", ""))
    named = {n: members for n, members in ENUMS if n}
    check(ename in named, f"header: no enum {ename} for the commands")
    want = [(c, v) for _, v, c in operations()]
    pfx = c_upper(SPECDOC["operations"].get("name-prefix",
                                            f"{SPECDOC['name']}-cmd-"))
    last = want[-1][1]
    want += [(f"__{pfx}MAX", last + 1), (f"{pfx}MAX", last)]
    got = [(n, v) for n, v, _ in named[ename]]
    differ("commands", got, want)
    for op, v, c in operations():
        # The header names notifications *_NTF; the spec must send them
        # on a group, and only them.
        ntf = "notify" in op or "event" in op
        check(ntf == c.endswith("_NTF"),
              f"{c}: {'a notification' if ntf else 'no notification'} in "
              "the spec, the header's name says otherwise")
        check(not ntf or op.get("mcgrp"), f"{c}: a notification without "
              "mcgrp")
        kinds = [k for k in ("do", "dump", "notify", "event") if k in op]
        print(f"# {v} {c}: {', '.join(kinds)}")


GENERATED = ["include/uapi/linux/fsload.h", "module/fsload-nl-gen.h",
             "module/fsload-nl-gen.c", "ctl/nl/fsload-nl-gen.h",
             "ctl/nl/fsload-nl-gen.c"]


def t_generated():
    """Every generated file is what scripts/nl-gen.py makes of the spec."""
    with tempfile.TemporaryDirectory(prefix="fsload-spec.") as out:
        res = subprocess.run([os.path.join(REPO, "scripts/nl-gen.py"),
                              "--out", out], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True,
                             check=False)
        if res.returncode == 4:
            skip(res.stdout.strip())
        check(res.returncode == 0, f"scripts/nl-gen.py: {res.stdout}")
        stale = []
        for rel in GENERATED:
            res = subprocess.run(["diff", "-u", os.path.join(REPO, rel),
                                  os.path.join(out, rel)],
                                 stdout=subprocess.PIPE, text=True,
                                 check=False)
            if res.returncode:
                for line in res.stdout.splitlines()[:20]:
                    print(f"# {line}")
                stale.append(rel)
        check(not stale, f"not what the spec gives: {', '.join(stale)} "
              "(make gen)")


def t_policies():
    """The module validates requests with the generated policies only:
    no policy or range of its own, and each command's entry of the op
    table takes its command's policy, whole."""
    gen = "module/fsload-nl-gen.c"
    table = ""
    for path in sorted(glob.glob(os.path.join(REPO, "module/*.c"))):
        rel = os.path.relpath(path, REPO)
        if rel == gen or rel.endswith(".mod.c"):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        check(not re.search(r"struct (nla_policy|netlink_range_validation)"
                            r"\s+\w+\s*(\[[^]]*\])?\s*=", text),
              f"{rel}: a policy or range of its own (the spec's are in {gen})")
        table += text
    for op, _, cname in operations():
        if "notify" in op or "event" in op:
            continue
        m = re.search(r"\.cmd\s*=\s*" + cname + r"\s*,(.*?)\}", table, re.S)
        check(m, f"module: no op table entry for {cname}")
        pol = c_lower(f"{SPECDOC['name']}-{op['name']}-nl-policy")
        want = [rf"\.policy\s*=\s*{pol}\s*,",
                rf"\.maxattr\s*=\s*ARRAY_SIZE\({pol}\)\s*-\s*1\s*,"]
        for w in want:
            check(re.search(w, m.group(1)),
                  f"{cname}: op table entry without {w.replace(chr(92), '')}")


CASES = [
    ("spec_parses", t_parses),
    ("spec_schema", t_schema),
    ("spec_references", t_references),
    ("spec_family_and_groups", t_family),
    ("spec_constants", t_constants),
    ("spec_enums_and_flags", t_enums),
    ("spec_attribute_sets", t_attribute_sets),
    ("spec_commands", t_commands),
    ("spec_generated_files", t_generated),
    ("spec_kernel_policies", t_policies),
]


def main():
    global SPECDOC, DEFINES, ENUMS
    spec = sys.argv[1] if len(sys.argv) > 1 else SPEC
    header = sys.argv[2] if len(sys.argv) > 2 else HEADER
    with open(spec, encoding="utf-8") as f:
        SPECDOC = yaml.safe_load(f)
    DEFINES, ENUMS = parse_header(header)
    return run(CASES, also_fail=(KeyError, TypeError, ValueError))


if __name__ == "__main__":
    sys.exit(main())
