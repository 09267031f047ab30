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
# ./run.sh test only: the plain build and `pip install .` compile the same
# libraries with the same command lines; ccache compiles them once.
test_packages=(ccache)
# The sweep plot's test, and the Python package's build and tests
# (./run.sh test only).
python_packages=(python3-matplotlib pybind11-dev python3-dev python3-venv python3-numpy python3-scipy python3-networkx
                 python3-pandas python3-pytest)

install_dependencies() {
  local missing=()
  for p in "${packages[@]}" "$@"; do
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

example() {
  build build -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF
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
}

# `pip install .` (scikit-build-core builds the module from this project)
# into a virtual environment beside Debian's numpy, scipy and networkx,
# then the Python tests again against the installed copy. pip fetches the
# build backend (scikit-build-core, pybind11) from PyPI.
pip_install_test() {
  local venv=$PWD/build/python-venv
  # The plain build's compilers (scikit-build-core would name Python's,
  # x86_64-linux-gnu-g++, and ccache would miss every object).
  local launcher=(--config-settings=cmake.define.CMAKE_CXX_COMPILER=/usr/bin/c++
                  --config-settings=cmake.define.CMAKE_C_COMPILER=/usr/bin/cc
                  --config-settings=cmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache
                  --config-settings=cmake.define.CMAKE_C_COMPILER_LAUNCHER=ccache)
  rm -rf "$venv"
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  if ! "$venv/bin/pip" download --quiet --no-deps --dest "$venv/probe" scikit-build-core >/dev/null 2>&1; then
    echo "PyPI is not reachable from here: 'pip install .' not tried (the module was tested from the CMake build)" >&2
    return
  fi
  echo "== pip install . (into $venv)"
  "$venv/bin/pip" install --quiet "${launcher[@]}" .
  (cd python/tests && SLUICE_BIN="$PWD/../../build/tools" "$venv/bin/python" -m pytest -q -p no:cacheprovider .)
}

run_tests() {
  # The sanitizer runtimes of gcc 12 and clang 14 cannot place their shadow
  # memory when the kernel randomises mmap with more than 28 bits (newer
  # kernels' default): TSan segfaults, ASan loops on DEADLYSIGNAL. With
  # address randomisation off for the test processes alone, they work.
  local no_aslr=(setarch "$(uname -m)" --addr-no-randomize)
  "${no_aslr[@]}" true 2>/dev/null || no_aslr=()
  # With the Python module (Debian's python3 and pybind11): ctest runs
  # python/tests with pytest too.
  # The ccache of the plain build and `pip install .` (inside build/).
  export CCACHE_DIR=$PWD/build/ccache
  build build -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON -DSLUICE_PYTHON=ON -DPython_EXECUTABLE=/usr/bin/python3 \
    -DCMAKE_CXX_COMPILER=/usr/bin/c++ -DCMAKE_C_COMPILER=/usr/bin/cc \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache
  (cd build && ctest -j "$(nproc)" --output-on-failure -LE concurrency)
  pip_install_test
  # The sanitizer builds: clang, which compiles them in half gcc's time
  # (an instrumented algorithms/bfs.cpp: 14 s against 31 s), with line
  # tables only (-g1): reports still name file and line.
  local sanitized=(-DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1
                   -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang -DBUILD_TESTING=ON)
  build build-asan "${sanitized[@]}" -DSLUICE_SANITIZE=address,undefined -DSLUICE_PYTHON=ON -DPython_EXECUTABLE=/usr/bin/python3
  (cd build-asan && LSAN_OPTIONS="suppressions=$PWD/../tests/lsan.supp" "${no_aslr[@]}" \
    ctest -j "$(nproc)" --output-on-failure -LE concurrency)
  # The OpenMP runtime is not instrumented: OpenMP loops run on one thread under TSan,
  # the block API's own threads are what it checks. The concurrency suites
  # are all in sluice_concurrency_tests: nothing else is built here.
  target=sluice_concurrency_tests build build-tsan "${sanitized[@]}" -DSLUICE_SANITIZE=thread
  (cd build-tsan && OMP_NUM_THREADS=1 TSAN_OPTIONS="suppressions=$PWD/../tests/tsan.supp" \
    "${no_aslr[@]}" ctest -j "$(nproc)" --output-on-failure -L concurrency)
  # Every reader under libFuzzer (ASan+UBSan) for a short fixed time;
  # tests/fuzz/run.sh SECONDS runs them longer.
  "${no_aslr[@]}" tests/fuzz/run.sh 5
}

case "${1:-}" in
  example) install_dependencies && example ;;
  test) install_dependencies "${clang_packages[@]}" "${python_packages[@]}" "${test_packages[@]}" && run_tests ;;
  *) echo "usage: ./run.sh example|test" >&2; exit 2 ;;
esac
