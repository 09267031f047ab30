#!/usr/bin/env bash
# The input's vertex order against `convert --reorder degree`, graph by
# graph: RMAT 22 and uniform 22 (edge factor 16) and cnr-2000 from
# ../shared/data. For each: the conversion's seconds and peak RSS with
# its transpose, both ways; the id map's size; then every program from
# disk and with --io memory on both layouts, alternating
# (experiments/ab_builds.py --before-layout: "before" is the input order,
# "after" the degree order, before / after above 1 where the degree
# order is faster).
#
#   experiments/bench_vertex_order.sh [WORK] [ROUNDS]     defaults build/order 3
#
# Needs about 3 GB in WORK; delete it when done.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$root/build/order}
rounds=${2:-3}
tools=${SLUICE_TOOLS:-$root/build/tools}
threads=${THREADS:-2}
mkdir -p "$work"

inputs=()
for kind in rmat uniform; do
  input=$work/${kind}22.bel
  [ -e "$input" ] || "$tools/sluice" generate "$kind" --scale 22 --edge-factor 16 --seed 1 -o "$input" > /dev/null
  inputs+=("$input")
done
cnr=$root/../shared/data/cnr-2000/cnr-2000.graph
[ -e "$cnr" ] && inputs+=("$cnr")

for input in "${inputs[@]}"; do
  name=$(basename "${input%.*}")
  echo "### $name"
  echo
  echo "| layout | convert s | peak RSS (MB) | id map (MB) |"
  echo "| --- | --- | --- | --- |"
  for order in input degree; do
    layout=$work/$name-$order.sluice
    flags=()
    [ "$order" = degree ] && flags=(--reorder degree)
    rm -rf "$work/$name-$order" && mkdir -p "$work/$name-$order"
    /usr/bin/time -f "%e %M" -o "$work/time.txt" "$tools/sluice" convert "$input" "$layout" --transpose --plain \
      --drives "$work/$name-$order" --threads "$threads" "${flags[@]}" > /dev/null 2>&1
    read -r s kb < "$work/time.txt"
    map=$(stat -c %s "${layout%.sluice}.ids" 2>/dev/null || echo 0)
    awk -v o="$order" -v s="$s" -v kb="$kb" -v map="$map" 'BEGIN {printf "| %s | %s | %.0f | %.1f |\n", o, s, kb / 1024, map / 1e6}'
  done
  echo
  python3 "$root/experiments/ab_builds.py" --after "$tools" --before "$tools" --threads "$threads" --rounds "$rounds" \
    --programs bfs,wcc,pagerank10 --before-layout "$work/$name-input.sluice" "$work/$name-degree.sluice" |
    sed -e 's/| after s | before s | before \/ after |/| degree order s | input order s | input \/ degree |/'
  echo
done
