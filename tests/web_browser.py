#!/usr/bin/env python3
"""The web page (sim/web/, docs/web.md) in Debian's headless Chromium, against the CLI.

usage: web_browser.py ODDS PAGE_DIR OUT_DIR [--speed FILE]

Serves PAGE_DIR (scripts/web's build) over loopback, drives Chromium through ChromeDriver (the
WebDriver protocol, plain HTTP), and fails unless
  - the page's exact odds are the CLI's, byte for byte: Bosconian-D at the seed's mission and at a
    mid-mission position, Dimension Duel from a position;
  - one run of each game, on 2 workers, prints the CLI's table for the same seed and rules, and
    its summary.csv is the CLI's (the page's shards merged as odds merge merges them);
  - compare of two policies, and of two variants on the same dice, prints the CLI's table;
  - a bad option value shows the CLI's one-line error;
  - the stop button stops a long run within a second, and keeps the shards played (partial);
  - the URL round-trips the settings (a link's settings come back from the form);
  - the page asks for nothing but its own files, and the browser logs no error.
With --speed FILE it also writes the speed table of docs/performance.md's web section into FILE:
each game's playouts per second on one worker against the native kernel (odds run -j 1), the same
on two workers, and the seed's Bosconian-D exact solve against native.
"""
import base64
import gzip
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.error
import urllib.request

ODDS, PAGE, OUT = (os.path.abspath(a) for a in sys.argv[1:4])
SPEED = sys.argv[sys.argv.index("--speed") + 1] if "--speed" in sys.argv else None
# Debian's /usr/bin/chromium is a shell script; ChromeDriver starts the browser itself.
CHROMIUM = next((p for p in ["/usr/lib/chromium/chromium"] if os.path.exists(p)),
                shutil.which("chromium"))
DRIVER = shutil.which("chromedriver")
if not CHROMIUM or not DRIVER:
    sys.exit("web_browser: no chromium or chromedriver; `scripts/setup --all` installs them")
if not os.path.exists(os.path.join(PAGE, "odds.wasm")):
    sys.exit("web_browser: no page in %s; scripts/web builds it (scripts/test runs it first)" % PAGE)
os.makedirs(OUT, exist_ok=True)
shutil.rmtree(os.path.join(OUT, "profile"), ignore_errors=True)  # a fresh browser each time
failures = []


def fail(msg):
    print("FAIL: " + msg, flush=True)
    failures.append(msg)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- the page, served over loopback; every request it makes is logged ----
requested = []


class Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript"}

    def __init__(self, *a, **k):
        super().__init__(*a, directory=PAGE, **k)

    def log_message(self, *a):
        requested.append(self.path)

    def end_headers(self):  # nothing from the browser's HTTP cache: offline is the page's own
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Quiet)
threading.Thread(target=server.serve_forever, daemon=True).start()
BASE = "http://127.0.0.1:%d/" % server.server_address[1]

# ---- Chromium through ChromeDriver ----
DPORT = free_port()
driver = subprocess.Popen([DRIVER, "--port=%d" % DPORT, "--log-path=" + os.path.join(OUT, "chromedriver.log")], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)


def wd(method, path, body=None):
    req = urllib.request.Request("http://127.0.0.1:%d%s" % (DPORT, path), method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=600) as r:
            return json.loads(r.read())["value"]
    except urllib.error.HTTPError as e:  # WebDriver says why in its body
        raise RuntimeError("%s %s: %s" % (method, path, e.read().decode()[:2000])) from None


for _ in range(100):
    try:
        wd("GET", "/status")
        break
    except OSError:
        time.sleep(0.1)
session = wd("POST", "/session", {"capabilities": {"alwaysMatch": {
    "browserName": "chrome", "goog:loggingPrefs": {"browser": "ALL"},
    "goog:chromeOptions": {"binary": CHROMIUM, "args": [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1100,2600",
        "--user-data-dir=" + os.path.join(OUT, "profile")]}}}})["sessionId"]
S = "/session/" + session


def js(script, *args):
    return wd("POST", S + "/execute/sync", {"script": script, "args": list(args)})


def wait_for(script, seconds=600, *args):
    end = time.time() + seconds
    while time.time() < end:
        v = js(script, *args)
        if v:
            return v
        time.sleep(0.05)
    raise TimeoutError(script)


def open_page(params):
    """Opens the page with `params` (a list of pairs) in its fragment; waits for it to be ready."""
    wd("POST", S + "/url", {"url": "about:blank"})  # a new fragment alone would not reload it
    wd("POST", S + "/url", {"url": BASE + "index.html#" + urllib.parse.urlencode(params)})
    wait_for("return document.body.dataset.ready === 'true' || "
             "!document.getElementById('error').hidden", 60)


def play(params):
    """Plays the page's settings `params`; returns (table, error, files, status)."""
    open_page(params)
    js("document.getElementById('play').click()")
    wait_for("return document.getElementById('play').disabled === false && "
             "document.getElementById('stop').disabled === true")
    return js("""
        const files = {};
        for (const a of document.querySelectorAll('#downloads a')) files[a.download] = a.href;
        return [document.getElementById('table').textContent,
                document.getElementById('error').hidden ? '' : document.getElementById('error').textContent,
                files, document.getElementById('status').textContent];""")


def page_file(name):
    """The text of the file `name` the page offers."""
    return js("return (window.oddsFiles || {})[arguments[0]] || ''", name)


def cli(*args, cwd=None):
    r = subprocess.run([ODDS, *args, "--no-progress"] if args[0] != "exact" else [ODDS, *args],
                       capture_output=True, text=True, cwd=cwd)
    return r


def untimed(text):
    """A table without its timing line (odds exact's "solved in 308.4 ms")."""
    return "\n".join(l for l in text.rstrip("\n").split("\n") if not l.startswith("solved in "))


def check_same(what, page_text, cli_text):
    if untimed(page_text) != untimed(cli_text):
        fail("%s: the page's table differs from the CLI's\n--- page\n%s\n--- cli\n%s"
             % (what, page_text, cli_text))
    else:
        print("ok: " + what, flush=True)


# ---- exact odds ----
def opening(game):
    return subprocess.run([ODDS, "state", game], capture_output=True, text=True, check=True).stdout


DUEL = opening("dimension-duel")
with open(os.path.join(OUT, "position.txt"), "w") as f:  # the page's name for it
    f.write(DUEL)
# Bosconian-D has no position file: mid-mission is its options (the map rolled, where the ship is).
MID = [("layout", "4,9,17,22,30"), ("start_sector", "14"), ("start_damage", "38"),
       ("start_alert", "2")]

for what, params, args in [
        ("exact bosconian, the seed's mission", [("game", "bosconian"), ("cmd", "exact")],
         ["exact", "bosconian"]),
        ("exact bosconian, mid-mission",
         [("game", "bosconian"), ("cmd", "exact")] + [("set", k + "=" + v) for k, v in MID],
         ["exact", "bosconian"] + [a for k, v in MID for a in ("--set", k + "=" + v)]),
        ("exact dimension_duel from a position",
         [("game", "dimension-duel"), ("cmd", "exact"), ("state", DUEL)],
         ["exact", "dimension-duel", "--state", "position.txt"])]:
    table, error, _, _ = play(params)
    r = cli(*args, cwd=OUT)
    if error or r.returncode != 0:
        fail("%s: page error %r, cli %d %s" % (what, error, r.returncode, r.stderr))
    check_same(what, table, r.stdout)

# ---- one run of each game, on two workers ----
# The page's games: every game of odds but its scripts (LuaJIT has no WebAssembly build).
listed = json.loads(subprocess.run([ODDS, "list", "--json"], capture_output=True, text=True,
                                   check=True).stdout)["games"]
open_page([])
on_page = js("return [...document.querySelectorAll('#game option')].map(o => o.value)")
games = [g for g in listed if g["name"] in on_page]
if len(games) != len(on_page) or len(games) < 5:
    fail("the page offers %r, odds %r" % (on_page, [g["name"] for g in listed]))
for g in games:
    n = "2000" if g["name"] in ("bosconian", "fpb", "dimension-duel") else "300"
    table, error, files, status = play([("game", g["name"]), ("playouts", n), ("seed", "11"),
                                        ("workers", "2")])
    out = os.path.join(OUT, "cli-" + g["name"])
    r = cli("run", g["name"], "-n", n, "--seed", "11", "--out", out)
    if error:
        fail("run %s: %s" % (g["name"], error))
    check_same("run " + g["name"] + " (" + status + ")", table, r.stdout)
    summary = page_file("summary.csv")
    with open(os.path.join(out, "summary.csv")) as f:
        if summary != f.read():
            fail("run %s: summary.csv differs from the CLI's" % g["name"])

# ---- a variant file, and the report's charts ----
variant = subprocess.run([ODDS, "rules", "bosconian", "--set", "hull=120", "--set",
                          "base_cannons=4"], capture_output=True, text=True, check=True).stdout
with open(os.path.join(OUT, "variant.toml"), "w") as f:
    f.write(variant)
table, error, _, _ = play([("game", "bosconian"), ("playouts", "3000"), ("seed", "2"),
                           ("rules", variant), ("rules-name", "variant.toml")])
r = cli("run", "bosconian", "-n", "3000", "--seed", "2", "--rules", "variant.toml", cwd=OUT)
if error or "hull=120" not in table:
    fail("variant file: %r %r" % (error, table[:200]))
check_same("a variant file (hull=120, base_cannons=4)", table, r.stdout)
with open(os.path.join(OUT, "run.png"), "wb") as f:  # the page with its answer, to look at
    f.write(base64.b64decode(wd("GET", S + "/screenshot")))
charts = js("return (document.getElementById('report').srcdoc.match(/<svg [^>]*class=\"chart\"/g) || [])"
            ".length")
if charts < 3:
    fail("the report shows %d charts" % charts)
else:
    print("ok: the report's %d charts" % charts, flush=True)

# ---- compare ----
table, error, _, _ = play([("game", "fpb"), ("cmd", "compare"), ("playouts", "2000"),
                           ("seed", "5"), ("policy", "cover-and-carry"), ("policy", "bug-out")])
r = cli("compare", "fpb", "-n", "2000", "--seed", "5", "--policy", "cover-and-carry", "--policy",
        "bug-out")
if error or r.returncode != 0:
    fail("compare: page %r cli %s" % (error, r.stderr))
check_same("compare fpb cover-and-carry/bug-out", table, r.stdout)

# ---- compare of variants on the same dice ----
table, error, _, _ = play([("game", "bosconian"), ("cmd", "compare"), ("playouts", "3000"),
                           ("seed", "4"), ("policy", "rules"), ("variant", "book"),
                           ("variant", "hull=120,base_cannons=5")])
r = cli("compare", "bosconian", "-n", "3000", "--seed", "4", "--policy", "rules", "--variant",
        "book", "--variant", "hull=120,base_cannons=5")
if error or r.returncode != 0:
    fail("compare variants: page %r cli %s" % (error, r.stderr))
check_same("compare bosconian's book and a variant", table, r.stdout)

# ---- a bad option value: its one-line error ----
_, error, _, _ = play([("game", "bosconian"), ("set", "hull=0"), ("playouts", "100")])
r = cli("run", "bosconian", "--set", "hull=0", "-n", "100")
if error.strip() != r.stderr.strip() or r.returncode != 2:
    fail("bad value: page %r, cli %r" % (error, r.stderr))
else:
    print("ok: a bad value's one line: " + error, flush=True)

# ---- stop within a second, the shards played kept ----
# From a position: the merge after the stop reads it again, in a fresh worker.
open_page([("game", "naval"), ("playouts", "200000"), ("seed", "3"), ("workers", "2"),
           ("state", opening("naval"))])
js("document.getElementById('play').click()")
wait_for("return /[1-9]\\d* of/.test(document.getElementById('status').textContent)", 120)
t0 = time.time()
js("document.getElementById('stop').click()")
# Stopped: the workers ended (the page then merges what they played, which is not the stop's).
wait_for("return /merging|stopped/.test(document.getElementById('status').textContent)", 30)
stopped_in = time.time() - t0
wait_for("return document.getElementById('play').disabled === false", 60)
state = js("return document.getElementById('status').textContent")
table = js("return document.getElementById('table').textContent")
if stopped_in > 1.0:
    fail("stop took %.2f s" % stopped_in)
elif "partial" not in state or "naval" not in table.lower():
    fail("stopped, but no partial result: %r" % state)
else:
    print("ok: stopped in %.2f s: %s" % (stopped_in, state), flush=True)

# ---- the URL round-trips: a link's settings come back from the form, in their order ----
for params in ([("game", "msc"), ("cmd", "compare"), ("playouts", "777"), ("seed", "42"),
                ("workers", "3"), ("policy", "fast/rush"), ("policy", "turtle/strike"),
                ("policy", "balanced/raid"), ("variant", "book"), ("variant", "swap_homes=true"),
                ("set", "swap_homes=true")],
               [("game", "naval"), ("cmd", "run"), ("seed", "5"), ("policy", "b=boarder")],
               [("game", "dimension-duel"), ("cmd", "exact"), ("set", "hp=60"),
                ("state", DUEL)]):
    open_page(params)
    js("document.getElementById('form').dispatchEvent(new Event('change'))")
    back = urllib.parse.parse_qsl(js("return location.hash.slice(1)"))
    if back != params:
        fail("the URL did not round-trip: %r became %r" % (params, back))
    else:
        print("ok: the URL round-trips (%s %s)" % (params[0][1], params[1][1]), flush=True)

# ---- offline once loaded: the server gone, the page opens and plays from its service worker ----
def offline_check():
    open_page([("game", "fpb"), ("playouts", "500")])  # the service worker has the files now
    wait_for("return navigator.serviceWorker.controller !== null", 30)
    server.shutdown()
    server.server_close()
    table, error, _, _ = play([("game", "fpb"), ("playouts", "500"), ("seed", "9")])
    r = cli("run", "fpb", "-n", "500", "--seed", "9")
    if error:
        fail("offline: " + error)
    check_same("offline, the server gone", table, r.stdout)


# ---- speed (--speed FILE): docs/performance.md's web section ----
def timed(args):
    start = time.time()
    subprocess.run([ODDS, *args], capture_output=True, check=True)
    return time.time() - start


def page_seconds(params):
    """The page's seconds playing (Play to the last shard) and its busiest worker's inside odds."""
    _, error, _, status = play(params)
    if error:
        raise RuntimeError(error)
    playing = float(status.split("(playing ")[1].split(" s")[0])
    busiest = float(status.split("busiest worker ")[1].split(" s")[0])
    return playing, busiest


def speed_table():
    rows = ["| game | games | native, 1 thread | a worker, inside odds | a worker against native | "
            "page playing, 1 worker | page playing, 2 workers | 2 workers against 1 |",
            "|---|---|---|---|---|---|---|---|"]
    for name, n in [("bosconian", 4000000), ("dimension-duel", 1600000), ("fpb", 400000),
                    ("msc", 8000), ("naval", 4000)]:
        native = timed(["run", name, "-n", str(n), "-j", "1", "--no-progress"])
        base = [("game", name), ("playouts", str(n)), ("seed", "1")]
        one, inside = page_seconds(base + [("workers", "1")])
        two, _ = page_seconds(base + [("workers", "2")])
        rows.append("| %s | %d | %.2f s | %.2f s | %.2fx | %.2f s | %.2f s | %.2fx |"
                    % (name, n, native, inside, native / inside, one, two, one / two))
    table, _, _, _ = play([("game", "bosconian"), ("cmd", "exact")])
    page_ms = float(table.split("solved in ")[1].split(" ms")[0])
    r = subprocess.run([ODDS, "exact", "bosconian"], capture_output=True, text=True, check=True)
    native_ms = float(r.stdout.split("solved in ")[1].split(" ms")[0])
    gz = sum(len(gzip.compress(open(os.path.join(PAGE, f), "rb").read(), 9))
             for f in os.listdir(PAGE))
    return "\n".join(rows) + "\n\n" + (
        "The exact solve of the seed's Bosconian-D mission (`odds exact bosconian`): %.0f ms in "
        "the page, %.0f ms natively (%.2fx native time). The page's files: %.2f MB compressed "
        "(gzip -9), its WebAssembly %.2f MB before compression.\n"
        % (page_ms, native_ms, page_ms / native_ms, gz / 1e6,
           os.path.getsize(os.path.join(PAGE, "odds.wasm")) / 1e6))


if SPEED:
    when = time.strftime("%Y-%m-%d")
    commit = subprocess.run(["git", "-C", os.path.dirname(os.path.dirname(__file__)), "rev-parse",
                             "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    chrome = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True).stdout.strip()
    text = ("<!-- web: speed -->\nMeasured %s, odds at %s, in %s headless on this page's machine, "
            "by `tests/web_browser.py build/odds build-web/page OUT --speed docs/performance.md`; "
            "one run each, against `odds run GAME -n N -j 1` (wall time), seed 1. A worker's time "
            "inside odds is what its calls took; the page's time playing runs from the Play "
            "button to the last shard (workers started, every shard played, its file passed back; "
            "the merge and report after it not counted).\n\n%s<!-- web: end -->"
            % (when, commit, chrome, speed_table()))
    page = open(SPEED).read()
    a, b = page.index("<!-- web: speed -->"), page.index("<!-- web: end -->")
    with open(SPEED, "w") as f:
        f.write(page[:a] + text + page[b + len("<!-- web: end -->"):])
    print("web_browser: wrote the speed table into " + SPEED)

offline_check()
# ---- nothing but the page's own files; no error logged (the page's Content-Security-Policy
# refuses any other address, and a refused request is a logged error) ----
own = {"/", "/index.html", "/app.js", "/worker.js", "/style.css", "/odds.js", "/odds.wasm", "/sw.js",
       "/favicon.ico"}
for p in requested:
    path = urllib.parse.urlparse(p).path
    if path.split(" ")[0] not in own and not path.startswith("/index.html"):
        fail("the page asked for %s" % p)
logs = wd("POST", S + "/se/log", {"type": "browser"})
for entry in logs:
    if entry.get("level") == "SEVERE" and "favicon" not in entry.get("message", ""):
        fail("the browser logged: " + entry["message"])


wd("DELETE", S)
driver.terminate()
if failures:
    sys.exit("web_browser: %d failures" % len(failures))
print("web_browser: all checks passed")
