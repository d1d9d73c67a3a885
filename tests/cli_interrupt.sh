#!/usr/bin/env bash
# Ctrl-C on a long run: exit code 130, and the files written, complete and marked partial. Then
# the stops inside one playout or one exact solution (engine/stop.hpp): search, flat Monte Carlo,
# the exact solver, tune; each must end within 2 s of SIGINT (exit 130) or SIGTERM (exit 143).
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

# Starts the command in the background (its stdout and stderr into $dir), waits until the path
# $1 exists (none: "-"), then $2 seconds more, and sends signal $3; sets rc and took_ms (from the
# signal to the exit). A process still running 5 s after the signal is killed and fails the test.
signal_after() {
  local wait_for=$1 settle=$2 sig=$3
  shift 3
  "$@" >"$dir/stdout" 2>"$dir/stderr" &
  local pid=$!
  if [ "$wait_for" != - ]; then
    for _ in $(seq 1 300); do [ -e "$wait_for" ] && break; sleep 0.1; done
  fi
  sleep "$settle"
  local t0
  t0=$(date +%s%N)
  kill -"$sig" "$pid"
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"
    wait "$pid"
    fail "$*: still running 5 s after SIG$sig"
  fi
  wait "$pid"
  rc=$?
  took_ms=$((($(date +%s%N) - t0) / 1000000))
}
# The checks every stopped command passes: prompt, its exit code, one line on stderr saying so.
stopped() {
  local what=$1 code=$2 said=$3
  [ "$took_ms" -le 2000 ] || fail "$what: exited $took_ms ms after the signal (over 2 s)"
  [ "$rc" -eq "$code" ] || fail "$what: exit code $rc, expected $code"
  grep -q "$said" "$dir/stderr" || fail "$what: stderr does not say '$said'"
}

# A search in both seats (naval mcts:2000, minutes a game): stops inside the game; the game is
# not counted (its chunk of 2 is dropped), the files written and marked partial.
signal_after "$dir/mcts" 1 INT "$odds" run naval --policy a=mcts:2000 --policy b=mcts:2000 \
  -n 1000 --threads 2 --out "$dir/mcts"
stopped "run naval mcts:2000" 130 'interrupted after'
grep -q ',partial,' "$dir/mcts/summary.csv" || fail "mcts: summary.csv not marked partial"
playouts=$(sed -n 2p "$dir/mcts/summary.csv" | cut -d, -f5)
[ $((playouts % 2)) -eq 0 ] || fail "mcts: playouts $playouts is not a whole number of chunks"
echo "ok: naval mcts:2000 stopped by SIGINT in $took_ms ms, exit 130, partial ($playouts playouts)"
# Stopped inside its first chunk (mcts:2000 in both seats plays no game in a second): nothing is
# claimed (empty cells, "?" on the terminal, never a mean of 0 in [0, 0]), and `odds report`
# draws the folder as --report would have.
if [ "$playouts" -eq 0 ]; then
  mean=$(sed -n 2p "$dir/mcts/summary.csv" | cut -d, -f7,9,10)
  [ "$mean" = ",," ] || fail "mcts: 0 playouts, yet mean and interval '$mean' (expected empty)"
  grep -q '^a_win  *? ' "$dir/stdout" || fail "mcts: 0 playouts, yet the table shows a figure"
fi
"$odds" report "$dir/mcts" 2>"$dir/report.err" || fail "report of the stopped run: $(cat "$dir/report.err")"
echo "ok: the stopped run's folder ($playouts playouts) makes a report"

# Flat Monte Carlo (naval rollout:100000:60) under SIGTERM: the same, exit 143.
signal_after "$dir/rollout" 1 TERM "$odds" run naval --policy a=rollout:100000:60 \
  --policy b=gunner -n 1000 --threads 2 --out "$dir/rollout"
stopped "run naval rollout:100000:60" 143 'interrupted after'
grep -q ',partial,' "$dir/rollout/summary.csv" || fail "rollout: summary.csv not marked partial"
echo "ok: naval rollout:100000:60 stopped by SIGTERM in $took_ms ms, exit 143, partial"

# A tournament of searches: the pairing under way marked partial.
signal_after "$dir/tour" 1 INT "$odds" tournament dimension-duel --policy mcts:1000000 --policy dice \
  -n 100 --threads 2 --no-progress --out "$dir/tour"
stopped "tournament dimension-duel mcts:1000000" 130 'interrupted'
grep -q ",partial" "$dir/tour/tournament.csv" || fail "tournament: tournament.csv not marked partial"
grep -q ",complete" "$dir/tour/tournament.csv" && fail "tournament: a pairing marked complete"
echo "ok: tournament of dimension-duel mcts:1000000 stopped by SIGINT in $took_ms ms, exit 130"

# The exact solver (Bosconian-D at hull 1000: about 11 s): an exact answer is all or nothing, so
# a stop writes nothing (no folder) and says so in one line.
for sig in INT TERM; do
  code=$([ "$sig" = INT ] && echo 130 || echo 143)
  signal_after - 1 "$sig" "$odds" exact bosconian --set hull=1000 --out "$dir/exact-$sig"
  stopped "exact bosconian hull=1000, SIG$sig" "$code" 'interrupted after .* nothing written'
  [ "$(wc -l <"$dir/stderr")" -eq 1 ] || fail "exact: more than one line on stderr"
  [ -e "$dir/exact-$sig" ] && fail "exact: SIG$sig left $dir/exact-$sig behind"
  [ -s "$dir/stdout" ] && fail "exact: SIG$sig printed a table"
  echo "ok: exact bosconian hull=1000 stopped by SIG$sig in $took_ms ms, exit $code, nothing written"
done

# tune: stopped inside the exact solver (bisection, hull=1000 solved second) and inside the
# playouts (successive halving without the solver): tune.csv written, every row partial, the best
# so far marked.
signal_after - 2 INT "$odds" tune bosconian --vary hull=10..1000 \
  --target win=0.5 --no-progress --out "$dir/tune-exact"
stopped "tune, inside the exact solver" 130 'interrupted'
signal_after - 2 TERM "$odds" tune bosconian --vary hull=1..64 --target "win max" \
  --no-exact -n 6400000 --threads 2 --no-progress --out "$dir/tune-mc" --report
stopped "tune, inside the playouts" 143 'interrupted'
grep -q 'Interrupted: these figures are partial' "$dir/tune-mc/report.html" &&
  grep -q 'Best setting so far' "$dir/tune-mc/report.html" ||
  fail "tune: report.html missing, or not marked partial with its best so far"
for t in tune-exact tune-mc; do
  csv="$dir/$t/tune.csv"
  [ -s "$csv" ] || fail "$t: tune.csv missing"
  head -1 "$csv" | grep -q ',best,status$' || fail "$t: tune.csv has no status column"
  rows=$(($(wc -l <"$csv") - 1))
  [ "$rows" -gt 0 ] || fail "$t: tune.csv has no evaluation"
  [ "$(grep -c ',partial$' "$csv")" -eq "$rows" ] || fail "$t: a row of tune.csv not partial"
  [ "$(grep -c ',true,partial$' "$csv")" -eq 1 ] || fail "$t: no best so far marked"
  echo "ok: $t stopped, tune.csv partial with its best so far ($rows evaluations)"
done

# tune by NTBEA toward two targets, stopped between its trials (a few of 100k playouts each made):
# every row partial, the model's best so far marked (its rows: one per target and the distance).
signal_after - 3 INT "$odds" tune fpb --vary 'sniper.area1.open={2..6}-6' \
  --vary 'smoke.turns=1d3|1d6+2' --target withdrawn=6 --target icecube_rescued=0.5 \
  --search ntbea --budget 1000 --trial-playouts 100k --threads 2 --no-progress \
  --out "$dir/tune-ntbea" --report
stopped "tune, NTBEA" 130 'interrupted'
csv="$dir/tune-ntbea/tune.csv"
rows=$(($(wc -l <"$csv") - 1))
[ "$rows" -gt 0 ] || fail "tune-ntbea: tune.csv has no trial"
[ "$(grep -c ',partial$' "$csv")" -eq "$rows" ] || fail "tune-ntbea: a row of tune.csv not partial"
[ "$(grep -c ',ntbea,.*,true,partial$' "$csv")" -eq 3 ] || fail "tune-ntbea: no best so far marked"
[ -s "$dir/tune-ntbea/best.toml" ] || fail "tune-ntbea: no best.toml"
grep -q 'Best setting so far' "$dir/tune-ntbea/report.html" || fail "tune-ntbea: report not partial"
echo "ok: tune-ntbea stopped, tune.csv partial with the model's best so far ($rows rows)"

# skill (issue 32): a ladder of cheap rungs, millions of games a group, stopped under way: the
# ladder of the first games every group played, every row of ladder.csv and skill.csv partial;
# stopped inside a search before every group has two games: nothing written, no folder left.
signal_after - 1 INT "$odds" skill fpb --policy bug-out --policy random --budgets none -n 5M \
  --threads 2 --no-progress --out "$dir/skill"
stopped "skill fpb, under way" 130 'interrupted; the ladder is of the first'
for f in ladder.csv skill.csv; do
  [ -s "$dir/skill/$f" ] || fail "skill: $f missing"
  rows=$(($(wc -l <"$dir/skill/$f") - 1))
  [ "$(grep -c ',partial$' "$dir/skill/$f")" -eq "$rows" ] || fail "skill: a row of $f not partial"
done
echo "ok: skill stopped by SIGINT in $took_ms ms, exit 130, ladder.csv and skill.csv partial"
signal_after - 1 INT "$odds" skill dimension-duel --policy dice --search mcts:{n} \
  --budgets 1000000..1000000 -n 10 --threads 2 --no-progress --out "$dir/skill-none"
stopped "skill inside a search" 130 'nothing written'
[ -e "$dir/skill-none" ] && fail "skill: the stopped ladder left $dir/skill-none behind"
echo "ok: skill stopped inside a search in $took_ms ms, exit 130, nothing written"

# restrict (issue 32): cheap variants, millions of games each, stopped under way: the ranking of
# the first games every variant played, every row of restrict.csv partial; stopped inside a
# search before every variant has two games: nothing written, no folder left.
signal_after - 1 INT "$odds" restrict fpb --play bug-out --restrict carry -n 5M \
  --threads 2 --no-progress --out "$dir/restrict"
stopped "restrict fpb, under way" 130 'interrupted; the ranking is of the first'
[ -s "$dir/restrict/restrict.csv" ] || fail "restrict: restrict.csv missing"
rows=$(($(wc -l <"$dir/restrict/restrict.csv") - 1))
[ "$(grep -c ',partial$' "$dir/restrict/restrict.csv")" -eq "$rows" ] ||
  fail "restrict: a row of restrict.csv not partial"
echo "ok: restrict stopped by SIGINT in $took_ms ms, exit 130, restrict.csv partial"
signal_after - 1 INT "$odds" restrict dimension-duel --play mcts:1000000 -n 10 --threads 2 \
  --no-progress --out "$dir/restrict-none"
stopped "restrict inside a search" 130 'nothing written'
[ -e "$dir/restrict-none" ] && fail "restrict: the stopped run left $dir/restrict-none behind"
echo "ok: restrict stopped inside a search in $took_ms ms, exit 130, nothing written"
# shape (issue 32): rollouts look at the stop flag. Stopped inside the first game: nothing
# written; stopped under way: the figures of the games finished, shape.csv marked partial.
signal_after - 1 INT "$odds" shape naval -n 1000 --rollouts 100000 --threads 2 --no-progress \
  --out "$dir/shape-none"
stopped "shape naval inside a game" 130 'nothing written'
[ -e "$dir/shape-none" ] && fail "shape: the stopped command left $dir/shape-none behind"
echo "ok: shape stopped inside its first game in $took_ms ms, exit 130, nothing written"
signal_after - 2 INT "$odds" shape bosconian -n 10M --threads 2 --no-progress --out "$dir/shape"
stopped "shape bosconian, under way" 130 'interrupted; the figures are of the first'
grep -q ',partial$' "$dir/shape/shape.csv" || fail "shape: shape.csv not marked partial"
grep -q ',complete$' "$dir/shape/shape.csv" && fail "shape: a row of shape.csv marked complete"
[ -s "$dir/shape/fan.csv" ] || fail "shape: fan.csv missing"
echo "ok: shape stopped under way in $took_ms ms, exit 130, shape.csv partial"

# Issue 40: a stop is looked at before each playout and inside long ones, so Ctrl-C answers within
# a second whatever the threads and however long a playout a variant makes: 256 threads of msc
# each deep in a chunk (took 62 s), a duel that deals no damage to a cap of a million turns
# (30 s), one msc campaign of combats no ship can lose (44 s a playout, never stopped).
answers_within_a_second() {
  local what=$1
  [ "$took_ms" -le 1000 ] || fail "$what: exited $took_ms ms after the signal (over 1 s)"
  [ "$rc" -eq 130 ] || fail "$what: exit code $rc, expected 130"
  echo "ok: $what stopped by SIGINT in $took_ms ms"
}
signal_after "$dir/msc256" 2 INT "$odds" run msc -n 1e12 --threads 256 --no-progress \
  --out "$dir/msc256"
answers_within_a_second "run msc on 256 threads"
signal_after "$dir/duel-long" 2 INT "$odds" run dimension-duel --set calibrate.dice=0 \
  --set focus.dice=0 --set delayed.dice=0 --set max_turns=1000000 -n 1000 --threads 2 \
  --no-progress --out "$dir/duel-long"
answers_within_a_second "a duel of a million turns without damage"
signal_after "$dir/msc-long" 2 INT "$odds" run msc --policy a=balanced/rush \
  --policy b=balanced/expand --set design_b=E0S5T4W3 --set escort_b=E0S4T4W1 \
  --set combat.hits_on=none --set combat.max_rounds=10000 --set budget=5000 --set max_turns=1000 \
  -n 4 --threads 2 --no-progress --out "$dir/msc-long"
answers_within_a_second "an msc campaign of combats no ship can lose"

# Issue 40: SIGTERM at a random time while a run with --report writes over an older folder (3 of
# 45 tries left .tmp files or a folder of two seeds' files), and two SIGINTs 10 ms apart: never a
# temporary file left, and every file of the folder from one run (one seed).
"$odds" run bosconian -n 200k --seed 1 --report --no-progress --out "$dir/over" >/dev/null 2>&1 ||
  fail "the older run"
for try in $(seq 1 12); do
  "$odds" run bosconian -n 400k --seed $((try + 1)) --report --threads 2 --no-progress \
    --out "$dir/over" >/dev/null 2>&1 &
  pid=$!
  sleep "0.$((RANDOM % 60))"
  kill -TERM "$pid" 2>/dev/null
  if ((try % 2)); then sleep 0.01; kill -INT "$pid" 2>/dev/null; fi
  wait "$pid"
  ls -a "$dir/over" | grep -q '\.tmp' && fail "try $try: a temporary file left in the folder"
  seeds=$( (sed -n 2p "$dir/over/summary.csv" | cut -d, -f4
    for f in provenance.csv report.html; do
      grep -o -- '--seed=[0-9]*' "$dir/over/$f" | head -1 | cut -d= -f2
    done) | sort -u | wc -l)
  [ "$seeds" -eq 1 ] || fail "try $try: the folder's files are of $seeds runs"
done
echo "ok: 12 signals at random times over an older folder: no temporary file, one run's files"

# Issue 40: tune stopped inside its first evaluation wrote a header-only tune.csv while saying
# "marked partial, with the best so far": now nothing is written, no folder left.
signal_after - 1 INT "$odds" tune naval --vary ships=1..3 --target "a_win max" --no-exact \
  -n 100M --threads 2 --no-progress --out "$dir/tune-first"
stopped "tune inside its first evaluation" 130 'interrupted before the first setting was evaluated; nothing written'
[ -e "$dir/tune-first" ] && fail "tune: the stopped search left $dir/tune-first behind"
echo "ok: tune stopped inside its first evaluation in $took_ms ms, nothing written, no folder"
# ... and tune killed while it prints into a pipe nobody reads (its table past the pipe's 64 KiB)
# had left an empty folder: its files are written before the table.
"$odds" tune bosconian --vary hull=10..1000 --target "win max" --no-exact -n 200k --threads 2 \
  --no-progress --out "$dir/tune-pipe" 2>/dev/null | sleep 60 &
reader=$!
for _ in $(seq 1 300); do [ -s "$dir/tune-pipe/tune.csv" ] && break; sleep 0.1; done
sleep 0.5
pkill -TERM -f -- "--out $dir/tune-pipe" 2>/dev/null
kill "$reader" 2>/dev/null
wait
[ -s "$dir/tune-pipe/tune.csv" ] && [ -s "$dir/tune-pipe/best.toml" ] ||
  fail "tune into a full pipe: its files were not written before the table"
echo "ok: tune into a pipe nobody reads has written its files before it blocks"

# Issue 40: odds dice installed no handler (a big pair took 25 s and left an empty folder on
# SIGINT): sixteen laws of 400 dice each, stopped, write nothing and leave no folder.
big=100d100+100d100+100d100+100d100
signal_after - 1 INT "$odds" dice $big $big $big $big $big $big $big $big $big $big $big $big \
  $big $big $big $big --out "$dir/dice"
stopped "dice" 130 'interrupted; nothing written'
[ -e "$dir/dice" ] && fail "dice: the stopped command left $dir/dice behind"
echo "ok: dice stopped in $took_ms ms, exit 130, nothing written, no folder"
