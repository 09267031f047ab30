#!/usr/bin/env bash
# Outputs that never lose a file: a ranked conversion checks every file it
# would replace before writing any (part manifests included), stages its
# parts and puts them in place together, so an interrupted or refused one
# leaves the old layout usable and nothing new; standard output redirected
# onto an input is refused like the input's own name; dead temporaries of
# any name the layout could have had are removed; --ranks is capped before
# any work; conversions of one name at once, and programs running while
# their layout is replaced, end whole or with a clear error.
set -euo pipefail
tools=$1
sluice=$tools/sluice
mpi=${2:-}
. "$(dirname "$0")/lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
listing() { find . -path ./out.txt -prune -o -path ./err.txt -prune -o -print | LC_ALL=C sort; }
no_temporaries() { ! find . -name '*.tmp-*' | grep -q . || fail "$1: temporaries left: $(find . -name '*.tmp-*' | head -3)"; }
# components LAYOUT: wcc's summary, one process.
components() { "$tools/sluice-wcc" "$1" | grep -o '[0-9]* components'; }

"$sluice" generate rmat --scale 10 --edge-factor 8 --seed 3 -o b.el >/dev/null
"$sluice" generate uniform --scale 10 --edge-factor 4 --seed 4 -o u.el >/dev/null
"$sluice" convert b.el b.sluice --transpose >/dev/null
"$sluice" convert u.el u.sluice --transpose >/dev/null
b_components=$(components b.sluice)
u_components=$(components u.sluice)

# A part manifest that is not the old layout's is refused before anything
# is written, and so is the whole conversion when another of its files is
# foreign: every file that existed is left as it was.
echo precious > R.part0.sluice
before=$(listing)
expect_error 1 "R.part0.sluice: exists and is not a part of the layout R.sluice" "$sluice" convert b.el R.sluice --ranks 2
[ "$(cat R.part0.sluice)" = precious ] || fail "a refused ranked conversion replaced a file it does not own"
rm R.part0.sluice
echo foreign > R.part1.out.index
before=$(listing)
expect_error 1 "R.part1.out.index: exists and is not a sluice index" "$sluice" convert b.el R.sluice --ranks 2
[ "$(listing)" = "$before" ] || fail "a refused ranked conversion changed the directory: $(diff <(echo "$before") <(listing))"
rm R.part1.out.index
# Replacing its own parts is fine; parts the new split lacks are removed.
"$sluice" convert b.el R.sluice --ranks 3 >/dev/null
"$sluice" convert u.el R.sluice --ranks 2 >/dev/null
[ ! -e R.part2.sluice ] && [ ! -e R.part2.out.index ] && [ ! -e R.part2.out.0 ] || fail "the old layout's third part was left"
"$sluice" info R.sluice --rank 1 --verify >/dev/null

# An interrupted ranked conversion leaves no new file; interrupting a
# re-conversion leaves the old layout usable.
"$sluice" generate rmat --scale 15 --edge-factor 16 --seed 5 -o big.el >/dev/null
mkdir rd
interrupt_after_part() {  # OUTPUT: SIGINT once part 1 is written
  with_sigint "$sluice" convert big.el "$1" --ranks 4 --transpose --drives 'rd/{rank}' >/dev/null 2> conv.err &
  local pid=$! waited=0
  while ! grep -q "part 1 of 4" conv.err 2>/dev/null && [ $waited -lt 1500 ]; do sleep 0.02; waited=$((waited + 1)); done
  kill -INT $pid 2>/dev/null || true
  local status=0
  wait $pid || status=$?
  [ $status -ne 0 ] || fail "the conversion finished before its interruption (part 1 was never announced)"
  rm conv.err
}
before=$(listing)
interrupt_after_part R4.sluice
[ "$(listing)" = "$before" ] || fail "an interrupted ranked conversion left files: $(diff <(echo "$before") <(listing) | head -5)"
"$sluice" convert b.el R4.sluice --ranks 4 --transpose --drives 'rd/{rank}' >/dev/null
old=$(sums R4.*sluice rd/*/*)
interrupt_after_part R4.sluice
[ "$(sums R4.*sluice rd/*/*)" = "$old" ] || fail "an interrupted re-conversion changed the old layout"
no_temporaries "an interrupted re-conversion"
for r in 0 1 2 3; do "$sluice" info R4.sluice --rank $r --verify >/dev/null || fail "part $r of the old layout is damaged"; done
if [ -n "$mpi" ]; then
  [ "$(timeout 120 mpirun -np 4 "$tools/sluice-wcc" R4.sluice | grep -o '[0-9]* components')" = "$b_components" ] ||
    fail "the old layout gives another answer after an interrupted re-conversion"
fi

# --ranks is checked before any work, in constant time.
start=$(date +%s%N)
expect_error 2 "\-\-ranks 100000 is more than the 1024 ranks a layout may be split for" "$sluice" convert b.el X.sluice --ranks 100000
expect_error 2 "\-\-ranks 1025 is more than the 1024 ranks" "$sluice" convert b.el X.sluice --ranks 1025
[ $(( ($(date +%s%N) - start) / 1000000 )) -lt 10000 ] || fail "refusing --ranks took over 10 s"
[ ! -e X.sluice ] || fail "a refused --ranks wrote its output"

# Standard output redirected onto an input is that input.
"$sluice" convert b.el g.sluice >/dev/null
index=$(sums g.out.index)
set +e
"$tools/sluice-bfs" g.sluice --output - >> g.out.index 2> err.txt
status=$?
set -e
[ $status -eq 2 ] && grep -q "is the layout's out index" err.txt || fail "--output - onto the index: exit $status: $(cat err.txt)"
set +e
"$sluice" convert g.sluice - --to el 1<> g.out.index 2> err.txt
status=$?
set -e
[ $status -eq 2 ] && grep -q "writing it would destroy what is being read" err.txt || fail "convert to - onto the index: exit $status: $(cat err.txt)"
[ "$(sums g.out.index)" = "$index" ] || fail "standard output was written onto the index"
cp b.el b2.el
set +e
"$tools/sluice-jtcc" b2.el --output - 1<> b2.el 2> err.txt
status=$?
set -e
[ $status -eq 2 ] && cmp -s b.el b2.el || fail "jtcc's --output - onto its own input: exit $status: $(cat err.txt)"

# A SIGKILLed --transpose conversion leaves temporaries of the in-edges;
# converting the name again without --transpose removes them. The kill
# comes once they appear; a conversion that finished first (its in-edges
# take a fraction of a second) is tried again, at most 5 times.
"$sluice" generate rmat --scale 18 --edge-factor 16 --seed 5 -o kill.bel >/dev/null
for attempt in 1 2 3 4 5; do
  rm -rf k.*
  "$sluice" convert kill.bel k.sluice --transpose > /dev/null 2> conv.err &
  pid=$!
  waited=0
  while ! ls k.in.*.tmp-* >/dev/null 2>&1 && [ $waited -lt 1500 ]; do sleep 0.02; waited=$((waited + 1)); done
  kill -KILL $pid 2>/dev/null || true
  wait $pid 2>/dev/null || true
  ls k.*.tmp-* >/dev/null 2>&1 && break
done
ls k.*.tmp-* >/dev/null 2>&1 || fail "the killed conversion left no temporary to clean (it finished first, 5 times)"
rm -f kill.bel
"$sluice" convert b.el k.sluice >/dev/null
no_temporaries "a re-conversion after SIGKILL"

# Two conversions of one name at once (graphs of one size, so that they
# finish together): each ends whole or fails with a message, and what is
# left is one of the two graphs, whole (they put their files in place one
# after the other).
"$sluice" generate uniform --scale 15 --edge-factor 16 --seed 6 -o big2.el >/dev/null
"$sluice" convert big.el big.sluice --transpose >/dev/null
"$sluice" convert big2.el big2.sluice --transpose >/dev/null
big_components=$(components big.sluice)
big2_components=$(components big2.sluice)
ranked_components() {
  if [ -n "$mpi" ]; then timeout 120 mpirun -np 2 "$tools/sluice-wcc" "$1" | grep -o '[0-9]* components'; else echo "$big_components"; fi
}
for ranks in 0 2; do
  flags=()
  [ $ranks -eq 0 ] || flags=(--ranks $ranks)
  "$sluice" convert big.el same.sluice --transpose "${flags[@]}" > /dev/null 2> one.err &
  a=$!
  "$sluice" convert big2.el same.sluice --transpose "${flags[@]}" > /dev/null 2> two.err &
  b=$!
  sa=0 sb=0
  wait $a || sa=$?
  wait $b || sb=$?
  [ $sa -eq 0 ] || grep -q "error" one.err || fail "a concurrent conversion failed without a message (ranks $ranks)"
  [ $sb -eq 0 ] || grep -q "error" two.err || fail "a concurrent conversion failed without a message (ranks $ranks)"
  [ $sa -eq 0 ] || [ $sb -eq 0 ] || fail "both concurrent conversions failed (ranks $ranks): $(cat one.err two.err)"
  if [ $ranks -eq 0 ]; then got=$(components same.sluice); else got=$(ranked_components same.sluice); fi
  if [ $ranks -eq 0 ] || [ -n "$mpi" ]; then
    [ "$got" = "$big2_components" ] || [ "$got" = "$big_components" ] || fail "concurrent conversions left neither graph: $got"
  fi
  no_temporaries "concurrent conversions"
done

# Every program while its layout is replaced: one of the two graphs'
# answers (floating-point sums within 1e-9), or a clear error.
same_values() { paste "$1" "$2" | awk '{d = $1 - $2; if (d < 0) d = -d; if (d > 1e-9 * (1 + ($1 < 0 ? -$1 : $1))) bad = 1} END {exit bad}'; }
"$sluice" convert b.el live.sluice --transpose >/dev/null
programs=(bfs pagerank wcc spmv bc sssp)
for program in "${programs[@]}"; do "$tools/sluice-$program" live.sluice --output "b.$program" >/dev/null; done
"$sluice" convert u.el live.sluice --transpose >/dev/null
for program in "${programs[@]}"; do "$tools/sluice-$program" live.sluice --output "u.$program" >/dev/null; done
( for i in 1 2 3; do "$sluice" convert b.el live.sluice --transpose >/dev/null; "$sluice" convert u.el live.sluice --transpose >/dev/null; done ) &
converter=$!
runs=0
while kill -0 $converter 2>/dev/null || [ $runs -eq 0 ]; do
  for program in "${programs[@]}"; do
    set +e
    "$tools/sluice-$program" live.sluice --output live.out >/dev/null 2> err.txt
    status=$?
    set -e
    runs=$((runs + 1))
    if [ $status -eq 0 ]; then
      same_values live.out "b.$program" || same_values live.out "u.$program" || fail "$program during a re-conversion gave neither graph's answer"
    else
      grep -q "error" err.txt || fail "$program during a re-conversion failed without a message: $(cat err.txt)"
    fi
  done
done
wait $converter
# And on ranks, while the ranked layout is replaced.
if [ -n "$mpi" ]; then
  "$sluice" convert u.el live2.sluice --transpose --ranks 2 >/dev/null
  ( for i in 1 2; do "$sluice" convert b.el live2.sluice --transpose --ranks 2 >/dev/null; "$sluice" convert u.el live2.sluice --transpose --ranks 2 >/dev/null; done ) &
  converter=$!
  for i in 1 2 3; do
    set +e
    got=$(timeout 120 mpirun -np 2 "$tools/sluice-wcc" live2.sluice 2> err.txt | grep -o '[0-9]* components')
    status=$?
    set -e
    if [ $status -eq 0 ]; then
      [ "$got" = "$b_components" ] || [ "$got" = "$u_components" ] || fail "wcc on ranks during a re-conversion: $got"
    else
      grep -q "error" err.txt || fail "wcc on ranks during a re-conversion failed without a message: $(cat err.txt)"
    fi
  done
  wait $converter
fi

# Under mpirun, the ranks convert together into a ranked layout
# (tests/cli/ranks.sh); anything else is refused rather than run once per rank.
if [ -n "$mpi" ]; then
  expect_error 1 "started as one of 3 MPI ranks converts by the ranks: give OUT.sluice and --ranks 3" \
    timeout 60 mpirun -np 3 "$sluice" convert b.el M.sluice
  expect_error 1 "give OUT.sluice and --ranks 3" timeout 60 mpirun -np 3 "$sluice" convert b.el M.el
  [ ! -e M.sluice ] && [ ! -e M.part0.sluice ] && [ ! -e M.el ] || fail "a refused conversion under mpirun wrote"
fi
no_temporaries "the end"
echo "outputs: ok"
