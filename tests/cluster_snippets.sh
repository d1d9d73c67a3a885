#!/usr/bin/env bash
# The snippets of docs/cluster.md, run as far as this machine allows, so they cannot rot. They are
# read from the page between "<!-- cluster-test: NAME -->" and "<!-- cluster-test: end -->":
#
#   slurm-shards, slurm-merge  the job array's batch script, run once for each task
#                              (SLURM_ARRAY_TASK_ID 1..8 from its --array line, one after another),
#                              then the merge job's script
#   parallel                   the GNU parallel lines, the other workstations taken out of
#                              --sshlogin (':' is this machine)
#   mpi                        (with MPI_ODDS only) the mpirun line, with -np 2 --oversubscribe on
#                              this machine in place of -np 64 --hostfile hosts, and MPI_ODDS in
#                              place of build-mpi/odds; then sweep, tournament, compare,
#                              baseline, skill and shape on three ranks against one process
#                              (shape's sums of doubles bit for bit), tune on three and two, a
#                              run stopped by SIGINT to mpirun, whose files must say partial,
#                              and a tune stopped so, promptly, its best so far written
#
# In every snippet --playouts 1e11 becomes --playouts 200k. Each result must be byte for byte the
# files of one process (this ODDS) playing the same command.
#
# Usage: cluster_snippets.sh DOC ODDS [MPI_ODDS]
set -euo pipefail
doc=$1
odds=$(realpath "$2")
mpi_odds=${3:+$(realpath "$3")}
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -f "$doc" ] || fail "no $doc"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/odds-cluster.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
ln -s "$odds" "$tmp/bin/odds"
export PATH="$tmp/bin:$PATH"

# The code block of snippet NAME, with the playouts cut.
snippet() {
  awk -v name="$1" '
    $0 == "<!-- cluster-test: " name " -->" { on = 1; next }
    on && /^<!-- cluster-test: end -->/ { exit }
    on && /^```/ { inside = !inside; next }
    on && inside { print }' "$doc" | sed 's/--playouts 1e11/--playouts 200k/'
}

# The one-process reference: the command the snippet's shards play, whole.
reference() {
  local dir=$1
  (cd "$tmp" && odds run bosconian --playouts 200k --seed 7 --no-progress --out "$dir" >/dev/null 2>&1)
}
reference ref

check_same() {
  diff -r "$tmp/ref" "$1" >/dev/null || fail "$2: its files differ from one process's"
  echo "ok: $2 wrote one process's files byte for byte"
}

if [ -z "$mpi_odds" ]; then
  # The Slurm job array, task by task, then the merge job.
  shards=$(snippet slurm-shards)
  merge=$(snippet slurm-merge)
  [ -n "$shards" ] && [ -n "$merge" ] || fail "no slurm-shards or slurm-merge snippet in $doc"
  tasks=$(sed -n 's/^#SBATCH --array=1-\([0-9]*\)$/\1/p' <<< "$shards")
  [ -n "$tasks" ] || fail "the slurm-shards snippet has no #SBATCH --array=1-N line"
  mkdir "$tmp/slurm"
  printf '%s\n' "$shards" > "$tmp/slurm/shards.sbatch"
  printf '%s\n' "$merge" > "$tmp/slurm/merge.sbatch"
  for ((t = 1; t <= tasks; t++)); do
    (cd "$tmp/slurm" && SLURM_ARRAY_TASK_ID=$t SLURM_CPUS_PER_TASK=1 bash shards.sbatch >/dev/null 2>&1) ||
      fail "slurm-shards: task $t failed"
  done
  [ "$(ls "$tmp/slurm/shards" | wc -l)" = "$tasks" ] || fail "slurm-shards: not $tasks shard files"
  (cd "$tmp/slurm" && bash merge.sbatch >/dev/null) || fail "slurm-merge failed"
  check_same "$tmp/slurm/runs/bosconian" "the Slurm job array"

  # GNU parallel, on this machine alone.
  command -v parallel >/dev/null || fail "GNU parallel is needed (scripts/setup --all installs it)"
  lines=$(snippet parallel | sed 's/--sshlogin [^ ]*/--sshlogin :/')
  [ -n "$lines" ] || fail "no parallel snippet in $doc"
  mkdir "$tmp/parallel"
  (cd "$tmp/parallel" && bash -euo pipefail -c "$lines" >/dev/null 2>"$tmp/parallel.err") ||
  { cat "$tmp/parallel.err" >&2; false; } || fail "the parallel snippet failed"
  check_same "$tmp/parallel/runs/bosconian" "GNU parallel"
else
  # mpirun, two ranks on this machine (as root too: the OMPI_ALLOW_RUN_AS_ROOT variables).
  command -v mpirun >/dev/null || fail "mpirun is needed (scripts/setup --all installs openmpi-bin)"
  line=$(snippet mpi | sed "s|-np 64 --hostfile hosts|-np 2 --oversubscribe|; s|build-mpi/odds|$mpi_odds|")
  [ -n "$line" ] || fail "no mpi snippet in $doc"
  mkdir "$tmp/mpi"
  (cd "$tmp/mpi" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader \
     bash -euo pipefail -c "$line" > out.txt 2>err.txt) || { cat "$tmp/mpi/err.txt" >&2; fail "the mpi snippet failed"; }
  check_same "$tmp/mpi/runs/bosconian" "mpirun -np 2"
  (cd "$tmp" && odds run bosconian --playouts 200k --seed 7 --no-progress > one.txt 2>/dev/null)
  cmp -s "$tmp/one.txt" "$tmp/mpi/out.txt" || fail "mpirun -np 2: its table differs from one process's"
  echo "ok: mpirun -np 2 printed one process's table"

  # Every other command MPI shares out, on three ranks (more than the cores), against one process.
  while read -r name args; do
    (cd "$tmp/mpi" && odds $args --no-progress --out "one-$name" > "one-$name.txt" 2>/dev/null &&
       OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader \
       mpirun -np 3 --oversubscribe "$mpi_odds" $args --out "mpi-$name" < /dev/null > "mpi-$name.txt" 2>/dev/null) ||
      fail "mpirun -np 3 $args failed"
    # The files (a baseline's --out is one file), and the table (a baseline's names its file).
    diff -r "$tmp/mpi/one-$name" "$tmp/mpi/mpi-$name" >/dev/null ||
      fail "mpirun -np 3 $args: its files differ from one process's"
    if [ "$name" != baseline ]; then
      cmp -s "$tmp/mpi/one-$name.txt" "$tmp/mpi/mpi-$name.txt" ||
        fail "mpirun -np 3 $args: its table differs from one process's"
    fi
    echo "ok: mpirun -np 3 $name wrote one process's output byte for byte"
  done <<'LIST'
sweep sweep bosconian --vary hull=80:120:20 -n 40k
tournament tournament dimension-duel --policy dice --policy aggressor -n 40000
compare compare fpb --policy bug-out --policy lead-from-front -n 5000
baseline baseline bosconian -n 50k --seed 3
skill skill dimension-duel --policy dice --policy aggressor --budgets none -n 400
shape shape bosconian -n 500 --report
shape-rollouts shape naval --set ships=3 -n 24 --rollouts 6
LIST

  # odds tune under mpirun: every rank runs the search, each evaluation played by all of them
  # together and added up on every rank; rank 0's files and table are one process's. NTBEA on
  # three ranks, the exact solver looked at first (Bosconian-D's random layout leaves it bounds,
  # so the settings are played), with its report; successive halving on two, --no-exact.
  while read -r np name args; do
    (cd "$tmp/mpi" && odds $args --no-progress --out "one-$name" > "one-$name.txt" 2>/dev/null &&
       OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader \
       mpirun -np "$np" --oversubscribe "$mpi_odds" $args --out "mpi-$name" < /dev/null > "mpi-$name.txt" 2>/dev/null) ||
      fail "mpirun -np $np $args failed"
    diff -r "$tmp/mpi/one-$name" "$tmp/mpi/mpi-$name" >/dev/null ||
      fail "mpirun -np $np $args: its files differ from one process's"
    cmp -s "$tmp/mpi/one-$name.txt" "$tmp/mpi/mpi-$name.txt" ||
      fail "mpirun -np $np $args: its table differs from one process's"
    echo "ok: mpirun -np $np $name wrote one process's output byte for byte"
  done <<'LIST'
3 tune-ntbea tune bosconian --vary hull=60..140:10 --vary base_cannons=3..8 --target win=0.1 --target sectors_entered=10 --search ntbea --budget 8 --trial-playouts 3000 -n 10k --deviations 0 --report
2 tune-halving tune bosconian --vary hull=60..140:20 --vary base_cannons=4..8:2 --target win=0.05 --target sectors_entered=10 -n 20k --no-exact
LIST

  # Ctrl-C as on one machine: once the run has started, SIGINT to mpirun stops every rank at a
  # chunk boundary and rank 0 writes what was played, marked partial.
  (cd "$tmp/mpi" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader \
     exec mpirun -np 2 --oversubscribe "$mpi_odds" run bosconian --playouts 1e10 --out stopped \
     > stopped.txt 2> stopped.err) &
  pid=$!
  for _ in $(seq 100); do grep -q queued "$tmp/mpi/stopped.err" 2>/dev/null && break; sleep 0.1; done
  sleep 1
  kill -INT "$pid"
  wait "$pid" || true
  grep -q "interrupted after" "$tmp/mpi/stopped.err" || { cat "$tmp/mpi/stopped.err" >&2; fail "mpirun after Ctrl-C: no 'interrupted' line"; }
  [ -f "$tmp/mpi/stopped/summary.csv" ] || fail "mpirun after Ctrl-C: no summary.csv"
  grep -q ',partial,' "$tmp/mpi/stopped/summary.csv" || fail "mpirun after Ctrl-C: summary.csv not marked partial"
  echo "ok: Ctrl-C on mpirun -np 2 wrote the played chunks, marked partial"

  # A tune stopped so: every rank stops in the evaluation under way (the ranks agree on it in the
  # exchange that ends each evaluation, so none waits for another), and mpirun ends within a few
  # seconds (it waits 1 s before it signals the ranks), rank 0 having written the path so far,
  # marked partial, and the best so far.
  (cd "$tmp/mpi" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader \
     exec mpirun -np 2 --oversubscribe "$mpi_odds" tune bosconian --vary hull=1..64 \
     --target "win max" --no-exact -n 6400000 --threads 1 --out stopped-tune \
     > stopped-tune.txt 2> stopped-tune.err) &
  pid=$!
  for _ in $(seq 100); do grep -q queued "$tmp/mpi/stopped-tune.err" 2>/dev/null && break; sleep 0.1; done
  sleep 1
  kill -INT "$pid"
  start=$(date +%s%N)
  wait "$pid" || true
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  [ "$ms" -lt 5000 ] || fail "tune under mpirun after Ctrl-C: ended $ms ms after the signal (at most 5000)"
  grep -q "interrupted" "$tmp/mpi/stopped-tune.err" || { cat "$tmp/mpi/stopped-tune.err" >&2; fail "tune under mpirun after Ctrl-C: no 'interrupted' line"; }
  grep -q "^best so far: hull=" "$tmp/mpi/stopped-tune.txt" || fail "tune under mpirun after Ctrl-C: no 'best so far' line"
  csv="$tmp/mpi/stopped-tune/tune.csv"
  rows=$(($(wc -l < "$csv") - 1))
  [ "$rows" -gt 0 ] || fail "tune under mpirun after Ctrl-C: tune.csv has no evaluation"
  [ "$(grep -c ',partial$' "$csv")" -eq "$rows" ] || fail "tune under mpirun after Ctrl-C: a row of tune.csv not partial"
  grep -q ',true,partial$' "$csv" || fail "tune under mpirun after Ctrl-C: no best so far in tune.csv"
  [ -f "$tmp/mpi/stopped-tune/best.toml" ] || fail "tune under mpirun after Ctrl-C: no best.toml"
  echo "ok: Ctrl-C on mpirun -np 2 tune ended in $ms ms, its path ($rows evaluations) and best so far written, partial"
fi
