#!/bin/sh
# The timings of docs/distributed.md: the first and the last 10-frame shard of a long
# render and of a long bake, and the whole render, in a scratch folder.
#   sh timing.sh [WORKDIR]     (needs python3 and ffmpeg; STIPPLE as in parallel.sh)
# WORKDIR defaults to a new temporary folder (the y4m input is 260 MB). Set WHOLE=0 to skip
# the whole render (minutes).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-$(mktemp -d)}
stipple=${STIPPLE:-stipple}
mkdir -p "$work"
cd "$work"
echo "working in $work"
python3 "$here/make-timing-script.py" > timing.json
python3 "$here/make-timing-script.py" bake > timing-bake.json

seconds() {   # runs "$@" quietly, prints its wall-clock seconds
    start=$(date +%s.%N)
    "$@" 2>/dev/null
    end=$(date +%s.%N)
    echo "$start $end" | awk '{ printf "%.2f", $2 - $1 }'
}

last=$("$stipple" describe timing.json --json | awk -F': *' '/"lastFrame"/ { gsub(/[ ,]/, "", $2); print $2 }')
stamps=$("$stipple" describe timing.json --json | awk -F': *' '/"stamps"/ { gsub(/[ ,]/, "", $2); print $2 }')
parts=$(( (last + 1) / 10 ))
echo "render: timing.json, frames 0...$last, $stamps stamps, $parts shards of about 10 frames"
rm -rf first last whole
echo "  first shard: $(seconds "$stipple" render timing.json --frames "0...$last" --shard "1/$parts" -o first) s"
echo "  last shard:  $(seconds "$stipple" render timing.json --frames "0...$last" --shard "$parts/$parts" -o last) s"
echo "  frame $last alone: $(seconds "$stipple" render timing.json --frame "$last" -o last-frame.png) s"
if [ "${WHOLE:-1}" != 0 ]; then
    echo "  whole range: $(seconds "$stipple" render timing.json --frames "0...$last" -o whole) s"
fi

[ -f in.y4m ] || ffmpeg -loglevel error -f lavfi -i testsrc2=size=320x180:rate=30 -frames:v 3000 -pix_fmt yuv420p in.y4m
[ -f in.mp4 ] || ffmpeg -loglevel error -i in.y4m -pix_fmt yuv420p in.mp4
echo "bake: timing-bake.json over 3000 frames of 320×180, 300 parts of 10 frames"
echo "  y4m, first part: $(seconds "$stipple" bake timing-bake.json --video in.y4m --shard 1/300 -o part.y4m) s"
echo "  y4m, last part:  $(seconds "$stipple" bake timing-bake.json --video in.y4m --shard 300/300 -o part.y4m) s"
echo "  mp4, first part: $(seconds "$stipple" bake timing-bake.json --video in.mp4 --shard 1/300 -o part.y4m) s"
echo "  mp4, last part:  $(seconds "$stipple" bake timing-bake.json --video in.mp4 --shard 300/300 -o part.y4m) s"
