#!/bin/sh
# A Quick, Draw! file rendered by N processes (docs/ink-formats.md):
#   sh ink-parallel.sh DRAWINGS.ndjson N [SIZE]
# Writes drawings/ (one PNG a drawing: every shard writes into the same folder, with the
# names the whole run gives) and drawings-1.npy … drawings-N.npy (the rows of each part;
# numpy.concatenate of them in order is the whole run's array).
set -eu
input=${1:?usage: ink-parallel.sh DRAWINGS.ndjson N [SIZE]}
n=${2:-4}
size=${3:-28x28}
stipple=${STIPPLE:-stipple}
runner=${RUNNER:-parallel}   # RUNNER="xargs -P 4 -I {}" runs the same commands without GNU parallel

seq 1 "$n" | $runner "$stipple" render "$input" --shard {}/"$n" -o drawings/
seq 1 "$n" | $runner "$stipple" render "$input" --size "$size" --shard {}/"$n" -o drawings-{}.npy
