#!/usr/bin/env python3
"""Every kind of HTML report, rendered in a real browser (headless Chromium).

usage: report_browser.py ODDS OUT_DIR [CHROMIUM]

Makes a report of each kind with ODDS (run with the exact law beside it, exact, compare, variants,
tournament, sweep, check, tune, skill, restrict, shape), loads each page in headless Chromium, and
fails unless
  - the browser logs no console message (the pages hold no script: any message is an error);
  - the DOM Chromium dumps after rendering has the charts the folder's CSV files call for (one
    <svg class="chart"> per metric, comparison, pairing table, ...), each with its title, axes
    text and hover titles, and a collapsed table under each;
  - every chart's title asks the question it answers (it holds a '?');
  - the run's charts draw the exact law beside the Monte Carlo; a metric's heading has its
    description from metrics.csv; a survival chart names its event from survival.csv, and a log
    scale is said in the title; every axis of a count says its unit (metrics.csv), the survival
    chart its step's;
  - every chart is well-formed XML on its own;
  - the screenshot (OUT_DIR/KIND.png) is made and not blank.
The console check is first shown to fail on a page that logs an error.
"""
import csv
import html
import html.parser
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

ODDS, OUT = sys.argv[1], sys.argv[2]
SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHROMIUM = sys.argv[3] if len(sys.argv) > 3 else (shutil.which("chromium") or "")
if not CHROMIUM:
    sys.exit("report_browser: no chromium; `scripts/setup --all` installs Debian's chromium package")

failures = []


def fail(msg):
    print("FAIL: " + msg)
    failures.append(msg)


def chromium(page, *extra):
    """Chromium's stdout and its console lines for `page`."""
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--enable-logging=stderr", "--v=0", "--user-data-dir=" + os.path.join(OUT, "profile"),
           *extra, "file://" + os.path.abspath(page)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    console = [l for l in r.stderr.splitlines() if ":CONSOLE" in l]
    return r.stdout, console


class Dom(html.parser.HTMLParser):
    """Counts what a report's DOM holds."""

    def __init__(self):
        super().__init__()
        self.charts = 0
        self.chart_titles = []
        self.details = 0
        self.hover = 0
        self.text = 0
        self.scripts = 0
        self.stack = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.stack.append(tag)
        if tag == "svg" and "chart" in (a.get("class") or "").split():
            self.charts += 1
            self.chart_titles.append("")
        if tag == "details":
            self.details += 1
        if tag == "text":
            self.text += 1
        if tag == "script":
            self.scripts += 1

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() != tag:
            pass

    def handle_data(self, data):
        if self.stack and self.stack[-1] == "title" and "svg" in self.stack:
            self.hover += 1
            if self.chart_titles and not self.chart_titles[-1]:
                self.chart_titles[-1] = data


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def distinct(rs, column):
    out = []
    for r in rs:
        if r[column] not in out:
            out.append(r[column])
    return out


def odds(*args):
    r = subprocess.run([ODDS, *args, "--no-progress"] if args[0] != "exact" else [ODDS, *args],
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        sys.exit("report_browser: odds %s failed (%d): %s" % (" ".join(args), r.returncode, r.stderr))


def expected_charts(kind, d):
    j = lambda name: os.path.join(d, name)
    if kind in ("run", "exact"):
        n = len(distinct(rows(j("distributions.csv")), "metric"))
        if os.path.exists(j("survival.csv")):
            s = rows(j("survival.csv"))
            n += len(distinct(s, "subject")) if s and "subject" in s[0] else 1
        return n
    if kind == "compare":
        pol = rows(j("policies.csv"))
        return len(distinct(rows(j("compare.csv")), "metric")) + len(distinct(pol, "metric"))
    if kind == "variants":  # a forest plot a metric (the first variant's rows have no difference)
        return len(distinct([r for r in rows(j("variants.csv")) if r["diff"]], "metric"))
    if kind == "tournament":
        return 2
    if kind == "sweep":
        s = rows(j("sweep.csv"))
        head = list(s[0].keys())
        varied = head[head.index("playouts") + 1:head.index("metric")]
        return len(distinct(s, "metric")) * len(varied)
    if kind == "check":
        return len(rows(j("check.csv")))
    if kind == "tune":
        return 1
    if kind == "skill":
        return 2
    if kind == "restrict":
        return 1
    if kind == "shape":
        return 1  # the fan
    raise ValueError(kind)


os.makedirs(OUT, exist_ok=True)

# The console check can fail: a page that logs an error is caught.
bad = os.path.join(OUT, "console-error.html")
with open(bad, "w") as f:
    f.write('<!DOCTYPE html><p>x</p><script>console.error("seen")</script>')
if not chromium(bad, "--dump-dom")[1]:
    fail("a console error on a test page went unseen: the console check cannot fail")

base = lambda k: os.path.join(OUT, k)
KINDS = ("run", "exact", "compare", "variants", "tournament", "sweep", "check", "tune", "skill",
         "restrict", "shape")
for k in KINDS:
    shutil.rmtree(base(k), ignore_errors=True)
odds("run", "bosconian", "-n", "20k", "--out", base("run"), "--report")
odds("exact", "dimension-duel", "--set", "hp=30", "--out", base("exact"), "--report")
odds("compare", "fpb", "--policy", "lead-from-front", "--policy", "bug-out", "--policy", "random",
     "-n", "1000", "--out", base("compare"), "--report")
odds("compare", "bosconian", "--variant", "book", "--variant", "cosmo_mine.damage=3d6", "-n", "5000",
     "--out", base("variants"), "--report")
odds("tournament", "dimension-duel", "--policy", "dice", "--policy", "aggressor", "--policy",
     "survivor", "-n", "500", "--out", base("tournament"), "--report")
odds("sweep", "bosconian", "--vary", "hull=60:160:20", "--vary", "start_encounter=false,true", "-n",
     "5000", "--out", base("sweep"), "--report")
odds("check", os.path.join(SOURCE, "engine/bosconian/bosconian.baseline"),
     os.path.join(SOURCE, "engine/dimension_duel/dimension-duel.baseline"), "-n", "4000",
     "--out", base("check"), "--report")
odds("tune", "dimension-duel", "--vary", "hp=10..40", "--target", "advantage_first=0.5", "-n",
     "2000", "--out", base("tune"), "--report")
odds("skill", "dimension-duel", "--policy", "dice", "--policy", "aggressor", "--policy",
     "survivor", "--budgets", "none", "-n", "300", "--out", base("skill"), "--report")
odds("restrict", "dimension-duel", "--play", "aggressor,survivor", "-n", "300", "--out",
     base("restrict"), "--report")
odds("shape", "bosconian", "-n", "300", "--out", base("shape"), "--report")

for kind in KINDS:
    d = base(kind)
    page = os.path.join(d, "report.html")
    want = expected_charts(kind, d)
    shot = os.path.join(OUT, kind + ".png")
    if os.path.exists(shot):
        os.remove(shot)
    # One load: the DOM after rendering, and the screenshot.
    dom_text, console = chromium(page, "--dump-dom", "--window-size=1000,1400",
                                 "--screenshot=" + shot)
    for line in console:
        fail("%s: console: %s" % (kind, line))
    dom = Dom()
    dom.feed(dom_text)
    print("%s: %d charts rendered (%d expected), %d tables, %d hover titles, %d bytes"
          % (kind, dom.charts, want, dom.details, dom.hover, os.path.getsize(page)))
    if dom.charts != want or want == 0:
        fail("%s: %d charts in the rendered page, %d expected" % (kind, dom.charts, want))
    if dom.details < dom.charts:
        fail("%s: %d tables for %d charts" % (kind, dom.details, dom.charts))
    if dom.hover < 2 * dom.charts or dom.text < 5 * dom.charts:
        fail("%s: charts without hover titles or text (%d titles, %d texts)"
             % (kind, dom.hover, dom.text))
    if any(not t for t in dom.chart_titles):
        fail("%s: a chart without a title" % kind)
    for t in dom.chart_titles:
        if "?" not in t:
            fail("%s: the chart '%s' does not ask its question" % (kind, t))
    if kind == "run" and "exact: P(X = x)" not in dom_text.replace("exact (lower bounds)", "exact"):
        fail("run: no exact law drawn beside the Monte Carlo")
    if kind == "run":
        for m in rows(os.path.join(d, "metrics.csv")):
            if html.escape(m["description"], quote=False) not in dom_text.replace("&apos;", "'"):
                fail("run: the description of %s is not on the page" % m["metric"])
        event = rows(os.path.join(d, "survival.csv"))[0]["event"]
        if not any(event in t for t in dom.chart_titles):
            fail("run: no survival chart names its event '%s'" % event)
        if not any("log scale" in t for t in dom.chart_titles):
            fail("run: Bosconian's damage law is on a log scale and no title says so")
    # Every axis of a count says its unit (metrics.csv): none falls back to the unit-less words.
    if os.path.exists(os.path.join(d, "metrics.csv")):
        for m in rows(os.path.join(d, "metrics.csv")):
            if m["kind"] == "count" and not m["unit"]:
                fail("%s: the count %s declares no unit" % (kind, m["metric"]))
            for bare in (m["metric"] + ", mean per playout", m["metric"] + " (value per playout)"):
                if bare in dom_text:
                    fail("%s: the axis '%s' does not say its unit" % (kind, bare))
    if kind == "run":
        unit = {m["metric"]: m["unit"] for m in rows(os.path.join(d, "metrics.csv"))}
        step = rows(os.path.join(d, "survival.csv"))[0]["step_metric"]
        if not any("(in %s)" % unit[step] in t for t in dom.chart_titles):
            fail("run: the survival chart does not say its step in %s" % unit[step])
    if dom.scripts:
        fail("%s: the page holds a script" % kind)
    # Each chart, as written, is well-formed XML (the escaping holds).
    src = open(page, encoding="utf-8").read()
    at = src.find("<svg")
    while at != -1:
        end = src.find("</svg>", at) + len("</svg>")
        try:
            ET.fromstring(src[at:end])
        except ET.ParseError as e:
            fail("%s: a chart is not well-formed XML: %s" % (kind, e))
        at = src.find("<svg", end)
    if os.path.getsize(page) > 1_000_000:
        fail("%s: report.html is over 1 MB" % kind)
    if not os.path.exists(shot) or os.path.getsize(shot) < 20_000:
        fail("%s: no screenshot, or a blank one" % kind)

if failures:
    sys.exit("report_browser: %d failures" % len(failures))
print("report_browser: every report rendered as expected; screenshots in " + OUT)
