#!/bin/bash
# Exit soak: runs `stipple render` RUNS times over a mix of scripts, JOBS at a
# time, and counts every run that did not end cleanly: a non-zero exit, a signal, no
# summary line, or anything else on stderr (glibc's "double free or corruption" can be
# printed by a thread while the process still exits 0). Usage: soak.sh STIPPLE [RUNS] [JOBS]
set -u
bin=${1:?usage: soak.sh STIPPLE [RUNS] [JOBS]}
runs=${2:-5000}
jobs=${3:-2}
work=$(mktemp -d "${TMPDIR:-/tmp}/stipple-soak.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$(cd "$(dirname "$0")/.." && pwd)

# The mix: empty, one stamp, an empty .sketchpoints, the demo (with quads), strokes.
printf '{"canvas":{"width":32,"height":32},"brushes":{},"draw":[]}' > "$work/empty.json"
printf '{"canvas":{"width":32,"height":32},"brushes":{"b":{"builtin":"hard-round","size":16}},"draw":[{"brush":"b","stamps":[[16,16,8,0,0,1,1,1,1]]}]}' > "$work/one.json"
: > "$work/empty.sketchpoints"
printf '{"canvas":{"width":96,"height":64},"maxAge":110,"brushes":{"s":{"builtin":"soft-round","size":64}},"draw":[{"brush":"s","stamps":"empty.sketchpoints"}]}' > "$work/emptysp.json"
cases=(
  "$work/empty.json"
  "$work/one.json"
  "$work/emptysp.json"
  "$root/Fixtures/scripts/demo.json"
  "$root/Fixtures/scripts/demo.json --primitive quads"
  "$root/Fixtures/scripts/stroke-signature.json"
  "$root/Fixtures/scripts/stroke-dot.json --primitive quads"
)

one() {  # one() INDEX: runs case INDEX mod the mix, prints a line only for a bad run
  local i=$1 c=${cases[$(( $1 % ${#cases[@]} ))]}
  local err="$work/err-$i" out="$work/out-$(( i % (jobs * 4) )).png"
  # shellcheck disable=SC2086
  "$bin" render $c -o "$out" 2>"$err"
  local rc=$?
  # The one line render prints on success ("OUT: frame 0 of SCRIPT, …") is expected; any
  # other stderr output (glibc's "double free", a runtime warning) is not.
  grep -v -F "$out: frame 0 of " "$err" > "$err.extra"
  if [ $rc -ne 0 ] || [ -s "$err.extra" ] || ! grep -q -F "$out: frame 0 of " "$err"; then
    echo "BAD run $i rc=$rc case=${c#$work/}: $(tr '\n' ' ' < "$err" | head -c 300)"
  fi
  rm -f "$err" "$err.extra"
}
export -f one
export bin work jobs
export cases_str="${cases[*]}"

start=$(date +%s)
bad=$(seq 0 $((runs - 1)) | xargs -P "$jobs" -I{} bash -c "$(declare -p cases); one {}" | tee /dev/stderr | grep -c '^BAD')
end=$(date +%s)
echo "soak: $runs runs, $jobs at a time, ${#cases[@]} scripts, $bad bad (aborts, signals or stderr output), $((end - start)) s"
[ "$bad" -eq 0 ]
