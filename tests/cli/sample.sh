#!/usr/bin/env bash
# convert --sample-edges (each vertex's first targets beside the index,
# for WCC's sampling): written by default, both edge sets; WCC's labels
# byte-identical with and without it, on plain and compressed pages, from
# the drives and in memory, reading fewer bytes with it; none for weighted
# graphs or with 0; dropped by a re-conversion without it; bad values
# refused; damage found by info --verify and by the run.
set -euo pipefail
tools=$1
. "$(dirname "$0")/lib.sh"
sluice=$tools/sluice

"$sluice" generate rmat --scale 13 -o g.el > /dev/null
"$sluice" convert g.el s.sluice --transpose > /dev/null
"$sluice" convert g.el n.sluice --transpose --sample-edges 0 > /dev/null
"$sluice" convert g.el c.sluice --transpose --compress --sample-edges 3 > /dev/null
[ -s s.out.sample ] && [ -s s.in.sample ] || fail "no sample files by default: $(ls)"
grep -q '^sample_edges 2$' s.sluice || fail "the manifest does not say sample_edges 2: $(cat s.sluice)"
[ ! -e n.out.sample ] && ! grep -q sample n.sluice || fail "--sample-edges 0 wrote a sample"
grep -q '^sample_edges 3$' c.sluice || fail "--sample-edges 3: $(cat c.sluice)"
"$sluice" info s.sluice | grep -q "^sample .*first 2 targets of each vertex.*both edge sets" || fail "info: $("$sluice" info s.sluice)"
"$sluice" info c.sluice --json | grep -q '"sample_edges":3' || fail "info --json"

"$tools/sluice-wcc" n.sluice -o expected.txt --stats n.json > /dev/null
for layout in s.sluice c.sluice; do
  for io in auto memory; do
    "$tools/sluice-wcc" "$layout" --io "$io" -o got.txt --stats s.json > /dev/null
    cmp -s expected.txt got.txt || fail "WCC on $layout --io $io differs from the layout without a sample"
  done
done
read_bytes() { grep '"record":"summary"' "$1" | sed 's/.*"bytes_read":\([0-9]*\).*/\1/'; }
grep -q '"phase":"in-sample"' s.json || fail "no in-sample EDGEMAP: $(cat s.json)"
[ "$(read_bytes s.json)" -lt "$(read_bytes n.json)" ] || fail "the sample read $(read_bytes s.json) bytes, without it $(read_bytes n.json)"
# The other programs do not mind it.
"$tools/sluice-bfs" n.sluice -o b1.txt > /dev/null
"$tools/sluice-bfs" s.sluice -o b2.txt > /dev/null
cmp -s b1.txt b2.txt || fail "BFS differs with a sample"

# Weighted graphs get none; a re-conversion without one drops the old files.
"$sluice" generate rmat --scale 10 --weighted -o w.sluice > /dev/null
[ ! -e w.out.sample ] && ! grep -q sample w.sluice || fail "a weighted layout got a sample"
"$sluice" convert g.el s.sluice --sample-edges 0 > /dev/null
[ ! -e s.out.sample ] && [ ! -e s.in.sample ] || fail "the old sample files were left: $(ls)"

expect_error 2 "at most 64" "$sluice" convert g.el x.sluice --sample-edges 65
expect_error 2 "applies to sluice's layout only" "$sluice" convert g.el x.el --sample-edges 3

# Damage: a byte of the first piece, then the size.
"$sluice" convert g.el d.sluice --transpose > /dev/null
"$sluice" info d.sluice --verify > /dev/null
printf '\177' | dd of=d.in.sample bs=1 seek=100 conv=notrunc 2> /dev/null
expect_error 1 "d.in.sample:byte 64: piece 0 fails its checksum" "$sluice" info d.sluice --verify
expect_error 1 "d.in.sample:byte 64: piece 0 fails its checksum" "$tools/sluice-wcc" d.sluice
truncate -s 100 d.in.sample
expect_error 1 "d.in.sample: holds 100 bytes" "$tools/sluice-bfs" d.sluice
echo "sample: ok"
