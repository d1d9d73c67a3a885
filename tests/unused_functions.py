#!/usr/bin/env python3
"""Fails on a function of ours that nothing refers to (issue 41: dead code gone, and kept gone).

Reads the object files the build already made, as the linker would: each one's symbol table
(readelf -s: the functions it defines) and its relocations (readelf -r: every call, address
taken, vtable slot, in any program, library, test or benchmark, is a relocation naming its
target). A function of namespace odds defined out of line (a global FUNC symbol) that no
relocation of any object names is called by nobody: it is listed, and the test fails.

What the object files cannot show, this cannot report: a function only ever inlined in its own
file whose name is written elsewhere too (make it static, or put it in an unnamed namespace, and
-Wunused-function, part of -Wall, watches it instead), an inline function or a template nobody
instantiates (no code is emitted for them).

usage: unused_functions.py BUILD_DIR
"""
import json
import pathlib
import re
import shlex
import subprocess
import sys

# The words of our sources, counted: a function the linker sees no call to, whose name is
# written only where it is declared and defined (at most twice), is dead. A name written more
# often is called somewhere, where the compiler inlined it (a Release build inlines a function
# into callers in its own file, and then leaves no relocation): not reported, so that what the
# optimizer decides never fails the test.
SOURCES = ("engine", "policies", "sim", "reports", "tests", "benchmarks")


def word_counts(root):
    counts = {}
    for d in SOURCES:
        for f in (root / d).rglob("*"):
            if f.suffix in (".cpp", ".hpp", ".inc", ".in"):
                for w in re.findall(r"[A-Za-z_][A-Za-z_0-9]*", f.read_text(errors="replace")):
                    counts[w] = counts.get(w, 0) + 1
    return counts


def base_name(plain):
    """'odds::ns::Class::f(int) const' -> 'f'."""
    head = plain.split("(", 1)[0]
    return re.split(r"::|~", head)[-1].split("[")[0]


def readelf(args, obj):
    return subprocess.run(["readelf", "-W", *args, str(obj)], capture_output=True, text=True,
                          check=True).stdout


def main():
    build = pathlib.Path(sys.argv[1]).resolve()
    # The build's own objects, as compile_commands.json names them (CMAKE_EXPORT_COMPILE_COMMANDS):
    # not a stale one left behind by a source file since deleted.
    objects = []
    for c in json.loads((build / "compile_commands.json").read_text()):
        words = shlex.split(c["command"])
        obj = pathlib.Path(c["directory"]) / words[words.index("-o") + 1]
        if not obj.exists():
            print(f"{obj} is not built: build first")
            return 1
        objects.append(obj)
    defined, referred = {}, set()
    for obj in objects:
        for line in readelf(["-s"], obj).splitlines():
            f = line.split()
            # Num: Value Size Type Bind Vis Ndx Name
            if len(f) == 8 and f[3] == "FUNC" and f[4] == "GLOBAL" and f[6] != "UND":
                defined.setdefault(f[7], obj)
        for line in readelf(["-r"], obj).splitlines():
            f = line.split()
            # Offset Info Type Symbol's-Value Symbol's-Name + Addend
            if len(f) >= 5 and f[2].startswith("R_"):
                referred.add(f[4])
    # By the demangled name: a constructor's or destructor's variants (C1 and C2...) are one
    # function, used where any of them is referred to.
    names = sorted(set(defined) | referred)
    plain = dict(zip(names, subprocess.run(["c++filt"], input="\n".join(names),
                                           capture_output=True, text=True,
                                           check=True).stdout.splitlines()))
    used = {plain[n] for n in referred}
    words = word_counts(pathlib.Path(__file__).resolve().parent.parent)
    unused = sorted({(plain[n], defined[n]) for n in defined
                     if plain[n].startswith("odds::") and plain[n] not in used
                     and words.get(base_name(plain[n]), 0) <= 2})
    for name, obj in unused:
        print(f"unused: {name}  ({obj.relative_to(build)})")
    print(f"{len(unused)} unused function(s) of ours in {len(objects)} object files")
    return 1 if unused else 0


if __name__ == "__main__":
    sys.exit(main())
