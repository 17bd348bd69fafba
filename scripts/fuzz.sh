#!/bin/bash
# Runs the libFuzzer targets of Fuzz/, each over a copy of its seed corpus in a
# temporary folder (Fuzz/corpus is never written), and prints each target's executions,
# speed and result. A crash, a sanitizer report, a timeout or running out of memory fails
# the run; its reproducer is kept in OUTDIR/<target>-crash-… (with the target's log).
# Usage: fuzz.sh BIN_DIR OUTDIR RUNS MAX_TIME TARGET...
#   RUNS: -runs for each target; MAX_TIME: -max_total_time in seconds (0: no limit).
set -u
# A trap goes to ASan/libFuzzer at once (the Swift backtracer can sit on a crash for minutes).
export SWIFT_BACKTRACE=enable=no
bin=${1:?usage: fuzz.sh BIN_DIR OUTDIR RUNS MAX_TIME TARGET...}
outdir=${2:?}
runs=${3:?}
max_time=${4:?}
shift 4
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$outdir"
work=$(mktemp -d "${TMPDIR:-/tmp}/stipple-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Inputs' largest size a target: a script is text up to a few pages; a .sketchpoints file a
# hundred records; a PNG 16 KiB (up to ~16 MiB of pixels at deflate's ratio); a y4m a few frames.
max_len() {
  case $1 in
    FuzzScript) echo 65536 ;;
    FuzzSketchpoints) echo 4096 ;;
    FuzzPNG) echo 16384 ;;
    FuzzTestConfig) echo 4096 ;;
    FuzzY4M) echo 8192 ;;
    FuzzInkML) echo 16384 ;;
    FuzzQuickDraw) echo 8192 ;;
    *) echo 4096 ;;
  esac
}

failed=()
printf '%-18s %12s %10s %8s  %s\n' target executions exec/s seconds result | tee "$outdir/summary.txt"
for t in "$@"; do
  [ -x "$bin/$t" ] || { echo "fuzz.sh: $bin/$t is not built" >&2; exit 2; }
  mkdir -p "$work/$t"
  cp "$root/Fuzz/corpus/$t/"* "$work/$t/"
  log="$outdir/$t.log"
  start=$(date +%s)
  "$bin/$t" "$work/$t" -runs="$runs" -max_total_time="$max_time" -max_len="$(max_len "$t")" \
    -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
    -artifact_prefix="$outdir/$t-" >"$log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if [ $rc -eq 0 ]; then
    result="ok ($(ls "$work/$t" | wc -l) corpus inputs, $(grep -o 'cov: [0-9]*' "$log" | tail -1))"
  else
    result="FAILED (exit $rc): $(grep -m1 -E 'ERROR: |FINDING|Fatal error|deadly signal|timeout|out-of-memory' "$log" | cut -c1-160); see $log"
    failed+=("$t")
  fi
  printf '%-18s %12s %10s %8s  %s\n' "$t" "${execs:-?}" "${speed:-?}" "$secs" "$result" | tee -a "$outdir/summary.txt"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]} (reproducers: $outdir/<target>-crash-*; replay with \`$bin/<target> FILE\`)" >&2
  exit 1
fi
echo "fuzz: no findings (summary: $outdir/summary.txt)"
