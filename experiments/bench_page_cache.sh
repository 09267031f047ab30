#!/usr/bin/env bash
# The page cache (--page-cache) from disk, alternating:
#   1. SSSP (bucket width DELTA, default 1: many buckets that come back to
#      the same pages) on a weighted RMAT graph, plain and compressed
#      pages, for each cache size in SIZES;
#   2. PageRank 10 (classic) on an unweighted RMAT graph with its
#      transpose, without a cache, with one that holds the in-edges, and
#      with --io memory.
# Prints one line a run: seconds, MB read, pages taken from the cache
# (summed over the run's EDGEMAPs, from --stats), peak RSS (MiB).
#
#   [SIZES="0 128m 256m 512m 1g"] [DELTA=1] experiments/bench_page_cache.sh [SCALE] [ROUNDS] [WORK]
#   defaults 22 2 build/page-cache (about 1.1 GB of layouts at scale 22)
set -euo pipefail
scale=${1:-22}
rounds=${2:-2}
root=$(cd "$(dirname "$0")/.." && pwd)
work=${3:-$root/build/page-cache}
tools=$root/build/tools
sizes=${SIZES:-0 128m 256m 512m 1g}
delta=${DELTA:-1}
command -v /usr/bin/time > /dev/null || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }
mkdir -p "$work/drive"
cd "$work"
[ -e wplain.sluice ] || "$tools/sluice" generate rmat --scale "$scale" --weighted --plain -o wplain.sluice --drives "$work/drive" > /dev/null
[ -e wcompressed.sluice ] || "$tools/sluice" generate rmat --scale "$scale" --weighted -o wcompressed.sluice --drives "$work/drive" > /dev/null
[ -e g.sluice ] || "$tools/sluice" generate rmat --scale "$scale" --transpose -o g.sluice --drives "$work/drive" > /dev/null
# run NAME PROGRAM ARGS...: one line for the run.
run() {
  local name=$1
  shift
  /usr/bin/time -f %M -o rss.txt "$@" --stats stats.json > out.txt 2>&1 || { echo "$name failed: $(tail -3 out.txt)" >&2; exit 1; }
  python3 - "$name" stats.json "$(tail -1 rss.txt)" <<'PY'
import json, sys
records = [json.loads(line) for line in open(sys.argv[2])]
summary = [r for r in records if r["record"] == "summary"][-1]
maps = [r for r in records if r["record"] == "edgemap"]
print(f"{sys.argv[1]:<36} {summary['seconds']:8.3f} s {summary['bytes_read'] / 1e6:10.1f} MB read "
      f"{sum(r['cached_pages'] for r in maps):9d} pages cached {int(sys.argv[3]) / 1024:8.0f} MiB peak")
PY
}
source=$("$tools/sluice-sssp" wplain.sluice -n 1 2> /dev/null | sed -n 's/.*source \([0-9]*\) reached.*/\1/p' | head -1)
for round in $(seq "$rounds"); do
  echo "# round $round"
  for size in $sizes; do
    for pages in plain compressed; do
      run "sssp $pages --page-cache $size" "$tools/sluice-sssp" "w$pages.sluice" -n 1 --source "$source" --delta "$delta" --page-cache "$size"
    done
  done
  for flags in "--page-cache 0" "--page-cache 320m" "--io memory"; do
    # shellcheck disable=SC2086  # the flags split into words
    run "pagerank10 $flags" "$tools/sluice-pagerank" g.sluice -n 1 --method classic --iterations 10 --tolerance 0 $flags
  done
done
