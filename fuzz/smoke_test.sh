#!/bin/bash
# Bounded fuzzing smoke test: smoke_test.sh BINARY DICT|- CORPUS_LIST
# Under --config=fuzz runs libFuzzer for at most 2000 inputs / 20 seconds on
# a copy of the seeds; in plain builds the binary is the replay driver.
set -euo pipefail
binary="$1"
dict="$2"
list="$3"
seeds="${TEST_TMPDIR:-$(mktemp -d)}/seeds"
work="${TEST_TMPDIR:-$(mktemp -d)}/work"
mkdir -p "$seeds" "$work"
n=0
while IFS= read -r f; do
  [[ -n "$f" ]] || continue
  # Flatten: libFuzzer treats file arguments as inputs to run, not corpora.
  cp "$f" "$seeds/$n-$(basename "$f")"
  n=$((n + 1))
done <"$list"
if [[ "$n" == 0 ]]; then
  echo "smoke: no seed files" >&2
  exit 1
fi
if [[ "${MEMPLAN_FUZZ_ENGINE:-replay}" != "libfuzzer" ]]; then
  echo "smoke: plain build, replaying $n seeds (use --config=fuzz to fuzz)"
  exec "$binary" "$seeds"
fi
flags=(-runs=2000 -max_total_time=20 -timeout=10 -rss_limit_mb=2048
  -print_final_stats=1
  "-artifact_prefix=${TEST_UNDECLARED_OUTPUTS_DIR:-$work}/")
if [[ "$dict" != "-" ]]; then flags+=("-dict=$dict"); fi
exec "$binary" "${flags[@]}" "$work" "$seeds"
