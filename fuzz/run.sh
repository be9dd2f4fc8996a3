#!/bin/bash
# Local fuzzing campaign: fuzz/run.sh TARGET [SECONDS]
# Builds //fuzz:TARGET with --config=fuzz in its own output base, fuzzes in
# fork mode on every core from the checked-in seeds (plus ../shared/data/pte
# for program targets), merges new coverage into a work corpus and prints a
# summary. New inputs are not copied into corpus/: review, then copy.
set -euo pipefail
target="${1:?usage: fuzz/run.sh TARGET [SECONDS]}"
seconds="${2:-600}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
output_base="${MEMPLAN_FUZZ_OUTPUT_BASE:-/root/.cache/bazel_fuzz}"
bazel --output_base="$output_base" build --config=fuzz "//fuzz:$target"
# The workspace's bazel-bin link belongs to the default output base.
bin="$(bazel --output_base="$output_base" info --config=fuzz bazel-bin 2>/dev/null)"
binary="$bin/fuzz/$target"

work="${MEMPLAN_FUZZ_WORK:-/tmp/memplan_fuzz/$target}"
mkdir -p "$work/corpus" "$work/merged" "$work/artifacts" "$work/seeds"
seeds=("$root/corpus/$target")
if [[ "$target" == program_* && -d "$root/../shared/data/pte" ]]; then
  seeds+=("$root/../shared/data/pte")
fi
# libFuzzer runs file arguments instead of fuzzing: give it folders only.
find "${seeds[@]}" -type f -exec cp -t "$work/seeds" {} + 2>/dev/null || true
flags=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1
  "-artifact_prefix=$work/artifacts/")
if [[ "$target" == program_* ]]; then flags+=("-dict=$root/fuzz/program.dict"); fi

before=$(find "$work/corpus" -type f | wc -l)
echo "== fuzzing $target for ${seconds}s on $(nproc) cores"
set +e
"$binary" "${flags[@]}" -fork="$(nproc)" -ignore_crashes=1 \
  -max_total_time="$seconds" "$work/corpus" "$work/seeds" 2>&1 |
  tee "$work/campaign.log" | grep -E '^#[0-9]+: cov|INFO: fork|==ERROR|deadly' |
  tail -n 5
set -e

echo "== merging into $work/merged"
"$binary" -merge=1 "${flags[@]}" "$work/merged" "$work/corpus" "$work/seeds" \
  >"$work/merge.log" 2>&1 || true

after=$(find "$work/merged" -type f | wc -l)
crashes=$(find "$work/artifacts" -type f | wc -l)
last=$(grep -E '^#[0-9]+: cov' "$work/campaign.log" | tail -n 1 || true)
execs=$(echo "$last" | sed -nE 's/.*exec\/s:? ([0-9]+).*/\1/p')
cov=$(echo "$last" | sed -nE 's/.*cov: ([0-9]+).*/\1/p')
ft=$(echo "$last" | sed -nE 's/.*ft: ([0-9]+).*/\1/p')
echo "== summary: $target"
echo "   time:          ${seconds}s, $(nproc) jobs"
echo "   exec/s:        ${execs:-?} (all jobs)"
echo "   coverage:      ${cov:-?} edges, ${ft:-?} features"
echo "   corpus:        $(ls "$work/seeds" | wc -l) seeds -> $after merged (+$((after - before)) since last run)"
echo "   crashes:       $crashes in $work/artifacts"
