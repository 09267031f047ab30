#!/usr/bin/env bash
# Values as typed: weights in decimal or hexadecimal, and a weight that is
# not a number, not finite or beyond float32 refused, saying which; an empty --source or --sources item (an
# unset shell variable) refused instead of standing for the default; a
# nan, inf or out-of-range x for spmv refused unless allowed.
set -euo pipefail
tools=$1
sluice=$tools/sluice
. "$(dirname "$0")/lib.sh"

# Hexadecimal weights, as docs/commands.md promises.
printf '0 1 0x10\n1 2 0x1.8p1\n2 0 -0X2\n' > hex.wel
"$sluice" convert hex.wel hex.sluice >/dev/null
"$sluice" convert hex.sluice - --to wel 2>/dev/null > back.wel
[ "$(cat back.wel | grep -v '^#' | tr '\n' ' ')" = "0 1 16 1 2 3 2 0 -2 " ] || fail "hexadecimal weights read as: $(cat back.wel)"
# refused WEIGHT WHY: the weight, in an edge list and in an adjacency
# graph, is refused naming its line and why.
refused() {
  printf '0 1 2\n1 0 %s\n' "$1" > bad.wel
  expect_error 1 "bad.wel:line 2: the weight is $2" "$sluice" convert bad.wel bad.sluice
  printf 'WeightedAdjacencyGraph\n2\n1\n0\n1\n1\n%s\n' "$1" > bad.adj
  expect_error 1 "bad.adj:line 7: the weight is $2" "$sluice" convert bad.adj bad.sluice
}
for w in 1.5kg 0x 0xg 0x-5 abc; do refused "$w" "not a number"; done
for w in nan inf -inf NaN; do refused "$w" "nan or infinite"; done
refused 3.5e38 "beyond float32's range"
printf '0 1 2 3\n' > four.wel
expect_error 1 "four.wel:line 1: expected 2 columns (source target) or 3 (source target weight), found 4" "$sluice" convert four.wel four.sluice

# Empty values are refused, never the default source.
"$sluice" generate rmat --scale 8 --edge-factor 4 --seed 2 -o g.el >/dev/null
"$sluice" convert g.el g.sluice --transpose >/dev/null
for value in "" ",5" "5,," "5,,6"; do
  expect_error 2 "\-\-source was given an empty value" "$tools/sluice-bfs" g.sluice --source "$value"
  expect_error 2 "\-\-source was given an empty value" "$tools/sluice-sssp" g.sluice --source "$value"
done
for value in "" "1," ",1"; do
  expect_error 2 "\-\-sources was given an empty value" "$tools/sluice-bc" g.sluice --sources "$value"
done
"$tools/sluice-bfs" g.sluice --source 5,9 | grep "source 5 reached" >/dev/null || fail "a source list stopped working"

# spmv's x: real numbers, or said why not.
"$tools/sluice-bfs" g.sluice --output depth.txt >/dev/null
awk 'NR == 7 {print "nan"; next} {print 1}' depth.txt > nan.txt
awk 'NR == 3 {print "-inf"; next} {print 1}' depth.txt > inf.txt
awk 'NR == 2 {print "1e400"; next} {print 1}' depth.txt > big.txt
expect_error 1 "nan.txt:line 7: x is nan; x must hold finite numbers (pass --allow-nonfinite-x" "$tools/sluice-spmv" g.sluice --x nan.txt
expect_error 1 "inf.txt:line 3: x is infinite" "$tools/sluice-spmv" g.sluice --x inf.txt
expect_error 1 "big.txt:line 2: the number is out of float64's range" "$tools/sluice-spmv" g.sluice --x big.txt
"$tools/sluice-spmv" g.sluice --x nan.txt --allow-nonfinite-x >/dev/null || fail "--allow-nonfinite-x did not take nan"
echo "values: ok"
