#!/usr/bin/env bash
# The algorithm programs as a user runs them: summaries, --output in text
# and binary, --stats, the same answer from `sluice NAME` and `NAME`, WCC
# and JT-CC agreeing, and the errors (no transpose, bad source, bad flag).
set -euo pipefail
tools=$1
. "$(dirname "$0")/lib.sh"

"$tools/sluice" generate rmat --scale 12 --edge-factor 8 --seed 3 -o g.el >/dev/null
mkdir d0 d1 d2
"$tools/sluice" convert g.el g.sluice --drives d0,d1 --transpose >/dev/null
"$tools/sluice" convert g.el plain.sluice --drives d2 >/dev/null

"$tools/sluice-bfs" g.sluice --source 5 --output depth.txt --parents parent.txt --stats bfs.jsonl > bfs.out 2>/dev/null
grep -q "^bfs g.sluice: .* iterations, .* MB read (.* MB/s), source 5 reached [0-9]* of 4096 vertices" bfs.out || fail "bfs summary: $(cat bfs.out)"
[ "$(wc -l < depth.txt)" -eq 4096 ] || fail "bfs --output lines"
[ "$(sed -n 6p depth.txt)" = 0 ] || fail "source depth"
[ "$(sed -n 6p parent.txt)" = 5 ] || fail "source parent"
[ "$(grep -c '^{"record":"edgemap"' bfs.jsonl)" -eq "$(sed 's/.* \([0-9]*\) iterations.*/\1/' bfs.out)" ] || fail "one stats line per level"
grep -q '^{"record":"edgemap","algorithm":"bfs","trial":0,"phase":"level","iteration":0,"direction":"push","active_vertices":1,' bfs.jsonl || fail "stats line: $(sed -n 2p bfs.jsonl)"
head -1 bfs.jsonl | grep -q '^{"record":"run","sluice":"[0-9.]*","algorithm":"bfs","graph":"g.sluice",.*"vertices":4096,.*"drives":2,.*"backend":"[a-z_]*",.*"parameters":{"source":5}}$' || fail "run record: $(head -1 bfs.jsonl)"
tail -1 bfs.jsonl | grep -q '^{"record":"summary","algorithm":"bfs","trial":0,"seconds":' || fail "summary record: $(tail -1 bfs.jsonl)"
# Where the seconds went: EDGEMAPs, and the vertex work before each.
tail -1 bfs.jsonl | grep -q '"edgemap_seconds":[0-9.e-]*,"vertex_seconds":[0-9.e-]*' || fail "summary's phases: $(tail -1 bfs.jsonl)"
sed -n 2p bfs.jsonl | grep -q '"gather_seconds":[0-9.e-]*,"vertex_seconds":[0-9.e-]*,"bandwidth_mb_s"' || fail "edgemap's vertex seconds: $(sed -n 2p bfs.jsonl)"
# Where the statistics came from (issue 23, 9): when, on which host, the
# command as typed, and the device of each drive file.
head -1 bfs.jsonl | grep -q '"started":"20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z","host":"'"$(hostname)"'","command_line":\["sluice-bfs","g.sluice","--source","5","--output","depth.txt","--parents","parent.txt","--stats","bfs.jsonl"\],' ||
  fail "run record's origin: $(head -1 bfs.jsonl)"
head -1 bfs.jsonl | grep -q '"drive_devices":\["[0-9]*:[0-9]*","[0-9]*:[0-9]*"\],' || fail "drive devices: $(head -1 bfs.jsonl)"

# Sources (issue 23, 6): random ones, one per trial, each with out-edges;
# a list, one per trial; a source without out-edges is warned about.
"$tools/sluice-bfs" g.sluice --source random -n 3 --stats random.jsonl > random.out 2>/dev/null
[ "$(grep -c "^bfs g.sluice: .* source [0-9]* reached" random.out)" -eq 3 ] || fail "three random trials: $(cat random.out)"
[ "$(sed -n 's/.* source \([0-9]*\) reached.*/\1/p' random.out | sort -u | wc -l)" -eq 3 ] || fail "the random sources repeat: $(cat random.out)"
grep " source [0-9]* reached 1 of " random.out && fail "a random source without out-edges"
grep -q '"parameters":{"source":"random"}' random.jsonl || fail "the run record's random source: $(head -1 random.jsonl)"
"$tools/sluice-sssp" g.sluice --source 5,9 --stats list.jsonl > list.out 2>/dev/null
head -1 list.jsonl | grep -q '"trials":2,' || fail "the run record's trials for two sources: $(head -1 list.jsonl)"
[ "$(grep -c "^sssp g.sluice: .* source 5 reached" list.out)" -eq 1 ] && [ "$(grep -c "^sssp g.sluice: .* source 9 reached" list.out)" -eq 1 ] ||
  fail "a list of sources, one per trial: $(cat list.out)"
expect_error 2 "\-\-source lists 2 vertices, one per trial, and --trials asks for 3" "$tools/sluice-bfs" g.sluice --source 5,9 -n 3 --io memory
! grep -q "loaded into memory" err.txt || fail "bfs loaded the edges before refusing --trials: $(cat err.txt)"
printf '0 1\n1 0\n' > stuck.el
"$tools/sluice" convert stuck.el stuck.sluice --vertices 3 >/dev/null
"$tools/sluice-bfs" stuck.sluice --source 2 > stuck.out 2> stuck.err
grep -qF "bfs: warning: source 2 has no out-edges: the search reaches only itself (--source random picks vertices with out-edges)" stuck.err ||
  fail "no warning for a source without out-edges: $(cat stuck.err)"

# GAPBS's -f GRAPH and -v (issue 23, 10): an independent check of the
# result; a failed one exits 1; a program without a verifier refuses -v.
"$tools/sluice-bfs" -f g.sluice -v > verify.out 2>/dev/null || fail "bfs -v: $(cat verify.out)"
grep -q "^bfs g.sluice: verification passed: a BFS tree of [0-9]* vertices, checked against 32768 edges$" verify.out || fail "bfs -v: $(cat verify.out)"
for program in wcc "sssp --delta 4" "spmv" "pagerank --method classic --tolerance 1e-9 --iterations 200"; do
  "$tools/sluice-${program%% *}" g.sluice ${program#"${program%% *}"} --verify > verify.out 2>/dev/null || fail "$program --verify: $(cat verify.out)"
  grep -q "verification passed" verify.out || fail "$program --verify: $(cat verify.out)"
done
expect_error 1 "pagerank g.sluice: verification FAILED: the residual of one more power iteration is .* (L1), above 0.001" \
  "$tools/sluice-pagerank" g.sluice --method classic --iterations 2 -v
expect_error 2 "bc has no verifier" "$tools/sluice-bc" g.sluice -v

# --trials (-n): a summary per trial, then their median; -r is --source.
"$tools/sluice-bfs" g.sluice -r 5 -n 3 --stats trials.jsonl > trials.out 2>/dev/null
[ "$(grep -c '^bfs g.sluice: .* iterations, .*source 5 reached' trials.out)" -eq 3 ] || fail "three trials: $(cat trials.out)"
grep -q '^bfs g.sluice: median of 3 trials [0-9.]* s (' trials.out || fail "median line: $(cat trials.out)"
grep -q '^Average Time: *[0-9]*\.[0-9]\{5\}$' trials.out || fail "GAPBS's Average Time line: $(cat trials.out)"
[ "$(grep -c '^{"record":"summary"' trials.jsonl)" -eq 3 ] || fail "three summary records"
grep -q '"record":"edgemap","algorithm":"bfs","trial":2,' trials.jsonl || fail "third trial's EDGEMAPs"

"$tools/sluice" bfs g.sluice --source 5 --output depth2.txt --edgemap atomic --io psync >/dev/null 2>&1
cmp -s depth.txt depth2.txt || fail "sluice bfs (atomic, psync) differs from bfs"

"$tools/sluice-wcc" g.sluice --output wcc.bin --output-format binary > wcc.out 2>/dev/null
"$tools/sluice-jtcc" g.el --output jtcc.bin --output-format binary > jtcc.out 2>/dev/null
[ "$(stat -c %s wcc.bin)" -eq $((4096 * 8)) ] || fail "binary output size"
cmp -s wcc.bin jtcc.bin || fail "wcc and jtcc partitions differ"
[ "$(sed 's/.*iterations, .*), //' wcc.out)" = "$(sed 's/.*M edges\/s, .* of ids), //' jtcc.out)" ] || fail "component digests: $(cat wcc.out jtcc.out)"

"$tools/sluice-pagerank" g.sluice --method classic --dangling spread --tolerance 1e-9 --iterations 100 --output pr.txt > pr.out 2>/dev/null
grep -q "sum of ranks 1.000000" pr.out || fail "classic PageRank with spread sums to 1: $(cat pr.out)"
seq 0 4095 > x.txt
"$tools/sluice-spmv" g.sluice --x x.txt --output y.txt >/dev/null 2>&1
[ "$(wc -l < y.txt)" -eq 4096 ] || fail "spmv output"
"$tools/sluice-bc" g.sluice --sources 1,2 > bc.out 2>/dev/null
grep -q "2 source(s)" bc.out || fail "bc summary: $(cat bc.out)"

expect_error 1 "needs the transpose" "$tools/sluice-wcc" plain.sluice
expect_error 2 "is not below" "$tools/sluice-bfs" g.sluice --source 4096
expect_error 2 "edgemap must be binning or atomic" "$tools/sluice-pagerank" g.sluice --edgemap sideways
expect_error 2 "did you mean --iterations" "$tools/sluice-pagerank" g.sluice --iteratons 5
expect_error 2 "did you mean bfs" "$tools/sluice" bsf g.sluice
# GAPBS's habits get what sluice calls them, not a guess.
expect_error 2 "GAPBS's pr -t TOLERANCE is --tolerance" "$tools/sluice-pagerank" g.sluice -t 1e-4
expect_error 2 "GAPBS's -g SCALE (a Kronecker graph) is \`sluice generate rmat --scale SCALE" "$tools/sluice-bfs" g.sluice -g 20
expect_error 2 "GAPBS's pr -i ITERATIONS is sluice-pagerank's --iterations" "$tools/sluice-pagerank" g.sluice -i 5
expect_error 2 "GAPBS's -l (logging within each trial) is --stats FILE" "$tools/sluice-wcc" g.sluice -l
expect_error 2 "GAPBS's -s (symmetrize) is \`sluice convert --symmetrize\`" "$tools/sluice-bfs" g.sluice -s
expect_error 2 "is not a size in bytes" "$tools/sluice-bfs" g.sluice --memory-limit 8q
expect_error 2 "must not be negative" "$tools/sluice-bfs" g.sluice --threads -2
for command in "$tools/sluice-bfs" "$tools/sluice" "$tools/sluice convert"; do
  $command --version | grep -q '^sluice [0-9][0-9.]*$' || fail "$command --version: $($command --version)"
done
expect_error 2 "PageRank-delta drops" "$tools/sluice-pagerank" g.sluice --method delta --dangling spread
# The automatic method spreads the dangling rank by classic.
"$tools/sluice-pagerank" g.sluice --dangling spread --tolerance 1e-9 --iterations 100 --output auto-spread.txt --stats auto-spread.json \
  > /dev/null 2>&1 || fail "pagerank --dangling spread with the automatic method failed"
grep -q '"method":"classic"' auto-spread.json || fail "pagerank --dangling spread did not run classic"
cmp -s pr.txt auto-spread.txt || fail "pagerank --dangling spread by the automatic method differs from --method classic"
expect_error 2 "unknown share type 'half' for --shares (expected auto, double or float)" "$tools/sluice-pagerank" g.sluice --shares half
printf '1\n2\nthree\n' > bad-x.txt
expect_error 1 "bad-x.txt:line 3" "$tools/sluice-spmv" g.sluice --x bad-x.txt
expect_error 1 "missing.sluice: cannot open: No such file or directory" "$tools/sluice-bc" missing.sluice
# Nothing half-written: a failed run leaves no output file.
printf '1\n' > short-x.txt
expect_error 1 "expected 4096 values" "$tools/sluice-spmv" g.sluice --x short-x.txt --output none.txt
[ ! -e none.txt ] || fail "output left behind"
# The parameters are read before the edges are loaded: a bad one costs no load.
expect_error 2 "is not below" "$tools/sluice-bfs" g.sluice --source 4096 --io memory
! grep -q "loaded into memory" err.txt || fail "bfs loaded the edges before refusing --source: $(cat err.txt)"
expect_error 1 "expected 4096 values" "$tools/sluice-spmv" g.sluice --x short-x.txt --io memory
! grep -q "loaded into memory" err.txt || fail "spmv loaded the edges before refusing --x: $(cat err.txt)"
expect_error 2 "bc has no verifier" "$tools/sluice-bc" g.sluice --verify --io memory
! grep -q "loaded into memory" err.txt || fail "bc loaded the edges before refusing --verify: $(cat err.txt)"
# Symmetry (issue 23): --symmetrize is recorded in the layout and the
# programs use it without --symmetric; --symmetric on a layout that does
# not record it is checked first, and a directed graph is refused, even
# one whose degrees agree (a cycle), instead of counting wrong components.
"$tools/sluice" convert g.el sym.sluice --symmetrize --drives d2 >/dev/null
grep -q '^symmetric 1$' sym.sluice || fail "--symmetrize not recorded: $(cat sym.sluice)"
"$tools/sluice" info sym.sluice | grep -q '^symmetric   yes' || fail "info does not show the symmetry"
jtcc=$("$tools/sluice-jtcc" g.el | sed 's/.*, \([0-9]*\) components.*/\1/')
"$tools/sluice-wcc" sym.sluice --stats sym.jsonl > sym.out 2>/dev/null || fail "wcc on a recorded symmetric layout without a transpose"
grep -q ", $jtcc components" sym.out || fail "wcc on sym.sluice: $(cat sym.out), jtcc $jtcc"
head -1 sym.jsonl | grep -q '"symmetric":true,"symmetric_source":"layout"' || fail "run record: $(head -1 sym.jsonl)"
"$tools/sluice-bc" sym.sluice --sources 0 >/dev/null 2>&1 || fail "bc on a recorded symmetric layout"
expect_error 2 "plain.sluice does not store every edge both ways (vertex [0-9]* has [0-9]* out-edges and [0-9]* in-edges)" \
  "$tools/sluice-wcc" plain.sluice --symmetric
expect_error 2 "does not store every edge both ways (vertex" "$tools/sluice-wcc" g.sluice --symmetric  # the transpose's index
printf '0 1\n1 2\n2 0\n' > cycle.el
"$tools/sluice" convert cycle.el cycle.sluice --drives d2 >/dev/null
expect_error 2 "cycle.sluice does not store every edge both ways (edge [0-9]* -> [0-9]* has no reverse)" "$tools/sluice-wcc" cycle.sluice --symmetric
"$tools/sluice" convert sym.sluice unknown.el >/dev/null  # the edges both ways, the record lost
"$tools/sluice" convert unknown.el unknown.sluice --drives d2 >/dev/null
grep -q '^symmetric 0$' unknown.sluice || fail "symmetry recorded without being known"
"$tools/sluice-wcc" unknown.sluice --symmetric > unknown.out 2> unknown.err || fail "a symmetric layout failed the check: $(cat unknown.err)"
grep -q "checked in-degree = out-degree at all 4096 vertices (one pass over [0-9]* edges), and 1000 edges drawn at random each have their reverse" unknown.err ||
  fail "the check is not named: $(cat unknown.err)"
grep -q ", $jtcc components" unknown.out || fail "wcc --symmetric: $(cat unknown.out)"

# PageRank says whether it converged (issue 23, 4): in the summary, the
# --stats summary record and, when it stopped at the cap, on stderr.
"$tools/sluice-pagerank" g.sluice --method classic --tolerance 1e-12 --iterations 4 --stats cap.jsonl > cap.out 2> cap.err
grep -q "last change [0-9.e-]*, not converged$" cap.out || fail "summary of a capped run: $(cat cap.out)"
grep -q "^pagerank: warning: did not converge: stopped at the cap of 4 iterations with a last change of" cap.err || fail "no warning: $(cat cap.err)"
tail -1 cap.jsonl | grep -q '"converged":false,"float_share_iterations":4}$' || fail "summary record: $(tail -1 cap.jsonl)"
"$tools/sluice-pagerank" g.sluice --method classic --tolerance 1e-6 --iterations 500 --stats done.jsonl > done.out 2> done.err
grep -q ", converged$" done.out && ! grep -q warning done.err || fail "a converged run: $(cat done.out done.err)"
tail -1 done.jsonl | grep -q '"converged":true,"float_share_iterations":[0-9]*}$' || fail "summary record: $(tail -1 done.jsonl)"
# --shares auto (the default) left floats on the way down to 1e-6: some
# iterations on each; --shares double none on floats.
python3 -c '
import json, sys
s = json.loads(open("done.jsonl").read().splitlines()[-1])
sys.exit(not 0 < s["float_share_iterations"] < s["iterations"])' || fail "auto shares: $(tail -1 done.jsonl)"
"$tools/sluice-pagerank" g.sluice --method classic --tolerance 1e-6 --iterations 500 --shares double --stats doubles.jsonl > /dev/null
tail -1 doubles.jsonl | grep -q '"converged":true,"float_share_iterations":0}$' || fail "double shares: $(tail -1 doubles.jsonl)"
"$tools/sluice-pagerank" g.sluice --tolerance 0 --iterations 2 2> fixed.err >/dev/null
! grep -q warning fixed.err || fail "a tolerance of 0 (a fixed iteration count) warned: $(cat fixed.err)"

# SSSP and k-core (issue 20), rows of the algorithm table like the rest.
# Unweighted, delta-stepping at any width gives BFS's depths.
"$tools/sluice-sssp" g.sluice --source 5 --output dist.txt --stats sssp.jsonl > sssp.out 2>/dev/null
grep -q "^sssp g.sluice: .* iterations, .*source 5 reached [0-9]* of 4096 vertices, farthest at [0-9.]*, [0-9]* bucket(s)" sssp.out ||
  fail "sssp summary: $(cat sssp.out)"
paste depth.txt dist.txt | awk '($1 == -1 && $2 != "inf") || ($1 != -1 && $1 != $2) { bad = 1 } END { exit bad }' ||
  fail "sssp distances are not BFS depths"
head -1 sssp.jsonl | grep -q '"parameters":{"source":5,"delta":1.0,"delta_from":"unweighted: every weight is 1"}}$' || fail "sssp run record: $(head -1 sssp.jsonl)"
"$tools/sluice" sssp g.sluice -r 5 -d inf --output dist-bf.txt >/dev/null 2>&1
cmp -s dist.txt dist-bf.txt || fail "Bellman-Ford (--delta inf) differs from delta-stepping"
expect_error 2 "\-\-delta must be a positive number, inf (Bellman-Ford) or auto (the largest weight), not '0'" "$tools/sluice-sssp" g.sluice --delta 0
expect_error 2 "\-\-delta must be a positive number" "$tools/sluice-sssp" g.sluice --delta 2x
# By default the buckets are as wide as the largest weight, which the
# layout records (and sluice info shows).
printf '0 1 4\n0 2 1\n2 1 2.5\n1 3 1\n' > positive.wel
"$tools/sluice" convert positive.wel positive.sluice --drives d2 >/dev/null
grep -qx "weights 1 4" positive.sluice || fail "the manifest's weight range: $(cat positive.sluice)"
"$tools/sluice" info positive.sluice | grep -q "^weights     least 1, largest 4 " || fail "sluice info's weights: $("$tools/sluice" info positive.sluice)"
"$tools/sluice-sssp" positive.sluice --source 0 --output positive.txt --stats positive.jsonl > positive.out 2>&1
[ "$(tr '\n' ' ' < positive.txt)" = "0 3.5 1 4.5 " ] || fail "sssp on positive weights: $(cat positive.txt)"
grep -q ", 2 bucket(s) of width 4$" positive.out || fail "sssp's default width: $(cat positive.out)"
head -1 positive.jsonl | grep -q '"delta":4.0,"delta_from":"the largest weight"}}$' || fail "sssp run record: $(head -1 positive.jsonl)"
printf '0 1 4\n0 2 1\n2 1 -2\n1 3 1\n' > negative.wel
"$tools/sluice" convert negative.wel negative.sluice --drives d2 >/dev/null
expect_error 2 "an edge out of vertex 2 has a negative weight: delta-stepping needs" "$tools/sluice-sssp" negative.sluice --source 0 --delta 1
"$tools/sluice-sssp" negative.sluice --source 0 --delta inf --output negative.txt >/dev/null 2>&1
[ "$(tr '\n' ' ' < negative.txt)" = "0 -1 1 0 " ] || fail "Bellman-Ford with a negative weight: $(cat negative.txt)"
# A negative weight makes the default Bellman-Ford.
"$tools/sluice-sssp" negative.sluice --source 0 --output negative-auto.txt > negative-auto.out 2>&1
cmp -s negative.txt negative-auto.txt || fail "sssp's default on negative weights: $(cat negative-auto.out)"
grep -q "(Bellman-Ford)$" negative-auto.out || fail "sssp's default on negative weights: $(cat negative-auto.out)"
# A layout written before the weights were recorded keeps width 1, and says so.
grep -v "^weights " positive.sluice > unrecorded.sluice
"$tools/sluice-sssp" unrecorded.sluice --source 0 --output unrecorded.txt > unrecorded.out 2>&1
cmp -s positive.txt unrecorded.txt || fail "sssp on a layout without its weight range: $(cat unrecorded.out)"
grep -q "of width 1$" unrecorded.out && grep -q "records no range of its weights" unrecorded.out || fail "sssp without a weight range: $(cat unrecorded.out)"
# From every vertex at once: each vertex's least distance from any vertex
# (2 -> 1 -> 3), checked by the verifier too; a negative cycle anywhere,
# reachable from no chosen source, is an error.
"$tools/sluice-sssp" negative.sluice --from-every-vertex --delta inf --verify --output potentials.txt > potentials.out 2>&1 ||
  fail "sssp --from-every-vertex: $(cat potentials.out)"
[ "$(tr '\n' ' ' < potentials.txt)" = "0 -2 0 -1 " ] || fail "sssp --from-every-vertex: $(cat potentials.txt)"
grep -q "^sssp negative.sluice: .*from every vertex: 2 of 4 vertices below 0, least distance -2" potentials.out || fail "sssp --from-every-vertex summary: $(cat potentials.out)"
printf '0 1 1\n2 3 -2\n3 2 1\n' > cycle.wel
"$tools/sluice" convert cycle.wel cycle.sluice --drives d2 >/dev/null
expect_error 1 "the graph has a negative cycle: distances still fall after 4 rounds" "$tools/sluice-sssp" cycle.sluice --from-every-vertex --delta inf --output cycle.txt
[ ! -e cycle.txt ] || fail "a negative cycle left its output"
expect_error 2 "give --source or --from-every-vertex, not both" "$tools/sluice-sssp" negative.sluice --source 0 --from-every-vertex
# k-core needs an undirected graph; on one, a coreness per vertex.
expect_error 2 "kcore needs an undirected graph" "$tools/sluice-kcore" g.sluice
# ... refused before any edge is loaded.
expect_error 2 "kcore needs an undirected graph" "$tools/sluice-kcore" g.sluice --io memory
! grep -q "loaded into memory" err.txt || fail "kcore loaded the edges before refusing the graph: $(cat err.txt)"
expect_error 1 "g.sluice: kcore needs an undirected graph: convert with --symmetrize" "$tools/sluice" sweep g.sluice --algorithm kcore --repeat 1 -o refused.csv
[ ! -e refused.csv ] || fail "sweep left refused.csv behind"
"$tools/sluice-kcore" sym.sluice --output core.txt > kcore.out 2>/dev/null
grep -q "^kcore sym.sluice: .*largest core [0-9]* ([0-9]* vertices), [0-9]* peeling rounds" kcore.out || fail "kcore summary: $(cat kcore.out)"
largest=$(sed 's/.*largest core \([0-9]*\) (\([0-9]*\) vertices).*/\1 \2/' kcore.out)
[ "$(sort -n core.txt | tail -1) $(grep -cx "$(sort -n core.txt | tail -1)" core.txt)" = "$largest" ] || fail "kcore digest $largest against its output"
"$tools/sluice-kcore" unknown.sluice --symmetric --output core2.txt >/dev/null 2>&1
cmp -s core.txt core2.txt || fail "kcore with --symmetric checked differs"
"$tools/sluice" sweep sym.sluice --algorithm sssp,kcore --skip-thresholds 0,inf --repeat 1 -o sweep.csv >/dev/null 2>&1
[ "$(grep -c ',sssp,\|,kcore,' sweep.csv)" -eq 4 ] || fail "sweep sssp,kcore: $(cat sweep.csv)"
# Triangles, MIS and radii: undirected graphs for the first two; each
# verified (-v) and its summary as documented.
expect_error 2 "tc needs an undirected graph" "$tools/sluice-tc" g.sluice
"$tools/sluice-tc" sym.sluice --output tri.txt --clustering clu.txt -v > tc.out 2>/dev/null || fail "tc -v: $(cat tc.out)"
grep -q "^tc sym.sluice: .*[0-9]* triangles, transitivity [0-9.e-]*, average clustering [0-9.e-]*; 1 range(s) of lists, 1 pass(es) over the edges" tc.out || fail "tc summary: $(cat tc.out)"
grep -q "agree with a count over its sorted lists" tc.out || fail "tc's verifier: $(cat tc.out)"
[ "$(wc -l < tri.txt)" = "$(wc -l < clu.txt)" ] || fail "tc: --output and --clustering differ in length"
"$tools/sluice-tc" sym.sluice --list-memory 4k --output tri2.txt --stats tc.jsonl > tc2.out 2>/dev/null
grep -q "[2-9][0-9]* range(s) of lists\|[0-9][0-9][0-9]* range(s) of lists" tc2.out || fail "tc --list-memory 4k held one range: $(cat tc2.out)"
cmp -s tri.txt tri2.txt || fail "tc with several ranges counts otherwise"
grep -q '"phase":"scan"' tc.jsonl || fail "tc --stats has no scan records"
"$tools/sluice-mis" sym.sluice --seed 4 --output mis.txt -v > mis.out 2>/dev/null || fail "mis -v: $(cat mis.out)"
grep -q "no two adjacent, every other vertex next to one" mis.out || fail "mis's verifier: $(cat mis.out)"
"$tools/sluice-mis" sym.sluice --seed 4 --io memory --threads 1 --output mis2.txt > /dev/null 2>&1
cmp -s mis.txt mis2.txt || fail "mis differs with --io memory on one thread"
"$tools/sluice-radii" g.sluice --output radii.txt -v > radii.out 2>/dev/null || fail "radii -v: $(cat radii.out)"
grep -q "sources reached [0-9]* vertices, largest estimate [0-9]*" radii.out || fail "radii summary: $(cat radii.out)"

echo "programs: ok"
