#!/usr/bin/env bash
# Hostile but realistic use (issue 12): damaged, foreign and swapped drive
# files, outputs onto devices, links and FIFOs, absurd ids and declared
# sizes, FIFOs and devices as inputs, write errors, interrupted
# conversions. Each case must end in a clear error (exit 1, the file and
# place named) or the right answer; never a crash, a hang or damage.
set -euo pipefail
tools=$1
sluice=$tools/sluice
. "$(dirname "$0")/lib.sh"
flip() {  # flip FILE OFFSET MASK
  python3 -c "import sys; f=open(sys.argv[1],'r+b'); f.seek(int(sys.argv[2])); b=f.read(1); f.seek(int(sys.argv[2])); f.write(bytes([b[0]^int(sys.argv[3])]))" "$@"
}

"$sluice" generate rmat --scale 12 --edge-factor 8 --seed 5 -o g.el >/dev/null
mkdir d0 d1
# Plain records, whose targets a flipped bit changes in place (compress.sh
# damages gap-coded pages).
"$sluice" convert g.el g.sluice --drives d0,d1 --transpose --plain >/dev/null
"$tools/sluice-bfs" g.sluice --output good.txt >/dev/null 2>&1

# 1, 9. A flipped bit in a drive file: the page fails its checksum; with
# checks off, a target out of range is still caught before use.
cp d0/g.out.0 saved.0
flip d0/g.out.0 5003 16
expect_error 1 "d0/g.out.0:byte 4096: page 0 fails its checksum" "$tools/sluice-bfs" g.sluice --direction push
expect_error 1 "d0/g.out.0:byte 5000: edge target .* is not below the 4096 vertices" "$tools/sluice-bfs" g.sluice --direction push --no-verify-reads
expect_error 1 "page 0 fails its checksum" "$tools/sluice-jtcc" g.sluice
expect_error 1 "page 0 fails its checksum" "$sluice" convert g.sluice copy.el
expect_error 1 "page 0 fails its checksum" "$sluice" convert g.sluice copy.sluice --transpose
[ ! -e copy.el ] && [ ! -e copy.sluice ] || fail "output of a failed conversion left behind"
cp saved.0 d0/g.out.0
# The same during a walk over whole lists (triangle counting).
mkdir s0
"$sluice" convert g.el sym.sluice --drives s0 --symmetrize --plain >/dev/null
flip s0/sym.out.0 5003 16
expect_error 1 "s0/sym.out.0:byte 4096: page 0 fails its checksum" "$tools/sluice-tc" sym.sluice
expect_error 1 "s0/sym.out.0:byte 5000: edge target .* is not below the 4096 vertices" "$tools/sluice-tc" sym.sluice --no-verify-reads --list-memory 64k

# 1, 3. Two graphs with the same stem into the same drive directories: the
# second conversion refuses and names the first; forced, the first layout
# then names the drive file's new owner instead of answering wrongly.
mkdir A B D0 D1
"$sluice" convert g.el A/g.sluice --drives D0,D1 >/dev/null
"$sluice" convert g.el A/g.sluice --drives D0,D1 >/dev/null  # the same layout again: allowed
"$sluice" generate uniform --scale 11 --edge-factor 4 -o u.el >/dev/null
expect_error 1 "D0/g.out.0: belongs to the layout .*/A/g.sluice" "$sluice" convert u.el B/g.sluice --drives D0,D1
"$sluice" convert u.el B/g.sluice --drives D0,D1 --force >/dev/null
expect_error 1 "drive file of another layout (.*/B/g.sluice" "$tools/sluice-bfs" A/g.sluice

# 3. Swapped drive lines, an edited page size.
sed -e 's|^out.drive.0 |out.drive.X |' -e 's|^out.drive.1 |out.drive.0 |' -e 's|^out.drive.X |out.drive.1 |' g.sluice > swapped.sluice
expect_error 1 "drive header says drive 1 of 2, the manifest 0 of 2 (drive lines swapped?)" "$tools/sluice-bfs" swapped.sluice
sed 's|^page_bytes 4096|page_bytes 8192|' g.sluice > paged.sluice
expect_error 1 "page size 4096, the manifest 8192" "$tools/sluice-bfs" paged.sluice

# A layout into a directory that is not there: refused before any work,
# the directory named (not the scratch directory it would default to).
expect_error 2 "nowhere/g.sluice (the output's manifest): the directory nowhere does not exist" "$sluice" convert g.el nowhere/g.sluice
expect_error 2 "the directory nowhere/d0 does not exist" "$sluice" convert g.el elsewhere.sluice --drives nowhere/d0
expect_error 2 "nowhere/r.el (the output): the directory nowhere does not exist" "$sluice" generate rmat --scale 8 -o nowhere/r.el
[ ! -e nowhere ] && [ ! -e elsewhere.sluice ] || fail "a refused conversion left something behind"

# 2. Outputs onto a device, a link, a FIFO and standard output.
"$tools/sluice-bfs" g.sluice --output /dev/null >/dev/null 2>&1
[ -c /dev/null ] || fail "/dev/null is no longer a device"
ln -s target.txt link.txt
"$tools/sluice-bfs" g.sluice --output link.txt >/dev/null 2>&1
[ -L link.txt ] || fail "the link was replaced"
cmp -s target.txt good.txt || fail "the link's target does not hold the depths"
mkfifo pipe
cat pipe > from_fifo.txt &
"$tools/sluice-bfs" g.sluice --output pipe >/dev/null 2>&1
wait
cmp -s from_fifo.txt good.txt || fail "the FIFO did not carry the depths"
"$tools/sluice-bfs" g.sluice --output - 2>/dev/null > from_stdout.txt
cmp -s from_stdout.txt good.txt || fail "--output - did not write the depths to standard output"

# 11, 12. Write errors and unwritable paths fail, before the run where they
# can be known, and leave nothing behind.
expect_error 1 "/dev/full: write failed: No space left on device" "$tools/sluice-bfs" g.sluice --stats /dev/full
expect_error 1 "no-such-dir/p.txt: cannot be created" "$tools/sluice-bfs" g.sluice --output depth.txt --parents no-such-dir/p.txt
[ ! -e depth.txt ] || fail "--output written although --parents could not be"
grep -q "summary\|reached" out.txt && fail "bfs ran although an output path was unwritable"

# 5, 6. Ids and declared sizes near 2^64.
printf '0 1\n18446744073709551615 2\n' > huge.el
expect_error 1 "vertex id 18446744073709551615 is too large" "$sluice" convert huge.el huge.bel
python3 -c "import struct,sys; open('huge.bel64','wb').write(struct.pack('<4Q',0,1,2**64-1,2))"
expect_error 1 "vertex id 18446744073709551615 is too large" "$sluice" convert huge.bel64 huge.el
printf 'AdjacencyGraph\n18446744073709551615\n1\n0\n0\n' > huge.adj
expect_error 1 "declares 18446744073709551615 vertices" "$sluice" convert huge.adj huge.el
printf '# Nodes: 18446744073709551615 Edges: 1\n0 1\n' > nodes.el
expect_error 1 "declares 18446744073709551615 vertices" "$sluice" convert nodes.el nodes.bel
printf '%%%%MatrixMarket matrix coordinate pattern general\n18446744073709551615 2 1\n1 2\n' > huge.mtx
expect_error 1 "declares 18446744073709551615 vertices" "$sluice" convert huge.mtx huge.el
expect_error 1 "declares 18446744073709551615 vertices" "$sluice" convert g.el v.bel --vertices 18446744073709551615

# 15. A Matrix Market header of size 0 with entries; a device as input.
printf '%%%%MatrixMarket matrix coordinate pattern general\n0 0 2\n1 1\n1 2\n' > zero.mtx
expect_error 1 "zero.mtx:line 3: source id 1 is beyond the matrix size in the header 0" "$sluice" convert zero.mtx zero.el
expect_error 1 "/dev/zero: is a character device, expected a regular file" "$sluice" convert /dev/zero z.el --format bel

# 10. FIFOs as input or drive file: an error, not a hang. (A FIFO with a
# writer is read as a stream: tests/cli/inputs.sh.)
mkfifo in.el
(: > in.el) &  # a writer that closes without writing (one that comes late: hostile.sh)
expect_error 1 "in.el: is empty (its writer closed it without writing)" "$sluice" convert in.el x.bel
wait
expect_error 1 "pipe: is a FIFO" "$sluice" iobench --drives pipe --duration 0.1

# 12. SIGTERM during a conversion: no temporary left behind.
"$sluice" generate rmat --scale 17 --edge-factor 16 -o big.el >/dev/null
mkdir d3
"$sluice" convert big.el big.sluice --drives d3 --transpose >/dev/null 2>&1 &
pid=$!
sleep 0.3
kill -TERM $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
if ls . d3 | grep -q 'tmp-'; then fail "temporary files left after SIGTERM: $(ls . d3)"; fi

# 13. A Blaze dataset spread over drive directories reads back.
mkdir b0 b1
"$sluice" convert g.el g.gr.index --drives b0,b1 >/dev/null
expect_error 1 "no Blaze adjacency file beside the index.*--adjacency-dirs" "$sluice" info g.gr.index
"$sluice" convert g.gr.index back.el --adjacency-dirs b0,b1 >/dev/null
"$sluice" convert g.el plain.el >/dev/null
cmp -s back.el plain.el || fail "the Blaze dataset read back differs"

echo "reliability: all cases behaved"
