#!/usr/bin/env bash
# Gap-coded edge pages, the default (convert --plain asks for fixed
# records; --compress insists), give every program the results of plain
# pages (BFS, WCC, JT-CC, SpMV, Radii, k-core, MIS byte-identical,
# PageRank within 1e-12 in L1, BC's scores within rounding), from the
# drives and with --io memory, on 1 and 3 drives, and on MPI ranks;
# weighted graphs too (SSSP and SpMV, integer and fractional weights), and
# 64-bit ids; they read back to the same edges; fewer bytes are read; the
# page options are refused where they do not apply; damage is found.
set -euo pipefail
tools=$1
. "$(dirname "$0")/lib.sh"
sluice=$tools/sluice
python=${PYTHON:-python3}

"$sluice" generate rmat --scale 13 -o g.el > /dev/null
mkdir d0 d1 d2
"$sluice" convert g.el plain.sluice --transpose --plain > /dev/null
"$sluice" convert g.el c.sluice --transpose > /dev/null
"$sluice" convert g.el c3.sluice --transpose --compress --drives d0,d1,d2 > /dev/null
grep -q "^compression gap-vbyte$" c.sluice || fail "the manifest does not say compressed: $(cat c.sluice)"
! grep -q "^compression" plain.sluice || fail "--plain wrote compressed pages: $(cat plain.sluice)"
"$sluice" info c.sluice --verify > info.out
grep -q "gap-coded (the default), 1\.[0-9]* bytes per edge" info.out || fail "info: $(cat info.out)"
grep -q "verified" info.out || fail "info --verify: $(cat info.out)"
"$sluice" info plain.sluice > info.out
grep -q "4-byte edge records (convert --plain), 4\.00 bytes per edge" info.out || fail "info of plain pages: $(cat info.out)"
"$sluice" info c.sluice --json | grep -q '"compressed":true' || fail "info --json"
# sluice generate writes the same default, and --plain.
"$sluice" generate rmat --scale 10 -o gen.sluice > /dev/null
"$sluice" generate rmat --scale 10 -o genplain.sluice --plain > /dev/null
grep -q "^compression gap-vbyte$" gen.sluice && ! grep -q "^compression" genplain.sluice || fail "generate's pages: $(cat gen.sluice genplain.sluice)"
# The run record says which pages a run read.
"$tools/sluice-bfs" c.sluice --stats c.jsonl > /dev/null
"$tools/sluice-bfs" plain.sluice --stats plain.jsonl > /dev/null
head -1 c.jsonl | grep -q '"pages":"compressed"' || fail "run record on compressed pages: $(head -1 c.jsonl)"
head -1 plain.jsonl | grep -q '"pages":"plain"' || fail "run record on plain pages: $(head -1 plain.jsonl)"

# The same edges back (each list sorted: compare as multisets).
"$sluice" convert c3.sluice back.el > /dev/null
"$sluice" convert plain.sluice plain.el > /dev/null
cmp -s <(grep -v '^#' back.el | sort) <(grep -v '^#' plain.el | sort) || fail "the compressed layout reads back other edges"

# agree PLAIN LAYOUT WHAT PROGRAM...: each program's output on LAYOUT, from
# the drives and in memory, is byte for byte its output on PLAIN.
agree() {
  local plain=$1 layout=$2 what=$3 program io
  shift 3
  for program in "$@"; do
    "$tools/sluice-$program" "$plain" -o p.txt > /dev/null 2>&1
    for io in auto memory; do
      "$tools/sluice-$program" "$layout" --io "$io" -o c.txt > /dev/null 2>&1
      cmp -s p.txt c.txt || fail "$program on $what, --io $io, differs from plain pages"
    done
  done
}
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
same_output radii
# BC's sums of shares follow the order of each list (sorted on compressed
# pages): equal within rounding.
"$tools/sluice-bc" plain.sluice -o p.txt > /dev/null 2>&1
for io in auto memory; do
  "$tools/sluice-bc" c3.sluice --io $io -o c.txt > /dev/null 2>&1
  "$python" - <<'PY' || fail "bc on compressed pages --io $io differs from plain pages"
p = [float(x) for x in open("p.txt")]
c = [float(x) for x in open("c.txt")]
assert len(p) == len(c) and all(abs(a - b) <= 1e-14 * max(abs(a), 1.0) for a, b in zip(p, c))
PY
done
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

# Weighted: integer weights (1 to 255) coded beside the gaps, fractional
# ones raw beside them; SSSP and SpMV give what plain weighted pages give,
# and the edges read back with their weights.
"$sluice" generate rmat --scale 13 --weighted --seed 3 -o w.wel > /dev/null
awk '/^#/ {print; next} {printf "%s %s %.2f\n", $1, $2, $3 / 7}' w.wel > f.wel
for weights in w f; do
  "$sluice" convert $weights.wel wplain.sluice --transpose --plain --force > /dev/null
  "$sluice" convert $weights.wel wc.sluice --transpose --force > /dev/null
  "$sluice" convert $weights.wel wc3.sluice --transpose --compress --drives d0,d1,d2 --force > /dev/null
  "$sluice" info wc.sluice --verify > info.out
  grep -q "verified" info.out || fail "info --verify, weights $weights: $(cat info.out)"
  for run in sssp spmv "spmv --transposed"; do
    read -r program flags <<< "$run"
    "$tools/sluice-$program" wplain.sluice $flags -o p.txt > /dev/null 2>&1
    for layout in wc.sluice wc3.sluice; do
      for io in auto memory; do
        "$tools/sluice-$program" "$layout" --io "$io" $flags -o c.txt > /dev/null 2>&1
        cmp -s p.txt c.txt || fail "$run, weights $weights, on $layout --io $io differs from plain weighted pages"
      done
    done
  done
  "$sluice" convert wc3.sluice back.wel --force > /dev/null
  "$sluice" convert wplain.sluice plain.wel --force > /dev/null
  cmp -s <(grep -v '^#' back.wel | sort) <(grep -v '^#' plain.wel | sort) || fail "weights $weights: the compressed layout reads back other edges"
done
"$sluice" convert w.wel wplain.sluice --transpose --plain --force > /dev/null
"$sluice" convert w.wel wc.sluice --transpose --force > /dev/null
"$sluice" info wc.sluice > info.out
grep -q "gap-coded (the default), [1-4]\.[0-9]* bytes per edge" info.out || fail "weights 1-255 should take under 5 bytes an edge: $(cat info.out)"
# SSSP's buckets are sparse frontiers: a page of either kind is read for
# few of its edges, so its bytes fall less than the pages do.
plain_mb=$("$tools/sluice-sssp" wplain.sluice | read_mb)
compressed_mb=$("$tools/sluice-sssp" wc.sluice | read_mb)
"$python" -c "import sys; sys.exit(0 if float('$compressed_mb') < 0.8 * float('$plain_mb') else 1)" ||
  fail "compressed weighted SSSP read $compressed_mb MB, plain $plain_mb MB"

# 64-bit ids, weighted or not: the same results as plain 32-bit pages.
for graph in g.el w.wel; do
  "$sluice" convert $graph plain32.sluice --transpose --plain --force > /dev/null
  "$sluice" convert $graph wide.sluice --transpose --wide-ids --force > /dev/null
  "$sluice" info wide.sluice --verify > info.out
  grep -q "^id bytes    8" info.out && grep -q "gap-coded" info.out && grep -q verified info.out || fail "64-bit compressed, $graph: $(cat info.out)"
  agree plain32.sluice wide.sluice "64-bit compressed pages of $graph" bfs wcc spmv sssp
done

# Refusals: another format, and both kinds of pages at once.
expect_error -F 2 "--compress applies to sluice's layout only" "$sluice" convert g.el x.el --compress
expect_error -F 2 "--plain applies to sluice's layout only" "$sluice" convert g.el x.el --plain
expect_error -F 2 "--compress and --plain exclude each other" "$sluice" convert g.el x.sluice --compress --plain
expect_error -F 2 "--plain applies to sluice's layout only" "$sluice" generate rmat --scale 10 -o x.el --plain
[ ! -e x.el ] && [ ! -e x.sluice ] || fail "a refused conversion left output"

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
# A weighted page: a flipped weight's byte (the checksum), a count that
# claims raw weights past the page's end (the decode), a truncated file.
"$sluice" convert w.wel wdamaged.sluice --transpose --compress > /dev/null
cp wdamaged.out.0 wdamaged.whole
"$python" - <<'PY'
with open("wdamaged.out.0", "r+b") as f:
    f.seek(4096 + 4096 * 2 + 3000)  # somewhere in the third page's values
    byte = f.read(1)
    f.seek(4096 + 4096 * 2 + 3000)
    f.write(bytes([byte[0] ^ 0x40]))
PY
expect_error 1 "wdamaged.out.0:byte 12288: page 2 fails its checksum" "$tools/sluice-sssp" wdamaged.sluice --direction push
cp wdamaged.whole wdamaged.out.0
"$python" - <<'PY'
with open("wdamaged.out.0", "r+b") as f:
    f.seek(4096 + 4096 * 2)
    count = int.from_bytes(f.read(4), "little")
    f.seek(4096 + 4096 * 2)
    f.write((count | 1 << 31).to_bytes(4, "little"))  # raw weights: 4 bytes an edge, past the page's end
PY
expect_error 1 "wdamaged.out.0:byte 12288: compressed page 2 does not decode" "$tools/sluice-sssp" wdamaged.sluice --direction push --no-verify-reads
cp wdamaged.whole wdamaged.out.0
truncate -s -4096 wdamaged.out.0
expect_error 1 "wdamaged.out.0" "$tools/sluice-sssp" wdamaged.sluice
# 64-bit ids, weighted: a page count past what a page holds, found by the
# checksum and, checksums off, by the decode; a flipped byte; truncation.
"$sluice" convert w.wel xdamaged.sluice --transpose --compress --wide-ids > /dev/null
cp xdamaged.out.0 xdamaged.whole
"$python" - <<'PY'
with open("xdamaged.out.0", "r+b") as f:
    f.seek(4096 + 4096 * 2)
    f.write((4000).to_bytes(4, "little"))
PY
expect_error 1 "xdamaged.out.0:byte 12288: page 2 fails its checksum" "$tools/sluice-sssp" xdamaged.sluice --direction push
expect_error 1 "xdamaged.out.0:byte 12288: compressed page 2 does not decode" "$tools/sluice-sssp" xdamaged.sluice --direction push --no-verify-reads
cp xdamaged.whole xdamaged.out.0
"$python" - <<'PY'
with open("xdamaged.out.0", "r+b") as f:
    f.seek(4096 + 4096 * 2 + 100)
    byte = f.read(1)
    f.seek(4096 + 4096 * 2 + 100)
    f.write(bytes([byte[0] ^ 0x40]))
PY
expect_error 1 "xdamaged.out.0:byte 12288: page 2 fails its checksum" "$tools/sluice-sssp" xdamaged.sluice --direction push
cp xdamaged.whole xdamaged.out.0
truncate -s -4096 xdamaged.out.0
expect_error 1 "xdamaged.out.0" "$tools/sluice-sssp" xdamaged.sluice

# Ranked: every part compressed, the same results on 2 ranks.
if [ "${2:-}" = mpi ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0  # OpenMPI's, as in ranks.sh
  "$sluice" convert g.el r.sluice --transpose --ranks 2 > /dev/null 2>&1
  grep -q "^compression gap-vbyte$" r.part0.sluice || fail "a part is not compressed: $(cat r.part0.sluice)"
  "$tools/sluice-bfs" plain.sluice -o p.txt > /dev/null
  mpirun --oversubscribe -np 2 "$tools/sluice-bfs" r.sluice -o c.txt > /dev/null 2>&1
  cmp -s p.txt c.txt || fail "bfs on 2 compressed ranks differs"
  "$tools/sluice-wcc" plain.sluice -o p.txt > /dev/null
  mpirun --oversubscribe -np 2 "$tools/sluice-wcc" r.sluice -o c.txt > /dev/null 2>&1
  cmp -s p.txt c.txt || fail "wcc on 2 compressed ranks differs"
  "$sluice" convert w.wel wr.sluice --transpose --ranks 2 > /dev/null 2>&1
  "$sluice" convert g.el rp.sluice --transpose --plain --ranks 2 > /dev/null 2>&1
  ! grep -q "^compression" rp.part0.sluice || fail "a --plain part is compressed: $(cat rp.part0.sluice)"
  mpirun --oversubscribe -np 2 "$tools/sluice-bfs" rp.sluice -o c.txt > /dev/null 2>&1
  "$tools/sluice-bfs" plain.sluice -o p.txt > /dev/null
  cmp -s p.txt c.txt || fail "bfs on 2 plain ranks differs"
  "$tools/sluice-sssp" wplain.sluice -o p.txt > /dev/null 2>&1
  mpirun --oversubscribe -np 2 "$tools/sluice-sssp" wr.sluice -o c.txt > /dev/null 2>&1
  cmp -s p.txt c.txt || fail "sssp on 2 weighted compressed ranks differs"
fi
# Undirected programs: k-core and MIS as on plain pages; whole lists
# (triangle counting) give the plain layout's counts, every list held and
# in several ranges, from the drives and in memory.
mkdir s0
"$sluice" convert g.el sym.sluice --symmetrize --plain > /dev/null
"$sluice" convert g.el csym.sluice --symmetrize --drives s0 > /dev/null
agree sym.sluice csym.sluice "compressed pages" kcore mis
"$tools/sluice-tc" sym.sluice -o p.txt > /dev/null 2>&1
for flags in "" "--list-memory 64k" "--io memory --list-memory 64k"; do
  "$tools/sluice-tc" csym.sluice $flags -o c.txt > tc.out 2>&1 || fail "tc on compressed pages $flags: $(cat tc.out)"
  cmp -s p.txt c.txt || fail "tc on compressed pages $flags differs"
done
echo "compress: all passed"
