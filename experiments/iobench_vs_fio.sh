#!/usr/bin/env bash
# sluice iobench against fio on the same file, same pattern, O_DIRECT,
# alternating the two (ROUNDS times) so the noise of a shared machine hits
# both; prints the median of each and the ratio.
#   experiments/iobench_vs_fio.sh [FILE] [SECONDS] [ROUNDS]
# FILE is created (4 GiB of written zeros) when it does not exist.
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:-/work/scratch/iobench.dat}
seconds=${2:-5}
rounds=${3:-3}
sluice=build/tools/sluice
command -v fio >/dev/null || { echo "needs fio (apt-get install fio)" >&2; exit 2; }
[ -x "$sluice" ] || { echo "build first: ./run.sh example" >&2; exit 2; }
if [ ! -e "$file" ]; then
  mkdir -p "$(dirname "$file")"
  dd if=/dev/zero of="$file" bs=1M count=4096 oflag=direct status=none
fi

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# fio's IOPS for one run (JSON output, read section).
fio_iops() {
  fio --name=b --filename="$file" --rw="$1" --bs="$2" --iodepth=32 --ioengine="$3" --direct=1 \
      --runtime="$seconds" --time_based --output-format=json 2>/dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["read"]["iops"])'
}
sluice_iops() {
  "$sluice" iobench --drives "$file" --pattern "$1" --block-size "$2" --io "$3" --queue-depth 32 --duration "$seconds" |
    sed -n 's/.*IOPS=\([0-9.]*\)k.*/\1/p' | awk '{print $1 * 1000}'
}

printf "%-7s %-10s %-6s %12s %12s %8s %12s\n" backend pattern block fio_IOPS sluice_IOPS ratio sluice_MB/s
for backend in uring aio; do
  fio_engine=$([ $backend = uring ] && echo io_uring || echo libaio)
  for spec in "random randread 4k" "sequential read 128k"; do
    set -- $spec
    f=(); s=()
    for ((r = 0; r < rounds; r++)); do
      f+=("$(fio_iops "$2" "$3" "$fio_engine")")
      s+=("$(sluice_iops "$1" "$3" "$backend")")
    done
    fm=$(printf "%s\n" "${f[@]}" | median)
    sm=$(printf "%s\n" "${s[@]}" | median)
    bytes=$([ "$3" = 4k ] && echo 4096 || echo 131072)
    printf "%-7s %-10s %-6s %12.0f %12.0f %8.3f %12.1f\n" $backend "$1" "$3" "$fm" "$sm" \
      "$(echo "$sm / $fm" | bc -l)" "$(echo "$sm * $bytes / 1000000" | bc -l)"
  done
done
