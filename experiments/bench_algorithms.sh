#!/usr/bin/env bash
# Every algorithm out of core (O_DIRECT from two drive files) against the
# same program on the same CSR held in DRAM (--io memory: the drive files
# are read into memory before the run, so only the storage leaves the
# path), alternating the two in every round; medians of ROUNDS.
#
#   experiments/bench_algorithms.sh GRAPH.sluice [ROUNDS] [EXTRA FLAGS...]
#   PROGRAMS="bfs wcc" experiments/bench_algorithms.sh ...   # some rows only
#
# GRAPH.sluice needs its transpose; make one with
#   sluice generate rmat -s 24 -o r24.sluice --drives d0,d1 --transpose
# Prints one table row per algorithm: median seconds out of core and in
# memory, their ratio, bytes read and the out-of-core bandwidth. JT-CC has
# no engine (one pass through the block API over the same layout) and is
# listed with its own time.
set -euo pipefail
# shellcheck source=experiments/program_runs.sh
source "$(dirname "$0")/program_runs.sh"

# summary line -> "seconds bytes_MB"
field() { sed -E 's/.*: ([0-9.]+) s, ([0-9]+) iterations, ([0-9.]+) MB read.*/\1 \3 \2/'; }

echo "graph $graph, $rounds rounds, $(nproc) cores, flags: ${extra[*]:-(defaults)}"
printf "%-17s %10s %10s %8s %11s %10s %6s\n" algorithm disk_s memory_s ratio read_MB disk_MB/s iters
for name in "${order[@]}"; do
  disk=() memory=() read_mb=0 iters=0
  for ((r = 0; r < rounds; ++r)); do
    # shellcheck disable=SC2086
    set -- $(${tools}/sluice-${runs[$name]} "$graph" "${extra[@]}" 2>/dev/null | field)
    disk+=("$1"); read_mb=$2; iters=$3
    # shellcheck disable=SC2086
    set -- $(${tools}/sluice-${runs[$name]} "$graph" --io memory "${extra[@]}" 2>/dev/null | field)
    memory+=("$1")
  done
  d=$(printf '%s\n' "${disk[@]}" | median)
  m=$(printf '%s\n' "${memory[@]}" | median)
  printf "%-17s %10.3f %10.3f %8.2f %11.1f %10.1f %6s\n" "$name" "$d" "$m" "$(awk "BEGIN {print $d / $m}")" "$read_mb" \
    "$(awk "BEGIN {print $read_mb / $d}")" "$iters"
done
jt=()
for ((r = 0; r < rounds; ++r)); do
  jt+=("$("$tools/sluice-jtcc" "$graph" 2>/dev/null | sed -E 's/.*: ([0-9.]+) s,.*/\1/')")
done
printf "%-17s %10.3f %10s %8s %11s %10s %6s\n" jtcc "$(printf '%s\n' "${jt[@]}" | median)" - - - - 1
