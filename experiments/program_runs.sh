# Sourced by bench_algorithms.sh and bench_directions.sh: their common
# command line (GRAPH.sluice [ROUNDS] [EXTRA FLAGS...]), the algorithm
# programs they run, by name, and the median of numbers on stdin.
#   PROGRAMS="wcc pagerank-classic"   run only these rows
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools=$root/build/tools
[ $# -ge 1 ] || { echo "usage: $(basename "$0") GRAPH.sluice [ROUNDS] [EXTRA FLAGS...]" >&2; exit 2; }
graph=$1
rounds=${2:-3}
shift $(( $# >= 2 ? 2 : 1 ))
extra=("$@")
[ -x "$tools/sluice-bfs" ] || { echo "build first: ./run.sh example" >&2; exit 2; }

declare -A runs=(
  [bfs]="bfs"
  [pagerank-classic]="pagerank --method classic --iterations 10 --tolerance 0"
  [pagerank-delta]="pagerank --method delta"
  [wcc]="wcc"
  [spmv]="spmv"
  [bc]="bc"
  [sssp]="sssp"
)
read -r -a order <<< "${PROGRAMS:-bfs pagerank-classic pagerank-delta wcc spmv bc sssp}"
for name in "${order[@]}"; do
  [ -n "${runs[$name]:-}" ] || { echo "unknown program '$name' (one of: ${!runs[*]})" >&2; exit 2; }
done

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
