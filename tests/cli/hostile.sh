#!/usr/bin/env bash
# The hostile-input review of issue 19, case by case (the numbers are the
# issue's): outputs that would destroy inputs, writes through links,
# absurd thread counts, lost signals, unprotected indexes, FIFOs where a
# layout belongs, out-of-range ids, write errors on standard output,
# modes, layouts replaced while in use, weights beyond float32, and the
# messages. Each must end in a clear refusal or the right answer: never a
# crash, a hang, damage or a silent loss.
set -euo pipefail
tools=$1
sluice=$tools/sluice
. "$(dirname "$0")/lib.sh"

"$sluice" generate rmat --scale 12 --edge-factor 8 --seed 5 -o g.el >/dev/null
mkdir d0 d1
"$sluice" convert g.el g.sluice --drives d0,d1 --transpose >/dev/null
layout=(g.sluice g.out.index g.in.index d0/g.out.0 d1/g.out.1 d0/g.in.0 d1/g.in.1)
before=$(sums "${layout[@]}" g.el)

# 1. No output may be an input, under any name; no two outputs one file.
for target in "${layout[@]}"; do
  for option in --output --stats --parents; do
    expect_error 2 "$option $target is .*: writing it would destroy what is being read" "$tools/sluice-bfs" g.sluice "$option" "$target"
  done
done
ln -s g.sluice alias.sluice
expect_error 2 "is the layout's manifest (g.sluice)" "$tools/sluice-bfs" g.sluice --output alias.sluice
ln d0/g.out.0 hardlink.0
expect_error 2 "is a drive file of the layout's out edges" "$tools/sluice-wcc" g.sluice --output hardlink.0
expect_error 2 "is the input graph" "$tools/sluice-jtcc" g.el --output g.el
expect_error 2 "is a drive file of the layout's out edges" "$sluice" convert g.sluice d0/g.out.0 --to el
expect_error 2 "is the layout's manifest" "$sluice" convert g.sluice g.sluice
expect_error 2 "is the layout's in index" "$tools/sluice-pagerank" g.sluice --stats g.in.index
expect_error 2 "is the layout's manifest" "$sluice" sweep g.sluice --edgemaps g.sluice
expect_error 2 "is the layout's manifest" "$sluice" bench-edgemap g.sluice --stats g.sluice
"$tools/sluice-bfs" g.sluice --output x.txt >/dev/null 2>&1
expect_error 2 "is --x" "$tools/sluice-spmv" g.sluice --x x.txt --output x.txt
expect_error 2 "\-\-stats and --output both name x" "$tools/sluice-bfs" g.sluice --output x --stats x
expect_error 2 "\-\-parents and --output both name standard output" "$tools/sluice-bfs" g.sluice --output - --parents -
"$tools/sluice-bfs" g.sluice --output /dev/null --stats /dev/null >/dev/null 2>&1 || fail "two outputs to /dev/null were refused"
[ "$(sums "${layout[@]}" g.el)" = "$before" ] || fail "a refused run changed an input"
[ ! -e x ] || fail "a refused run wrote its output"

# 2. A write through a link is built aside: a failed or killed conversion
# leaves the link's target as it was.
printf '0 1\n' > target.el
ln -s target.el link.el
printf 'not an edge\n' > bad.el
expect_error 1 "bad.el:line 1" "$sluice" convert bad.el link.el --format el --to el
[ "$(cat target.el)" = "0 1" ] || fail "a failed conversion through a link damaged its target"
"$sluice" generate rmat --scale 17 --edge-factor 16 -o big.el >/dev/null
"$sluice" convert g.el kept.bel >/dev/null
ln -s kept.bel big-link.bel
kept=$(sums kept.bel)
with_sigint "$sluice" convert big.el big-link.bel >/dev/null 2>&1 &
pid=$!
sleep 0.5
kill -TERM $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
[ -L big-link.bel ] || fail "the link was replaced"
if [ "$(sums kept.bel)" != "$kept" ]; then
  # The conversion may have finished before the signal: then the target is whole.
  "$sluice" info big-link.bel --format bel | grep -q "edges *2097152" || fail "SIGTERM left a prefix in the link's target"
fi
"$sluice" convert g.el link.el >/dev/null
[ -L link.el ] && cmp -s target.el <("$sluice" convert g.el - --to el 2>/dev/null) || fail "a conversion through a link did not land in its target"

# 3. Absurd thread counts are refused by name; threads the system will not
# start are an error, not an abort.
expect_error 2 "\-\-threads 100000 is more than the .* threads sluice allows" "$tools/sluice-bfs" g.sluice --threads 100000
expect_error 2 "\-\-threads 100000 is more than" "$sluice" convert g.el t.bel --threads 100000
expect_error 2 "\-\-threads 100000 is more than" "$tools/sluice-jtcc" g.el --threads 100000
expect_error 2 "\-\-threads 100000 is more than" "$sluice" generate rmat --scale 8 -o t.el --threads 100000
if [ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null && [ -z "${SLUICE_SANITIZED:-}" ]; then
  chmod 777 "$work"
  # 20 threads for one user: the probe that starts 60 fails.
  for program in "$tools/sluice-bfs g.sluice" "$sluice convert g.el t.bel" "$tools/sluice-jtcc g.el"; do
    set +e
    runuser -u nobody -- bash -c "ulimit -u 20; cd '$work'; $program --threads 60" > out.txt 2> err.txt
    got=$?
    set -e
    [ "$got" -eq 1 ] || fail "$program under ulimit -u 20 exited $got: $(cat err.txt)"
    grep -q "cannot start 60 threads.*ulimit -u) is 20" err.txt || fail "$program: $(cat err.txt)"
  done
fi

# 4. Ctrl-C ends a run and leaves nothing; started ignored (a script's
# background job), it stays ignored.
with_sigint "$tools/sluice-pagerank" g.sluice --method classic --tolerance 0 --iterations 100000000 --output ranks.txt >/dev/null 2>&1 &
pid=$!
running $pid sluice-pagerank
sleep 0.5
kill -INT $pid
set +e
timeout 20 tail --pid=$pid -f /dev/null
if kill -0 $pid 2>/dev/null; then kill -KILL $pid; fail "pagerank still ran 20 s after SIGINT"; fi
wait $pid
got=$?
set -e
[ "$got" -eq 130 ] || fail "pagerank after SIGINT exited $got, expected 130 (killed by the signal)"
if ls | grep -q 'ranks.txt'; then fail "SIGINT left $(ls | grep ranks.txt)"; fi
bash -c "trap '' INT; exec '$sluice' convert big.el ignoring.bel" >/dev/null 2>&1 &
pid=$!
sleep 0.3
kill -INT $pid 2>/dev/null || true
wait $pid || fail "a conversion started with SIGINT ignored did not finish"
[ -s ignoring.bel ] || fail "no output from the conversion that ignored SIGINT"

# 5. An index belongs to its layout: a conversion that would replace
# another layout's index, or a file that is no index, is refused.
mkdir dx
expect_error 1 "g.out.index: is the index of another layout (not of g)" "$sluice" convert g.el g --to sluice --drives dx
"$sluice" info g.sluice --verify >/dev/null || fail "the refused conversion damaged g.sluice"
echo "precious" > X.out.index
expect_error 1 "X.out.index: exists and is not a sluice index; pass --force" "$sluice" convert g.el X.sluice
[ "$(cat X.out.index)" = "precious" ] || fail "an unrelated X.out.index was replaced"
"$sluice" convert g.el X.sluice --force >/dev/null
"$sluice" convert g.el X.sluice >/dev/null  # its own index: replaced without --force

# 6. A FIFO where a layout belongs is refused at once, by every program.
mkfifo fifo.sluice
for program in sluice-bfs sluice-pagerank sluice-wcc sluice-spmv sluice-bc; do
  expect_error 1 "fifo.sluice: is a FIFO (pipe), expected a regular file" "$tools/$program" fifo.sluice
done
expect_error 1 "fifo.sluice: is a FIFO" "$sluice" bench-edgemap fifo.sluice
expect_error 1 "fifo.sluice: is a FIFO" "$sluice" sweep fifo.sluice --repeat 1

# 7. A source beyond the vertices is an error, never the default.
expect_error 2 "source 9223372036854775808 is not below the 4096 vertices" "$tools/sluice-bfs" g.sluice --source 9223372036854775808
expect_error 2 "source 18446744073709551615 is not below" "$tools/sluice-bc" g.sluice --sources 18446744073709551615
expect_error 2 "'-5' is not a vertex id" "$tools/sluice-bc" g.sluice --sources 1,-5

# 8. Write errors on standard output are errors.
for command in "$sluice info g.sluice --json" "$sluice --help" "$sluice info --help" "$tools/sluice-bfs g.sluice" \
               "$sluice scan g.el" "$tools/sluice-jtcc g.el" "$sluice convert g.el - --to el"; do
  set +e
  $command > /dev/full 2> err.txt
  got=$?
  set -e
  [ "$got" -eq 1 ] || fail "$command > /dev/full exited $got"
  grep -q "write failed" err.txt || fail "$command > /dev/full: $(cat err.txt)"
done

# 9. Outputs honour the umask; a file replaced keeps its mode.
(umask 077 && "$sluice" convert g.el private.bel >/dev/null && "$tools/sluice-bfs" g.sluice --output private.txt >/dev/null 2>&1)
[ "$(stat -c %a private.bel)" = 600 ] && [ "$(stat -c %a private.txt)" = 600 ] || fail "umask 077 not honoured"
chmod 640 private.bel
"$sluice" convert g.el private.bel >/dev/null
[ "$(stat -c %a private.bel)" = 640 ] || fail "the mode of a replaced file was not kept"
mkdir priv0
(umask 027 && "$sluice" convert g.el priv.sluice --drives priv0 >/dev/null)
[ "$(stat -c %a priv0/priv.out.0)" = 640 ] && [ "$(stat -c %a priv.out.index)" = 640 ] || fail "a layout's files ignore the umask"

# 10. A layout converted again while a run opens it: the run answers for
# one graph or the other, or says the layout was replaced; never a mix.
"$sluice" generate uniform --scale 12 --edge-factor 8 --seed 9 -o u.el >/dev/null
mkdir r0 r1
"$sluice" convert g.el r.sluice --drives r0,r1 --transpose >/dev/null
a=$("$tools/sluice-wcc" r.sluice 2>/dev/null | sed 's/.*, \([0-9]*\) components.*/\1/')
"$sluice" convert u.el r.sluice --drives r0,r1 --transpose >/dev/null
b=$("$tools/sluice-wcc" r.sluice 2>/dev/null | sed 's/.*, \([0-9]*\) components.*/\1/')
[ "$a" != "$b" ] || fail "the two graphs have the same component count ($a)"
# (Under the sanitizers, ten times slower, a third of the rounds.)
rounds=30
[ -z "${SLUICE_SANITIZED:-}" ] || rounds=10
( for i in $(seq $rounds); do "$sluice" convert g.el r.sluice --drives r0,r1 --transpose >/dev/null 2>&1
                             "$sluice" convert u.el r.sluice --drives r0,r1 --transpose >/dev/null 2>&1; done ) &
converting=$!
runs=0
while kill -0 $converting 2>/dev/null && [ $runs -lt $((2 * rounds)) ]; do
  for verify in --no-verify-reads ""; do
    set +e
    "$tools/sluice-wcc" r.sluice $verify > out.txt 2> err.txt
    got=$?
    set -e
    if [ $got -eq 0 ]; then
      c=$(sed 's/.*, \([0-9]*\) components.*/\1/' out.txt)
      [ "$c" = "$a" ] || [ "$c" = "$b" ] || fail "wcc $verify during a re-conversion: $c components, neither $a nor $b"
    else
      grep -q "replaced while in use\|cannot open\|No such file" err.txt || fail "wcc $verify during a re-conversion: $(cat err.txt)"
      grep -q "damaged\|fails its checksum" err.txt && fail "a replaced layout was called damaged: $(cat err.txt)"
    fi
    runs=$((runs + 1))
  done
done
wait $converting
# A conversion still under way has renamed its drive files into place but
# not yet its manifest (the last): a run waits for the manifest (up to 2 s)
# and answers for the new graph, however slow the converter.
"$sluice" convert g.el r.sluice --drives r0,r1 --transpose >/dev/null
cp r.sluice earlier.manifest
"$sluice" convert u.el r.sluice --drives r0,r1 --transpose >/dev/null
mv r.sluice later.manifest
cp earlier.manifest r.sluice
( sleep 0.6; mv later.manifest r.sluice ) &
"$tools/sluice-wcc" r.sluice > out.txt 2> err.txt || fail "wcc while the manifest was on its way: $(cat err.txt)"
wait
[ "$(sed 's/.*, \([0-9]*\) components.*/\1/' out.txt)" = "$b" ] || fail "wcc after waiting for the manifest: $(cat out.txt)"
# One left behind by a conversion that died before renaming its manifest:
# after the wait, the drive file is named as another conversion's.
cp earlier.manifest r.sluice
expect_error 1 "r0/r.out.0: drive file of another layout" "$tools/sluice-wcc" r.sluice

# 11. Weights: underflow becomes 0, overflow, nan and inf are refused.
printf '0 1 1e-46\n1 2 1e-300\n2 0 2.5\n' > tiny.wel
"$sluice" convert tiny.wel tiny.el >/dev/null
[ "$(grep -v '^#' tiny.el)" = "$(printf '0 1 0\n1 2 0\n2 0 2.5')" ] || fail "underflowing weights: $(cat tiny.el)"
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1e-300\n2 1 0.1\n' > double.mtx
"$sluice" convert double.mtx double.el >/dev/null || fail "a double-precision .mtx was refused"
# (Weights refused: tests/cli/values.sh.)

# 12. A Matrix Market count of 2^64 - 1 is checked like any other.
printf '%%%%MatrixMarket matrix coordinate pattern general\n3 3 18446744073709551615\n1 2\n' > count.mtx
expect_error 1 "the header declares 18446744073709551615 entries" "$sluice" convert count.mtx count.el

# 13. A path with a line break is refused before anything is written.
mkdir "line
break"
expect_error 2 "contains a line break" "$sluice" convert g.el nl.sluice --drives "line
break"
expect_error 2 "contains a line break" "$sluice" convert g.el "n
l.sluice"
[ -z "$(ls "line
break")" ] && [ ! -e nl.sluice ] || fail "a refused layout left files"

# 14. The hint never sends the user in a circle.
cp g.el junk.sluice
expect_error 1 "not a sluice layout (it reads as el): make one with .sluice convert junk.sluice junk-layout.sluice --format el" "$tools/sluice-bfs" junk.sluice
{ printf '\001'; head -c 200 /dev/urandom; } > noise.sluice
expect_error 1 "not a sluice layout: a manifest starts with 'sluice-graph'" "$tools/sluice-bfs" noise.sluice
grep -q "sluice convert" err.txt && fail "a convert hint for noise: $(cat err.txt)"

# 15. Leftovers are cleaned: a killed writer's temporaries, the drive files
# and transpose a re-conversion no longer uses, a device as manifest.
"$sluice" convert g.el g.sluice --drives d0,d1 --transpose >/dev/null
# What a writer killed by SIGKILL leaves: a temporary nobody holds a lock
# on. One still locked belongs to a live writer, and stays.
echo "half written" > d0/big.out.0.tmp-dead01
echo "being written" > d0/big.out.0.tmp-alive1
flock d0/big.out.0.tmp-alive1 sleep 30 &
holder=$!
sleep 0.2
"$sluice" convert g.el big.sluice --drives d0 >/dev/null
[ ! -e d0/big.out.0.tmp-dead01 ] || fail "a killed writer's temporary is still there"
[ -e d0/big.out.0.tmp-alive1 ] || fail "a live writer's temporary was removed"
kill $holder
wait $holder 2>/dev/null || true
"$sluice" convert g.el g.sluice --drives d0 >/dev/null  # onto fewer drives, without the transpose
[ ! -e d1/g.out.1 ] && [ ! -e d0/g.in.0 ] && [ ! -e d1/g.in.1 ] && [ ! -e g.in.index ] || fail "old drive files left: $(ls d0 d1 .)"
[ -e d0/g.out.0 ] && [ -e g.out.index ] || fail "the new layout's files were removed"
"$sluice" info g.sluice --verify >/dev/null
expect_error 2 "/dev/null: is a character device; a layout's manifest must be a regular file" "$sluice" convert g.el /dev/null --to sluice
[ ! -e /dev/null.out.index ] && [ ! -e /dev/null.out.0 ] || fail "orphans beside /dev/null"

# 16. A FIFO whose writer comes late is read, not refused as empty.
mkfifo late.el
(sleep 1.5; cat g.el > late.el) &
"$sluice" convert late.el late.bel >/dev/null 2>err.txt || fail "a late writer's FIFO was refused: $(cat err.txt)"
wait
cmp -s late.bel <("$sluice" convert g.el - --to bel 2>/dev/null) || fail "the late FIFO's graph differs"
mkfifo closed.el
(: > closed.el) &
expect_error 1 "closed.el: is empty (its writer closed it without writing)" "$sluice" convert closed.el closed.bel
wait

# 17. Messages that say what happened.
expect_error 1 "the limit is 1 byte" "$tools/sluice-bfs" g.sluice --memory-limit 1
expect_error 2 "SLUICE_MEMORY_LIMIT='garbage' is not a size in bytes" env SLUICE_MEMORY_LIMIT=garbage "$tools/sluice-bfs" g.sluice
expect_error 2 "\-\-output was given an empty file name" "$tools/sluice-bfs" g.sluice --output ""
expect_error 2 "give --sources or --all-sources, not both" "$tools/sluice-bc" g.sluice --all-sources --sources 1
gzip -c g.el > broken.el.gz
python3 -c "f = open('broken.el.gz', 'r+b'); f.seek(5000); f.write(bytes([0xff, 0, 0xff, 0] * 4))"
expect_error 1 "broken.el.gz:byte 50[0-9][0-9]: corrupt gzip data" "$sluice" convert broken.el.gz broken.bel
sed 's/^sluice-graph 2$/sluice-graph 7/' g.sluice > newer.sluice
expect_error 1 "layout version 7 was written by a newer sluice" "$tools/sluice-bfs" newer.sluice
grep -q "convert the graph again" err.txt && fail "a newer layout is told to be converted again"
printf '# Nodes: 99999999999999999999999 Edges: 1\n0 1\n' > nodes.el
expect_error 1 "nodes.el:line 1: the header's node count does not fit in 64 bits" "$sluice" convert nodes.el nodes.bel

echo "hostile: all cases behaved"
