#!/usr/bin/env bash
# convert --compress (issue 22): gap-coded edge pages give every program
# the same results as plain pages (BFS, WCC, JT-CC, SpMV byte-identical,
# PageRank within 1e-12 in L1), from the drives and with --io memory, on 1
# and 3 drives, and on MPI ranks; they read back to the same edges; fewer
# bytes are read; what cannot be compressed is refused; damage is found.
set -euo pipefail
tools=$1
. "$(dirname "$0")/lib.sh"
sluice=$tools/sluice
python=${PYTHON:-python3}

"$sluice" generate rmat --scale 13 -o g.el > /dev/null
mkdir d0 d1 d2
"$sluice" convert g.el plain.sluice --transpose > /dev/null
"$sluice" convert g.el c.sluice --transpose --compress > /dev/null
"$sluice" convert g.el c3.sluice --transpose --compress --drives d0,d1,d2 > /dev/null
grep -q "^compression gap-vbyte$" c.sluice || fail "the manifest does not say compressed: $(cat c.sluice)"
"$sluice" info c.sluice --verify > info.out
grep -q "gap-coded (convert --compress), 1\.[0-9]* bytes per edge" info.out || fail "info: $(cat info.out)"
grep -q "verified" info.out || fail "info --verify: $(cat info.out)"
"$sluice" info c.sluice --json | grep -q '"compressed":true' || fail "info --json"
# The run record says which pages a run read.
"$tools/sluice-bfs" c.sluice --stats c.jsonl > /dev/null
"$tools/sluice-bfs" plain.sluice --stats plain.jsonl > /dev/null
head -1 c.jsonl | grep -q '"pages":"compressed"' || fail "run record on compressed pages: $(head -1 c.jsonl)"
head -1 plain.jsonl | grep -q '"pages":"plain"' || fail "run record on plain pages: $(head -1 plain.jsonl)"

# The same edges back (each list sorted: compare as multisets).
"$sluice" convert c3.sluice back.el > /dev/null
"$sluice" convert plain.sluice plain.el > /dev/null
cmp -s <(grep -v '^#' back.el | sort) <(grep -v '^#' plain.el | sort) || fail "the compressed layout reads back other edges"

same_output() {  # same_output PROGRAM [FLAGS...]: plain and compressed outputs byte-identical
  local program=$1
  shift
  "$tools/sluice-$program" plain.sluice "$@" -o p.txt > /dev/null
  for layout in c.sluice c3.sluice; do
    for io in auto memory; do
      "$tools/sluice-$program" "$layout" --io "$io" "$@" -o c.txt > /dev/null
      cmp -s p.txt c.txt || fail "$program $* on $layout --io $io differs from plain pages"
    done
  done
}
same_output bfs
same_output bfs --direction pull
same_output wcc
same_output spmv
same_output spmv --transposed
"$tools/sluice-jtcc" plain.sluice -o p.txt > /dev/null
"$tools/sluice-jtcc" c3.sluice -o c.txt > /dev/null
cmp -s p.txt c.txt || fail "jtcc differs on compressed pages"
"$tools/sluice-pagerank" plain.sluice --tolerance 1e-12 -o p.txt > /dev/null
"$tools/sluice-pagerank" c3.sluice --tolerance 1e-12 -o c.txt > /dev/null
"$python" - <<'PY'
p = [float(x) for x in open("p.txt")]
c = [float(x) for x in open("c.txt")]
assert len(p) == len(c)
l1 = sum(abs(a - b) for a, b in zip(p, c))
assert l1 <= 1e-12, f"PageRank L1 {l1}"
PY

# Fewer bytes read for the same full scan.
read_mb() { sed -n 's/.* \([0-9.]*\) MB read.*/\1/p' | tail -1; }
plain_mb=$("$tools/sluice-spmv" plain.sluice | read_mb)
compressed_mb=$("$tools/sluice-spmv" c.sluice | read_mb)
"$python" -c "import sys; sys.exit(0 if float('$compressed_mb') < 0.6 * float('$plain_mb') else 1)" ||
  fail "compressed SpMV read $compressed_mb MB, plain $plain_mb MB"

# Refusals: weights, 64-bit ids, another format.
"$sluice" generate rmat --scale 8 --weighted -o w.wel > /dev/null
expect_error 1 "compress stores unweighted graphs only" "$sluice" convert w.wel w.sluice --compress
expect_error 1 "needs 32-bit ids" "$sluice" convert g.el wide.sluice --compress --wide-ids
expect_error 2 "applies to sluice's layout only" "$sluice" convert g.el x.el --compress
[ ! -e w.sluice ] && [ ! -e wide.sluice ] || fail "a refused conversion left a layout behind"

# A damaged page: found by its checksum, or (checksums off) by the decode.
cp c.sluice damaged.sluice
"$sluice" convert g.el damaged.sluice --transpose --compress --force > /dev/null
"$python" - <<'PY'
with open("damaged.out.0", "r+b") as f:
    f.seek(4096 + 4096 * 3)  # the fourth page's edge count
    f.write((4000).to_bytes(4, "little"))
PY
expect_error 1 "damaged.out.0:byte 16384: page 3 fails its checksum" "$tools/sluice-spmv" damaged.sluice --transposed --direction push
expect_error 1 "damaged.out.0:byte 16384: compressed page 3 does not decode" "$tools/sluice-spmv" damaged.sluice --transposed --direction push --no-verify-reads

# Ranked: every part compressed, the same results on 2 ranks.
if [ "${2:-}" = mpi ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0  # OpenMPI's, as in ranks.sh
  "$sluice" convert g.el r.sluice --transpose --compress --ranks 2 > /dev/null 2>&1
  grep -q "^compression gap-vbyte$" r.part0.sluice || fail "a part is not compressed: $(cat r.part0.sluice)"
  "$tools/sluice-bfs" plain.sluice -o p.txt > /dev/null
  mpirun --oversubscribe -np 2 "$tools/sluice-bfs" r.sluice -o c.txt > /dev/null 2>&1
  cmp -s p.txt c.txt || fail "bfs on 2 compressed ranks differs"
  "$tools/sluice-wcc" plain.sluice -o p.txt > /dev/null
  mpirun --oversubscribe -np 2 "$tools/sluice-wcc" r.sluice -o c.txt > /dev/null 2>&1
  cmp -s p.txt c.txt || fail "wcc on 2 compressed ranks differs"
fi
# Whole lists (triangle counting) over compressed pages: the plain
# layout's counts, every list held and in several ranges, from the drives
# and in memory.
mkdir s0
"$sluice" convert g.el sym.sluice --symmetrize > /dev/null
"$sluice" convert g.el csym.sluice --symmetrize --compress --drives s0 > /dev/null
"$tools/sluice-tc" sym.sluice -o p.txt > /dev/null 2>&1
for flags in "" "--list-memory 64k" "--io memory --list-memory 64k"; do
  "$tools/sluice-tc" csym.sluice $flags -o c.txt > tc.out 2>&1 || fail "tc on compressed pages $flags: $(cat tc.out)"
  cmp -s p.txt c.txt || fail "tc on compressed pages $flags differs"
done
echo "compress: all passed"
