#!/bin/bash
# A render split into 16 parts by a Slurm job array: task i renders part i of 16.
#   sbatch slurm-array.sh
# Every task writes its PNG frames into the same folder under the whole run's names, so the
# folder is complete when the array is. For a bake, each task writes parts/part-$K.y4m and
# a dependent job joins them:
#   sbatch --dependency=afterok:$ARRAY_JOB_ID --wrap "sh join.sh 16 parts baked.y4m"
#SBATCH --job-name=stipple-render
#SBATCH --array=1-16
#SBATCH --cpus-per-task=2
#SBATCH --time=02:00:00
#SBATCH --output=logs/render-%A_%a.log
set -euo pipefail
N=16
K=${SLURM_ARRAY_TASK_ID}
stipple render anim.json --frames 0...9999 --shard "$K/$N" -o frames
