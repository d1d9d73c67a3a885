#!/usr/bin/env python3
"""Keeps the docs honest where that is cheap: in every Markdown page of the repository (README.md,
docs/, each game's engine/GAME/README.md and RULES.md; build folders and hidden ones left out)

  - every relative link [text](TARGET) names a file or folder that exists, inside the repository;
  - a link's #ANCHOR names a heading of the page it points to (GitHub's slugs);
  - every path written as code, `engine/...`, `docs/...`, `tests/...`, `scripts/...`, `sim/...`,
    `reports/...`, `policies/...`, `benchmarks/...`, `.ci/...`, names a file or folder that
    exists (from the repository's root), unless it is a pattern (GAME, FOLDER, DIR, FILE, <...>,
    *, ...).

Code blocks and HTML comments are skipped; links to other sites are not followed. Before the
repository, the checker checks a page of its own with known faults, so it cannot pass by
finding nothing.

Usage: doc_links.py SOURCE_DIR"""
import os
import re
import sys
import tempfile

LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+\"[^\"]*\")?\)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
ROOTS = ("engine/", "docs/", "tests/", "scripts/", "sim/", "reports/", "policies/", "benchmarks/",
         ".ci/")
PATTERN = re.compile(r"GAME|FOLDER|DIR|FILE|X\.Y\.Z|<|\*|\.\.\.|\[")


def pages(root):
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not d.startswith("build"))
        for f in sorted(files):
            if f.endswith(".md"):
                yield os.path.join(folder, f)


def prose(text):
    """The page's lines outside code blocks and HTML comments, as (line number, line)."""
    text = re.sub(r"<!--.*?-->", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        m = re.match(r"^\s*(```+|~~~+)", line)
        if m:
            if fence is None:
                fence = m.group(1)[0] * 3
            elif m.group(1).startswith(fence):
                fence = None
            continue
        if fence is None:
            yield n, line


def slug(heading):
    """GitHub's anchor for a heading: its text lower-cased, punctuation dropped, spaces to '-'."""
    text = CODE_SPAN.sub(lambda m: m.group(2), heading)
    text = LINK.sub(lambda m: m.group(1), text)
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


anchors_cache = {}


def anchors(path):
    if path not in anchors_cache:
        seen, found = {}, set()
        for _, line in prose(open(path, encoding="utf-8").read()):
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            s = slug(m.group(1))
            k = seen.get(s, 0)
            seen[s] = k + 1
            found.add(s if k == 0 else "%s-%d" % (s, k))
        for m in re.finditer(r"<a\s+(?:name|id)=\"([^\"]+)\"", open(path, encoding="utf-8").read()):
            found.add(m.group(1))
        anchors_cache[path] = found
    return anchors_cache[path]


def check(root):
    root = os.path.realpath(root)
    faults = []
    for page in pages(root):
        rel = os.path.relpath(page, root)
        for n, line in prose(open(page, encoding="utf-8").read()):
            where = "%s:%d" % (rel, n)
            spans = [m.group(2).strip() for m in CODE_SPAN.finditer(line)]
            bare = CODE_SPAN.sub(lambda m: "C" * len(m.group(0)), line)
            for m in LINK.finditer(bare):
                target = line[m.start(2):m.end(2)]
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                    continue
                path, _, anchor = target.partition("#")
                if path.startswith("/"):
                    faults.append("%s: link '%s' is absolute; write it relative to the page" % (where, target))
                    continue
                dest = os.path.realpath(os.path.join(os.path.dirname(page), path)) if path else page
                if dest != root and not dest.startswith(root + os.sep):
                    faults.append("%s: link '%s' leaves the repository" % (where, target))
                elif not os.path.exists(dest):
                    faults.append("%s: link '%s': no such file" % (where, target))
                elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                    faults.append("%s: link '%s': %s has no heading with anchor #%s"
                                  % (where, target, os.path.relpath(dest, root), anchor))
            for span in spans:
                if " " in span or not span.startswith(ROOTS) or PATTERN.search(span):
                    continue
                if not os.path.exists(os.path.join(root, span.rstrip("/"))):
                    faults.append("%s: `%s` names no file or folder of the repository" % (where, span))
    return faults


def self_test():
    """A page with one good and five bad references: exactly the five must be found."""
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "docs"))
        os.makedirs(os.path.join(tmp, "engine", "game"))
        open(os.path.join(tmp, "engine", "game", "RULES.md"), "w").write("# The rules\n\n## G1 `Dice`, again?\n")
        open(os.path.join(tmp, "docs", "page.md"), "w").write(
            "# Page\n\nGood: [rules](../engine/game/RULES.md#g1-dice-again), [here](#page),\n"
            "[`a [b]`](../engine/game/), `engine/game/RULES.md`, `engine/GAME/x.cpp`, [w](https://x.y/z).\n"
            "```\n[not a link](nowhere.md) `engine/nowhere.cpp`\n```\n<!-- [x](gone.md) -->\n"
            "Bad: [a](missing.md), [b](../engine/game/RULES.md#g2), [c](../../outside.md),\n"
            "[d](/engine/game/RULES.md), `engine/game/missing.hpp`.\n")
        found = check(tmp)
        expected = ["missing.md", "#g2", "leaves the repository", "absolute", "missing.hpp"]
        ok = len(found) == len(expected) and all(any(e in f for f in found) for e in expected)
        if not ok:
            print("FAIL: the checker's own test page: expected %d faults (%s), found:\n  %s"
                  % (len(expected), ", ".join(expected), "\n  ".join(found) or "none"))
            sys.exit(1)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    self_test()
    root = sys.argv[1]
    faults = check(root)
    for f in faults:
        print("FAIL: " + f)
    if faults:
        sys.exit(1)
    n = sum(1 for _ in pages(os.path.realpath(root)))
    print("ok: every link and path in the %d Markdown pages names something that exists" % n)


main()
