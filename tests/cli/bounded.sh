#!/usr/bin/env bash
# Conversion in bounded memory: under a --memory-limit that forces the
# build onto scratch files in many vertex ranges, every input format and
# option gives the in-memory conversion's layout byte for byte (the layout
# id fixed by SLUICE_LAYOUT_ID); SIGINT, SIGKILL and a full scratch
# directory leave nothing behind; and, where a memory cgroup can be made,
# convert, bfs, wcc and pagerank run under a cap a quarter of the edges'
# bytes with the answers of an uncapped run.
set -euo pipefail
tools=$1
sluice=$tools/sluice
. "$(dirname "$0")/lib.sh"
export SLUICE_LAYOUT_ID=0123456789abcdef0123456789abcdef

"$sluice" generate rmat --scale 16 --edge-factor 16 --seed 3 -o g.el >/dev/null
"$sluice" generate rmat --scale 16 --edge-factor 16 --seed 4 --weighted -o w.wel >/dev/null
"$sluice" convert g.el g.bel >/dev/null
"$sluice" convert g.el g.bel64 >/dev/null
"$sluice" convert g.el g.mtx >/dev/null
"$sluice" convert w.wel w.mtx >/dev/null
"$sluice" convert g.el g.adj >/dev/null
"$sluice" convert w.wel w.adj >/dev/null
gzip -k g.el
"$sluice" convert g.el s.sluice >/dev/null

# same LIMIT INPUT [options]: the layout converted in memory, then under
# LIMIT (which must build on scratch files), file for file the same.
same() {
  local limit=$1
  shift
  rm -rf out ref && mkdir -p out/d0 out/d1 out/d2
  "$sluice" convert "$@" out/g.sluice >/dev/null 2>mem.err || fail "convert $* (in memory): $(cat mem.err)"
  mv out ref && mkdir -p out/d0 out/d1 out/d2
  "$sluice" convert "$@" out/g.sluice --memory-limit "$limit" >/dev/null 2>bounded.err ||
    fail "convert $* --memory-limit $limit: $(cat bounded.err)"
  grep -q "ranges placed [0-9]* at a time" bounded.err || fail "convert $* --memory-limit $limit built in memory: $(cat bounded.err)"
  diff -r ref out >/dev/null || fail "convert $* --memory-limit $limit differs from the in-memory layout: $(diff -rq ref out | head -3)"
}
# Under the sanitizers (ten times slower) a third of the cases: each
# option is still met once there.
sanitized=${SLUICE_SANITIZED:+1}
same 14m g.el --transpose --sort --drives out/d0,out/d1,out/d2
same 14m g.el --symmetrize --dedup --drop-self-loops
[ -n "$sanitized" ] || same 14m g.el --relabel --transpose
[ -n "$sanitized" ] || same 14m g.el --reorder degree --transpose
same 14m g.el --relabel --reorder degree --compress --sample-edges 4
[ -n "$sanitized" ] || same 14m g.el --wide-ids --transpose
[ -n "$sanitized" ] || same 14m g.el.gz --transpose --compress
same 14m w.wel --transpose --sort
# Plain pages keep the input's order, where compressed ones are sorted as placed.
same 14m w.wel --transpose --plain
[ -n "$sanitized" ] || same 14m w.wel --symmetrize --dedup --drives out/d0,out/d1,out/d2
[ -n "$sanitized" ] || same 14m w.mtx --transpose
[ -n "$sanitized" ] || same 14m g.mtx --dedup
[ -n "$sanitized" ] || same 14m g.bel --transpose --drop-self-loops
same 14m g.bel64 --transpose --wide-ids
# A declared vertex count: no pass to count the ids; one beyond it is
# named by its byte, as in memory.
same 14m g.bel --transpose --vertices 70000
"$sluice" convert g.bel out/v.sluice --vertices 1000 --memory-limit 14m >/dev/null 2>v.err && fail "an id beyond --vertices was taken under a limit"
grep -q "g.bel:byte [0-9]*: vertex id beyond the declared vertex count 1000" v.err || fail "--vertices under a limit: $(cat v.err)"
[ ! -e out/v.sluice ] || fail "a refused conversion left out/v.sluice"
# The first such pair is named, wherever in a window it is: pairs 0-4
# within 5 vertices, pair 5 (byte 40) and 6 beyond.
printf '0 1\n1 2\n2 3\n3 4\n4 0\n7 1\n9 9\n' > bad.txt && "$sluice" convert bad.txt bad.bel >/dev/null 2>&1 || fail "bad.txt -> bad.bel"
"$sluice" convert bad.bel out/b.sluice --vertices 5 --memory-limit 14m >/dev/null 2>b.err && fail "pair 5 beyond --vertices 5 was taken"
grep -q "bad.bel:byte 40: vertex id beyond the declared vertex count 5" b.err || fail "the first pair beyond --vertices: $(cat b.err)"
same 14m g.adj --transpose
[ -n "$sanitized" ] || same 14m w.adj --symmetrize --sort
same 14m s.sluice --transpose --dedup
same 18m g.el --ranks 3 --transpose
[ -n "$sanitized" ] || same 18m w.wel --ranks 2 --transpose --sort
# Standard input is decoded onto the scratch directory, then the same.
rm -rf out ref && mkdir out
"$sluice" convert g.el ref.sluice --transpose >/dev/null
"$sluice" convert - out/g.sluice --format el --transpose --memory-limit 14m < g.el >/dev/null 2>bounded.err
grep -q "ranges placed" bounded.err || fail "standard input under a limit was built in memory: $(cat bounded.err)"
for set in out in; do
  cmp ref.$set.index out/g.$set.index || fail "standard input under a limit gives another $set index"
done
cmp <("$sluice" convert ref.sluice - --to el 2>/dev/null) <("$sluice" convert out/g.sluice - --to el 2>/dev/null) ||
  fail "standard input under a limit gives other edges"
# A damaged adjacency graph: the same error, line included, as in memory.
{ sed '$d' g.adj; echo 99999999; } > bad.adj
"$sluice" convert bad.adj out/bad.sluice > /dev/null 2> bad-mem.err && fail "a target beyond the vertex count was taken"
"$sluice" convert bad.adj out/bad.sluice --memory-limit 14m > /dev/null 2> bad-bounded.err && fail "a target beyond the vertex count was taken under a limit"
grep -q "bad.adj:line [0-9]*: target id 99999999 is beyond the vertex count" bad-bounded.err || fail "bad adj under a limit: $(cat bad-bounded.err)"
diff <(grep -o "bad.adj:.*" bad-mem.err) <(grep -o "bad.adj:.*" bad-bounded.err) > /dev/null ||
  fail "bad adj: $(cat bad-mem.err) against $(cat bad-bounded.err)"
[ ! -e out/bad.sluice ] || fail "a refused conversion left out/bad.sluice"

# Too small even for the per-vertex arrays: refused, naming what it needs.
expect_error 1 "needs at least" "$sluice" convert g.el out/h.sluice --memory-limit 4m
[ ! -e out/h.sluice ] || fail "a refused conversion left out/h.sluice"

# Interrupted: nothing new in the output's or the scratch directory, and
# a SIGKILL's output temporaries go with the next conversion. (A graph
# that takes seconds to convert: half as large under the sanitizers.)
"$sluice" generate rmat --scale $((sanitized ? 17 : 18)) --edge-factor 16 --seed 5 -o big.el >/dev/null
mkdir -p gone scratch
for signal in INT KILL; do
  before=$(find gone scratch -mindepth 1)
  with_sigint "$sluice" convert big.el gone/g.sluice --transpose --memory-limit 20m --temp-dir scratch >/dev/null 2>signal.err &
  pid=$!
  for _ in $(seq 1 3000); do grep -q "placing the transpose" signal.err && break; sleep 0.02; done
  grep -q "placing the transpose" signal.err || fail "the conversion never reached its transpose: $(cat signal.err)"
  kill -$signal $pid
  wait $pid && fail "convert survived SIG$signal"
  [ -z "$(ls -A scratch)" ] || fail "SIG$signal left scratch files: $(ls -A scratch)"
  if [ $signal = INT ]; then
    [ "$(find gone scratch -mindepth 1)" = "$before" ] || fail "SIGINT left files: $(find gone scratch -mindepth 1)"
  fi
done
"$sluice" convert g.el gone/g.sluice --memory-limit 14m >/dev/null 2>&1
[ -z "$(ls -A gone | grep -v '^g\.')" ] && [ -z "$(ls -A gone | grep tmp)" ] || fail "the next conversion kept what SIGKILL left: $(ls -A gone)"

# A full scratch directory (a 2 MiB tmpfs, where one can be mounted): a
# clear error, and nothing written.
if [ "$(id -u)" -eq 0 ] && [ -z "${SLUICE_SANITIZED:-}" ] && mkdir -p small && mount -t tmpfs -o size=2m tmpfs small 2>/dev/null; then
  trap 'umount "$work/small" 2>/dev/null || true; rm -rf "$work"' EXIT
  rm -rf out && mkdir out
  expect_error 1 "the disk is full" "$sluice" convert g.el out/g.sluice --transpose --memory-limit 14m --temp-dir small
  [ -z "$(find out small -mindepth 1)" ] || fail "a full scratch directory left files: $(find out small -mindepth 1)"
  umount small
else
  echo "bounded.sh: no tmpfs could be mounted here: the full scratch directory is not tried" >&2
fi

# Under a memory cgroup of 40 MiB: 21 M edges, 168 MB of them with the
# transpose (4.0 times the cap). cgroup v1 (memory.limit_in_bytes) or v2
# (memory.max); skipped where neither can be made, and under sanitizers
# (their shadow memory is not the program's).
cap=$((40 << 20))
group=""
if [ -n "${SLUICE_SANITIZED:-}" ]; then
  echo "bounded.sh: sanitized build: the memory cgroup runs are not tried" >&2
elif d=/sys/fs/cgroup/memory/sluice-bounded-$$ && mkdir "$d" 2>/dev/null; then
  echo $cap > "$d/memory.limit_in_bytes" && group=$d
elif d=/sys/fs/cgroup/sluice-bounded-$$ && grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null && mkdir "$d" 2>/dev/null; then
  echo $cap > "$d/memory.max" && group=$d
fi
if [ -n "$group" ]; then
  trap 'rmdir "'"$group"'" 2>/dev/null || true; umount "$work/small" 2>/dev/null || true; rm -rf "$work"' EXIT
  capped() { sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$group" "$@"; }
  "$sluice" generate rmat --scale 18 --edge-factor 80 --seed 7 -o cg.el >/dev/null
  mkdir -p free capped
  "$sluice" convert cg.el free/g.sluice --transpose >/dev/null 2>&1
  capped "$sluice" convert cg.el capped/g.sluice --transpose >/dev/null 2>capped.err || fail "convert under a 40 MiB cgroup: $(cat capped.err)"
  grep -q "bounded memory" capped.err || fail "convert under a 40 MiB cgroup built in memory: $(cat capped.err)"
  cmp <("$sluice" convert free/g.sluice - --to el 2>/dev/null) <("$sluice" convert capped/g.sluice - --to el 2>/dev/null) ||
    fail "the capped conversion has other edges"
  for program in bfs wcc pagerank; do
    "$tools/sluice-$program" free/g.sluice --output free.$program >/dev/null 2>&1
    capped "$tools/sluice-$program" capped/g.sluice --output capped.$program >/dev/null 2>capped.err ||
      fail "$program under a 40 MiB cgroup: $(cat capped.err)"
    # Ranks are float sums whose order follows the threads: equal to 1e-9.
    paste free.$program capped.$program | awk '{d = $1 - $2; if (d < 0) d = -d; if (d > 1e-9 * ($1 > 0 ? $1 : -$1) + 1e-300) bad = 1} END {exit bad}' ||
      fail "$program under a 40 MiB cgroup answers otherwise"
  done

  # A run's index is loaded before its budget is fitted to the memory the
  # cgroup has left: that must count the index once. A graph of many
  # vertices (its index 15 MiB), a cap of the run's peak at its floor plus
  # the process's reserve (16 MiB) and 8 MiB: counted twice, the index
  # would not fit; BFS runs at the default limit and answers as uncapped.
  "$sluice" generate uniform --scale 22 --edge-factor 1 --seed 3 -o wide.bel >/dev/null
  "$sluice" convert wide.bel wide.sluice --transpose >/dev/null 2>&1
  "$tools/sluice-bfs" wide.sluice --memory-limit 1k >/dev/null 2>floor.err && fail "bfs ran under a limit of 1 KiB"
  # "needs at least 61.8 MiB (index 18.3 MiB, ...": both in bytes.
  to_bytes() { awk -v v="$1" -v u="$2" 'BEGIN { m = u == "KiB" ? 1024 : u == "MiB" ? 1048576 : u == "GiB" ? 1073741824 : 1; printf "%d", v * m + 0.5 }'; }
  read -r fv fu iv iu < <(sed -n 's/.*needs at least \([0-9.]*\) \([KMG]iB\) (index \([0-9.]*\) \([KMG]iB\),.*/\1 \2 \3 \4/p' floor.err)
  # The floor as printed, rounded to a tenth of its unit, plus half a tenth: at or above it.
  floor=$(to_bytes "$(awk -v v="$fv" 'BEGIN { print v + 0.05 }')" "$fu") index=$(to_bytes "$iv" "$iu")
  [ "$index" -ge $((12 << 20)) ] || fail "the wide graph's index is $index bytes: too small to tell one count from two"
  peak_kib=$(/usr/bin/time -f %M "$tools/sluice-bfs" wide.sluice --memory-limit "$floor" --output free.wide 2>&1 >/dev/null | tail -1)
  cap=$((peak_kib * 1024 + (24 << 20)))
  if [ -f "$group/memory.limit_in_bytes" ]; then echo $cap > "$group/memory.limit_in_bytes"; else echo $cap > "$group/memory.max"; fi
  capped "$tools/sluice-bfs" wide.sluice --output capped.wide >/dev/null 2>capped.err ||
    fail "bfs at the default limit under a cgroup of $cap bytes (its floor $floor, index $index): $(cat capped.err)"
  cmp free.wide capped.wide || fail "bfs under a cgroup of $cap bytes answers otherwise"
else
  [ -n "${SLUICE_SANITIZED:-}" ] || echo "bounded.sh: no memory cgroup can be made here: the capped runs are not tried" >&2
fi
echo "bounded: ok"
