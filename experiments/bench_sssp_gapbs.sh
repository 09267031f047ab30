#!/usr/bin/env bash
# sluice-sssp (out of core, and --io memory) against GAPBS's sssp (in
# memory, the same delta-stepping) on one weighted RMAT graph, alternating
# rounds; kernel times (GAPBS's "Trial Time", sluice's summary line).
#
#   experiments/bench_sssp_gapbs.sh [SCALE] [ROUNDS] [THREADS] [DELTA] [GAPBS_DELTA]
#                                   defaults 22 3 2 1 DELTA
#
# Each system has its own best bucket width: GAPBS's is small (its
# benchmark runs kron at -d 2), sluice's large (out of core every bucket
# round reads the pages of its frontier: fewer, denser rounds read fewer
# bytes), so compare at one width and at each one's best.
#
# Builds GAPBS from ../shared/peers into build/peers/gapbs and the graph
# into build/peers/sssp, in sluice's default layout (compressed pages) with
# its transpose (delete it when done: scale 22 is about 1.5 GB).
# Integer weights in [1, 255] (sluice generate --weighted, GAPBS's own
# range); the source is the vertex of highest out-degree, as sluice picks.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scale=${1:-22}
rounds=${2:-3}
threads=${3:-2}
delta=${4:-1}
gapbs_delta=${5:-$delta}
tools=${SLUICE_TOOLS:-$root/build/tools}  # SLUICE_TOOLS: another build (e.g. a Release build without -fPIC)
work=$root/build/peers/sssp
gapbs=$root/build/peers/gapbs
[ -x "$tools/sluice-sssp" ] || { echo "build sluice first (cmake --build build)" >&2; exit 2; }
if [ ! -x "$gapbs/sssp" ]; then
  mkdir -p "$gapbs"
  tar -xzf "$root/../shared/peers/"gapbs-*.tar.gz -C "$gapbs" --strip-components=1
  make -C "$gapbs" -j "$threads" sssp converter >/dev/null
fi
mkdir -p "$work/drive0"
graph=$work/rmat$scale
if [ ! -f "$graph.wsg" ]; then
  "$tools/sluice" generate rmat --scale "$scale" --weighted --seed 1 -t "$threads" -o "$graph.wel" >/dev/null
  "$tools/sluice" convert "$graph.wel" "$graph.sluice" --drives "$work/drive0" --transpose -t "$threads" >/dev/null
  grep -v '^#' "$graph.wel" > "$graph.gapbs.wel"  # GAPBS's reader wants no comment line
  "$gapbs/converter" -f "$graph.gapbs.wel" -wb "$graph.wsg" >/dev/null
  rm -f "$graph.wel" "$graph.gapbs.wel"
fi
# The source: sluice's default (highest out-degree), passed to both.
source=$("$tools/sluice-sssp" "$graph.sluice" -t "$threads" --delta "$delta" 2>/dev/null | sed 's/.*source \([0-9]*\) reached.*/\1/')

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
: > "$work/disk.txt"; : > "$work/memory.txt"; : > "$work/gapbs.txt"
for round in $(seq "$rounds"); do
  "$tools/sluice-sssp" "$graph.sluice" -r "$source" --delta "$delta" -t "$threads" 2>/dev/null |
    sed 's/.*: \([0-9.]*\) s, .*/\1/' >> "$work/disk.txt"
  "$tools/sluice-sssp" "$graph.sluice" -r "$source" --delta "$delta" -t "$threads" --io memory 2>/dev/null |
    sed 's/.*: \([0-9.]*\) s, .*/\1/' >> "$work/memory.txt"
  OMP_NUM_THREADS=$threads "$gapbs/sssp" -f "$graph.wsg" -r "$source" -d "$gapbs_delta" -n 1 |
    sed -n 's/^Trial Time: *\([0-9.]*\)/\1/p' >> "$work/gapbs.txt"
done
disk=$(median < "$work/disk.txt")
memory=$(median < "$work/memory.txt")
gapbs_s=$(median < "$work/gapbs.txt")
echo "sssp, RMAT scale $scale, weights 1-255, sluice delta $delta, GAPBS delta $gapbs_delta, source $source, $threads threads, medians of $rounds rounds"
echo "sluice disk:        $(tr '\n' ' ' < "$work/disk.txt")-> $disk s"
echo "sluice --io memory: $(tr '\n' ' ' < "$work/memory.txt")-> $memory s"
echo "GAPBS sssp:         $(tr '\n' ' ' < "$work/gapbs.txt")-> $gapbs_s s"
awk -v d="$disk" -v m="$memory" -v g="$gapbs_s" 'BEGIN { printf "sluice disk / GAPBS %.2f, sluice memory / GAPBS %.2f\n", d / g, m / g }'
