#!/usr/bin/env bash
# The CI recipe of docs/ci.md ("Balance checks in your CI"), run as written as far as this machine
# allows, so it cannot rot. The snippets are read from DOC (SOURCE_DIR/docs/ci.md unless given)
# between the markers "<!-- ci-test: NAME ... -->" and "<!-- ci-test: end -->":
#
#   github-actions  every `run:` step of the job, each in its own shell, in order
#   gitlab-ci       every line of the job's `script:`, each in its own shell, in order
#   record          the "Once, on purpose" lines: re-recording must give the committed balance/
#                   (only where DOC has them: the guide's sequential snippets do not)
#
# Each runs in its own fresh `git clone` of SOURCE_DIR (so only committed baselines count), in
# the clone's tests/ci-recipe (a designer's repository: its balance/ holds the baselines), with
# the job's env:/variables:. odds is the repository's git submodule at odds/: the checkout with
# submodules (actions/checkout's `submodules: true`, GitLab's GIT_SUBMODULE_STRATEGY) is a
# checkout of SOURCE_DIR's HEAD, one for every snippet of a run (made once, linked in as odds/),
# so the first snippet's `odds/scripts/setup` builds it and the next ones find it built.
# Substituted, because it needs the network or would change this machine: `apt-get update ... &&
# apt-get install ...` of ca-certificates and git (which serve only the checkout) is skipped;
# installing anything else fails the test. Every other line runs as written, with no odds on PATH;
# a failing line fails the test. Afterwards the files the job uploads (`path:`, `report_paths:`,
# `paths:`, `junit:`) must exist, and each JUnit report must read as XML (python3) with every test
# case passed. The record snippet runs with the .deb this build made (ctest package.deb)
# unpacked by dpkg-deb -x into a temporary root on PATH, as `odds` installed.
#
# Usage: readme_ci.sh SOURCE_DIR BUILD_DIR VERSION [DOC]
set -u
src=$1
build=$2
version=$3
doc=${4:-$src/docs/ci.md}
fail() { echo "FAIL: $*"; exit 1; }
command -v git >/dev/null || fail "git is needed for the fresh clone (scripts/setup --all installs it)"
command -v python3 >/dev/null || fail "python3 is needed to read the reports (scripts/setup --all installs it)"
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 || fail "$src is not a git repository: nothing to clone"
debs=("$build"/package-test/odds_"$version"_*.deb)
[ -f "${debs[0]}" ] || fail "no $build/package-test/odds_${version}_*.deb: ctest package.deb makes it"
deb=${debs[0]}
[ -f "$doc" ] || fail "no $doc: the page whose CI snippets this test runs"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/odds-readme-ci.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# PATH without any odds on it: only the snippet's own install step may bring one.
clean_path=""
IFS=: read -ra dirs <<< "$PATH"
for d in "${dirs[@]}"; do
  [ -n "$d" ] && [ ! -x "$d/odds" ] && clean_path+="${clean_path:+:}$d"
done

# The snippet NAME as lines "env KEY VALUE", "step COMMAND", "upload PATH", "junit PATH".
extract() {
  python3 - "$doc" "$1" <<'EOF'
import re, sys
doc, name = sys.argv[1], sys.argv[2]
lines = open(doc, encoding="utf-8").read().split("\n")
starts = [i for i, l in enumerate(lines) if re.match(r"<!-- ci-test: %s\b" % re.escape(name), l)]
if len(starts) != 1:
    sys.exit("%s has %d '<!-- ci-test: %s' markers, not 1" % (doc, len(starts), name))
end = next((i for i in range(starts[0] + 1, len(lines)) if lines[i].startswith("<!-- ci-test: end")), None)
if end is None:
    sys.exit("the ci-test: %s snippet has no '<!-- ci-test: end -->'" % name)
block = [l for l in lines[starts[0] + 1:end] if not l.startswith("```")]
def indent(l): return len(l) - len(l.lstrip(" "))
def scalar(v, where):
    v = v.strip()
    if v[:1] in ("|", ">", "'", '"'):
        sys.exit("%s: '%s' is not a plain one-line value, which this test cannot run" % (where, v))
    return v
out = []
if name == "record":
    out += ["step " + l for l in block if l.strip() and not l.lstrip().startswith("#")]
else:
    i = 0
    while i < len(block):
        l = block[i]
        m = re.match(r"^(\s*)(env|variables|script):\s*$", l)
        if m:
            base, key = len(m.group(1)), m.group(2)
            i += 1
            while i < len(block) and (not block[i].strip() or indent(block[i]) > base):
                item = block[i].strip()
                if key == "script" and item:
                    if not item.startswith("- "):
                        sys.exit("script: '%s' is not a '- COMMAND' line" % item)
                    out.append("step " + scalar(item[2:], "script"))
                elif item:
                    kv = re.match(r"^([A-Za-z_][A-Za-z0-9_]*):\s*(.*)$", item)
                    if not kv:
                        sys.exit("%s: cannot read '%s'" % (key, item))
                    out.append("env %s %s" % (kv.group(1), scalar(kv.group(2), key)))
                i += 1
            continue
        m = re.match(r"^\s*(?:- )?run:(.*)$", l)
        if m:
            out.append("step " + scalar(m.group(1), "run"))
        m = re.match(r"^\s*(path|report_paths|junit):\s*(.*)$", l)
        if m:
            v = scalar(m.group(2), m.group(1))
            out.append("upload " + v)
            if m.group(1) != "path":
                out.append("junit " + v)
        m = re.match(r"^\s*paths:\s*\[(.*)\]\s*$", l)
        if m:
            out += ["upload " + p.strip() for p in m.group(1).split(",") if p.strip()]
        i += 1
if not any(o.startswith("step ") for o in out):
    sys.exit("the ci-test: %s snippet has no steps" % name)
print("\n".join(out))
EOF
}

# The submodule's checkout, shared by the snippets: SOURCE_DIR's HEAD.
submodule=$tmp/odds-submodule
checkout_submodule() {
  [ -d "$submodule" ] && return 0
  git clone -q "$src" "$submodule" || fail "git clone $src (the submodule) failed"
  git -C "$submodule" checkout -q "$(git -C "$src" rev-parse HEAD)" ||
    fail "cannot check out HEAD in the submodule"
}

# Runs snippet NAME in a fresh clone; fails on the first failing step.
run_snippet() {
  local name=$1 spec clone work root kind rest path
  spec=$(extract "$name") || fail "cannot read the $name snippet of $doc"
  clone=$tmp/$name
  git clone -q "$src" "$clone" || fail "git clone $src failed"
  git -C "$clone" checkout -q "$(git -C "$src" rev-parse HEAD)" || fail "cannot check out HEAD in the clone"
  # The recipe's repository: tests/ci-recipe of the clone stands in for a designer's own
  # repository, its balance/ the baselines the page records and checks.
  work=$clone/tests/ci-recipe
  if grep -q '^step odds/' <<< "$spec"; then  # the checkout with submodules
    checkout_submodule
    ln -s "$submodule" "$work/odds" || fail "cannot link odds/ into $work"
  fi
  local envs=() checks=0 path_now=$clean_path
  while IFS= read -r line; do
    kind=${line%% *}
    rest=${line#* }
    case $kind in
      env) envs+=("${rest%% *}=${rest#* }") ;;
      step)
        local cmd=$rest
        if [[ $cmd == "apt-get update"* ]]; then
          local pkgs
          pkgs=$(sed -n 's/.*apt-get install\(.*\)$/\1/p' <<< "$cmd" | tr ' ' '\n' | grep -v '^-' | grep -v '^$' | sort | tr '\n' ' ')
          [ "$pkgs" = "ca-certificates git " ] ||
            fail "$name: step '$cmd' installs '$pkgs'; only ca-certificates and git (for the checkout) can be skipped here"
          echo "$name: skipped (no network here): $cmd"
          continue
        fi
        echo "$name: \$ $cmd"
        (cd "$work" && env "${envs[@]}" PATH="$path_now" bash -e -o pipefail -c "$cmd") ||
          fail "$name: step '$cmd' failed"
        [[ $cmd == "odds check "* || $cmd == "odds/build/odds check "* ]] && checks=$((checks + 1))
        ;;
      upload)
        path=${rest%/}
        [ -e "$work/$path" ] || fail "$name: the job uploads '$rest', which the steps did not make"
        ;;
      junit)
        python3 - "$work/$rest" <<'EOF' || fail "$name: the JUnit report '$rest' does not read as passed"
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = root.findall(".//testcase")
assert root.tag == "testsuites" and cases, "no test cases"
assert root.find(".//failure") is None and root.get("failures") == "0", "a test case failed"
print("junit: %d test cases in %d suites, all passed" % (len(cases), len(root.findall("testsuite"))))
EOF
        ;;
    esac
  done <<< "$spec"
  [ "$name" = record ] || [ "$checks" -gt 0 ] || fail "$name: no 'odds check' step ran"
  if [ "$name" = record ]; then
    local changed
    changed=$(git -C "$work" status --porcelain -- balance)
    [ -z "$changed" ] || fail "re-recording as docs/ci.md says changes the committed balance/ (scripts/rebaseline):"$'\n'"$changed"
  fi
}

run_snippet github-actions
run_snippet gitlab-ci
# The "Once, on purpose" lines (docs/ci.md has them; the guide's sequential snippets do not),
# with the packaged odds on PATH from the start.
if grep -q '^<!-- ci-test: record' "$doc"; then
  clean_path=$tmp/record-root/usr/bin:$clean_path
  dpkg-deb -x "$deb" "$tmp/record-root" || fail "cannot unpack $deb"
  run_snippet record
fi
echo "ok: the CI snippets of $doc run as written"
