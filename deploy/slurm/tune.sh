#!/bin/sh
# Submits a whole `nestor tune` run as a chain of Slurm jobs: for each generation left, an
# array job that scores the candidates (TASKS shards) and a gather job after it; then a finish
# job that writes RUN/tuned.toml and compares it with the starting weights on fresh seeds.
#
#   deploy/slurm/tune.sh TASKS RUN [nestor tune init options...]
#   deploy/slurm/tune.sh 16 /shared/tune1 --generations 30 --population 32 --games 50 --phase killscreen
#
# RUN/state.json is the one state file; if it exists the run continues from where it stands
# (the init options are then ignored). A failed job cancels the jobs that depend on it; run
# the script again to continue. Extra sbatch options go in SBATCH_ARGS.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
usage="TASKS RUN [nestor tune init options...]"
# shellcheck source=deploy/slurm/submit.sh
. "$here/submit.sh"
tasks=$1 run=$2; shift 2
mkdir -p "$run/scores" "$run/logs"
[ -e "$run/state.json" ] || "$nestor" tune init --state "$run/state.json" "$@"
# Generations done and to do, from the state file's top-level fields.
done_=$(sed -n 's/^  "generation": \([0-9]*\),$/\1/p' "$run/state.json")
total=$(sed -n 's/^    "generations": \([0-9]*\),$/\1/p' "$run/state.json")
after=""
g=$done_
while [ "$g" -lt "$total" ]; do
  label="$g-$(date +%s)"  # a fresh name per submission: scores files are never overwritten
  # shellcheck disable=SC2086
  array=$(sbatch --parsable ${SBATCH_ARGS:-} $after --array=0-$((tasks - 1)) \
    --output="$run/logs/score-$label-%a.log" --export=ALL,NESTOR="$nestor",RUN="$run",G="$label" \
    "$here/tune-task.sbatch")
  # shellcheck disable=SC2086
  step=$(sbatch --parsable ${SBATCH_ARGS:-} --dependency=afterok:"$array" --job-name=nestor-gather \
    --output="$run/logs/gather-$label.log" \
    --wrap="'$nestor' tune gather --state '$run/state.json' '$run/scores/g$label'-*.json")
  after="--dependency=afterok:$step"
  echo "generation $((g + 1)) of $total: array job $array, gather job $step"
  g=$((g + 1))
done
# shellcheck disable=SC2086
finish=$(sbatch --parsable ${SBATCH_ARGS:-} $after --job-name=nestor-finish --output="$run/logs/finish.log" \
  --wrap="'$nestor' tune finish --state '$run/state.json' --out '$run/tuned.toml'")
echo "finish job $finish: the result will be $run/tuned.toml"
