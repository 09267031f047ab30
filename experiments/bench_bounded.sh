#!/usr/bin/env bash
# Conversion in bounded memory, side by side on one machine: an RMAT graph
# (edge factor 16) as a binary edge list, converted with its transpose
#   1. in memory (no limit that binds),
#   2. under a memory cgroup of CAP with --memory-limit CAP,
#   3. by GridGraph's preprocessing (the external-memory converter to
#      beat; built from thu-pacman/GridGraph, path in $GRIDGRAPH),
# then BFS, WCC, PageRank 10 (classic) and PageRank-delta's 10 iterations
# on the layout, uncapped and under the cap.
# The layouts have plain pages (--plain); the capped conversion to the
# default, compressed pages runs beside them, in every round. PROGRAMS=0
# skips the programs.
# Prints wall seconds, peak RSS (MiB) and scratch bytes per step, and checks
# that the capped layout's edges and the capped programs' outputs are the
# uncapped ones. The in-memory conversion (about 3 bytes of memory per
# byte of the .bel) is skipped where the machine has not that much
# available. ROUNDS (default 1) alternating capped rounds of the two
# converters: the first with the steps above, the others after them.
#
#   [ROUNDS=4] experiments/bench_bounded.sh SCALE CAP WORKDIR     e.g. 25 2g /work/bench
set -euo pipefail
scale=${1:-20}
cap=${2:-256m}
work=${3:-/tmp/bench-bounded}
root=$(cd "$(dirname "$0")/.." && pwd)
tools=$root/build/tools
gridgraph=${GRIDGRAPH:-/tmp/gridgraph/bin/preprocess}
bytes() { numfmt --from=iec "$(echo "$1" | tr a-z A-Z)"; }
mkdir -p "$work" && cd "$work"
export SLUICE_LAYOUT_ID=0123456789abcdef0123456789abcdef

group=/sys/fs/cgroup/memory/sluice-bench-$$
mkdir "$group" || { echo "cannot make a memory cgroup (cgroup v1, as root)" >&2; exit 2; }
trap 'rmdir "$group" 2>/dev/null || true' EXIT
bytes "$cap" > "$group/memory.limit_in_bytes"
capped=(sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$group")
# step NAME COMMAND...: one line: name, wall seconds, peak RSS in MiB.
step() {
  local name=$1
  shift
  # What the step before left dirty is written first: GridGraph does not
  # fsync, and its writeback would otherwise land on the next step.
  sync
  if ! /usr/bin/time -f "%e %M" -o step.time "$@" > step.out 2> step.err; then
    printf "%-28s failed: %s\n" "$name" "$(grep -v '^progress' step.time step.err | tr '\r' '\n' | grep -v progress | tail -1)"
    return 0
  fi
  read -r wall kib < step.time
  printf "%-28s %8.1f s %8.0f MiB  %s\n" "$name" "$wall" "$((kib / 1024))" "$(grep -o '[0-9.]* [KMG]iB of scratch files written' step.out || true)"
}

[ -f g.bel ] || "$tools/sluice" generate rmat --scale "$scale" --edge-factor 16 --seed 1 -o g.bel >/dev/null
vertices=$((1 << scale))
echo "RMAT $scale: $(stat -L -c %s g.bel) bytes of edges (bel), cap $cap, $(nproc) cores"
sync && echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true
rm -rf mem capped grid && mkdir mem capped grid
# Both converters are given the vertex count (GridGraph needs it; sluice
# then skips the pass that counts it).
in_memory=$((3 * $(stat -L -c %s g.bel)))
available=$(awk '/^MemAvailable:/ {printf "%.0f", $2 * 1024}' /proc/meminfo)
if [ "$in_memory" -le "$available" ]; then
  step "convert, in memory" "$tools/sluice" convert g.bel mem/g.sluice --transpose --plain --memory-limit 1t --vertices "$vertices"
fi
step "convert, capped" "${capped[@]}" "$tools/sluice" convert g.bel capped/g.sluice --transpose --plain --memory-limit "$cap" --vertices "$vertices"
if [ "$in_memory" -le "$available" ]; then
  # The same layout id: equal indexes (with every page's checksum) mean equal pages.
  for f in g.out.index g.in.index g.out.sample g.in.sample; do cmp mem/$f capped/$f || { echo "the capped layout differs ($f)" >&2; exit 1; }; done
else
  printf "%-28s skipped: needs about %s, %s available\n" "convert, in memory" "$(numfmt --to=iec "$in_memory")" "$(numfmt --to=iec "$available")"
fi
rm -rf mem
mkdir compressed
step "convert, capped, compressed" "${capped[@]}" "$tools/sluice" convert g.bel compressed/g.sluice --transpose --memory-limit "$cap" --vertices "$vertices"
rm -rf compressed
step "gridgraph preprocess" "$gridgraph" -i g.bel -o grid/g -v "$vertices" -p 16 -t 0
rm -rf grid && mkdir grid
step "gridgraph preprocess, capped" "${capped[@]}" "$gridgraph" -i g.bel -o grid/g -v "$vertices" -p 16 -t 0
rm -rf grid
for ((round = 2; round <= ${ROUNDS:-1}; ++round)); do
  rm -rf again grid && mkdir again grid
  step "convert, capped ($round)" "${capped[@]}" "$tools/sluice" convert g.bel again/g.sluice --transpose --plain --memory-limit "$cap" --vertices "$vertices"
  rm -rf again && mkdir again
  step "compressed, capped ($round)" "${capped[@]}" "$tools/sluice" convert g.bel again/g.sluice --transpose --memory-limit "$cap" --vertices "$vertices"
  rm -rf again
  step "gridgraph, capped ($round)" "${capped[@]}" "$gridgraph" -i g.bel -o grid/g -v "$vertices" -p 16 -t 0
  rm -rf grid
done
# PageRank 10 is classic's, as in every other benchmark here; delta's 10
# iterations beside it (its floor is higher: 24 bytes a vertex to 20).
declare -A runs=([bfs]="bfs" [wcc]="wcc" [pagerank]="pagerank --method classic --iterations 10 --tolerance 0"
                 [pagerank-delta]="pagerank --method delta --iterations 10 --tolerance 0")
[ "${PROGRAMS:-1}" = 0 ] && exit 0
for program in bfs wcc pagerank pagerank-delta; do
  read -r -a run <<< "${runs[$program]}"
  step "$program" "$tools/sluice-${run[0]}" capped/g.sluice "${run[@]:1}" --output free.$program
  step "$program, capped" "${capped[@]}" "$tools/sluice-${run[0]}" capped/g.sluice "${run[@]:1}" --output capped.$program
  [ -f free.$program ] && [ -f capped.$program ] || { rm -f free.$program capped.$program; continue; }  # refused (its floor is above the cap): said above
  # Ranks are float sums whose order follows the threads: equal to 1e-9.
  paste free.$program capped.$program | awk '{d = $1 - $2; if (d < 0) d = -d; if (d > 1e-9 * ($1 > 0 ? $1 : -$1) + 1e-300) bad = 1} END {exit bad}' ||
    { echo "$program: the capped run answers otherwise" >&2; exit 1; }
  rm -f free.$program capped.$program
done
