#!/usr/bin/env bash
# Loader benchmark (issue: foundation): an RMAT graph (edge factor 16) as a
# text edge list and as Matrix Market; `cat FILE > /dev/null` on a warm cache
# against `sluice bench-load` with 1 and 2 threads, side by side in one run.
#   experiments/bench_load.sh [SCALE] [WORKDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${1:-22}
work=${2:-/tmp/sluice-bench-load}
sluice=build/tools/sluice
[ -x "$sluice" ] || { echo "build first: ./run.sh example" >&2; exit 2; }
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
"$sluice" generate rmat --scale "$scale" --edge-factor 16 --seed 1 -o "$work/rmat.el"
"$sluice" convert "$work/rmat.el" "$work/rmat.mtx" >/dev/null
ls -l "$work"
for f in rmat.el rmat.mtx; do
  cat "$work/$f" > /dev/null  # warm the page cache
  start=$(date +%s.%N); cat "$work/$f" > /dev/null; end=$(date +%s.%N)
  echo "cat $f: $(echo "$end - $start" | bc) s"
  for t in 1 2; do "$sluice" bench-load "$work/$f" --threads "$t" --repeat 3; done
done
