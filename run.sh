#!/usr/bin/env bash
# sluice's two entry points on a fresh Debian machine:
#   ./run.sh example   install what is missing, build, run the built-in example
#                      (an RMAT graph onto two drive files; BFS, PageRank, WCC)
#   ./run.sh test      install what is missing, build, run every test (plain,
#                      AddressSanitizer+UBSan, ThreadSanitizer for the
#                      concurrency suites), and each libFuzzer target briefly
set -euo pipefail
cd "$(dirname "$0")"

packages=(g++ cmake ninja-build pkg-config liburing-dev libaio-dev libconcurrentqueue-dev
          libboost-program-options-dev libgtest-dev libxxhash-dev zlib1g-dev libzstd-dev nlohmann-json3-dev gzip zstd python3
          openmpi-bin libopenmpi-dev)
# The sanitizer builds and the fuzz targets (./run.sh test only): clang
# with its sanitizer runtimes, libFuzzer and OpenMP.
clang_packages=(clang libclang-rt-14-dev libomp-14-dev)
# The Python module, built with everything else (both commands).
python_packages=(pybind11-dev python3-dev python3-venv python3-numpy)
# The sweep plot's test, and the Python package's tests (./run.sh test only).
test_packages=(python3-matplotlib python3-scipy python3-networkx python3-pandas python3-pytest)

install_dependencies() {
  local missing=()
  for p in "${packages[@]}" "${python_packages[@]}" "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  echo "installing: ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# build DIR [cmake args...]: configures DIR and builds everything, or
# with target=NAME set only NAME and what it needs.
build() {
  local dir=$1
  shift
  cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
  cmake --build "$dir" -j "$(nproc)" ${target:+--target "$target"}
}

# The Python module is built into build/python/sluice with the rest, by
# Debian's python3: `pip install .` (pyproject.toml) reuses this tree.
python_module=(-DSLUICE_PYTHON=ON -DPython_EXECUTABLE=/usr/bin/python3)

example() {
  build build -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF "${python_module[@]}"
  local sluice=build/tools/sluice
  local work=build/example
  rm -rf "$work" && mkdir -p "$work/drive0" "$work/drive1"
  echo "== generate an RMAT graph (scale 18, edge factor 16)"
  $sluice generate rmat --scale 18 --edge-factor 16 --seed 1 -o "$work/rmat18.el"
  echo "== convert it onto two drive files, with its transpose"
  $sluice convert "$work/rmat18.el" "$work/rmat18.sluice" --drives "$work/drive0,$work/drive1" --transpose
  echo "== info"
  $sluice info "$work/rmat18.sluice" --verify
  echo "== BFS, PageRank and WCC out of core (O_DIRECT reads from the two drive files)"
  build/tools/sluice-bfs "$work/rmat18.sluice"
  build/tools/sluice-pagerank "$work/rmat18.sluice"
  build/tools/sluice-wcc "$work/rmat18.sluice"
  echo "== the same BFS on two MPI ranks: the graph split by destination, a part per rank on its own drive"
  $sluice convert "$work/rmat18.el" "$work/rmat18-r2.sluice" --ranks 2 --drives "$work/drive{rank}" --transpose
  # As root (a container), OpenMPI must be told; two ranks on any core count.
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe -np 2 build/tools/sluice-bfs "$work/rmat18-r2.sluice"
  echo "== the same BFS from Python (the module in build/python; 'pip install .' installs it without compiling again)"
  PYTHONPATH=build/python /usr/bin/python3 -c '
import sys, numpy as np, sluice
r = sluice.bfs(sys.argv[1], threads=2)
print(f"sluice.bfs: {int(np.count_nonzero(r.depth >= 0))} vertices reached, depth {int(r.depth.max())}, {r.bytes_read / 1e6:.1f} MB read")' \
    "$work/rmat18.sluice"
}

# `pip install .` into a virtual environment beside Debian's numpy, scipy
# and networkx: scikit-build-core reuses the plain build's tree (build/),
# where nothing is left to compile, and installs the module; then the
# Python tests again against the installed copy. pip fetches the build
# backend (scikit-build-core, pybind11) from PyPI.
pip_install_test() {
  local venv=$PWD/build/python-venv
  rm -rf "$venv"
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  if ! "$venv/bin/pip" download --quiet --no-deps --dest "$venv/probe" scikit-build-core >/dev/null 2>&1; then
    echo "PyPI is not reachable from here: 'pip install .' not tried (the module was tested from the CMake build)" >&2
    return
  fi
  echo "== pip install . (into $venv)"
  "$venv/bin/pip" install --verbose . >build/pip-install.log 2>&1 || { cat build/pip-install.log; return 1; }
  if grep -E "Building CXX object|Linking CXX static" build/pip-install.log; then
    echo "pip install . compiled C++ that the plain build had compiled: see build/pip-install.log" >&2
    return 1
  fi
  (cd python/tests && SLUICE_BIN="$PWD/../../build/tools" "$venv/bin/python" -m pytest -q -p no:cacheprovider .)
  networkx_backend_test "$venv"
}

# The networkx backend, in the virtual environment `pip install .` made:
# networkx from PyPI (3.2 or later dispatches to backends; Debian's is
# 2.8) and scipy 1.11 (networkx's test harness wants sparse arrays; 1.11 is
# the last built for Debian's numpy), installed after the package's own
# tests ran there. Our tests of the backend, then networkx's own tests of
# every function it implements, dispatched to sluice.
networkx_backend_test() {
  local venv=$1
  echo "== networkx's tests on the sluice backend (in $venv)"
  "$venv/bin/pip" install --quiet "networkx>=3.2" "scipy>=1.11,<1.12" >build/networkx-install.log 2>&1 ||
    { cat build/networkx-install.log; return 1; }
  (cd python/tests && SLUICE_BIN="$PWD/../../build/tools" "$venv/bin/python" -m pytest -q -p no:cacheprovider test_networkx_backend.py)
  (cd "$venv" && NETWORKX_TEST_BACKEND=sluice NETWORKX_FALLBACK_TO_NX=True NETWORKX_WARNINGS_TO_IGNORE=cache \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider -rs --pyargs \
    networkx.algorithms.link_analysis.tests.test_pagerank networkx.algorithms.components.tests \
    networkx.algorithms.shortest_paths.tests.test_unweighted networkx.algorithms.shortest_paths.tests.test_weighted \
    networkx.algorithms.tests.test_core networkx.algorithms.centrality.tests.test_betweenness_centrality \
    networkx.algorithms.tests.test_cluster)
}

run_tests() {
  # The sanitizer runtimes of gcc 12 and clang 14 cannot place their shadow
  # memory when the kernel randomises mmap with more than 28 bits (newer
  # kernels' default): TSan segfaults, ASan loops on DEADLYSIGNAL. With
  # address randomisation off for the test processes alone, they work.
  local no_aslr=(setarch "$(uname -m)" --addr-no-randomize)
  "${no_aslr[@]}" true 2>/dev/null || no_aslr=()
  # The release build, as users build it: ctest runs the commands' tests and,
  # with the Python module (Debian's python3 and pybind11), python/tests with
  # pytest. The googletest suites run in the sanitizer builds below, where
  # they check more (compiling them here too costs about 7 CPU-minutes).
  build build -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON -DSLUICE_UNIT_TESTS=OFF "${python_module[@]}"
  (cd build && ctest -j "$(nproc)" --output-on-failure -LE concurrency)
  pip_install_test
  # The sanitizer builds: clang, which compiles them in half gcc's time
  # (an instrumented algorithms/bfs.cpp: 14 s against 31 s), with line
  # tables only (-g1): reports still name file and line. Unity builds
  # (8 sources a unit; the suites' files alone) parse the shared headers
  # once a unit; the release build above compiles every file alone, which
  # is what shows a missing include.
  local sanitized=(-DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1
                   -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang -DBUILD_TESTING=ON
                   -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8)
  # The libFuzzer targets are built here too, beside the tests.
  build build-asan "${sanitized[@]}" -DSLUICE_SANITIZE=address,undefined -DSLUICE_FUZZ=ON \
    -DSLUICE_PYTHON=ON -DPython_EXECUTABLE=/usr/bin/python3
  (cd build-asan && LSAN_OPTIONS="suppressions=$PWD/../tests/lsan.supp" "${no_aslr[@]}" \
    ctest -j "$(nproc)" --output-on-failure -LE concurrency)
  # The OpenMP runtime is not instrumented: OpenMP loops run on one thread under TSan,
  # the block API's own threads are what it checks. The concurrency suites
  # are all in sluice_concurrency_tests: nothing else is built here.
  target=sluice_concurrency_tests build build-tsan "${sanitized[@]}" -DSLUICE_SANITIZE=thread
  (cd build-tsan && OMP_NUM_THREADS=1 TSAN_OPTIONS="suppressions=$PWD/../tests/tsan.supp" \
    "${no_aslr[@]}" ctest -j "$(nproc)" --output-on-failure -L concurrency)
  # Every reader under libFuzzer (ASan+UBSan) for a short fixed time, from
  # the sanitizer build; tests/fuzz/run.sh SECONDS runs them longer, in an
  # optimised build of their own.
  SLUICE_FUZZ_BUILD=$PWD/build-asan "${no_aslr[@]}" tests/fuzz/run.sh 5
}

case "${1:-}" in
  example) install_dependencies && example ;;
  test) install_dependencies "${clang_packages[@]}" "${test_packages[@]}" && run_tests ;;
  *) echo "usage: ./run.sh example|test" >&2; exit 2 ;;
esac
