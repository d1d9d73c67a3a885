#!/usr/bin/env bash
# Issue 30's hostile inputs and outputs, on a real process: input files that are devices, FIFOs,
# too large or with a line too long are refused (one line, exit 2); outputs that are a device or
# a FIFO are written in place, never replaced; a second command on a folder another is writing is
# refused; standard output on a full device exits 1; threads past the cap are refused; a sweep of
# 10,000 combinations holds one combination's tallies at a time.
set -u
odds=$1
dir=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# refused EXPECTED_TEXT CMD...: exit 2, one line on stderr holding EXPECTED_TEXT, within 10 s.
refused() {
  local want=$1
  shift
  timeout 10 "$@" >"$dir/out" 2>"$dir/err"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "'$*': exit $rc, expected 2: $(head -c 300 "$dir/err")"
  [ "$(wc -l <"$dir/err")" -eq 1 ] || fail "'$*': not one line: $(head -c 300 "$dir/err")"
  grep -qF -- "$want" "$dir/err" || fail "'$*': '$want' not in: $(cat "$dir/err")"
}

# Input files: devices, FIFOs, too large, a line too long.
mkfifo "$dir/fifo"
refused "is not a regular file" "$odds" run fpb --state /dev/zero -n 1
refused "is not a regular file" "$odds" run naval --state "$dir/fifo" -n 1
refused "is not a regular file" "$odds" run msc --set map=/dev/zero -n 1
refused "is not a regular file" "$odds" check /dev/zero
refused "is neither a folder of shards nor a shard file" "$odds" merge /dev/zero --out "$dir/merged"
[ -e "$dir/merged" ] && fail "merge of /dev/zero left a folder"
truncate -s 600M "$dir/shard-1-of-1.odds"
refused "odds reads at most 512.0 MiB" "$odds" merge "$dir/shard-1-of-1.odds" --out "$dir/merged"
rm "$dir/shard-1-of-1.odds"
truncate -s 20M "$dir/big.txt"
refused "odds reads at most 16.0 MiB" "$odds" run naval --state "$dir/big.txt" -n 1
refused "odds reads at most 16.0 MiB" "$odds" check "$dir/big.txt"
head -c 2000000 /dev/zero | tr '\0' 'x' >"$dir/long.txt"
refused "line 1 is 1.9 MiB long" "$odds" run naval --state "$dir/long.txt" -n 1
echo "ok: device, FIFO, oversized and long-line inputs refused"

# Outputs that are a FIFO (and, where this user may make one, a character device) are written in
# place: still a FIFO / device afterwards, and what was written came through.
cat "$dir/fifo" >"$dir/through-fifo" &
pids+=($!)
"$odds" baseline bosconian -n 2000 --no-progress --out "$dir/fifo" >/dev/null 2>"$dir/err" ||
  fail "baseline --out FIFO: $(cat "$dir/err")"
wait "${pids[-1]}"
[ -p "$dir/fifo" ] || fail "baseline --out FIFO replaced the FIFO"
grep -q "^rules_version" "$dir/through-fifo" || fail "the baseline did not come through the FIFO"
"$odds" baseline bosconian -n 2000 --no-progress --out "$dir/b.baseline" >/dev/null 2>&1 ||
  fail "baseline to a file"
if mknod "$dir/null" c 1 3 2>/dev/null; then
  "$odds" baseline bosconian -n 2000 --no-progress --out "$dir/null" >/dev/null 2>"$dir/err" ||
    fail "baseline --out a null device: $(cat "$dir/err")"
  "$odds" check "$dir/b.baseline" --no-progress --junit "$dir/null" --json "$dir/null2" \
    >/dev/null 2>"$dir/err" || fail "check --junit a null device: $(cat "$dir/err")"
  [ -c "$dir/null" ] || fail "a character device was replaced by a regular file"
  echo "ok: a character device written in place"
fi
echo "ok: a FIFO written in place"

# Two writers on one --out: the second is refused while the first runs; the first is unharmed.
"$odds" run bosconian -n 1e11 --threads 1 --out "$dir/busy" >/dev/null 2>&1 &
first=$!
pids+=($first)
for _ in $(seq 1 300); do [ -d "$dir/busy" ] && break; sleep 0.1; done
sleep 0.5
refused "is being written by another odds command" "$odds" run bosconian -n 100 --seed 12 \
  --no-progress --out "$dir/busy"
kill -INT "$first"
wait "$first"
grep -q ',partial,' "$dir/busy/summary.csv" || fail "the first writer's files are not its own"
"$odds" run bosconian -n 100 --no-progress --out "$dir/busy" >/dev/null 2>&1 ||
  fail "the folder stayed locked after its writer ended"
echo "ok: a second writer on one --out refused"

# Standard output on a full device: exit 1 and one line, not 0 with the table lost.
"$odds" list >/dev/full 2>"$dir/err"
rc=$?
[ "$rc" -eq 1 ] || fail "odds list >/dev/full: exit $rc, expected 1"
grep -q "cannot write to standard output" "$dir/err" || fail "no line on a lost stdout"
"$odds" run bosconian -n 100 --no-progress >/dev/full 2>"$dir/err"
[ $? -eq 1 ] || fail "odds run >/dev/full did not exit 1"
# --json /dev/stdout on a full disk: one line says so, not two (issue 40).
"$odds" check "$dir/b.baseline" -n 1000 --json /dev/stdout --no-progress \
  >/dev/full 2>"$dir/err"
[ $? -eq 1 ] || fail "check --json /dev/stdout >/dev/full did not exit 1"
[ "$(grep -c -e 'cannot write' -e 'error' "$dir/err")" -eq 1 ] ||
  fail "check --json /dev/stdout >/dev/full: not one error line: $(cat "$dir/err")"
echo "ok: a lost standard output exits 1, one line saying so"

# Threads past the cap; the sweep of 10,000 combinations at most a few hundred MB (it took about
# 2 MB a combination and aborted at 8 GB).
refused "give a whole number from 1 to 256" "$odds" run dimension-duel -n 1e6 -j 1024
(
  ulimit -v 1500000
  "$odds" sweep dimension-duel --vary hp=1:1000:1 --vary max_turns=999991:1000000:1 -n 1 -j 2 \
    --no-progress --out "$dir/sweep" >/dev/null 2>"$dir/err"
) || fail "the 10,000-combination sweep failed in 1.5 GB: $(head -c 300 "$dir/err")"
[ "$(wc -l <"$dir/sweep/sweep.csv")" -gt 10000 ] || fail "the sweep wrote too few rows"
# Peak resident memory (GNU time; scripts/setup --all installs it): threads reserve address space
# they never touch, so a limit on address space cannot measure this one.
/usr/bin/time -f %M -o "$dir/rss" "$odds" run dimension-duel -n 2e5 -j 256 --no-progress \
  >/dev/null 2>"$dir/err" || fail "256 threads: $(head -c 300 "$dir/err")"
[ "$(cat "$dir/rss")" -lt 400000 ] || fail "256 threads took $(cat "$dir/rss") KiB, over 400 MB"
echo "ok: threads capped; a 10,000-combination sweep and 256 threads within their memory"
