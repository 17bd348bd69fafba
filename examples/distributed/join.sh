#!/bin/sh
# Joins N bake parts (part-1.y4m … part-N.y4m in DIR) into one y4m file: the first part
# whole, then the frames of every other part (each starts with the same header line).
#   sh join.sh N DIR OUT.y4m
# For mp4 parts, ffmpeg's concat demuxer joins them instead:
#   for k in $(seq 1 N); do echo "file 'part-$k.mp4'"; done > parts.txt
#   ffmpeg -f concat -safe 0 -i parts.txt -c copy baked.mp4
set -eu
n=${1:?usage: join.sh N DIR OUT.y4m}
dir=${2:?usage: join.sh N DIR OUT.y4m}
out=${3:?usage: join.sh N DIR OUT.y4m}
{
    cat "$dir/part-1.y4m"
    k=2
    while [ "$k" -le "$n" ]; do
        tail -n +2 "$dir/part-$k.y4m"
        k=$((k + 1))
    done
} > "$out.partial"
mv "$out.partial" "$out"
