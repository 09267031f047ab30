#!/usr/bin/env bash
# convert --relabel (issue 23, 1): a SNAP file whose ids have gaps (and
# 64-bit ids, and duplicates) becomes a dense layout with its id map; the
# programs take sources and write results by the input's ids, checked
# against a plain BFS and union-find over the input itself; every text
# format relabels; a ranked layout keeps one map; what would lose the map
# is refused.
set -euo pipefail
tools=$1
. "$(dirname "$0")/lib.sh"
sluice=$tools/sluice
python=${PYTHON:-python3}

# Ids with gaps up to 2^40, a 64-bit one, duplicates, a self loop, and a
# header that declares fewer nodes than the largest id.
"$python" - <<'PY'
import random
random.seed(7)
ids = sorted(random.sample(range(1, 2**40), 300)) + [2**63 + 5]
edges = [(random.choice(ids), random.choice(ids)) for _ in range(1500)]
edges += edges[:40] + [(ids[3], ids[3])]
with open("snap.txt", "w") as f:
    f.write("# Directed graph (each unordered pair of nodes is saved once): test.txt\n")
    f.write("# A graph with id gaps\n# Nodes: 301 Edges: %d\n# FromNodeId\tToNodeId\n" % len(edges))
    for u, v in edges:
        f.write("%d\t%d\n" % (u, v))
PY
gzip -k snap.txt

# Without --relabel the ids are refused, with the way out named.
expect_error 1 "convert with --relabel" "$sluice" convert snap.txt.gz plain.sluice
"$sluice" convert snap.txt.gz g.sluice --relabel --transpose > convert.out
grep -q "^converted el -> sluice: 301 vertices, 1541 edges" convert.out || fail "relabelled conversion: $(cat convert.out)"
[ -f g.ids ] || fail "no id map beside the layout"
grep -q "^ids g.ids$" g.sluice || fail "the manifest names no id map: $(cat g.sluice)"
"$sluice" info g.sluice > info.out
grep -q "^ids         relabelled densely from 0 (convert --relabel); the input's ran from [0-9]* to 9223372036854775813, mapped in g.ids" info.out ||
  fail "info: $(cat info.out)"
"$sluice" info g.sluice --json | grep -q '"relabelled":true,"input_ids":{"smallest":[0-9]*,"largest":9223372036854775813}' || fail "info --json"

# The layout's edges, written out, are the input's (as a multiset).
"$sluice" convert g.sluice back.el > /dev/null
grep -v '^#' snap.txt | tr '\t' ' ' | sort > want.txt
grep -v '^#' back.el | sort > got.txt
cmp -s want.txt got.txt || fail "converting back does not give the input's edges"

# Results by the input's ids, against a plain BFS and union-find.
source=$(sed -n 5p snap.txt | cut -f1)
"$tools/sluice-bfs" g.sluice --source "$source" -o depth.txt --parents parent.txt > bfs.out 2>/dev/null
grep -q "source $source reached" bfs.out || fail "bfs summary names the input's source: $(cat bfs.out)"
"$tools/sluice-wcc" g.sluice -o label.txt > /dev/null 2>&1
"$tools/sluice-jtcc" g.sluice -o jtcc.txt > /dev/null 2>&1
cmp -s label.txt jtcc.txt || fail "wcc and jtcc disagree on the relabelled layout"
"$python" - "$source" <<'PY' || fail "results by the input's ids"
import collections, sys
edges = [tuple(map(int, l.split())) for l in open("snap.txt") if not l.startswith("#")]
ids = sorted({x for e in edges for x in e})
out = collections.defaultdict(list)
for u, v in edges: out[u].append(v)
source = int(sys.argv[1])
depth = {source: 0}
frontier = [source]
while frontier:
    nxt = []
    for u in frontier:
        for v in out[u]:
            if v not in depth: depth[v] = depth[u] + 1; nxt.append(v)
    frontier = nxt
parent = {}
for l in open("parent.txt"):
    i, p = map(int, l.split())
    parent[i] = p
got = [tuple(map(int, l.split())) for l in open("depth.txt")]
assert [i for i, _ in got] == ids, "depth.txt is not one line per input id, in order"
for i, d in got:
    assert d == depth.get(i, -1), (i, d, depth.get(i))
    if i != source and d > 0: assert depth[parent[i]] == d - 1 and i in out[parent[i]], (i, parent[i])
root = {x: x for x in ids}
def find(x):
    while root[x] != x: root[x] = root[root[x]]; x = root[x]
    return x
for u, v in edges:
    a, b = find(u), find(v)
    if a != b: root[max(a, b)] = min(a, b)
smallest = {}
for x in ids: smallest.setdefault(find(x), x)
for l in open("label.txt"):
    i, c = map(int, l.split())
    assert c == smallest[find(i)], (i, c)
PY
expect_error 2 "source 4 is not a vertex of the graph: it was relabelled" "$tools/sluice-bfs" g.sluice --source 4

# Binary output: (uint64 id, value) records; spmv reads its x back in the same form.
"$tools/sluice-spmv" g.sluice -o y.txt > /dev/null 2>&1
"$tools/sluice-spmv" g.sluice --x y.txt -o y2.txt > /dev/null 2>&1
"$tools/sluice-spmv" g.sluice -o y.bin --output-format binary > /dev/null 2>&1
[ "$(stat -c %s y.bin)" -eq $((301 * 16)) ] || fail "binary records of id and value"
"$tools/sluice-spmv" g.sluice --x y.bin --output-format binary -o y2.bin > /dev/null 2>&1
cmp -s <(od -An -tu8 -w16 -v y2.bin | awk '{print $1}') <(cut -d' ' -f1 y.txt) || fail "binary ids"
expect_error 1 "expected 'ID VALUE'" "$tools/sluice-spmv" g.sluice --x <(cut -d' ' -f2 y.txt)

# Every text format relabels: el, wel, mtx, adj and bel64 give the same graph.
awk '!/^#/ {print $1, $2, 1.5}' snap.txt > w.wel
"$sluice" convert w.wel w.sluice --relabel > /dev/null
"$sluice" convert snap.txt plain-dense.bel64 --relabel 2> err.txt && fail "--relabel to bel64 accepted"
grep -q "a sluice layout only" err.txt || fail "--relabel refused without reason: $(cat err.txt)"
"$sluice" convert g.sluice out.bel64 > /dev/null
"$sluice" convert out.bel64 b.sluice --relabel > /dev/null
cmp -s g.ids b.ids || fail "bel64 relabels to another map"
{ echo "%%MatrixMarket matrix coordinate pattern general"; echo "5000 5000 3"; echo "10 4000"; echo "4000 20"; echo "20 10"; } > m.mtx
"$sluice" convert m.mtx m.sluice --relabel > mtx.out
grep -q "3 vertices, 3 edges" mtx.out || fail "mtx relabelled: $(cat mtx.out)"
"$sluice" convert m.sluice m.el > /dev/null
grep -q "^9 3999$" m.el || fail "mtx ids back (0-based): $(cat m.el)"
printf 'AdjacencyGraph\n4\n2\n0\n1\n1\n2\n3\n0\n' > a.adj
"$sluice" convert a.adj a.sluice --relabel > adj.out
grep -q "3 vertices, 2 edges" adj.out || fail "adj relabelled (vertex 1 has no edge): $(cat adj.out)"
"$sluice" convert a.sluice a.el > /dev/null
[ "$(grep -v '^#' a.el | tr '\n' ' ')" = "0 3 2 0 " ] || fail "adj ids back: $(cat a.el)"
"$sluice" info w.sluice | grep -q "weighted    yes" || fail "wel relabelled"

# --reorder degree (issue 22): the busiest vertices first, the same
# results by input id; alone, files list values by position as before.
"$sluice" convert snap.txt o.sluice --relabel --reorder degree --transpose > /dev/null
"$tools/sluice-bfs" o.sluice --source "$source" -o odepth.txt > /dev/null 2>&1
cmp -s depth.txt odepth.txt || fail "bfs depths differ on the reordered layout"
"$tools/sluice-wcc" o.sluice -o olabel.txt > /dev/null 2>&1
cmp -s label.txt olabel.txt || fail "wcc labels differ on the reordered layout"
"$tools/sluice-jtcc" o.sluice -o ojtcc.txt > /dev/null 2>&1
cmp -s label.txt ojtcc.txt || fail "jtcc labels differ on the reordered layout"
"$sluice" generate rmat --scale 9 --seed 4 -o r.el > /dev/null
"$sluice" convert r.el plain.sluice --transpose > /dev/null
"$sluice" convert r.el ordered.sluice --reorder degree --transpose > /dev/null
"$sluice" info ordered.sluice | grep -q "^ids         reordered (convert --reorder degree)" || fail "info of a reordered layout"
"$tools/sluice-wcc" plain.sluice -o p-wcc.txt > /dev/null 2>&1
"$tools/sluice-bfs" ordered.sluice --source 5 -o o-bfs.txt > /dev/null 2>&1
"$tools/sluice-bfs" plain.sluice --source 5 -o p-bfs.txt > /dev/null 2>&1
cmp -s p-bfs.txt o-bfs.txt || fail "bfs by position differs on the reordered layout"
"$tools/sluice-wcc" ordered.sluice -o o-wcc.txt > /dev/null 2>&1
cmp -s p-wcc.txt o-wcc.txt || fail "wcc by position differs on the reordered layout"
"$tools/sluice-pagerank" ordered.sluice --method classic --tolerance 0 --iterations 10 -o o-pr.txt > /dev/null 2>&1
"$tools/sluice-pagerank" plain.sluice --method classic --tolerance 0 --iterations 10 -o p-pr.txt > /dev/null 2>&1
paste p-pr.txt o-pr.txt | awk '{d = $1 - $2; s += d < 0 ? -d : d} END {exit !(s < 1e-12)}' || fail "pagerank differs on the reordered layout"
"$tools/sluice-spmv" ordered.sluice --x p-pr.txt -o o-y.txt > /dev/null 2>&1
"$tools/sluice-spmv" plain.sluice --x p-pr.txt -o p-y.txt > /dev/null 2>&1
paste p-y.txt o-y.txt | awk '{d = $1 - $2; s += d < 0 ? -d : d} END {exit !(s < 1e-12)}' || fail "spmv's x or y out of order on the reordered layout"

# What would lose the map is refused; --vertices contradicts --relabel.
expect_error 1 "numbers vertices by position" "$sluice" convert g.sluice g.adj
expect_error 2 "leave --vertices out" "$sluice" convert snap.txt x.sluice --relabel --vertices 10

# Messages name the input's ids too: a negative weight, a layout taken as
# symmetric that is not.
printf '# ids with gaps\n100 200 4\n100 300 1\n300 200 -2\n200 400 1\n' > negative.wel
"$sluice" convert negative.wel negative.sluice --relabel > /dev/null
expect_error 2 "an edge out of vertex 300 has a negative weight" "$tools/sluice-sssp" negative.sluice --source 100 --delta 1
expect_error 2 "vertex 100 has 2 out-edges and 0 in-edges" "$tools/sluice-wcc" negative.sluice --symmetric

# A relabelled layout rebuilt (--symmetrize) keeps its map.
"$sluice" convert g.sluice s.sluice --symmetrize > /dev/null
cmp -s g.ids s.ids || fail "the map changed when rebuilding"

# Ranked: one map beside the top manifest, the same results on 2 ranks.
# (Only where sluice was built with MPI: the test is given "mpi".)
if [ "${2:-}" = mpi ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  # OpenMPI's own allocations are still held at exit: not sluice's leaks (as in ranks.sh).
  export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
  "$sluice" convert snap.txt r.sluice --relabel --transpose --ranks 2 > /dev/null 2>&1
  cmp -s g.ids r.ids || fail "the ranked layout's map"
  [ ! -f r.part0.ids ] || fail "a part has its own map"
  mpirun --oversubscribe -np 2 "$tools/sluice-bfs" r.sluice --source "$source" -o depth2.txt > /dev/null 2>&1
  cmp -s depth.txt depth2.txt || fail "bfs on 2 ranks differs on the relabelled layout"
  mpirun --oversubscribe -np 2 "$tools/sluice-wcc" r.sluice -o label2.txt > /dev/null 2>&1
  cmp -s label.txt label2.txt || fail "wcc on 2 ranks differs on the relabelled layout"
fi
echo "relabel: all passed"
