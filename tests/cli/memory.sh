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
# PageRank's method is given: its automatic one changes with the limit (below).
declare -A given=([bfs]="" [wcc]="" [pagerank]="--method delta")
for program in bfs wcc pagerank; do
  # shellcheck disable=SC2086  # the flags split into words
  set -- ${given[$program]}
  "$tools/sluice-$program" g.sluice "$@" --output "$program.full" --stats "$program.full.json" >/dev/null 2>&1
  wanted=$(json "$program.full.json" 'r["memory"]["by_default"]["total"]')
  # Below the floor: refused, naming it.
  expect_error 1 "does not fit in memory: needs at least" "$tools/sluice-$program" g.sluice "$@" --memory-limit 64k
  floor=$(grep -o 'needs at least [0-9.]* [KMG]iB' err.txt)
  # Halfway between the floor (rounded up) and what it would hold.
  limit=$(python3 -c 'import sys; v, u = sys.argv[1].split()[-2:]; f = float(v) * 1.01 * 1024 ** "KMG".index(u[0]) * 1024; print(int((f + int(sys.argv[2])) / 2))' "$floor" "$wanted")
  "$tools/sluice-$program" g.sluice "$@" --memory-limit "$limit" --output "$program.cut" --stats "$program.cut.json" >/dev/null 2> err.txt ||
    fail "$program under --memory-limit $limit ($floor): $(cat err.txt)"
  grep -q "fitted to .* of memory: IO buffers" err.txt || fail "$program did not say what it cut: $(cat err.txt)"
  held=$(json "$program.cut.json" 'r["memory"]["held"]["total"]')
  [ "$held" -le "$limit" ] || fail "$program holds $held bytes under a limit of $limit"
  [ "$held" -lt "$wanted" ] || fail "$program cut nothing ($held of $wanted)"
  same_values "$program.full" "$program.cut" || fail "$program under a memory limit gave another answer"
done

# PageRank's automatic method: delta where its arrays fit beside the
# engine's floor, classic (4 bytes a vertex less) where only classic's do.
mib() { python3 -c 'import sys; v, u = sys.argv[1].split()[-2:]; print(float(v) * 1024 ** "KMG".index(u[0]) * 1024)' "$1"; }
expect_error 1 "does not fit in memory: needs at least" "$tools/sluice-pagerank" g.sluice --memory-limit 64k
classic_floor=$(mib "$(grep -o 'needs at least [0-9.]* [KMG]iB' err.txt)")
expect_error 1 "does not fit in memory: needs at least" "$tools/sluice-pagerank" g.sluice --method delta --memory-limit 64k
delta_floor=$(mib "$(grep -o 'needs at least [0-9.]* [KMG]iB' err.txt)")
between=$(python3 -c 'import sys; print(int((float(sys.argv[1]) + float(sys.argv[2])) / 2))' "$classic_floor" "$delta_floor")
"$tools/sluice-pagerank" g.sluice --method classic --output classic.full >/dev/null 2>&1
"$tools/sluice-pagerank" g.sluice --memory-limit "$between" --output auto.cut --stats auto.cut.json > out.txt 2> err.txt ||
  fail "pagerank under --memory-limit $between, between classic's and delta's floors: $(cat err.txt)"
grep -q "classic: delta's arrays did not fit the memory limit" out.txt || fail "pagerank did not say it ran classic: $(cat out.txt)"
grep -q '"method":"classic"' auto.cut.json || fail "the summary record does not name classic"
same_values classic.full auto.cut || fail "pagerank's automatic classic differs from --method classic"
"$tools/sluice-pagerank" g.sluice --memory-limit "$(python3 -c 'import sys; print(int(float(sys.argv[1]) * 1.01))' "$delta_floor")" \
  --output auto.roomy --stats auto.roomy.json > out.txt 2>&1 || fail "pagerank above delta's floor: $(cat out.txt)"
grep -q '"method":"delta"' auto.roomy.json || fail "pagerank above delta's floor did not run delta"
same_values pagerank.full auto.roomy || fail "pagerank's automatic delta differs from --method delta"
# --page-cache: the same answers, pages taken from DRAM once a first
# EDGEMAP has read them, the cache counted in the budget and under the
# limit; one that does not fit the limit beside the floor is refused.
"$sluice" generate rmat --scale 14 --edge-factor 8 --seed 3 --weighted -o w.el >/dev/null
mkdir dw
"$sluice" convert w.el w.sluice --drives dw >/dev/null
"$tools/sluice-sssp" w.sluice --source 0 --output sssp.full >/dev/null 2>&1
for cache in 16k 64m; do
  "$tools/sluice-sssp" w.sluice --source 0 --page-cache "$cache" --output "sssp.$cache" --stats "sssp.$cache.json" >/dev/null 2> err.txt ||
    fail "sssp --page-cache $cache: $(cat err.txt)"
  same_values sssp.full "sssp.$cache" || fail "sssp with --page-cache $cache gave another answer"
  [ "$(json "sssp.$cache.json" 'r["memory"]["held"]["page_cache"] > 0')" = True ] || fail "the run record does not count --page-cache $cache"
  python3 -c 'import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
maps = [r for r in records if r["record"] == "edgemap"]
cached = sum(r["cached_pages"] for r in maps)
assert cached > 0, "no page came from the cache"
if sys.argv[2] == "64m":  # holds every page: each is read once at most
    pages = sum(r["bytes_read"] for r in maps) // 4096
    assert pages <= records[0]["edges"], pages
' "sssp.$cache.json" "$cache" || fail "sssp --page-cache $cache: the statistics do not show the cache at work"
done
expect_error 1 "does not fit in memory: .*, page cache " "$tools/sluice-sssp" w.sluice --page-cache 64m --memory-limit 64k
expect_error 2 "option .--page-cache. is not a size in bytes" "$tools/sluice-sssp" w.sluice --page-cache lots
echo "memory: ok"
