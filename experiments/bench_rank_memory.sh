#!/usr/bin/env bash
# Peak memory per rank: each program on R = 1, 2, 4, 8 ranks of one graph,
# every rank's peak RSS (GNU time's %M, the rank's process alone), against
# one process on the plain layout; and each rank's mirrors (its summary
# record), the vertices of other ranks its part reads.
#   experiments/bench_rank_memory.sh [WORK]      defaults build/rank-memory
# Graphs: uniform scale 22, edge factor 4 (many vertices per edge), and
# RMAT scale 22, edge factor 16; programs bfs, wcc, pagerank (classic, 10
# iterations), sssp. One compute thread per rank. Prints a Markdown table;
# the raw lines go to WORK/memory.jsonl. Delete WORK when done: about 6 GB.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$root/build/rank-memory}
tools=${SLUICE_TOOLS:-$root/build/tools}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
command -v /usr/bin/time > /dev/null || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }
mkdir -p "$work"
out=$work/memory.jsonl
: > "$out"
for graph in "uniform 22 4" "rmat 22 16"; do
  read -r kind scale factor <<< "$graph"
  name=$kind$scale-$factor
  el=$work/$name.el
  [ -e "$el" ] || "$tools/sluice" generate "$kind" --scale "$scale" --edge-factor "$factor" --seed 1 -o "$el" > /dev/null
  for ranks in 1 2 4 8; do
    layout=$work/$name-r$ranks.sluice
    [ "$ranks" = 1 ] && layout=$work/$name.sluice
    if [ ! -e "$layout" ]; then
      if [ "$ranks" = 1 ]; then
        mkdir -p "$work/drives/$name"
        "$tools/sluice" convert "$el" "$layout" --transpose --plain --drives "$work/drives/$name" > /dev/null
      else
        "$tools/sluice" convert "$el" "$layout" --transpose --plain --ranks "$ranks" --drives "$work/drives/$name-r$ranks/{rank}" > /dev/null
      fi
    fi
    for program in "bfs" "wcc" "pagerank --method classic --iterations 10 --tolerance 0" "sssp"; do
      short=${program%% *}
      rm -f "$work"/rss.* "$work/stats.jsonl"
      # shellcheck disable=SC2086
      if [ "$ranks" = 1 ]; then
        /usr/bin/time -f %M -o "$work/rss.0" "$tools/sluice-$short" "$layout" ${program#"$short"} --threads 1 --stats "$work/stats.jsonl" > /dev/null 2>&1
      else
        mpirun -np "$ranks" sh -c '/usr/bin/time -f %M -o "$0/rss.$OMPI_COMM_WORLD_RANK" "$@"' "$work" \
          "$tools/sluice-$short" "$layout" ${program#"$short"} --threads 1 --stats "$work/stats.jsonl" > /dev/null 2>&1
      fi
      rss=$(for r in $(seq 0 $((ranks - 1))); do tail -1 "$work/rss.$r"; done | paste -sd, -)
      mirrors=$(grep '^{"record":"summary"' "$work/stats.jsonl" | grep -o '"mirrors":[0-9]*' | cut -d: -f2 | paste -sd, - || true)
      echo "{\"graph\":\"$name\",\"vertices\":$((1 << scale)),\"program\":\"$short\",\"ranks\":$ranks,\"rss_kb\":[$rss],\"mirrors\":[${mirrors}]}" >> "$out"
      echo "$name $short R=$ranks: peak RSS (KB) $rss; mirrors ${mirrors:-none}" >&2
    done
  done
done
python3 - "$out" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
one = {(r["graph"], r["program"]): r["rss_kb"][0] for r in rows if r["ranks"] == 1}
print("| graph | program | ranks | peak RSS per rank (MB, least-most) | most / one process | mirrors per rank (most, share of V) |")
print("| --- | --- | --- | --- | --- | --- |")
for r in rows:
    rss = r["rss_kb"]
    mirrors = f"{max(r['mirrors']):,} ({max(r['mirrors']) / r['vertices']:.2f})" if r["mirrors"] else "-"
    print(f"| {r['graph']} | {r['program']} | {r['ranks']} | {min(rss) / 1e3:.0f}-{max(rss) / 1e3:.0f} | "
          f"{max(rss) / one[(r['graph'], r['program'])]:.2f} | {mirrors} |")
PY
