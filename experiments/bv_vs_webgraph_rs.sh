#!/usr/bin/env bash
# Sequential BV decoding, one thread: sluice against webgraph-rs on the
# same graph, alternating ROUNDS times; prints each one's median ns/arc.
#   experiments/bv_vs_webgraph_rs.sh WEBGRAPH_BINARY [BASENAME...] 
# WEBGRAPH_BINARY is webgraph-rs's CLI (`cargo install webgraph-cli`); it is
# a comparison tool only, not a dependency of sluice.
set -euo pipefail
cd "$(dirname "$0")/.."
webgraph=${1:?path to the webgraph binary}
shift
graphs=("$@")
[ ${#graphs[@]} -gt 0 ] || graphs=(../shared/data/cnr-2000/cnr-2000 ../shared/data/cnr-2000/cnr-2000-t)
rounds=${ROUNDS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf "%-22s %16s %16s %8s\n" graph webgraph-rs_ns sluice_ns ratio
for g in "${graphs[@]}"; do
  name=$(basename "$g")
  cp "$g".graph "$g".properties "$g".offsets "$work/"  # webgraph-rs writes its .ef beside the graph
  w=(); s=()
  for ((r = 0; r < rounds; r++)); do
    w+=("$( ("$webgraph" bench bvgraph "$work/$name" -R 5 2>&1 || true) | sed -n 's/Sequential: *\([0-9.]*\) ns\/arc/\1/p' | median)")
    s+=("$(build/tools/sluice bench-load "$work/$name.graph" -t 1 -r 5 | awk 'NR > 1 {print 1000 / $4}' | median)")
  done
  wm=$(printf "%s\n" "${w[@]}" | median)
  sm=$(printf "%s\n" "${s[@]}" | median)
  if [ -z "$wm" ]; then  # webgraph-rs could not read the graph
    printf "%-22s %16s %16.2f %8s\n" "$name" "failed" "$sm" "-"
  else
    printf "%-22s %16.2f %16.2f %8.2f\n" "$name" "$wm" "$sm" "$(echo "$wm / $sm" | bc -l)"
  fi
done
