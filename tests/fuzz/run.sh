#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, ASan + UBSan) in
# build-fuzz, or in the build tree SLUICE_FUZZ_BUILD names (configured with
# -DSLUICE_FUZZ=ON, as ./run.sh test's sanitizer build is), makes seed
# corpora from small generated graphs in every format and from
# ../shared/data, and runs each target for SECONDS.
# Prints executions, corpus size and crashes per target; exits 1 if any
# target crashed (its reproducer is left in build-fuzz/artifacts/).
#
#   tests/fuzz/run.sh [SECONDS] [TARGET...]      default 60 s, every target
#
# Needs clang, libclang-rt-14-dev and libomp-14-dev (./run.sh test installs
# them) and build/tools/sluice for the seeds (./run.sh test builds it).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-60}
shift $(( $# > 0 ? 1 : 0 ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(text_edge_list matrix_market binary_edge_list sluice_layout blaze webgraph_bv)
fuzz=${SLUICE_FUZZ_BUILD:-$root/build-fuzz}
sluice=$root/build/tools/sluice
[ -x "$sluice" ] || { echo "tests/fuzz/run.sh: build the tools first (./run.sh test or ./run.sh example)" >&2; exit 2; }

if [ ! -f "$fuzz/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$fuzz" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSLUICE_FUZZ=ON \
    -DBUILD_TESTING=OFF >/dev/null
fi
cmake --build "$fuzz" -j "$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null

# Seeds: tiny graphs in every format; multi-file inputs are packed as the
# targets read them (a 32-bit little-endian length before every part but
# the last).
seeds=$fuzz/seeds
rm -rf "$seeds" && mkdir -p "$seeds"
pack() {  # pack OUT FILE... : length-prefixed parts
  perl -e 'my $out = shift; open(my $o, ">", $out) or die; binmode $o;
           for my $i (0 .. $#ARGV) { local $/; open(my $f, "<", $ARGV[$i]) or die; binmode $f; my $d = <$f>;
             print $o pack("V", length $d) if $i < $#ARGV; print $o $d; }' "$@"
}
prefix() {  # prefix OUT BYTE FILE : one selector byte, then the file
  { printf "\\x$(printf %02x "$2")"; cat "$3"; } > "$1"
}
(
  cd "$seeds"
  "$sluice" generate rmat --scale 6 --edge-factor 4 --seed 1 -o g.el >/dev/null
  "$sluice" generate rmat --scale 6 --edge-factor 4 --seed 2 --weighted -o w.wel >/dev/null
  printf '# Nodes: 5 Edges: 3\n0 1\n1 2\n# comment\n4 0\n' > snap.el
  "$sluice" convert g.el g.adj >/dev/null
  "$sluice" convert w.wel g.mtx >/dev/null
  "$sluice" convert g.el g.bel >/dev/null
  "$sluice" convert g.el g.bel64 >/dev/null
  mkdir -p s b
  "$sluice" convert g.el s/g.sluice --transpose >/dev/null
  "$sluice" convert g.el b/b.gr.index >/dev/null
  mkdir -p text_edge_list matrix_market binary_edge_list sluice_layout blaze webgraph_bv
  prefix text_edge_list/el 0 g.el
  prefix text_edge_list/snap 0 snap.el
  prefix text_edge_list/wel 1 w.wel
  prefix text_edge_list/adj 2 g.adj
  cp g.mtx matrix_market/
  printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n1 2\n3 1\n' > matrix_market/symmetric.mtx
  prefix binary_edge_list/bel 0 g.bel
  prefix binary_edge_list/bel64 1 g.bel64
  pack sluice_layout/layout s/g.sluice s/g.out.index s/g.in.index s/g.out.0 s/g.in.0
  pack blaze/blaze b/b.gr.index b/b.gr.adj.1.0
  for bv in "$root"/../shared/data/rmat14-bv/*.properties; do
    [ -f "$bv" ] && pack webgraph_bv/"$(basename "$bv" .properties)" "$bv" "${bv%.properties}.graph"
  done
  ls webgraph_bv | grep -q . || { printf 'nodes=0\narcs=0\n' > p; : > e; pack webgraph_bv/empty p e; }
)

mkdir -p "$fuzz/artifacts" "$fuzz/corpus"
crashed=0
printf "%-18s %12s %10s %8s %8s\n" target executions exec/s corpus crashes
for t in "${targets[@]}"; do
  corpus=$fuzz/corpus/$t
  mkdir -p "$corpus"
  log=$fuzz/artifacts/$t.log
  set +e
  "$fuzz/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$fuzz/artifacts/$t-" "$corpus" "$seeds/$t" > "$log" 2>&1
  code=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  size=$(ls "$corpus" | wc -l)
  crashes=0
  if [ "$code" -ne 0 ]; then
    crashes=1
    crashed=1
    grep -E "ERROR|SUMMARY|==[0-9]+==" "$log" | head -5 >&2
  fi
  printf "%-18s %12s %10s %8s %8s\n" "$t" "${runs:-?}" "${speed:-?}" "$size" "$crashes"
done
exit $crashed
