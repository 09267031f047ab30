#!/usr/bin/env bash
# The programs on MPI ranks, on this one machine, one compute
# thread per rank, each rank's drive files in their own directory:
#   weak scaling    RMAT scale 20 + log2 R for R = 1, 2, 4, 8 (edge factor 16)
#   strong scaling  RMAT scale 22 for R = 1, 2, 4
# BFS, PageRank (classic, 10 iterations) and WCC, each run ROUNDS times.
# Every rank's --stats records (per EDGEMAP: seconds, bytes read, bytes
# sent and received, communication seconds) go into one JSON-lines file
# tagged with the run; experiments/scaling_model.py reads it, with the
# mirror counts experiments/mirror_counts makes of the graphs projected
# (weak: scale 20 + log2 P up to 128 machines; strong: scale 22 up to 32),
# into WORK/mirrors.jsonl (MIRRORS=0 skips them; 3.3 GB of memory and
# about 4 minutes at scale 27):
#   python3 experiments/scaling_model.py WORK/ranks.jsonl WORK/mirrors.jsonl
#
#   experiments/bench_ranks.sh [WORK] [ROUNDS]    defaults build/ranks 1
#   RANKS="16" STRONG=0 ONE_RANK=0 experiments/bench_ranks.sh WORK  more rank counts
#   RANKS=none STRONG=0 experiments/bench_ranks.sh WORK               the one-rank comparison alone
#   RANKS=1 STRONG=0 ONE_RANK=0 FIRST_ROUND=2 experiments/bench_ranks.sh WORK 4
#                   rounds 2-5 of the one-rank weak runs (the model's
#                   denominator is the median of every round)
#   (records append to WORK/ranks.jsonl; ranks.jsonl is reset only by a
#   run of the default set)
# FLAGS: more flags for every program run (e.g. "--io memory", which takes
# the drives out of the ranks' timing); MPIRUN: the launcher (mpirun);
# RUN: a prefix for every sluice command (e.g. a dynamic loader and its
# library path, where sluice runs on a machine without its libraries).
#
# With 2 cores, 4 ranks share 2 cores: their seconds are not 4 machines'
# (the model uses their byte counts, which are exact, and the one-rank
# rates). Delete WORK when done: about 9 GB.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$root/build/ranks}
rounds=${2:-1}
tools=${SLUICE_TOOLS:-$root/build/tools}
flags=${FLAGS:-} mpirun=${MPIRUN:-mpirun} prefix=${RUN:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mkdir -p "$work"
out=$work/ranks.jsonl
ranks_list=${RANKS:-1 2 4 8}
strong_list=${RANKS:-1 2 4}
[ -n "${RANKS:-}" ] || : > "$out"
run() {  # KIND SCALE RANKS
  local kind=$1 scale=$2 ranks=$3
  local el=$work/rmat$scale.el layout=$work/rmat$scale-r$ranks.sluice
  # shellcheck disable=SC2086
  [ -e "$el" ] || $prefix "$tools/sluice" generate rmat --scale "$scale" --edge-factor 16 --seed 1 -o "$el" > /dev/null
  # shellcheck disable=SC2086
  [ -e "$layout" ] || $prefix "$tools/sluice" convert "$el" "$layout" --ranks "$ranks" --transpose --plain \
    --drives "$work/drives/rmat$scale-r$ranks/{rank}" > /dev/null 2>&1
  for round in $(seq "${FIRST_ROUND:-1}" $((${FIRST_ROUND:-1} + rounds - 1))); do
    for program in "bfs" "pagerank --method classic --iterations 10 --tolerance 0" "wcc"; do
      local name=${program%% *}
      # shellcheck disable=SC2086
      $mpirun -np "$ranks" $prefix "$tools/sluice-$name" "$layout" ${program#"$name"} $flags --threads 1 --stats "$work/stats.jsonl" \
        > "$work/summary.txt" 2> /dev/null
      echo "$kind R=$ranks scale $scale round $round: $(cat "$work/summary.txt")" >&2
      sed "s/^{/{\"kind\":\"$kind\",\"ranks_run\":$ranks,\"scale\":$scale,\"round\":$round,\"program\":\"$name\",/" "$work/stats.jsonl" >> "$out"
    done
  done
}
log2() { local n=$1 l=0; while [ "$n" -gt 1 ]; do n=$((n / 2)); l=$((l + 1)); done; echo $l; }
[ "$ranks_list" = none ] && ranks_list= strong_list=
for ranks in $ranks_list; do
  run weak $((20 + $(log2 "$ranks"))) "$ranks"
done
if [ "${STRONG:-1}" = 1 ]; then
  for ranks in $strong_list; do
    run strong 22 "$ranks"
  done
fi
if [ "${MIRRORS:-1}" = 1 ]; then
  : > "$work/mirrors.jsonl"
  for ranks in 2 4 8 16 32 64 128; do
    "$root/experiments/mirror_counts" $((20 + $(log2 "$ranks"))) "$ranks" >> "$work/mirrors.jsonl"
  done
  for ranks in 2 8 16 32; do  # scale 22 on 4 ranks is the weak run's
    "$root/experiments/mirror_counts" 22 "$ranks" >> "$work/mirrors.jsonl"
  done
fi
[ "${ONE_RANK:-1}" = 1 ] || { echo "records: $out" >&2; exit 0; }
# One rank under mpirun against the plain program on the plain layout,
# alternating, kernel seconds from the summary lines; --bind-to none, as
# docs/ranks.md advises (mpirun binds one rank to one core by default, where
# its IO thread then shares its compute thread's core). RMAT 22 by
# default (ONE_RANK_SCALE): at scale 20 a BFS takes 70 ms and single runs
# here spread by 25%.
scale=${ONE_RANK_SCALE:-22}
el=$work/rmat$scale.el plain=$work/rmat$scale.sluice
# shellcheck disable=SC2086
[ -e "$el" ] || $prefix "$tools/sluice" generate rmat --scale "$scale" --edge-factor 16 --seed 1 -o "$el" > /dev/null
mkdir -p "$work/drives/plain$scale"
# shellcheck disable=SC2086
[ -e "$plain" ] || $prefix "$tools/sluice" convert "$el" "$plain" --transpose --plain --drives "$work/drives/plain$scale" > /dev/null 2>&1
: > "$work/one-rank.jsonl"
# Each process runs 5 trials and reports their median (BFS): single
# processes here spread by 25%; PageRank runs one 10-iteration trial.
median_of() { sed -n -e 's/.*median of [0-9]* trials \([0-9.]*\) s.*/\1/p' -e 's/^pagerank [^:]*: \([0-9.]*\) s,.*/\1/p'; }
for round in $(seq "${ONE_RANK_ROUNDS:-7}"); do
  for program in "bfs -n 5" "pagerank --method classic --iterations 10 --tolerance 0"; do
    name=${program%% *}
    # shellcheck disable=SC2086
    plain_s=$($prefix "$tools/sluice-$name" "$plain" ${program#"$name"} $flags --threads 1 2> /dev/null | median_of)
    # shellcheck disable=SC2086
    mpi_s=$($mpirun --bind-to none -np 1 $prefix "$tools/sluice-$name" "$plain" ${program#"$name"} $flags --threads 1 2> /dev/null | median_of)
    echo "{\"kind\":\"one-rank\",\"round\":$round,\"program\":\"$name\",\"plain_seconds\":$plain_s,\"mpirun_seconds\":$mpi_s}" >> "$work/one-rank.jsonl"
    echo "one rank, round $round, $name: plain $plain_s s, mpirun --bind-to none -np 1 $mpi_s s" >&2
  done
done
echo "records: $out, $work/one-rank.jsonl" >&2
