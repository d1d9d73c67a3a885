#!/bin/sh
# scripts/update-readme --check fails on a stale transcript, a stale figure and a slow command
# whose reduced run changed, and passes once scripts/update-readme has rewritten the page.
#   tests/docs_transcripts_selftest.sh SOURCE_DIR ODDS
set -eu
src=$1
odds=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
script="$src/scripts/update-readme"
fail() { echo "docs_transcripts_selftest: $*" >&2; exit 1; }

cat > "$dir/README.md" <<'PAGE'
# A page

<!-- figures: build/odds exact bosconian --set hull=60
win60 = pct(num(r"P\(win\) lies in \[([\d.]+),"), 3)
-->
A mission with hull 60 is won 99.999%<!--=win60--> of the time.

<!-- figures: for hp in 10 20; do build/odds exact dimension-duel --set hp=$hp; done
gain = fix(means("tau_win")[0] - means("tau_win")[1], 4)
gain_pct = pct(fig("gain"), 2)
-->
Tau's edge at hp 10 over hp 20: 9.9999<!--=gain--> (9.99%<!--=gain_pct-->).

```
$ build/odds exact dimension-duel --set hp=10
stale output
...
```

<!-- slow: "-n 2000" -> "-n 200", fingerprint 0000000000000000 -->
```
$ build/odds run bosconian -n 2000
stale output
...
```
PAGE

# stale: the check fails, names the figure and shows the transcript's diff, changes nothing
cp "$dir/README.md" "$dir/before.md"
if python3 "$script" --check --root "$dir" --odds "$odds" > "$dir/diff" 2> "$dir/err"; then
  fail "--check passed a stale page"
fi
grep -q '^-A mission with hull 60 is won 99.999%<!--=win60-->' "$dir/diff" || fail "no figure diff"
grep -q '^+dimension-duel | hp=10' "$dir/diff" || fail "no transcript diff"
grep -q '^+<!-- slow: "-n 2000" -> "-n 200", fingerprint [0-9a-f]\{16\} -->' "$dir/diff" \
  || fail "no fingerprint diff"
grep -q 'stale (the diff above): README.md' "$dir/err" || fail "no summary line"
cmp -s "$dir/README.md" "$dir/before.md" || fail "--check changed the page"

# rewritten: the check passes
python3 "$script" --root "$dir" --odds "$odds" 2> "$dir/err" || fail "update failed: $(cat "$dir/err")"
grep -q 'won [0-9.]*%<!--=win60--> of the time' "$dir/README.md" || fail "figure not rewritten"
grep -q "edge at hp 10 over hp 20: 0\.[0-9]*<!--=gain--> ([0-9.]*%<!--=gain_pct-->)" "$dir/README.md" \
  || fail "a shell line's figures (means, fig) not rewritten"
python3 "$script" --check --root "$dir" --odds "$odds" > "$dir/diff" 2> "$dir/err" \
  || fail "--check fails after the rewrite: $(cat "$dir/diff" "$dir/err")"

# a figure whose command no longer prints it is an error, not a silent "?"
sed -i 's/P\\(win\\) lies in/no such line/' "$dir/README.md"
if python3 "$script" --check --root "$dir" --odds "$odds" > /dev/null 2> "$dir/err"; then
  fail "--check passed a figure its command does not print"
fi
grep -q 'figure win60' "$dir/err" || fail "the broken figure is not named"
echo "docs_transcripts_selftest: ok"
