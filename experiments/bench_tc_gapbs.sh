#!/usr/bin/env bash
# sluice-tc (from disk and --io memory, with every oriented list held, and
# with budgets of 25% and 5% of what they hold) against GAPBS's tc (in
# memory) on one RMAT graph, symmetrized, deduplicated, self loops dropped;
# kernel times (GAPBS's "Trial Time", sluice's summary line), medians of
# alternating rounds.
#
#   experiments/bench_tc_gapbs.sh [SCALE] [ROUNDS] [THREADS]    defaults 22 3 2
#
# Builds GAPBS from ../shared/peers into build/peers/gapbs and the graph
# into build/peers/tc (delete it when done).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scale=${1:-22}
rounds=${2:-3}
threads=${3:-2}
tools=${SLUICE_TOOLS:-$root/build/tools}
work=$root/build/peers/tc
gapbs=$root/build/peers/gapbs
[ -x "$tools/sluice-tc" ] || { echo "build sluice first (cmake --build build)" >&2; exit 2; }
if [ ! -x "$gapbs/tc" ]; then
  mkdir -p "$gapbs"
  [ -f "$gapbs/Makefile" ] || tar -xzf "$root/../shared/peers/"gapbs-*.tar.gz -C "$gapbs" --strip-components=1
  make -C "$gapbs" -j "$threads" tc converter >/dev/null
fi
mkdir -p "$work/drive0"
graph=$work/rmat$scale
if [ ! -f "$graph.sg" ]; then
  "$tools/sluice" generate rmat --scale "$scale" --seed 1 -t "$threads" -o "$graph.el" >/dev/null
  "$tools/sluice" convert "$graph.el" "$graph.sluice" --drives "$work/drive0" --symmetrize --dedup --drop-self-loops --plain -t "$threads" >/dev/null
  grep -v '^#' "$graph.el" > "$graph.gapbs.el"
  "$gapbs/converter" -f "$graph.gapbs.el" -s -b "$graph.sg" >/dev/null  # -s: undirected
  rm -f "$graph.el" "$graph.gapbs.el"
fi
# What the oriented lists hold, from a run that holds them all.
"$tools/sluice-tc" "$graph.sluice" -t "$threads" --stats "$work/full.jsonl" >/dev/null 2>&1
held=$(python3 -c "import json,sys; r=[json.loads(l) for l in open(sys.argv[1]) if '\"summary\"' in l][-1]; print(r['held_bytes'])" "$work/full.jsonl")
quarter=$((held / 4)); twentieth=$((held / 20))

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
kernel() { sed -n 's/.*: \([0-9.]*\) s, .*/\1/p'; }
runs=(full quarter twentieth memory)
for run in "${runs[@]}" gapbs; do : > "$work/$run.txt"; done
for round in $(seq "$rounds"); do
  "$tools/sluice-tc" "$graph.sluice" -t "$threads" 2>/dev/null | tee "$work/full.out" | kernel >> "$work/full.txt"
  "$tools/sluice-tc" "$graph.sluice" -t "$threads" --list-memory "$quarter" 2>/dev/null | tee "$work/quarter.out" | kernel >> "$work/quarter.txt"
  "$tools/sluice-tc" "$graph.sluice" -t "$threads" --list-memory "$twentieth" 2>/dev/null | tee "$work/twentieth.out" | kernel >> "$work/twentieth.txt"
  "$tools/sluice-tc" "$graph.sluice" -t "$threads" --io memory 2>/dev/null | tee "$work/memory.out" | kernel >> "$work/memory.txt"
  OMP_NUM_THREADS=$threads "$gapbs/tc" -f "$graph.sg" -n 1 -a | tee "$work/gapbs.out" | sed -n 's/^Trial Time: *\([0-9.]*\)/\1/p' >> "$work/gapbs.txt"
done
gapbs_s=$(median < "$work/gapbs.txt")
echo "tc, RMAT scale $scale symmetrized, deduplicated, no self loops; $threads threads; medians of $rounds rounds; lists held: $held bytes"
echo "GAPBS tc:           $(tr '\n' ' ' < "$work/gapbs.txt")-> $gapbs_s s ($(grep -i 'triangles' "$work/gapbs.out" | head -1 || true))"
for run in "${runs[@]}"; do
  m=$(median < "$work/$run.txt")
  printf '%-19s %s-> %s s, %.2fx GAPBS; %s\n' "sluice $run:" "$(tr '\n' ' ' < "$work/$run.txt")" "$m" "$(echo "$m / $gapbs_s" | bc -l)" \
    "$(sed 's/.*s, [0-9]* iterations*[^:]*: //' "$work/$run.out")"
done
