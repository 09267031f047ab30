#!/usr/bin/env bash
# Runs that fit the memory they are given: under a --memory-limit between
# the engine's floor and what it would hold by default, the IO buffers,
# bins and pull cache are cut to fit (said on stderr and in --stats), and
# the answers are those of a run without a limit; below the floor the run
# is refused before any work, naming the floor.
set -euo pipefail
tools=$1
sluice=$tools/sluice
. "$(dirname "$0")/lib.sh"
# json FILE EXPR: a field of the run record (the first line of --stats).
json() { python3 -c 'import json, sys; r = json.loads(open(sys.argv[1]).readline()); print(eval(sys.argv[2], {"r": r}))' "$@"; }
same_values() { paste "$1" "$2" | awk '{d = $1 - $2; if (d < 0) d = -d; if (d > 1e-12) bad = 1} END {exit bad}'; }

"$sluice" generate rmat --scale 17 --edge-factor 16 --seed 9 -o g.el >/dev/null
mkdir d0 d1
"$sluice" convert g.el g.sluice --transpose --drives d0,d1 >/dev/null
for program in bfs wcc pagerank; do
  "$tools/sluice-$program" g.sluice --output "$program.full" --stats "$program.full.json" >/dev/null 2>&1
  wanted=$(json "$program.full.json" 'r["memory"]["by_default"]["total"]')
  # Below the floor: refused, naming it.
  expect_error 1 "does not fit in memory: needs at least" "$tools/sluice-$program" g.sluice --memory-limit 64k
  floor=$(grep -o 'needs at least [0-9.]* [KMG]iB' err.txt)
  # Halfway between the floor (rounded up) and what it would hold.
  limit=$(python3 -c 'import sys; v, u = sys.argv[1].split()[-2:]; f = float(v) * 1.01 * 1024 ** "KMG".index(u[0]) * 1024; print(int((f + int(sys.argv[2])) / 2))' "$floor" "$wanted")
  "$tools/sluice-$program" g.sluice --memory-limit "$limit" --output "$program.cut" --stats "$program.cut.json" >/dev/null 2> err.txt ||
    fail "$program under --memory-limit $limit ($floor): $(cat err.txt)"
  grep -q "fitted to .* of memory: IO buffers" err.txt || fail "$program did not say what it cut: $(cat err.txt)"
  held=$(json "$program.cut.json" 'r["memory"]["held"]["total"]')
  [ "$held" -le "$limit" ] || fail "$program holds $held bytes under a limit of $limit"
  [ "$held" -lt "$wanted" ] || fail "$program cut nothing ($held of $wanted)"
  same_values "$program.full" "$program.cut" || fail "$program under a memory limit gave another answer"
done
echo "memory: ok"
