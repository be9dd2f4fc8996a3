#!/bin/bash
# Local fuzzing campaign: fuzz/run.sh TARGET [SECONDS]
# Builds //fuzz:TARGET with --config=fuzz in its own output base, fuzzes in
# fork mode on every core from the checked-in seeds (plus ../shared/data/pte
# for program targets), merges new coverage into a work corpus and prints a
# summary. New inputs are not copied into corpus/: review, then copy.
# Environment: MEMPLAN_FUZZ_FORK (fork jobs, default every core; on a shared
# machine 1), MEMPLAN_FUZZ_BIN (a folder of already built binaries: no build),
# MEMPLAN_FUZZ_OUTPUT_BASE, MEMPLAN_FUZZ_WORK.
set -euo pipefail
target="${1:?usage: fuzz/run.sh TARGET [SECONDS]}"
seconds="${2:-600}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
fork="${MEMPLAN_FUZZ_FORK:-$(nproc)}"
if [[ -n "${MEMPLAN_FUZZ_BIN:-}" ]]; then
  built="$MEMPLAN_FUZZ_BIN/$target"
else
  output_base="${MEMPLAN_FUZZ_OUTPUT_BASE:-/root/.cache/bazel_fuzz}"
  bazel --output_base="$output_base" build --config=fuzz "//fuzz:$target"
  # The workspace's bazel-bin link belongs to the default output base.
  built="$(bazel --output_base="$output_base" info --config=fuzz bazel-bin 2>/dev/null)/fuzz/$target"
fi

work="${MEMPLAN_FUZZ_WORK:-/tmp/memplan_fuzz/$target}"
mkdir -p "$work/corpus" "$work/merged" "$work/artifacts" "$work/seeds"
# Fork mode re-runs the binary for every job: a copy, so that a later build
# of another configuration into the same bazel-bin cannot swap it mid-run.
binary="$work/$target"
cp -f "$built" "$binary"
seeds=("$root/corpus/$target")
if [[ "$target" == program_* && -d "$root/../shared/data/pte" ]]; then
  seeds+=("$root/../shared/data/pte")
fi
if [[ "$target" == graph_text_fuzzer ]]; then seeds+=("$root/examples/graphs"); fi
# libFuzzer runs file arguments instead of fuzzing: give it folders only.
find "${seeds[@]}" -type f -exec cp -t "$work/seeds" {} + 2>/dev/null || true
flags=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1
  "-artifact_prefix=$work/artifacts/")
if [[ "$target" == program_* ]]; then flags+=("-dict=$root/fuzz/program.dict"); fi
if [[ "$target" == plan_reader_fuzzer ]]; then flags+=("-dict=$root/fuzz/plan.dict"); fi
if [[ "$target" == graph_text_fuzzer ]]; then flags+=("-dict=$root/fuzz/graph.dict"); fi

before=$(find "$work/corpus" -type f | wc -l)
echo "== fuzzing $target for ${seconds}s, -fork=$fork"
start=$(date +%s)
set +e
"$binary" "${flags[@]}" -fork="$fork" -ignore_crashes=1 \
  -max_total_time="$seconds" "$work/corpus" "$work/seeds" 2>&1 |
  tee "$work/campaign.log" | grep -E '^#[0-9]+: cov|INFO: fork|==ERROR|deadly' |
  tail -n 5
set -e
ran=$(($(date +%s) - start))

echo "== merging into $work/merged"
"$binary" -merge=1 "${flags[@]}" "$work/merged" "$work/corpus" "$work/seeds" \
  >"$work/merge.log" 2>&1 || true

after=$(find "$work/merged" -type f | wc -l)
crashes=$(find "$work/artifacts" -type f | wc -l)
# The first status line is the seeds' coverage, the last the campaign's.
first=$(grep -E '^#[0-9]+: cov' "$work/campaign.log" | head -n 1 || true)
last=$(grep -E '^#[0-9]+: cov' "$work/campaign.log" | tail -n 1 || true)
execs=$(echo "$last" | sed -nE 's/.*exec\/s:? ([0-9]+).*/\1/p')
cov=$(echo "$last" | sed -nE 's/.*cov: ([0-9]+).*/\1/p')
ft=$(echo "$last" | sed -nE 's/.*ft: ([0-9]+).*/\1/p')
cov0=$(echo "$first" | sed -nE 's/.*cov: ([0-9]+).*/\1/p')
ft0=$(echo "$first" | sed -nE 's/.*ft: ([0-9]+).*/\1/p')
runs=$(echo "$last" | sed -nE 's/^#([0-9]+):.*/\1/p')
echo "== summary: $target"
echo "   time:          ${ran}s run (${seconds}s asked), -fork=$fork"
echo "   exec/s:        ${execs:-?} (all jobs), ${runs:-?} runs"
echo "   coverage:      ${cov0:-?} -> ${cov:-?} edges, ${ft0:-?} -> ${ft:-?} features"
echo "   corpus:        $(ls "$work/seeds" | wc -l) seeds -> $after merged (+$((after - before)) since last run)"
echo "   crashes:       $crashes in $work/artifacts"
