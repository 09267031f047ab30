#!/usr/bin/env bash
# Graphs as they ship: gzip and zstd files, standard input, pipes and
# process substitution read as streams; truncated or corrupt compressed
# data, and inputs given where a layout belongs, as errors with the fix.
set -euo pipefail
tools=$1
sluice=$tools/sluice
. "$(dirname "$0")/lib.sh"

"$sluice" generate rmat --scale 12 --edge-factor 8 --seed 5 -o g.el >/dev/null
"$sluice" convert g.el plain.bel >/dev/null
# A SNAP file: header comments, tabs, shipped as .txt.gz.
{ echo "# Directed graph: g.txt"; echo "# Nodes: 4096 Edges: 32768"; tr ' ' '\t' < g.el; } > snap.txt
gzip -k snap.txt
zstd -q -k snap.txt
same() { "$sluice" convert "$@" out.bel >/dev/null && cmp -s out.bel plain.bel || fail "convert $* differs"; rm -f out.bel; }
same snap.txt.gz
same snap.txt.zst
# Several gzip members (as `cat a.gz b.gz` makes) are one stream.
head -n 1000 snap.txt | gzip > parts.txt.gz
tail -n +1001 snap.txt | gzip >> parts.txt.gz
same parts.txt.gz
# Standard input and pipes: format from the first bytes, or --format.
"$sluice" convert - out.bel < snap.txt >/dev/null && cmp -s out.bel plain.bel || fail "convert - (file on stdin)"
zcat snap.txt.gz | "$sluice" convert - out2.bel >/dev/null && cmp -s out2.bel plain.bel || fail "convert - (pipe)"
same <(zcat snap.txt.gz)
gzip -c snap.txt | "$sluice" convert - out3.bel --format el >/dev/null && cmp -s out3.bel plain.bel || fail "gzip on stdin"
mkfifo fifo.el
gzip -dc snap.txt.gz > fifo.el &
"$sluice" convert fifo.el out4.bel >/dev/null && cmp -s out4.bel plain.bel || fail "a FIFO with a writer"
wait
# Matrix Market through a pipe is told apart by its banner.
"$sluice" convert g.el g.mtx >/dev/null
gzip -c g.mtx | "$sluice" convert - out5.bel >/dev/null && cmp -s out5.bel plain.bel || fail "mtx.gz on stdin"
# Other commands take compressed input too.
"$sluice" info snap.txt.gz | grep -q "^edges *32768" || fail "info on .txt.gz"
"$tools/sluice-jtcc" snap.txt.zst | grep -q "components" || fail "jtcc on .zst"

# docs/converting.md's first example: .txt.gz -> layout -> BFS -> numpy.
mkdir nvme0 nvme1
"$sluice" convert snap.txt.gz lj.sluice --drives nvme0,nvme1 --transpose >/dev/null
"$tools/sluice-bfs" lj.sluice --source 0 --output depths.bin --output-format binary --stats bfs.jsonl > bfs.out 2>/dev/null
reached=$(sed 's/.* reached \([0-9]*\) of .*/\1/' bfs.out)
for python in python3 /usr/bin/python3; do
  if "$python" -c "import numpy" 2>/dev/null; then
    got=$("$python" -c '
import numpy as np, json
depth = np.fromfile("depths.bin", dtype="<i8")
stats = [json.loads(line) for line in open("bfs.jsonl")]
levels = [s for s in stats if s["record"] == "edgemap"]
assert len(depth) == 4096 and depth[0] == 0 and len(levels) == depth.max() + 1
print((depth >= 0).sum())')
    [ "$got" = "$reached" ] || fail "numpy counts $got reached, bfs said $reached"
    break
  fi
done

# Errors: where, and what to do.
head -c 3000 snap.txt.gz > cut.txt.gz
expect_error -F 1 "cut.txt.gz:byte 3000: the gzip stream ends early (truncated file?)" "$sluice" convert cut.txt.gz x.bel
{ head -c 200 snap.txt.gz; head -c 3000 /dev/urandom; } > bad.txt.gz
expect_error -F 1 "bad.txt.gz:byte" "$sluice" convert bad.txt.gz x.bel
grep -q "corrupt gzip data" err.txt || fail "corrupt gzip said: $(cat err.txt)"
head -c 2000 snap.txt.zst > cut.txt.zst
expect_error -F 1 "the zstd stream ends early" "$sluice" convert cut.txt.zst x.bel
expect_error -F 1 "standard input: file is empty" "$sluice" convert - x.bel < /dev/null
"$sluice" convert g.el g.sluice --drives . >/dev/null
expect_error -F 1 "a sluice graph is read in place: give its file, not a pipe" "$sluice" info - --format sluice < g.sluice
expect_error -F 1 "g.el: not a sluice layout (its name says el): make one with \`sluice convert g.el g.sluice --drives DIR[,DIR...]\`" \
  "$tools/sluice-bfs" g.el
# A SNAP header's count describes, it does not bound (web-Google declares
# 875,713 nodes with ids up to 916,427): ids past it are read, with a note;
# one that reaches exactly the count hints at 1-based ids.
printf '# Nodes: 3\n1 2\n2 3\n' > one.txt
"$sluice" info one.txt > info.txt 2> note.txt
grep -q "^vertices    4$" info.txt || fail "ids past the header's count: $(cat info.txt)"
grep -qF "sluice: one.txt: the header declares 3 nodes but the ids reach 3: reading 4 vertices (if the ids are 1-based, pass --base 1)" note.txt ||
  fail "the note on ids past the header: $(cat note.txt)"
printf '# Nodes: 5 Edges: 3\n0 9\n9 2\n4 1\n' > gaps.txt
"$sluice" info gaps.txt 2> note.txt | grep -q "^vertices    10$" || fail "a SNAP file with id gaps"
grep -qF "the header declares 5 nodes but the ids reach 9: reading 10 vertices (--relabel keeps only the ids that appear, numbered densely from 0; --vertices N holds them to a count)" note.txt ||
  fail "the note on id gaps: $(cat note.txt)"
expect_error -F 1 "gaps.txt:line 2: target id 9 is beyond the declared vertex count 5" "$sluice" convert gaps.txt x.bel --vertices 5
printf '# Nodes: 3\n1 2\n2 3\n' > one.txt
"$sluice" convert one.txt x.bel --base 1 >/dev/null || fail "--base 1"
[ ! -e x.bel ] || [ "$(stat -c %s x.bel)" -eq 16 ] || fail "one-based output"
echo "inputs: ok"
