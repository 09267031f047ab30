#!/usr/bin/env bash
# sluice iobench against fio on the same file, same pattern, O_DIRECT,
# queue depth 32. Every round runs fio, sluice, and fio again, in that
# order, so the drift of a shared disk hits all three. Prints the median
# IOPS and the medians of the per-round ratios sluice/fio and, as the noise
# floor of the method, fio/fio (the second fio run against the first).
#
# Blocks must be equally warm for both: this machine's virtual disk is
# backed by the host's page cache, where a block read before comes back
# ~5x faster. fio's default (randrepeat) reads the same blocks in every
# run, whatever --randseed says, so it would warm its own blocks and not
# sluice's. Here the whole file is read once before each pattern (which
# warms all of it), fio draws a new sequence every run (--randrepeat=0) and
# sluice a new --seed.
#   experiments/iobench_vs_fio.sh [FILE] [SECONDS] [ROUNDS]
# FILE is created (4 GiB of written zeros) when it does not exist.
# Per-round figures go to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:-/work/scratch/iobench.dat}
seconds=${2:-2}
rounds=${3:-9}
sluice=build/tools/sluice
command -v fio >/dev/null || { echo "needs fio (apt-get install fio)" >&2; exit 2; }
[ -x "$sluice" ] || { echo "build first: ./run.sh example" >&2; exit 2; }
if [ ! -e "$file" ]; then
  mkdir -p "$(dirname "$file")"
  dd if=/dev/zero of="$file" bs=1M count=4096 oflag=direct status=none
fi

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
seed() { echo $((RANDOM * 32768 + RANDOM + 1)); }
# fio's IOPS for one run (JSON output, read section): RW BS ENGINE
fio_iops() {
  fio --name=b --filename="$file" --rw="$1" --bs="$2" --iodepth=32 --ioengine="$3" --direct=1 \
      --runtime="$seconds" --time_based --randrepeat=0 --output-format=json 2>/dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["read"]["iops"])'
}
# sluice's IOPS for one run: PATTERN BS BACKEND
sluice_iops() {
  "$sluice" iobench --drives "$file" --pattern "$1" --block-size "$2" --io "$3" --queue-depth 32 --duration "$seconds" \
      --seed "$(seed)" | sed -n 's/.*IOPS=\([0-9]*\),.*/\1/p'
}

printf "%-7s %-10s %-6s %10s %12s %13s %9s %12s\n" backend pattern block fio_IOPS sluice_IOPS sluice/fio fio/fio sluice_MB/s
for backend in uring aio; do
  fio_engine=$([ $backend = uring ] && echo io_uring || echo libaio)
  for spec in "random randread 4k" "sequential read 128k"; do
    set -- $spec
    dd if="$file" of=/dev/null bs=1M iflag=direct status=none
    f=(); s=(); q=(); c=()
    for ((r = 0; r < rounds; r++)); do
      a=$(fio_iops "$2" "$3" "$fio_engine")
      b=$(sluice_iops "$1" "$3" "$backend")
      a2=$(fio_iops "$2" "$3" "$fio_engine")
      f+=("$a" "$a2"); s+=("$b")
      q+=("$(echo "2 * $b / ($a + $a2)" | bc -l)")
      c+=("$(echo "$a2 / $a" | bc -l)")
      printf "  %s %s %s round %d: fio %.0f, sluice %.0f, fio %.0f\n" $backend "$1" "$3" $r "$a" "$b" "$a2" >&2
    done
    fm=$(printf "%s\n" "${f[@]}" | median)
    sm=$(printf "%s\n" "${s[@]}" | median)
    qm=$(printf "%s\n" "${q[@]}" | median)
    cm=$(printf "%s\n" "${c[@]}" | median)
    bytes=$([ "$3" = 4k ] && echo 4096 || echo 131072)
    printf "%-7s %-10s %-6s %10.0f %12.0f %13.3f %9.3f %12.1f\n" $backend "$1" "$3" "$fm" "$sm" "$qm" "$cm" \
      "$(echo "$sm * $bytes / 1000000" | bc -l)"
  done
done
