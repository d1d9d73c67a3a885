#!/usr/bin/env bash
# Ctrl-C on a long run: exit code 130, and the files written, complete and marked partial.
set -u
odds=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$odds" run bosconian --playouts 1e11 --threads 2 --out "$dir/out" >"$dir/stdout" 2>"$dir/stderr" &
pid=$!
# Wait until the run is under way (its output directory exists: every input was checked and
# the handlers are about to be installed), then let it play a little.
for _ in $(seq 1 300); do [ -d "$dir/out" ] && break; sleep 0.1; done
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
fail() { echo "FAIL: $*"; cat "$dir/stderr"; exit 1; }
[ "$rc" -eq 130 ] || fail "exit code $rc, expected 130"
grep -q 'interrupted after' "$dir/stderr" || fail "no interruption message on stderr"
for f in summary.csv distributions.csv survival.csv; do
  [ -s "$dir/out/$f" ] || fail "$f missing"
done
grep -q ',partial,' "$dir/out/summary.csv" || fail "summary.csv not marked partial"
if grep -q ',complete,' "$dir/out/summary.csv"; then fail "summary.csv marked complete"; fi
# The playouts column holds a whole number of chunks (256 playouts each).
playouts=$(sed -n 2p "$dir/out/summary.csv" | cut -d, -f5)  # the default scenario holds no comma
[ $((playouts % 256)) -eq 0 ] && [ "$playouts" -gt 0 ] || fail "playouts $playouts is not a whole number of chunks"
ls -a "$dir/out" | grep -q tmp && fail "temporary file left behind"
echo "ok: interrupted after $playouts playouts, exit 130, files marked partial"

# The same for a comparison, on the same runner: every file marked partial, a whole number of
# its chunks (256 playouts: fpb's own) played by every policy.
"$odds" compare fpb --policy bug-out --policy random --playouts 1e11 --threads 2 \
  --out "$dir/cmp" --report >"$dir/stdout" 2>"$dir/stderr" &
pid=$!
for _ in $(seq 1 300); do [ -d "$dir/cmp" ] && break; sleep 0.1; done
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "compare: exit code $rc, expected 130"
grep -q 'interrupted after' "$dir/stderr" || fail "compare: no interruption message on stderr"
for f in compare.csv policies.csv bug-out/summary.csv random/summary.csv; do
  [ -s "$dir/cmp/$f" ] || fail "compare: $f missing"
  grep -q ',complete' "$dir/cmp/$f" && fail "compare: $f marked complete"
  grep -q ',partial' "$dir/cmp/$f" || fail "compare: $f not marked partial"
done
playouts=$(sed -n 2p "$dir/cmp/compare.csv" | cut -d, -f4)
[ $((playouts % 256)) -eq 0 ] && [ "$playouts" -gt 0 ] ||
  fail "compare: playouts $playouts is not a whole number of chunks"
# Its report (--report) is written too, and says the figures are partial.
grep -q 'Interrupted: these figures are partial' "$dir/cmp/report.html" ||
  fail "compare: report.html missing or not marked partial"
echo "ok: compare interrupted after $playouts playouts each, exit 130, files and report marked partial"
