#!/usr/bin/env bash
# Thread scaling: BFS, WCC (GAPBS's cc) and PageRank 10 (classic) on RMAT
# SCALE, edge factor 16, sluice on its default (compressed) layout from
# disk and in memory (--io memory), and GAPBS in memory on the same edges,
# at each thread count of THREADS; kernel seconds, medians of ROUNDS
# alternating rounds (the order of the systems reversed every other one).
#   experiments/bench_threads.sh WORK [SCALE]            SCALE defaults to 22
# Environment: SLUICE_TOOLS (build/tools), GAPBS (build/peers/gapbs, with
# its bfs, cc, pr and converter), THREADS ("1 2 4 8 16", those above
# nproc dropped), ROUNDS (3), RUN (a prefix for every command, such as a
# dynamic loader and its library path). Prints a Markdown table; the raw
# lines go to WORK/threads.jsonl. Delete WORK when done: about 3 GB at 22.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:?usage: bench_threads.sh WORK [SCALE]}
scale=${2:-22}
tools=${SLUICE_TOOLS:-$root/build/tools}
gapbs=${GAPBS:-$root/build/peers/gapbs}
rounds=${ROUNDS:-3}
run=${RUN:-}
cores=$(nproc)
threads=
for t in ${THREADS:-1 2 4 8 16}; do [ "$t" -le "$cores" ] && threads="$threads $t"; done
mkdir -p "$work/drive"
el=$work/rmat$scale.el layout=$work/rmat$scale.sluice sg=$work/rmat$scale.sg
start=$(date +%s)
# shellcheck disable=SC2086
[ -e "$el" ] || $run "$tools/sluice" generate rmat --scale "$scale" --edge-factor 16 --seed 1 -o "$el" > /dev/null
# shellcheck disable=SC2086
[ -e "$layout" ] || $run "$tools/sluice" convert "$el" "$layout" --transpose --drives "$work/drive" > /dev/null 2>&1
# shellcheck disable=SC2086
if [ ! -e "$sg" ]; then  # GAPBS's reader takes no comment lines
  grep -v '^#' "$el" > "$work/gapbs.el"
  # shellcheck disable=SC2086
  $run "$gapbs/converter" -f "$work/gapbs.el" -b "$sg" > /dev/null
  rm "$work/gapbs.el"
fi
echo "graphs ready in $(( $(date +%s) - start )) s on $cores cores" >&2
# BFS starts where sluice's default source is, for both.
# shellcheck disable=SC2086
source=$($run "$tools/sluice-bfs" "$layout" --io memory -t "$cores" | sed -n 's/.*source \([0-9]*\) reached.*/\1/p')
out=$work/threads.jsonl
: > "$out"
sluice_seconds() { sed -n 's/^[a-z-]* [^:]*: \([0-9.]*\) s, .*/\1/p' | head -1; }
gapbs_seconds() { sed -n 's/^Trial Time: *\([0-9.]*\).*/\1/p' | head -1; }
measure() {  # SYSTEM ALGORITHM THREADS: kernel seconds
  local system=$1 algorithm=$2 t=$3
  case $system in
    gapbs)
      case $algorithm in
        bfs) OMP_NUM_THREADS=$t $run "$gapbs/bfs" -f "$sg" -r "$source" -n 1 ;;
        wcc) OMP_NUM_THREADS=$t $run "$gapbs/cc" -f "$sg" -n 1 ;;
        pagerank) OMP_NUM_THREADS=$t $run "$gapbs/pr" -f "$sg" -i 10 -t 0 -n 1 ;;
      esac | gapbs_seconds ;;
    *)
      local io=()
      [ "$system" = "sluice-memory" ] && io=(--io memory)
      local flags=()
      [ "$algorithm" = bfs ] && flags=(--source "$source")
      [ "$algorithm" = pagerank ] && flags=(--method classic --iterations 10 --tolerance 0)
      $run "$tools/sluice-$algorithm" "$layout" -t "$t" "${io[@]}" "${flags[@]}" | sluice_seconds ;;
  esac
}
systems=(sluice-disk sluice-memory gapbs)
for round in $(seq "$rounds"); do
  order=("${systems[@]}")
  [ $((round % 2)) = 0 ] && order=(gapbs sluice-memory sluice-disk)
  for t in $threads; do
    for algorithm in bfs wcc pagerank; do
      for system in "${order[@]}"; do
        seconds=$(measure "$system" "$algorithm" "$t")
        echo "{\"round\":$round,\"threads\":$t,\"algorithm\":\"$algorithm\",\"system\":\"$system\",\"seconds\":${seconds:-null}}" >> "$out"
        echo "round $round, $t threads, $algorithm, $system: ${seconds:-failed} s" >&2
      done
    done
  done
done
python3 - "$out" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
def median(t, a, s):
    values = [r["seconds"] for r in rows if (r["threads"], r["algorithm"], r["system"]) == (t, a, s) and r["seconds"] is not None]
    return statistics.median(values) if values else None
threads = sorted({r["threads"] for r in rows})
print("| algorithm | threads | sluice disk s | sluice memory s | GAPBS s | disk / GAPBS | memory / GAPBS | sluice disk speedup | sluice memory speedup | GAPBS speedup |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for a in ("bfs", "wcc", "pagerank"):
    one = {s: median(threads[0], a, s) for s in ("sluice-disk", "sluice-memory", "gapbs")}
    for t in threads:
        m = {s: median(t, a, s) for s in ("sluice-disk", "sluice-memory", "gapbs")}
        if None in m.values():
            print(f"| {a} | {t} | (a run failed) |")
            continue
        speed = lambda s: f"{one[s] / m[s]:.2f}" if m[s] else "-"
        ratio = lambda s: f"{m[s] / m['gapbs']:.2f}" if m["gapbs"] else "-"
        print(f"| {a} | {t} | {m['sluice-disk']:.3f} | {m['sluice-memory']:.3f} | {m['gapbs']:.3f} | {ratio('sluice-disk')} | "
              f"{ratio('sluice-memory')} | {speed('sluice-disk')} | {speed('sluice-memory')} | {speed('gapbs')} |")
PY
