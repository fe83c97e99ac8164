#!/bin/sh
# Submits a `nestor sim` run as an array of TASKS jobs plus a merge job that waits for them:
#
#   deploy/slurm/sim.sh TASKS PARTS [nestor sim options...]
#   deploy/slurm/sim.sh 20 /shared/sim-run1 --games 1000 --level 19 --seed 1
#
# The summary lands in PARTS/summary.json (and PARTS/summary.txt); the job ids are printed.
# Extra sbatch options (partition, account, time) go in SBATCH_ARGS.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
usage="TASKS PARTS [nestor sim options...]"
# shellcheck source=deploy/slurm/submit.sh
. "$here/submit.sh"
tasks=$1 parts=$2; shift 2
mkdir -p "$parts"
# shellcheck disable=SC2086 # SBATCH_ARGS is a list of options
array=$(sbatch --parsable ${SBATCH_ARGS:-} --array=0-$((tasks - 1)) --output="$parts/task-%a.log" \
  --export=ALL,NESTOR="$nestor",PARTS="$parts",SIM_ARGS="$*" "$here/sim-task.sbatch")
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --dependency=afterok:"$array" --job-name=nestor-merge \
  --output="$parts/merge.log" --wrap="'$nestor' sim merge '$parts'/part-*.json --json > '$parts/summary.json' && '$nestor' sim merge '$parts'/part-*.json > '$parts/summary.txt'")
echo "array job $array ($tasks tasks), merge job $merge: results in $parts/summary.txt"
