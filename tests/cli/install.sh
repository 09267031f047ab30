#!/usr/bin/env bash
# sluice as an installed package: cmake --install into a prefix, then the
# out-of-tree algorithm of tests/out_of_tree built against it with CMake
# (find_package(sluice)) and with pkg-config, run on a layout, and its
# depths compared with sluice-bfs's.
set -euo pipefail
build=$1
ranks=${2:-}  # "mpi": sluice was built with MPI, and my-bfs runs on 2 ranks too
source_dir=$(cd "$(dirname "$0")/../out_of_tree" && pwd)
doc=$source_dir/../../docs/writing-an-algorithm.md
. "$(dirname "$0")/lib.sh"

cmake --install "$build" --prefix "$work/prefix" >/dev/null
prefix=$work/prefix
[ -x "$prefix/bin/sluice" ] && [ -x "$prefix/bin/sluice-bfs" ] || fail "programs not installed"
[ -f "$prefix/include/sluice/engine/engine.hpp" ] || fail "headers not installed"

cmake -S "$source_dir" -B "$work/cmake" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/cmake" >/dev/null
libdir=$(ls -d "$prefix"/lib*/pkgconfig | head -1)
PKG_CONFIG_PATH=$libdir g++ -O2 "$source_dir/my_bfs.cpp" -o "$work/my-bfs-pc" $(PKG_CONFIG_PATH=$libdir pkg-config --cflags --libs sluice)

cd "$work"
"$prefix/bin/sluice" generate rmat --scale 12 --edge-factor 8 --seed 9 -o g.el >/dev/null
mkdir d0 d1
"$prefix/bin/sluice" convert g.el g.sluice --drives d0,d1 --transpose >/dev/null
"$prefix/bin/sluice-bfs" g.sluice --source 7 --output expected.txt >/dev/null 2>&1
for program in "$work/cmake/my-bfs" "$work/my-bfs-pc"; do
  "$program" g.sluice --source 7 --output got.txt --stats stats.jsonl > summary.txt 2>/dev/null
  grep -q "^my-bfs g.sluice: .* reached [0-9]* vertices" summary.txt || fail "$program summary: $(cat summary.txt)"
  cmp -s got.txt expected.txt || fail "$program depths differ from sluice-bfs"
  [ -s stats.jsonl ] || fail "$program wrote no --stats"
done
# A relabelled layout: --source is the input's id, as for sluice-bfs.
"$prefix/bin/sluice" convert g.el r.sluice --relabel >/dev/null
"$prefix/bin/sluice-bfs" r.sluice --source 7 --output expected.txt >/dev/null 2>&1
"$work/cmake/my-bfs" r.sluice --source 7 --output got.txt >/dev/null 2>&1
cmp -s got.txt expected.txt || fail "my-bfs on a relabelled layout differs from sluice-bfs"
# On 2 ranks under mpirun, as sluice-bfs runs.
if [ "$ranks" = mpi ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  "$prefix/bin/sluice" convert g.el g2.sluice --ranks 2 --transpose >/dev/null
  "$prefix/bin/sluice-bfs" g.sluice --source 7 --output expected.txt >/dev/null 2>&1
  mpirun --oversubscribe -np 2 "$work/cmake/my-bfs" g2.sluice --source 7 --output got.txt > summary.txt 2>&1 ||
    fail "my-bfs on 2 ranks: $(cat summary.txt)"
  grep -q "^my-bfs g2.sluice on 2 ranks: " summary.txt && grep -q "^my-bfs g2.sluice: .* reached [0-9]* vertices" summary.txt ||
    fail "my-bfs's summary on 2 ranks: $(cat summary.txt)"
  cmp -s got.txt expected.txt || fail "my-bfs on 2 ranks differs from sluice-bfs"
fi
# Whole lists: my-mutual's counts, with a budget that cuts several ranges,
# against the edge list's reciprocated pairs.
"$work/cmake/my-mutual" g.sluice --list-memory 16384 --output mutual.txt > summary.txt 2>/dev/null ||
  fail "my-mutual: $(cat summary.txt)"
grep -q "^my-mutual g.sluice: .* mutual pairs, [0-9]* range(s)" summary.txt || fail "my-mutual summary: $(cat summary.txt)"
! grep -q " 1 range(s)" summary.txt || fail "my-mutual held every list in 16 KiB: $(cat summary.txt)"
awk -v n="$(wc -l < mutual.txt)" '!/^#/ && $1 != $2 { e[$1 " " $2] = 1 }
  END { for (k in e) { split(k, p, " "); if ((p[2] " " p[1]) in e) c[p[1]]++ } for (v = 0; v < n; v++) print c[v] + 0 }' g.el > mutual-expected.txt
cmp -s mutual.txt mutual-expected.txt || fail "my-mutual differs from the edge list's reciprocated pairs"
# The documentation shows these files as they are.
python3 - "$doc" "$source_dir" <<'PY' || fail "docs/writing-an-algorithm.md's my_bfs.cpp, my_mutual.cpp or CMakeLists.txt differs from tests/out_of_tree"
import pathlib, re, sys
doc, source = pathlib.Path(sys.argv[1]).read_text(), pathlib.Path(sys.argv[2])
cpp = (source / "my_bfs.cpp").read_text()
assert "```cpp\n" + cpp[cpp.index("#include <atomic>"):] + "```" in doc
lists = (source / "my_mutual.cpp").read_text()
assert "```cpp\n" + lists[lists.index("#include <algorithm>"):] + "```" in doc
assert "```cmake\n" + (source / "CMakeLists.txt").read_text() + "```" in doc
PY
# No verifier, no -v.
expect_error 2 "unrecognised option '-v'" "$work/cmake/my-bfs" g.sluice -v
echo "install: the out-of-tree BFS built with CMake and pkg-config agrees with sluice-bfs"
