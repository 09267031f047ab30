#!/usr/bin/env bash
# The programs on several MPI ranks: `sluice convert --ranks R`
# and `mpirun -np R sluice-NAME`, for R = 1, 2, 3, 4 on one 2-core machine,
# give what one process gives: BFS depths and WCC labels byte for byte,
# PageRank within 1e-12 in L1, SpMV and BC within the sums' rounding,
# SSSP distances and k-cores byte for byte, JT-CC (over the edge list,
# each rank a share of its blocks) equal to WCC.
# Graphs: RMAT, uniform, a star, a chain, one whose upper ranks own no
# edges, and cnr-2000; every IO backend; one and two drives per rank. And
# the refusals: a wrong rank count, a part alone, a missing or foreign
# part, a plain layout on several ranks, a program that cannot run on them;
# a killed rank ends the job within 30 s, leaving no output.
set -euo pipefail
tools=$1
data=$2
. "$(dirname "$0")/lib.sh"
command -v mpirun > /dev/null || fail "mpirun is missing: install openmpi-bin (run.sh does)"
# CI runs as root, where OpenMPI wants to be told; more ranks than cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# OpenMPI's own allocations are still held at exit: LeakSanitizer's reports
# of them are not sluice's.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
mpi() { timeout 120 mpirun -np "$@"; }
# rank_pid JOB PROGRAM RANK: the process id of PROGRAM's rank RANK in
# the mpirun started in the background as JOB (empty until it started).
# By the rank mpirun gave it, not by process id order, which wraps.
rank_pid() {
  local launcher pid
  launcher=$(pgrep -P "$1" | head -1 || true)
  [ -n "$launcher" ] || return 0
  for pid in $(pgrep -P "$launcher" -x "$2" || true); do
    if tr '\0' '\n' < "/proc/$pid/environ" 2> /dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$3"; then
      echo "$pid"
      return 0
    fi
  done
}

# kill_a_rank JOB PROGRAM SECONDS: once the mpirun started in the
# background as JOB has started PROGRAM's rank 1, SIGKILLs it SECONDS
# later and waits for the job; its exit status is left in $code.
kill_a_rank() {
  local job=$1 program=$2 delay=$3 victim=
  set +e
  for _ in $(seq 100); do
    victim=$(rank_pid "$job" "$program" 1)
    [ -n "$victim" ] && break
    sleep 0.1
  done
  sleep "$delay"
  kill -9 "$victim"
  wait "$job"
  code=$?
  set -e
}

# l1 A B: the L1 distance of two value files.
l1() { paste "$1" "$2" | awk '{d = $1 - $2; if (d < 0) d = -d; s += d} END {printf "%.3g\n", s}'; }
within() { awk -v d="$1" -v limit="$2" 'BEGIN {exit !(d <= limit)}'; }
# relative A B: the L1 distance over the L1 norm of A (BC's scores reach 1e5).
relative() { paste "$1" "$2" | awk '{d = $1 - $2; if (d < 0) d = -d; s += d; a = $1 < 0 ? -$1 : $1; n += a} END {printf "%.3g\n", n ? s / n : s}'; }

# one PROGRAM ARGS...: the file of the one-process program's --output,
# run once per program, graph and flags (each rank count compares to it).
one() {
  local program=$1
  shift
  local file
  file=one-$(echo "$program $*" | md5sum | cut -c1-16).out
  [ -e "$file" ] || "$tools/sluice-$program" "$@" --output "$file" > /dev/null 2>&1
  echo "$file"
}

# same_results NAME GRAPH R [engine flags]: every distributed program on an
# R-rank layout of GRAPH against one process on a one-part layout of
# plain pages. The ranked layout has the default, compressed pages, and on
# 2 ranks plain ones.
same_results() {
  local name=$1 graph=$2 ranks=$3
  shift 3
  local plain=$name.sluice ranked=$name-r$ranks.sluice pages=
  [ "$ranks" -eq 2 ] && pages=--plain
  [ -e "$plain" ] || "$tools/sluice" convert "$graph" "$plain" --transpose --plain > /dev/null
  "$tools/sluice" convert "$graph" "$ranked" --transpose --ranks "$ranks" --drives "drives/$name/{rank}/a,drives/$name/{rank}/b" $pages > /dev/null
  mpi "$ranks" "$tools/sluice-bfs" "$ranked" --output many.bfs "$@" > bfs.out 2>&1
  cmp -s "$(one bfs "$plain" "$@")" many.bfs || fail "$name, $ranks ranks $*: bfs depths differ"
  [ "$(grep -c "^bfs $ranked: .* iterations" bfs.out)" -eq 1 ] || fail "$name: the summary line is not printed once: $(cat bfs.out)"
  mpi "$ranks" "$tools/sluice-wcc" "$ranked" --output many.wcc "$@" > /dev/null 2>&1
  cmp -s "$(one wcc "$plain" "$@")" many.wcc || fail "$name, $ranks ranks $*: wcc labels differ"
  local method
  for method in "--method classic" "--method delta" "--method classic --shares float"; do
    mpi "$ranks" "$tools/sluice-pagerank" "$ranked" $method --output many.pr "$@" > /dev/null 2>&1
    local d
    d=$(l1 "$(one pagerank "$plain" $method "$@")" many.pr)
    within "$d" 1e-12 || fail "$name, $ranks ranks $*: pagerank $method differs by $d in L1"
  done
  for product in --transposed ""; do
    mpi "$ranks" "$tools/sluice-spmv" "$ranked" $product --output many.y "$@" > /dev/null 2>&1
    d=$(relative "$(one spmv "$plain" $product "$@")" many.y)
    within "$d" 1e-12 || fail "$name, $ranks ranks $*: spmv $product differs by $d of its L1 norm"
  done
  mpi "$ranks" "$tools/sluice-bc" "$ranked" --output many.bc "$@" > /dev/null 2>&1
  d=$(relative "$(one bc "$plain" "$@")" many.bc)
  within "$d" 1e-12 || fail "$name, $ranks ranks $*: bc differs by $d of its L1 norm"
  mpi "$ranks" "$tools/sluice-sssp" "$ranked" --delta 2 --output many.sssp "$@" > /dev/null 2>&1
  cmp -s "$(one sssp "$plain" --delta 2 "$@")" many.sssp || fail "$name, $ranks ranks $*: sssp distances differ"
  # JT-CC reads any format: each rank a share of the same file's blocks.
  mpi "$ranks" "$tools/sluice-jtcc" "$graph" --output many.jtcc > /dev/null 2>&1
  cmp -s "$(one wcc "$plain" "$@")" many.jtcc || fail "$name, $ranks ranks: jtcc labels differ from wcc's"
}

# same_cores NAME GRAPH R: k-core on an undirected graph (no transpose
# needed), the ranks on compressed pages, one process on plain ones.
same_cores() {
  local name=$1 graph=$2 ranks=$3
  [ -e "$name-sym.sluice" ] || "$tools/sluice" convert "$graph" "$name-sym.sluice" --symmetrize --plain > /dev/null
  "$tools/sluice" convert "$graph" "$name-sym-r$ranks.sluice" --symmetrize --ranks "$ranks" > /dev/null
  mpi "$ranks" "$tools/sluice-kcore" "$name-sym-r$ranks.sluice" --output many.core > /dev/null 2>&1
  cmp -s "$(one kcore "$name-sym.sluice")" many.core || fail "$name, $ranks ranks: kcore differs"
  mpi "$ranks" "$tools/sluice-mis" "$name-sym-r$ranks.sluice" --output many.mis > /dev/null 2>&1
  cmp -s "$(one mis "$name-sym.sluice")" many.mis || fail "$name, $ranks ranks: mis differs"
  mpi "$ranks" "$tools/sluice-radii" "$name-sym-r$ranks.sluice" --output many.radii > /dev/null 2>&1
  cmp -s "$(one radii "$name-sym.sluice")" many.radii || fail "$name, $ranks ranks: radii differs"
  if [ "$ranks" -gt 1 ]; then
    mpi "$ranks" "$tools/sluice-tc" "$name-sym-r$ranks.sluice" > tc.out 2>&1 && fail "$name, $ranks ranks: tc ran"
    grep -q "tc does not run on ranks: it intersects whole neighbour lists" tc.out || fail "$name, $ranks ranks: tc's refusal: $(cat tc.out)"
  fi
  # WCC on a symmetric layout split without --transpose: no part has a CSC.
  mpi "$ranks" "$tools/sluice-wcc" "$name-sym-r$ranks.sluice" --output many.wcc > /dev/null 2>&1
  cmp -s "$(one wcc "$name-sym.sluice")" many.wcc || fail "$name, $ranks ranks: wcc on the symmetric layout differs"
}

mkdir drives
"$tools/sluice" generate rmat --scale 11 --edge-factor 8 --seed 5 --weighted -o rmat.el > /dev/null
"$tools/sluice" generate uniform --scale 10 --edge-factor 6 --seed 2 -o uniform.el > /dev/null
{ echo "# a star: 0 -> every other vertex, and back"; for v in $(seq 1 300); do echo "0 $v"; echo "$v 0"; done; } > star.el
{ echo "# a chain"; for v in $(seq 0 400); do echo "$v $((v + 1))"; done; } > chain.el
# Edges among the first ten vertices only, out of 300: the upper ranks own
# vertices but not one edge.
{ echo "# Nodes: 300"; for u in $(seq 0 9); do for v in $(seq 0 9); do [ "$u" = "$v" ] || echo "$u $v"; done; done; } > lopsided.el

# Conversion by the ranks: `mpirun -np R sluice convert`, every rank
# reading its share of the input and writing its own part, writes the
# layout the one-machine `sluice convert --ranks R` writes, file for file
# (with the layout id fixed: the page checksums are seeded with it).
# by_ranks R INPUT [options]: the two, compared; INPUT may name {rank}
# (each rank's own share), against the whole graph in $whole.
by_ranks() {
  local ranks=$1 input=$2
  shift 2
  rm -rf conv conv-ref && mkdir conv
  SLUICE_LAYOUT_ID=$fixed_id "$tools/sluice" convert "${whole:-$input}" conv/g.sluice --ranks "$ranks" \
    --drives 'conv/{rank}/a,conv/{rank}/b' "$@" > /dev/null 2> conv.err || fail "convert --ranks $ranks $*: $(cat conv.err)"
  mv conv conv-ref && mkdir conv
  SLUICE_LAYOUT_ID=$fixed_id mpi "$ranks" "$tools/sluice" convert "$input" conv/g.sluice --ranks "$ranks" \
    --drives 'conv/{rank}/a,conv/{rank}/b' "$@" > conv.out 2>&1 || fail "mpirun -np $ranks sluice convert $input $*: $(cat conv.out)"
  grep -q "^converted .* by $ranks ranks: .* edges sent between ranks" conv.out || fail "no summary line from the ranks: $(cat conv.out)"
  diff -r conv-ref conv > /dev/null || fail "$input converted by $ranks ranks $* differs from one machine's: $(diff -rq conv-ref conv | head -3)"
  ls conv | grep -q '\.tmp-' && fail "$input by $ranks ranks $*: temporaries left: $(ls conv | grep '\.tmp-')"
  return 0
}
fixed_id=0123456789abcdef0123456789abcdef
by_ranks 3 rmat.el --transpose --plain
by_ranks 3 rmat.el --transpose --relabel --compress
by_ranks 2 uniform.el --transpose --reorder degree --wide-ids
# Binary edge lists: each rank reads its share of the pairs.
"$tools/sluice" convert uniform.el uniform.bel > /dev/null
"$tools/sluice" convert uniform.el uniform.bel64 > /dev/null
by_ranks 3 uniform.bel --transpose --compress
by_ranks 2 uniform.bel64 --transpose --plain
# A share too large for the limit is read window by window onto scratch files.
"$tools/sluice" generate rmat --scale 13 --edge-factor 256 --seed 8 -o dense.bel > /dev/null
by_ranks 2 dense.bel --memory-limit 16m
grep -q "scratch files in conv$" conv.out || fail "the ranks read their shares of dense.bel in memory: $(cat conv.out)"
rm dense.bel
by_ranks 4 chain.el --compress --sample-edges 4 --memory-limit 24m
by_ranks 1 lopsided.el --transpose
# Parts past half the limit are built on scratch files.
"$tools/sluice" generate rmat --scale 17 --edge-factor 16 --seed 8 -o big.el > /dev/null
by_ranks 2 big.el --transpose --memory-limit 40m
# Shares of one edge list, a file per rank: together, the whole file.
total=$(wc -l < rmat.el)
head -n $((total / 3)) rmat.el > rmat.share0.el
sed -n "$((total / 3 + 1)),$((2 * total / 3))p" rmat.el > rmat.share1.el
tail -n +$((2 * total / 3 + 1)) rmat.el > rmat.share2.el
whole=rmat.el by_ranks 3 'rmat.share{rank}.el' --transpose --compress
# A layout the ranks converted is run by them as one machine's is.
mpi 3 "$tools/sluice-bfs" conv/g.sluice --output many.bfs > /dev/null 2>&1
"$tools/sluice" convert rmat.el one-conv.sluice --transpose > /dev/null
"$tools/sluice-bfs" one-conv.sluice --output one.bfs > /dev/null 2>&1
cmp -s one.bfs many.bfs || fail "bfs on the layout the ranks converted differs from one process's"
# A layout as input is read in place, each rank reading its share of the sources.
by_ranks 3 one-conv.sluice --transpose --compress
# One edge list is parsed by the ranks a share of its lines each: a bad
# line is named by the rank whose share holds it, with its line number.
sed '15000s/.*/12 x7/' rmat.el > bad.el
expect_error 1 "rank 2 of 3 on $(hostname): error: bad.el:line 15000: expected a target vertex id" \
  mpirun -np 3 "$tools/sluice" convert bad.el x.sluice --ranks 3
expect_error 1 "give OUT.sluice and --ranks 2" mpirun -np 2 "$tools/sluice" convert rmat.el x.sluice
expect_error 1 "with the input in shares ({rank}), convert without them" mpirun -np 3 "$tools/sluice" convert 'rmat.share{rank}.el' x.sluice --ranks 3 --dedup
expect_error 1 "rank \([01]\) of 2 on $(hostname): error: missing.share\1.el: cannot open" \
  mpirun -np 2 "$tools/sluice" convert 'missing.share{rank}.el' x.sluice --ranks 2
expect_error 1 "the ranks convert from files each of them opens, not from standard input" \
  mpirun -np 2 "$tools/sluice" convert - x.sluice --ranks 2 --format el < rmat.el
[ ! -e x.sluice ] || fail "a refused conversion left its manifest"
# A rank killed during the conversion ends the job within 30 s: the old
# layout stays whole, and what the dead rank left is swept by the next.
mv conv/g.sluice conv/before.sluice && cp conv/before.sluice conv/g.sluice
start=$(date +%s)
timeout 60 mpirun -np 3 "$tools/sluice" convert big.el conv/g.sluice --ranks 3 --transpose --memory-limit 64m \
  --drives 'conv/{rank}/a,conv/{rank}/b' > killed.log 2>&1 &
kill_a_rank $! sluice 0.5
[ "$code" -ne 0 ] || fail "the conversion survived a killed rank: $(cat killed.log)"
[ $(( $(date +%s) - start )) -le 30 ] || fail "the conversion took over 30 s to end after a rank was killed"
cmp -s conv/before.sluice conv/g.sluice || fail "a killed conversion replaced the layout's manifest"
mpi 3 "$tools/sluice-bfs" conv/g.sluice --output many.bfs > /dev/null 2>&1 || fail "the layout a killed conversion left is not usable"
cmp -s one.bfs many.bfs || fail "the layout a killed conversion left gives other depths"
mpi 3 "$tools/sluice" convert big.el conv/g.sluice --ranks 3 --drives 'conv/{rank}/a,conv/{rank}/b' > conv.out 2>&1 ||
  fail "the conversion after a killed one: $(cat conv.out)"
find conv -name '*.tmp-*' | grep -q . && fail "temporaries left after a killed conversion and the next: $(find conv -name '*.tmp-*')"
rm -rf conv conv-ref big.el rmat.share*.el one-conv.sluice

# Under the sanitizers (10x slower) two rank counts stand for the four:
# the code paths are the same, the plain build checks every count.
rank_counts="1 2 3 4"
[ -z "${SLUICE_SANITIZED:-}" ] || rank_counts="2 3"
for ranks in $rank_counts; do
  same_results rmat rmat.el $ranks
done
same_cores rmat rmat.el 3
same_cores star star.el 2
same_results uniform uniform.el 3 --io aio
# Values cross in rounds of a few each (100 bytes each way at once).
same_results uniform uniform.el 3 --exchange-round 100
expect_error 2 "--exchange-round must be at least 1 byte" "$tools/sluice-pagerank" uniform.sluice --exchange-round 0
same_results star star.el 2 --io psync
# A page cache on each rank, split between its two parts' engines.
same_results rmat rmat.el 2 --page-cache 96k
same_results chain chain.el 3 --direction push
same_results chain chain.el 4 --io memory
same_results lopsided lopsided.el 3
# Trials after the first reuse the parts' transposed engines (in memory,
# with their samples): the last trial's labels are still one process's.
mpi 3 "$tools/sluice-wcc" uniform-r3.sluice -n 3 --io memory --output many.wcc > /dev/null 2>&1
cmp -s "$(one wcc uniform.sluice)" many.wcc || fail "uniform, 3 ranks, 3 trials in memory: wcc labels differ"
# No largest component to speak of (half an edge per vertex): WCC's ranks
# then learn most mirrors' labels as values, not as pairs.
"$tools/sluice" generate uniform --scale 12 --edge-factor 0.5 --seed 4 -o forest.el > /dev/null
"$tools/sluice" convert forest.el forest.sluice --transpose > /dev/null
"$tools/sluice" convert forest.el forest-r3.sluice --transpose --ranks 3 --drives 'drives/forest/{rank}' > /dev/null
mpi 3 "$tools/sluice-wcc" forest-r3.sluice --output many.wcc > forest-many.out 2>&1
cmp -s "$(one wcc forest.sluice)" many.wcc || fail "a forest of small components, 3 ranks: wcc labels differ"
# The summary's counts come from the ranks' own labels: components whose
# smallest id another rank owns are counted there.
counts() { grep -o '[0-9]* components, largest [0-9]* vertices' "$1"; }
"$tools/sluice-wcc" forest.sluice > forest-one.out 2>&1
[ -n "$(counts forest-one.out)" ] && [ "$(counts forest-many.out)" = "$(counts forest-one.out)" ] ||
  fail "a forest of small components, 3 ranks: wcc counts $(counts forest-many.out), one process $(counts forest-one.out)"
# Every rank writes its share of each output (MPI-IO), text or binary,
# in the input's ids and order on a relabelled or reordered layout (the
# values routed to the rank writing their lines; components named by
# their smallest input id, agreed by the ranks): the file one process
# writes, byte for byte. Standard output is written by the first rank,
# sent each rank's share. The summary lines' figures, reduced over the
# ranks, are one process's.
digest() { sed -n 's/.* read ([^)]*), //p' "$1"; }
for order in "" "--relabel" "--reorder degree" "--relabel --reorder degree"; do
  "$tools/sluice" convert rmat.el shares.sluice --transpose $order > /dev/null
  "$tools/sluice" convert rmat.el shares-r3.sluice --transpose --ranks 3 $order --drives 'drives/shares/{rank}' > /dev/null
  for format in text binary; do
    "$tools/sluice-bfs" shares.sluice --output-format $format --output one.depth --parents one.parent > /dev/null 2>&1
    mpi 3 "$tools/sluice-bfs" shares-r3.sluice --output-format $format --output many.depth --parents many.parent > /dev/null 2>&1
    cmp -s one.depth many.depth || fail "3 ranks $order, --output-format $format: bfs depths differ"
    cmp -s one.parent many.parent || fail "3 ranks $order, --output-format $format: bfs parents differ"
    "$tools/sluice-wcc" shares.sluice --output-format $format --output one.wcc > /dev/null 2>&1
    mpi 3 "$tools/sluice-wcc" shares-r3.sluice --output-format $format --output many.wcc > /dev/null 2>&1
    cmp -s one.wcc many.wcc || fail "3 ranks $order, --output-format $format: wcc labels differ"
  done
  for program in bfs wcc "pagerank --method classic" "sssp --delta 4" bc spmv; do
    # shellcheck disable=SC2086
    "$tools/sluice-${program%% *}" shares.sluice ${program#"${program%% *}"} > one.summary 2> /dev/null
    # shellcheck disable=SC2086
    mpi 3 "$tools/sluice-${program%% *}" shares-r3.sluice ${program#"${program%% *}"} > many.summary 2> /dev/null
    [ -n "$(digest one.summary)" ] && [ "$(digest one.summary)" = "$(digest many.summary)" ] ||
      fail "3 ranks $order: $program's summary differs: $(cat one.summary) against $(cat many.summary)"
  done
  ls | grep -q '\.tmp-' && fail "3 ranks $order: temporaries left: $(ls | grep '\.tmp-')"
  mpi 3 "$tools/sluice-bfs" shares-r3.sluice --output - 2> /dev/null > many.depth
  "$tools/sluice-bfs" shares.sluice --output - 2> /dev/null > one.depth
  cmp -s one.depth many.depth || fail "3 ranks $order: bfs depths on standard output differ"
  rm -rf shares* drives/shares
done
"$tools/sluice" info lopsided-r3.sluice > info.txt
grep -q "^part 2      vertices \[[0-9]*, 300), 0 edges" info.txt || fail "the lopsided graph's last rank should own no edge: $(cat info.txt)"
# What the machine of rank 1 needs: `info --rank 1 --files` lists the top
# manifest, the id map if any, its part and the transpose's part; copied
# alone to another directory, they pass `info --rank 1 --verify` there,
# and a missing one is named.
"$tools/sluice" info rmat-r3.sluice --rank 1 --files > files1.txt
for f in rmat-r3.sluice rmat-r3.part1.sluice rmat-r3.part1.t.sluice rmat-r3.part1.out.index drives/rmat/1/a/rmat-r3.part1.out.0 \
         drives/rmat/1/b/rmat-r3.part1.t.in.1; do
  grep -qx "$f" files1.txt || fail "info --rank 1 --files lacks $f: $(cat files1.txt)"
done
! grep -q "part[02]" files1.txt || fail "rank 1's files name another part: $(cat files1.txt)"
rm -rf machine1 && mkdir machine1 && tar -cf - -T files1.txt | tar -xf - -C machine1
(cd machine1 && "$tools/sluice" info rmat-r3.sluice --rank 1 --verify > verify.txt 2>&1) || fail "rank 1's files alone: $(cat machine1/verify.txt)"
grep -q ": verified" machine1/verify.txt || fail "no verification: $(cat machine1/verify.txt)"
rm machine1/drives/rmat/1/b/rmat-r3.part1.t.in.1
(cd machine1 && expect_error 1 "rmat-r3.part1.t.in.1" "$tools/sluice" info rmat-r3.sluice --rank 1 --verify)
"$tools/sluice" info rmat-r3.sluice --rank 1 --files --json | python3 -c '
import json, os, sys
files = json.load(sys.stdin)
assert all(f["bytes"] == os.path.getsize(f["path"]) and f["what"] for f in files), files'
if [ -e "$data/cnr-2000/cnr-2000.graph" ] && [ -z "${SLUICE_SANITIZED:-}" ]; then
  same_results cnr "$data/cnr-2000/cnr-2000.graph" 3
fi

# --shares auto (the default) leaves floats (below a change of 4e-5) on
# the way to a tighter tolerance: every rank at the same iteration (the
# change is summed over them). Delta is on doubles throughout, its shares
# written over the pending changes (the mirrors' shares too). The ranks as
# one process gives them.
for method in "--method classic" "--method delta --delta-threshold 0"; do
  mpi 3 "$tools/sluice-pagerank" rmat-r3.sluice $method --tolerance 1e-7 --iterations 500 --stats tight.jsonl --output tight.pr > /dev/null 2>&1
  floats='[1-9]'
  [ "$method" = "--method classic" ] || floats='0'
  grep -q '"converged":true,"float_share_iterations":'"$floats" tight.jsonl || fail "pagerank $method: $(tail -1 tight.jsonl)"
  d=$(l1 "$(one pagerank rmat.sluice $method --tolerance 1e-7 --iterations 500)" tight.pr)
  within "$d" 1e-12 || fail "3 ranks, pagerank $method to 1e-7: differs by $d in L1"
done

# --stats: every rank's records, each with its rank and what it exchanged
# (BFS's kernel exchanges frontiers alone).
mpi 2 "$tools/sluice-bfs" rmat-r2.sluice --stats s.jsonl > /dev/null 2>&1
exchanged='"sent_bytes":[0-9]*,"received_bytes":[0-9]*,"frontier_sent_bytes":[0-9]*,"frontier_received_bytes":[0-9]*,"comm_seconds":'
for r in 0 1; do
  grep -q '^{"record":"edgemap",.*"rank":'$r','"$exchanged" s.jsonl || fail "no EDGEMAP record of rank $r: $(head -3 s.jsonl)"
  grep '^{"record":"edgemap",.*"rank":'$r',' s.jsonl | grep -o '"sent_bytes":[0-9]*,"received_bytes":[0-9]*,"frontier_sent_bytes":[0-9]*,"frontier_received_bytes":[0-9]*' |
    awk -F'[:,]' '$2 != $6 || $4 != $8 {exit 1}' || fail "rank $r: BFS's EDGEMAPs exchange more than their frontiers: $(grep edgemap s.jsonl)"
done
head -1 s.jsonl | grep -q '"ranks":2,' || fail "the run record lacks the rank count: $(head -1 s.jsonl)"
# Both ranks' drives lie on this machine's one work directory: they share
# its device, each with half the bytes in flight (engine/shared_drives.hpp).
head -1 s.jsonl | grep -q '"request_bytes":524288,"queue_depth":32,"ranks_sharing_drives":2' ||
  fail "two ranks on one device should each request 512 KiB at most: $(head -1 s.jsonl)"
bfs_buffers=$(head -1 s.jsonl | grep -o '"held":{[^}]*}' | grep -o '"io_buffers":[0-9]*')
[ "$(grep -c '^{"record":"summary",.*"rank":[01],.*'"$exchanged" s.jsonl)" -eq 2 ] ||
  fail "a summary record per rank with its trial's exchange: $(grep summary s.jsonl)"
# No rank gathers the result: past its EDGEMAPs a rank's trial receives
# only the summary's reductions (a few bytes each), not 8 bytes a vertex.
for r in 0 1; do
  kernel=$(grep '^{"record":"edgemap",.*"rank":'$r',' s.jsonl | grep -o '"received_bytes":[0-9]*' | cut -d: -f2 | awk '{s += $1} END {print s}')
  trial=$(grep '^{"record":"summary",.*"rank":'$r',' s.jsonl | grep -o '"received_bytes":[0-9]*' | cut -d: -f2)
  [ $((trial - kernel)) -lt 256 ] || fail "rank $r received $((trial - kernel)) bytes after BFS's EDGEMAPs: the result was gathered"
done
# One --memory-limit covers both engines of a rank, its part's and the
# transpose's part's: under a limit below what they want together, each
# is cut to its share, the run record's held total stays within it, and
# the labels are the same.
mpi 2 "$tools/sluice-wcc" rmat-r2.sluice --stats s.jsonl > /dev/null 2>&1
# The transpose's part reads into the rank's own part's IO buffers: WCC's
# two engines hold as many as BFS's one over the same part.
wcc_buffers=$(head -1 s.jsonl | grep -o '"held":{[^}]*}' | grep -o '"io_buffers":[0-9]*')
[ -n "$bfs_buffers" ] && [ "$wcc_buffers" = "$bfs_buffers" ] || fail "wcc on 2 ranks holds $wcc_buffers of IO buffers, BFS $bfs_buffers"
wanted=$(head -1 s.jsonl | grep -o '"by_default":{[^}]*}' | grep -o '"total":[0-9]*' | cut -d: -f2)
limit=$((wanted * 9 / 10))
mpi 2 "$tools/sluice-wcc" rmat-r2.sluice --memory-limit "$limit" --stats s.jsonl --output limited.wcc > /dev/null 2>&1 ||
  fail "wcc on 2 ranks under --memory-limit $limit (wanted $wanted) failed"
held=$(head -1 s.jsonl | grep -o '"held":{[^}]*}' | grep -o '"total":[0-9]*' | cut -d: -f2)
head -1 s.jsonl | grep -q '"memory_limit":'"$limit"',' || fail "the run record names another limit than $limit: $(head -1 s.jsonl)"
[ "$held" -le "$limit" ] && [ "$held" -gt "$((wanted / 2))" ] || fail "2 ranks under --memory-limit $limit: the engines hold $held bytes"
cmp -s "$(one wcc rmat.sluice)" limited.wcc || fail "wcc on 2 ranks under --memory-limit: labels differ"
# Each engine gets its floor before the rest is split between them: under
# 7/10 of what the two want (where a split by their defaults alone left
# the transpose's part below its floor), WCC still runs, and agrees.
limit=$((wanted * 7 / 10))
mpi 2 "$tools/sluice-wcc" rmat-r2.sluice --memory-limit "$limit" --output limited.wcc > err.txt 2>&1 ||
  fail "wcc on 2 ranks under --memory-limit $limit (7/10 of $wanted) failed: $(grep error err.txt | head -1)"
cmp -s "$(one wcc rmat.sluice)" limited.wcc || fail "wcc on 2 ranks under 7/10 of its memory: labels differ"
# PageRank's exchanges are keyed by the mirrors: the summary counts them.
mpi 2 "$tools/sluice-pagerank" rmat-r2.sluice --stats s.jsonl > /dev/null 2>&1
[ "$(grep -c '^{"record":"summary",.*"rank":[01],.*"mirrors":[1-9][0-9]*,"read_pairs":[1-9][0-9]*}' s.jsonl)" -eq 2 ] ||
  fail "a summary record per rank with its mirrors and read pairs: $(grep summary s.jsonl)"
# The ranks divide the state that follows the vertices they own: a BFS
# under a --memory-limit below what one process needs at the least (its
# refused floor) runs on 4 ranks, each within that limit, and gives one
# process's depths.
"$tools/sluice" generate uniform --scale 16 --edge-factor 4 --seed 3 -o wide.el > /dev/null
mkdir -p drives/wide
"$tools/sluice" convert wide.el wide.sluice --transpose --drives drives/wide > /dev/null
"$tools/sluice" convert wide.el wide-r4.sluice --transpose --ranks 4 --drives 'drives/wide/{rank}' > /dev/null
least() { grep -o 'needs at least [0-9.]* [KMG]iB' err.txt | head -1 | python3 -c 'import sys; v, u = sys.stdin.read().split()[-2:]; print(int(float(v) * 1024 ** "KMG".index(u[0]) * 1024))'; }
"$tools/sluice-bfs" wide.sluice --memory-limit 1k > /dev/null 2> err.txt && fail "bfs under 1 KiB ran"
alone=$(least)
mpi 4 "$tools/sluice-bfs" wide-r4.sluice --memory-limit 1k > /dev/null 2> err.txt && fail "bfs on 4 ranks under 1 KiB ran"
ranked=$(least)
[ "$ranked" -lt "$((alone - 200 * 1024))" ] || fail "bfs on 4 ranks needs $ranked bytes a rank, one process $alone"
limit=$(((alone + ranked) / 2))
expect_error 1 "does not fit in memory" "$tools/sluice-bfs" wide.sluice --memory-limit "$limit"
mpi 4 "$tools/sluice-bfs" wide-r4.sluice --memory-limit "$limit" --output wide.bfs --stats s.jsonl > /dev/null 2> err.txt ||
  fail "bfs on 4 ranks under --memory-limit $limit (one process needs $alone): $(cat err.txt)"
held=$(head -1 s.jsonl | grep -o '"held":{[^}]*}' | grep -o '"total":[0-9]*' | cut -d: -f2)
[ "$held" -le "$limit" ] || fail "bfs on 4 ranks holds $held bytes under a limit of $limit"
cmp -s "$(one bfs wide.sluice)" wide.bfs || fail "bfs on 4 ranks under --memory-limit $limit: depths differ"
rm -rf wide* drives/wide
# A rank holds the whole out-degrees of its own range alone: the sources
# --source random draws (vertices with out-edges) are the ranks' answer,
# the same as one process's, as is a source without out-edges' warning.
mpi 2 "$tools/sluice-bfs" rmat-r2.sluice --source random -n 3 --output random.bfs > /dev/null 2>&1
cmp -s "$(one bfs rmat.sluice --source random -n 3)" random.bfs || fail "bfs --source random on 2 ranks differs from one process"
stuck=$(awk '!/^#/ {out[$1] = 1; target[$2] = 1} END {for (v in target) if (!(v in out)) {print v; exit}}' rmat.el)
if [ -n "$stuck" ]; then
  mpi 2 "$tools/sluice-bfs" rmat-r2.sluice --source "$stuck" > /dev/null 2> err.txt
  grep -q "has no out-edges" err.txt || fail "bfs on 2 ranks from vertex $stuck, without out-edges, gave no warning: $(cat err.txt)"
fi
# BFS's tree is read and written at the destinations alone: a rank holds
# it for its own range (16 bytes a vertex), which its run record counts.
mpi 2 "$tools/sluice-bfs" rmat-r2.sluice --stats s.jsonl > /dev/null 2>&1
range=$("$tools/sluice" info rmat-r2.sluice --json | python3 -c 'import json, sys; p = json.load(sys.stdin)["parts"][0]; print(p["end"] - p["begin"])')
algorithm=$(head -1 s.jsonl | grep -o '"held":{[^}]*}' | grep -o '"algorithm":[0-9]*' | cut -d: -f2)
[ "$algorithm" -eq $((16 * range)) ] || fail "bfs on 2 ranks holds $algorithm bytes of arrays for a range of $range vertices"
# WCC's label rounds exchange without an EDGEMAP: an "exchange" record per
# round and rank; its four EDGEMAPs (the own vertices' in- and out-samples,
# the outside vertices' edges in the part, their in-edges) each name the rank.
mpi 2 "$tools/sluice-wcc" rmat-r2.sluice --stats s.jsonl > /dev/null 2>&1
for r in 0 1; do
  grep -q '^{"record":"exchange","algorithm":"wcc",.*"phase":"sample labels","iteration":2,.*"rank":'$r',"sent_bytes":[1-9][0-9]*,"received_bytes":[1-9][0-9]*,"frontier_sent_bytes":0,"frontier_received_bytes":0,"comm_seconds":[0-9.e-]*,"collectives":[1-9]' s.jsonl ||
    fail "no exchange record of WCC's first label round on rank $r: $(grep exchange s.jsonl)"
  [ "$(grep -c '^{"record":"edgemap",.*"rank":'$r'[,}]' s.jsonl)" -eq 4 ] || fail "WCC on rank $r should run 4 EDGEMAPs: $(grep edgemap s.jsonl)"
done

# WCC's bytes on 3 ranks: each rank reads its own vertices' samples and
# lists, and the outside vertices' edges in its part, so that together
# they read at most 1.3x what one process reads of the same graph (RMAT
# 19: a rank's range spans many of the sample files' pieces of 16384
# vertices, whose partial ends it reads whole). Byte counts are the same
# under the sanitizers: counted by the plain build only.
if [ -z "${SLUICE_SANITIZED:-}" ]; then
  "$tools/sluice" generate rmat --scale 19 --edge-factor 2 --seed 3 -o rmat19.el > /dev/null
  "$tools/sluice" convert rmat19.el rmat19.sluice --transpose > /dev/null
  "$tools/sluice" convert rmat19.el rmat19-r3.sluice --transpose --ranks 3 --drives 'drives/rmat19/{rank}' > /dev/null
  "$tools/sluice-wcc" rmat19.sluice --stats one.jsonl --output one19.wcc > /dev/null 2>&1
  mpi 3 "$tools/sluice-wcc" rmat19-r3.sluice --stats three.jsonl --output three19.wcc > /dev/null 2>&1
  cmp -s one19.wcc three19.wcc || fail "rmat 19, 3 ranks: wcc labels differ"
  bytes_of() { grep '^{"record":"summary"' "$1" | grep -o '"bytes_read":[0-9]*' | cut -d: -f2 | awk '{s += $1} END {print s}'; }
  one_bytes=$(bytes_of one.jsonl)
  three_bytes=$(bytes_of three.jsonl)
  awk -v a="$three_bytes" -v b="$one_bytes" 'BEGIN {exit !(b > 0 && a <= 1.3 * b)}' ||
    fail "wcc on 3 ranks read $three_bytes bytes in all, one process $one_bytes: more than 1.3x"
  rm -rf rmat19* drives/rmat19
fi

# Refusals, before any work.
expect_error 1 "was split for 3 ranks, and this job runs 2: launch it with \`mpirun -np 3\`" mpirun -np 2 "$tools/sluice-bfs" rmat-r3.sluice --output x.txt
[ ! -e x.txt ] || fail "a refused job left its output"
expect_error 1 "is a layout split for 3 ranks: run it under \`mpirun -np 3\`" "$tools/sluice-bfs" rmat-r3.sluice
expect_error 1 "rmat-r3.part1.sluice: is part 1 of 3 of the ranked layout rmat-r3.sluice" "$tools/sluice-bfs" rmat-r3.part1.sluice
expect_error 1 "is not split into ranks, and this job runs 2" mpirun -np 2 "$tools/sluice-bfs" rmat.sluice
"$tools/sluice" convert rmat.el rmat-push-only.sluice --ranks 2 > /dev/null
expect_error 1 "bc needs the transpose's parts: .*was split without the transpose's parts: convert it again with --transpose" \
  mpirun -np 2 "$tools/sluice-bc" rmat-push-only.sluice
expect_error 1 "wcc needs the transpose's parts: .*was split without the transpose's parts: convert it again with --transpose" \
  mpirun -np 2 "$tools/sluice-wcc" rmat-push-only.sluice
mv rmat-r3.part2.sluice aside.sluice
expect_error 1 "rank 2 of 3 on $(hostname): error: rmat-r3.part2.sluice: cannot open" mpirun -np 3 "$tools/sluice-bfs" rmat-r3.sluice
[ -e rmat-r4.part2.sluice ] || "$tools/sluice" convert rmat.el rmat-r4.sluice --transpose --ranks 4 --drives 'drives/rmat/{rank}/a' > /dev/null
cp rmat-r4.part2.sluice rmat-r3.part2.sluice
expect_error 1 "rank 2 of 3 on $(hostname): error: rmat-r3.part2.sluice: is not a part of rmat-r3.sluice" mpirun -np 3 "$tools/sluice-bfs" rmat-r3.sluice
mv aside.sluice rmat-r3.part2.sluice

# A rank killed mid-run ends the whole job, with an error, within 30 s.
start=$(date +%s)
timeout 60 mpirun -np 3 "$tools/sluice-pagerank" rmat-r3.sluice --method classic --tolerance 0 --iterations 100000000 \
  --output killed.txt > killed.log 2>&1 &
kill_a_rank $! sluice-pagerank 1
[ "$code" -ne 0 ] || fail "the job survived a killed rank"
[ $(( $(date +%s) - start )) -le 30 ] || fail "the job took over 30 s to end after a rank was killed"
grep -q "exited on signal 9" killed.log || fail "mpirun did not name the killed rank: $(cat killed.log)"
[ ! -e killed.txt ] || fail "a killed job left its output"
# A rank killed while the ranks write --output (the first rank's
# temporary exists from then until every share is synced and it is
# renamed): the job ends within 30 s, and neither the output nor the
# temporary is left. The kill waits for the temporary to appear; an
# output that was whole and in place before the kill landed (it must
# then be the one one process writes) makes the case run again.
"$tools/sluice" generate rmat --scale 19 --edge-factor 4 --seed 6 -o written.el > /dev/null
"$tools/sluice" convert written.el written-r3.sluice --ranks 3 --drives 'drives/written/{rank}' > /dev/null
"$tools/sluice" convert written.el written.sluice > /dev/null
"$tools/sluice-bfs" written.sluice --output written.one > /dev/null 2>&1
# PageRank divides by the whole graph's out-degrees, which the ranks sum
# for their own ranges in rounds of 87,381 vertices a range at 3 ranks:
# this graph's ranges (about 175,000 vertices) take more than one.
"$tools/sluice-pagerank" written.sluice --method classic --iterations 5 --tolerance 0 --output written.one.pr > /dev/null 2>&1
mpi 3 "$tools/sluice-pagerank" written-r3.sluice --method classic --iterations 5 --tolerance 0 --output written.pr > /dev/null 2>&1
d=$(l1 written.one.pr written.pr)
within "$d" 1e-12 || fail "rmat 19, 3 ranks: pagerank differs by $d in L1 (the out-degrees summed over several rounds)"
caught=
for _ in 1 2 3 4 5; do
  rm -f written.txt written.txt.tmp-*
  start=$(date +%s)
  # mpirun ends the other ranks with SIGTERM, then SIGKILL after
  # odls_base_sigkill_timeout (1 s): a first rank still inside an fsync
  # on a loaded disk cannot remove its temporary by then (the next write
  # of the path does). The case checks the SIGTERM path, given 5 s (the
  # job then ends in about twice that).
  OMPI_MCA_odls_base_sigkill_timeout=5 timeout 60 mpirun -np 3 "$tools/sluice-bfs" written-r3.sluice --output written.txt > killed.log 2>&1 &
  job=$!
  # The victim is found first: the temporary lives some 40 ms, less than
  # rank_pid's processes can take on a loaded machine.
  victim=
  until [ -n "$victim" ] || ! kill -0 "$job" 2> /dev/null; do
    victim=$(rank_pid "$job" sluice-bfs 2)
    [ -n "$victim" ] || sleep 0.02
  done
  until compgen -G 'written.txt.tmp-*' > /dev/null || ! kill -0 "$job" 2> /dev/null; do :; done
  [ -n "$victim" ] && kill -9 "$victim" 2> /dev/null && caught=1
  set +e
  wait "$job"
  code=$?
  set -e
  if [ -e written.txt ]; then
    cmp -s written.one written.txt || fail "a rank killed during the output left it half-written"
    caught=
  fi
  [ -z "$caught" ] || break
done
[ -n "$caught" ] || fail "five jobs finished their output before a rank could be killed during it"
[ "$code" -ne 0 ] || fail "the job survived a rank killed during its output: $(cat killed.log)"
[ $(( $(date +%s) - start )) -le 30 ] || fail "the job took over 30 s to end after a rank was killed during its output"
! compgen -G 'written.txt.tmp-*' > /dev/null || fail "a rank killed during the output left its temporary: $(ls written.txt.tmp-*)"
rm -rf written* drives/written
echo "ranks: all passed"
