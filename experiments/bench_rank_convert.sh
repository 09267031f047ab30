#!/usr/bin/env bash
# Conversion by the ranks against one machine: for R = 1, 2, 4, the
# one-machine `sluice convert --ranks R`, and `mpirun -np R sluice convert`
# reading one input every rank reads and reading a file per rank (the edge
# list cut into R shares of lines). Each: wall time, every process's peak
# RSS (GNU time's %M), and the edge bytes the ranks sent one another.
#   experiments/bench_rank_convert.sh [WORK]      defaults build/rank-convert
# SCALE (default 22) sets the RMAT graph (edge factor 16, --transpose);
# ROUNDS (default 1) repeats each conversion, keeping the fastest. Prints
# a Markdown table; raw lines go to WORK/convert.jsonl. The work directory
# peaks near 5 GB at scale 22: delete it when done.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$root/build/rank-convert}
tools=${SLUICE_TOOLS:-$root/build/tools}
scale=${SCALE:-22}
rounds=${ROUNDS:-1}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
command -v /usr/bin/time > /dev/null || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }
mkdir -p "$work"
out=$work/convert.jsonl
: > "$out"
el=$work/rmat$scale.el
[ -e "$el" ] || "$tools/sluice" generate rmat --scale "$scale" --edge-factor 16 --seed 1 -o "$el" > /dev/null

for ranks in 1 2 4; do
  # The shares: the edge list's lines in R consecutive pieces.
  rm -f "$work"/share.*
  split -n "l/$ranks" -d -a 3 "$el" "$work/share."
  for i in $(seq 0 $((ranks - 1))); do mv "$work/share.$(printf %03d "$i")" "$work/share.$i.el"; done
  for how in one-machine one-input shares; do
    best=
    for _ in $(seq "$rounds"); do
      rm -rf "$work/out" "$work"/rss.* && mkdir -p "$work/out"
      log=$work/convert.log
      start=$(date +%s.%N)
      case $how in
        one-machine)
          /usr/bin/time -f %M -o "$work/rss.0" "$tools/sluice" convert "$el" "$work/out/g.sluice" --transpose --plain --ranks "$ranks" \
            --drives "$work/out/{rank}" > "$log" 2>&1 ;;
        one-input)
          mpirun -np "$ranks" sh -c '/usr/bin/time -f %M -o "$0/rss.$OMPI_COMM_WORLD_RANK" "$@"' "$work" \
            "$tools/sluice" convert "$el" "$work/out/g.sluice" --transpose --plain --ranks "$ranks" --drives "$work/out/{rank}" > "$log" 2>&1 ;;
        shares)
          mpirun -np "$ranks" sh -c '/usr/bin/time -f %M -o "$0/rss.$OMPI_COMM_WORLD_RANK" "$@"' "$work" \
            "$tools/sluice" convert "$work/share.{rank}.el" "$work/out/g.sluice" --transpose --plain --ranks "$ranks" \
            --drives "$work/out/{rank}" > "$log" 2>&1 ;;
      esac
      seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.3f", b - a}')
      best=$(awk -v a="${best:-1e9}" -v b="$seconds" 'BEGIN {print (b < a ? b : a)}')
    done
    processes=$([ "$how" = one-machine ] && echo 1 || echo "$ranks")
    rss=$(for r in $(seq 0 $((processes - 1))); do tail -1 "$work/rss.$r"; done | paste -sd, -)
    sent=$(grep -o '[0-9.]* [KMG]*i*B of edges sent' "$log" | cut -d' ' -f1,2 || true)
    echo "{\"scale\":$scale,\"ranks\":$ranks,\"how\":\"$how\",\"seconds\":$best,\"rss_kb\":[$rss],\"sent\":\"${sent:-0 B}\"}" >> "$out"
    echo "R=$ranks $how: ${best} s, peak RSS (KB) $rss, sent ${sent:-none}" >&2
  done
done
rm -rf "$work/out" "$work"/share.* "$work"/rss.*
python3 - "$out" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
one = {r["ranks"]: r for r in rows if r["how"] == "one-machine"}
print("| ranks | how | wall (s) | / one machine | peak RSS per process (MB, least-most) | edges sent between ranks |")
print("| --- | --- | --- | --- | --- | --- |")
for r in rows:
    rss = r["rss_kb"]
    print(f"| {r['ranks']} | {r['how']} | {r['seconds']:.1f} | {r['seconds'] / one[r['ranks']]['seconds']:.2f} | "
          f"{min(rss) / 1e3:.0f}-{max(rss) / 1e3:.0f} | {r['sent']} |")
PY
