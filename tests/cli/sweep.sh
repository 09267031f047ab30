#!/usr/bin/env bash
# sluice sweep over two layouts (two "devices"), with a calibration
# profile: the table, the per-run and per-EDGEMAP CSV, the calibrated λ
# marked and added, the plot, and the errors.
set -euo pipefail
tools=$1
plot=$2  # "plot": check `sluice plot` too; "no-plot": built without the Python package
sluice=$tools/sluice
. "$(dirname "$0")/lib.sh"
export SLUICE_PROFILE_DIR=$work/profiles

"$sluice" generate rmat --scale 12 --edge-factor 8 --seed 2 -o g.el >/dev/null
mkdir a b
"$sluice" convert g.el a/g.sluice --drives a --transpose >/dev/null
"$sluice" convert g.el b/g.sluice --drives b >/dev/null
"$sluice" sweep a/g.sluice b/g.sluice --algorithm bfs,pagerank --skip-thresholds 0,64k,inf --repeat 2 \
  -o runs.csv --edgemaps edgemaps.csv > table.txt 2>/dev/null
[ "$(wc -l < runs.csv)" -eq $((1 + 2 * 2 * 3 * 2)) ] || fail "rows: $(wc -l < runs.csv)"
head -1 runs.csv | grep -q '^graph,device,algorithm,skip_threshold,skip_threshold_bytes,calibrated,repeat,seconds,' || fail "header"
grep -q '^a/g.sluice,[0-9]*:[0-9]*,bfs,inf,,false,1,' runs.csv || fail "an inf row: $(sed -n 2p runs.csv)"
[ "$(grep -c '^b/g.sluice,.*,pagerank,65536,65536,false,' runs.csv)" -eq 2 ] || fail "two repeats per λ"
# Every run's EDGEMAPs add up to its bytes read.
awk -F, 'NR > 1 { key = $1 "," $3 "," $4 "," $5; sum[key] += $13 } END { for (k in sum) print k "," sum[k] }' edgemaps.csv | sort > from_edgemaps.txt
awk -F, 'NR > 1 { print $1 "," $3 "," $4 "," $7 "," $11 }' runs.csv | sort > from_runs.txt
cmp -s from_edgemaps.txt from_runs.txt || fail "EDGEMAP bytes do not add up: $(diff from_edgemaps.txt from_runs.txt | head -3)"
grep -q "^a/g.sluice ([0-9]*:[0-9]*) *bfs *inf " table.txt || fail "table: $(cat table.txt)"
! grep -q "calibrated" table.txt || fail "no profile, yet a calibrated λ"
# Which λ on this device: one recommended per device, from the λ values
# every algorithm ran at, and how sure that is (the next best against the
# repeats' spread).
[ "$(grep -c "^recommended λ for [ab]/g.sluice ([0-9]*:[0-9]*): \([0-9]*\|inf\) (time [0-9.]*x each algorithm's best, geometric mean); \(sure: the next best, \([0-9]*\|inf\), takes [0-9.]*x, more than\|not sure: the next best, \([0-9]*\|inf\), takes [0-9.]*x, within what\) the repeats differ (up to [0-9]*%)$" table.txt)" -eq 2 ] ||
  fail "a recommended λ per device: $(cat table.txt)"

# With a calibration profile its λ joins the list, marked.
dd if=/dev/urandom of=a/probe bs=1M count=8 2>/dev/null
"$sluice" calibrate --drives a/probe --seconds 0.05 --accept --json > calibration.json 2>/dev/null
grep -q '"skip_threshold_bytes":[0-9]*,' calibration.json || fail "calibrate --json: $(cat calibration.json)"
lambda=$(sed 's/.*"skip_threshold_bytes":\([0-9]*\),.*/\1/' calibration.json)
"$sluice" sweep a/g.sluice --skip-thresholds 0,inf --repeat 1 -o calibrated.csv > table2.txt 2>/dev/null
grep -q ",bfs,$lambda,$lambda,true,0," calibrated.csv || fail "calibrated λ $lambda not run: $(cat calibrated.csv)"
grep -q " $lambda\* " table2.txt || fail "calibrated λ not marked: $(cat table2.txt)"
"$sluice" iobench --drives a/probe --duration 0.1 --json | grep -q '^{"backend":"[a-z]*","pattern":"random",.*"drives":\[{"path":"a/probe",' \
  || fail "iobench --json"

if [ "$plot" = plot ]; then  # `sluice plot`: the Python package's sluice.plot
  "$sluice" plot runs.csv -o sweep.png > plot.txt || fail "plot: $(cat plot.txt)"
  grep -q "wrote sweep.png: 2 algorithm(s), 2 device(s), 24 runs" plot.txt || fail "plot: $(cat plot.txt)"
  [ "$(grep -c "^recommended λ for [ab]/g.sluice ([0-9]*:[0-9]*): [0-9a-z]* (time [0-9.]*x each algorithm's best, geometric mean); \(not \)\?sure: the next best, " plot.txt)" -eq 2 ] ||
    fail "the plot's recommended λ and how sure: $(cat plot.txt)"
  [ "$(head -c 4 sweep.png | od -An -c | tr -d ' ')" = "211PNG" ] || fail "not a PNG"
  "$sluice" plot calibrated.csv -o calibrated.png >/dev/null || fail "plot with a calibration"
  expect_error 2 "the following arguments are required: csv" "$sluice" plot
  expect_error 1 "sluice plot needs the Python package sluice and matplotlib under one Python (tried /nonexistent)" \
    env SLUICE_PYTHON=/nonexistent "$sluice" plot runs.csv
else
  echo "sweep: the plot not tried (built without the Python package)"
fi

expect_error 1 "wcc needs the transpose" "$sluice" sweep a/g.sluice b/g.sluice --algorithm wcc
expect_error 2 "'dfs' is not one of the algorithms: bfs, pagerank, wcc, spmv, bc, sssp, kcore, tc, mis, radii" "$sluice" sweep a/g.sluice --algorithm dfs
expect_error 2 "--skip-thresholds:" "$sluice" sweep a/g.sluice --skip-thresholds 1x
echo "sweep: ok"
