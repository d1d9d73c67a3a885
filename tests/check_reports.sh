#!/usr/bin/env bash
# odds check --junit and --json read back by real parsers (python3's json and xml.etree), for a
# baseline whose file name holds XML's and JSON's special characters and a byte that is not
# UTF-8: one test suite per baseline file, one test case per metric, a failure for each moved
# metric, the JSON's fields and verdicts. Usage: check_reports.sh ODDS SOURCE_DIR
set -u
odds=$1
src=$2
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || fail "python3 is needed to read the reports back (scripts/setup --all installs it)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/odds-check-reports.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

odd="$tmp/a&b <\"c\"> 'd' "$'\xff'".baseline"
cp "$src/engine/bosconian/bosconian.baseline" "$odd"
cp "$src/engine/dimension_duel/dimension-duel.baseline" "$tmp/duel.baseline"

# Bosconian at hull=95: win within its tolerance, the other three metrics moved; the duel's
# baseline re-run exactly, unchanged. Exit 1, the reports in folders that do not exist yet.
"$odds" check --no-progress --set hull=95 --tolerance win=0.005 "$odd" \
  --junit "$tmp/out/junit.xml" --json "$tmp/out/json/check.json" > "$tmp/stdout" 2> "$tmp/stderr"
rc=$?
[ "$rc" = 1 ] || fail "check exited $rc, not 1: $(cat "$tmp/stderr")"
"$odds" check --no-progress "$tmp/duel.baseline" "$odd" --tolerance win=0.005 \
  --junit "$tmp/two.xml" --json "$tmp/two.json" > /dev/null 2> "$tmp/stderr"
rc=$?
[ "$rc" = 0 ] || fail "the exact check exited $rc, not 0: $(cat "$tmp/stderr")"

python3 - "$tmp" "$odd" <<'EOF' || fail "the reports do not read back as they should"
import json, os, sys
import xml.etree.ElementTree as ET

tmp = sys.argv[1]
# The name as the reports hold it: valid UTF-8, the stray byte replaced by U+FFFD.
odd = os.fsencode(sys.argv[2]).decode("utf-8", errors="replace")

def expect(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)

# JUnit: the statistical run.
root = ET.parse(os.path.join(tmp, "out", "junit.xml")).getroot()
expect(root.tag == "testsuites", "root element " + root.tag)
expect((root.get("tests"), root.get("failures"), root.get("errors")) == ("4", "3", "0"),
       "testsuites counts " + str(root.attrib))
float(root.get("time"))
suites = root.findall("testsuite")
expect(len(suites) == 1 and suites[0].get("name") == odd, "one testsuite named by the file")
s = suites[0]
expect((s.get("tests"), s.get("failures"), s.get("skipped")) == ("4", "3", "0"), "testsuite counts")
float(s.get("time"))
props = {p.get("name"): p.get("value") for p in s.find("properties")}
expect(props["game"] == "bosconian" and props["mode"] == "statistical", "properties " + str(props))
expect("hull=95" in props["scenario"], "the scenario as played")
cases = s.findall("testcase")
expect([c.get("name") for c in cases] == ["win", "damage", "sectors_entered", "bases_destroyed"],
       "one testcase per metric")
expect(all(c.get("classname") == odd for c in cases), "classname is the file")
expect(cases[0].find("failure") is None, "win, within its tolerance, passes")
expect(cases[0].find("system-out").text.startswith("tolerated: win"), "win says tolerated")
for c in cases[1:]:
    f = c.find("failure")
    expect(f is not None and f.get("type") == "moved", c.get("name") + " fails")
    m = f.get("message")
    expect(m.startswith(c.get("name") + " moved: shift -") and ", alarm above " in m, m)

# JSON: the statistical run.
doc = json.load(open(os.path.join(tmp, "out", "json", "check.json"), encoding="utf-8"))
expect(doc["verdict"] == "moved" and doc["exit_code"] == 1, "overall verdict")
expect(isinstance(doc["odds_version"], str), "odds_version")
(b,) = doc["baselines"]
expect(b["file"] == odd and b["game"] == "bosconian", "file and game")
expect(b["rules_version"] == {"baseline": "bosconian/2", "build": "bosconian/2"}, "rules versions")
expect(b["mode"] == "statistical" and isinstance(b["reason"], str), "mode")
expect(b["seed"] == {"baseline": 1, "check": 1}, "seeds")
expect(b["playouts"] == {"baseline": 1000000, "check": 1000000}, "playouts")
expect(abs(b["false_alarm_rate"] - 0.001 / 4) < 1e-15, "false-alarm rate per metric")
expect(b["verdict"] == "moved", "baseline verdict")
ms = {m["name"]: m for m in b["metrics"]}
expect(list(ms) == ["win", "damage", "sectors_entered", "bases_destroyed"], "metrics " + str(list(ms)))
win = ms["win"]
expect(win["verdict"] == "tolerated" and win["tolerance"] == 0.005, "win tolerated")
expect(abs(win["shift"] - (win["new"]["mean"] - win["old"]["mean"])) < 1e-12, "shift = new - old")
expect(abs(win["shift"] + 0.005001) < 1e-9, "win's shift")
expect(win["old"]["ci_low"] < win["old"]["mean"] < win["old"]["ci_high"], "old interval")
expect(win["new"]["ci_low"] < win["new"]["mean"] < win["new"]["ci_high"], "new interval")
expect(abs(win["alarm_above"] - (win["tolerance"] + win["threshold"])) < 1e-12, "alarm_above")
expect(win["threshold"] < win["detectable"] - win["tolerance"], "detectable beyond the threshold")
for name in ("damage", "sectors_entered", "bases_destroyed"):
    m = ms[name]
    expect(m["verdict"] == "moved" and m["tolerance"] is None, name + " moved, no tolerance")
    expect(abs(m["shift"]) > m["alarm_above"] == m["threshold"], name + " beyond its threshold")
    expect(m["counts_match"] is None, name + " counts_match is for exact mode")

# Two baselines, exact mode, unchanged: two suites, no failure; JSON verdict unchanged.
root = ET.parse(os.path.join(tmp, "two.xml")).getroot()
expect([s.get("name") for s in root.findall("testsuite")] == [tmp + "/duel.baseline", odd],
       "a testsuite per baseline file, in order")
expect(root.get("failures") == "0" and root.find(".//failure") is None, "no failure")
expect(int(root.get("tests")) == sum(len(s.findall("testcase")) for s in root.findall("testsuite")),
       "tests counts every testcase")
doc = json.load(open(os.path.join(tmp, "two.json"), encoding="utf-8"))
expect(doc["verdict"] == "unchanged" and doc["exit_code"] == 0, "overall unchanged")
expect([b["game"] for b in doc["baselines"]] == ["dimension-duel", "bosconian"], "games")
for b in doc["baselines"]:
    expect(b["mode"] == "exact" and b["reason"] is None and b["false_alarm_rate"] is None, "exact mode")
    for m in b["metrics"]:
        expect(m["verdict"] == "unchanged" and m["counts_match"] is True, m["name"] + " unchanged")
        expect(m["threshold"] is None and m["detectable"] is None and m["shift"] == 0, m["name"])
        expect(m["old"] == m["new"], m["name"] + " old = new")
expect([m["tolerance"] for m in doc["baselines"][1]["metrics"]] == [0.005, None, None, None],
       "the tolerance applies where the metric is")
EOF
echo "ok: the JUnit and JSON reports read back"
