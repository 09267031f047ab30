#!/usr/bin/env bash
# `--direction auto` against both fixed directions, for every algorithm
# program that runs EDGEMAPs both ways: the three runs of a program
# alternate within each round (their order rotating from round to round),
# and the table gives medians of ROUNDS and auto over the better fixed
# direction (at most 1.05 is the aim).
#
#   experiments/bench_directions.sh GRAPH.sluice [ROUNDS] [EXTRA FLAGS...]
#   PROGRAMS="wcc pagerank-classic" experiments/bench_directions.sh ...   # some rows only
#
# GRAPH.sluice needs its transpose (without one every EDGEMAP pushes).
# EXTRA FLAGS go to every run: `--io memory` compares the directions
# over the edges held in DRAM. Kernel seconds, from each run's summary line.
set -euo pipefail
# shellcheck source=experiments/program_runs.sh
source "$(dirname "$0")/program_runs.sh"
directions=(auto push pull)

seconds() { sed -nE 's/.*: ([0-9.]+) s, [0-9]+ iterations.*/\1/p'; }

echo "graph $graph, $rounds rounds, $(nproc) cores, flags: ${extra[*]:-(defaults)}"
printf "%-17s %9s %9s %9s %12s\n" algorithm auto_s push_s pull_s auto/better
for name in "${order[@]}"; do
  declare -A times=([auto]="" [push]="" [pull]="")
  for ((r = 0; r < rounds; ++r)); do
    for ((k = 0; k < 3; ++k)); do
      d=${directions[$(( (k + r) % 3 ))]}
      # shellcheck disable=SC2086
      s=$(${tools}/sluice-${runs[$name]} "$graph" --direction "$d" "${extra[@]}" 2>/dev/null | seconds)
      [ -n "$s" ] || { echo "sluice-${runs[$name]} --direction $d printed no summary" >&2; exit 1; }
      times[$d]+="$s "
    done
  done
  a=$(printf '%s\n' ${times[auto]} | median)
  p=$(printf '%s\n' ${times[push]} | median)
  l=$(printf '%s\n' ${times[pull]} | median)
  printf "%-17s %9.3f %9.3f %9.3f %12.2f\n" "$name" "$a" "$p" "$l" "$(awk "BEGIN {b = $p < $l ? $p : $l; print $a / b}")"
done
