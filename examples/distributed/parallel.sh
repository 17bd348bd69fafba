#!/bin/sh
# Frame shards on one machine with GNU parallel: N processes share a render and a bake.
#   sh parallel.sh SCRIPT VIDEO.y4m N
# Writes frames/ (the render's PNG frames: every shard writes into the same folder) and
# baked.y4m (the bake's parts joined: the first part whole, then the frames of the others).
# A script without a canvas (a bake script may leave it out: the video gives the size) has
# nothing to render on its own, so it is only baked.
set -eu
script=${1:?usage: parallel.sh SCRIPT VIDEO.y4m N}
video=${2:?usage: parallel.sh SCRIPT VIDEO.y4m N}
n=${3:-4}
stipple=${STIPPLE:-stipple}
frames=${FRAMES:-all}
runner=${RUNNER:-parallel}   # RUNNER="xargs -P 4 -I {}" runs the same commands without GNU parallel

# Render: N shards of the same range into one folder. The names are the whole run's.
if problem=$("$stipple" describe "$script" 2>&1 >/dev/null); then
    seq 1 "$n" | $runner "$stipple" render "$script" --frames "$frames" --shard {}/"$n" -o frames
else
    case $problem in
    *'missing key "canvas"'*) echo "parallel.sh: $script has no canvas: baking only" >&2 ;;
    *) echo "$problem" >&2; exit 2 ;;
    esac
fi

# Bake: N parts of the input's frames, then the join.
seq 1 "$n" | $runner "$stipple" bake "$script" --video "$video" --shard {}/"$n" -o part-{}.y4m
sh "$(dirname "$0")/join.sh" "$n" . baked.y4m
rm -f part-*.y4m
