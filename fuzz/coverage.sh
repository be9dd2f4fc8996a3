#!/bin/bash
# fuzz/coverage.sh [TARGET[:DIR...]...]: source-based coverage of the corpora.
#
# Builds every fuzz target with clang's source-based coverage
# (-fprofile-instr-generate -fcoverage-mapping) through
# .clusterfuzzlite/build.sh, as OSS-Fuzz's coverage build does (no Bazel, so
# nothing to download), then runs each TARGET (default: all eight) once over
# every file of corpus/TARGET/ (regressions included), ../shared/data/pte for
# the program targets, and any DIR named after the target
# (`plan_reader_fuzzer:/tmp/merged`). Merges the profiles
# (llvm-profdata-14), prints llvm-cov-14's line and branch report for
# runtime/, properties/ and planner/, and writes an HTML report.
#
# Environment: MEMPLAN_COVERAGE_DIR (default /tmp/memplan_coverage; the build
# is reused while the sources are unchanged), MEMPLAN_JOBS (compile jobs,
# default every core), MEMPLAN_COVERAGE_REBUILD=1 forces a build.
# Output: $dir/report.txt (the report), $dir/html/index.html, and a last
# table of the files issue 12 names.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
dir="${MEMPLAN_COVERAGE_DIR:-/tmp/memplan_coverage}"
llvm_cov="${LLVM_COV:-llvm-cov-14}"
llvm_profdata="${LLVM_PROFDATA:-llvm-profdata-14}"
all_targets=(program_parser_fuzzer program_loader_fuzzer program_oracle_fuzzer
  cuda_allocation_fuzzer planner_fuzzer planner_items_fuzzer plan_reader_fuzzer
  graph_text_fuzzer)
specs=("$@")
if [[ ${#specs[@]} == 0 ]]; then specs=("${all_targets[@]}"); fi

# Build once per source state (contents, not times: a checkout does not
# rebuild what it did not change).
out="$dir/out"
stamp="$(find runtime planner properties fuzz schema .clusterfuzzlite \
  -type f \( -name '*.cc' -o -name '*.h' -o -name '*.fbs' -o -name '*.sh' \) \
  -print0 | sort -z | xargs -0 sha1sum | sha1sum | cut -d' ' -f1)"
if [[ "${MEMPLAN_COVERAGE_REBUILD:-}" == 1 || ! -f "$out/.stamp" ||
      "$(cat "$out/.stamp")" != "$stamp" ]]; then
  rm -rf "$out" "$dir/work"
  mkdir -p "$out" "$dir/work"
  flags="-O1 -gline-tables-only -fprofile-instr-generate -fcoverage-mapping"
  flags+=" -fsanitize=fuzzer-no-link -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
  echo "== building with coverage into $out (log: $dir/build.log)"
  start=$(date +%s)
  if ! env CC=clang CXX=clang++ CFLAGS="$flags" CXXFLAGS="$flags" \
      LIB_FUZZING_ENGINE=-fsanitize=fuzzer SRC="$dir" OUT="$out" \
      WORK="$dir/work" MEMPLAN_JOBS="${MEMPLAN_JOBS:-$(nproc)}" \
      bash -eu .clusterfuzzlite/build.sh >"$dir/build.log" 2>&1; then
    tail -n 30 "$dir/build.log"
    echo "coverage build failed, see $dir/build.log" >&2
    exit 1
  fi
  echo "$stamp" >"$out/.stamp"
  echo "   built in $(($(date +%s) - start)) s"
else
  echo "== reusing the coverage build in $out (sources unchanged)"
fi

profraw="$dir/profraw"
rm -rf "$profraw" "$dir/html"
mkdir -p "$profraw"
objects=()
status=0
for spec in "${specs[@]}"; do
  IFS=: read -r -a parts <<<"$spec"
  target="${parts[0]}"
  binary="$out/$target"
  if [[ ! -x "$binary" ]]; then
    echo "unknown target $target (not in $out)" >&2
    exit 2
  fi
  dirs=("corpus/$target" "${parts[@]:1}")
  if [[ "$target" == program_* && -d ../shared/data/pte ]]; then
    dirs+=(../shared/data/pte)
  fi
  # Files, not folders: libFuzzer then runs each one whole (a folder would
  # be read as a corpus and its inputs cut at -max_len).
  mapfile -t files < <(find "${dirs[@]}" -type f | sort)
  if [[ ${#files[@]} == 0 ]]; then
    echo "$target: no corpus files in ${dirs[*]}" >&2
    exit 2
  fi
  start=$(date +%s)
  set +e
  printf '%s\0' "${files[@]}" | LLVM_PROFILE_FILE="$profraw/$target.%p.profraw" \
    xargs -0 -n 500 "$binary" -rss_limit_mb=4096 >"$dir/$target.log" 2>&1
  rc=$?
  set -e
  echo "== $target: ${#files[@]} files from ${dirs[*]}, rc=$rc, $(($(date +%s) - start)) s"
  if [[ $rc != 0 ]]; then
    status=1
    grep -E 'ERROR|runtime error|fuzzer:|SUMMARY|Running:' "$dir/$target.log" | tail -n 8 || true
  fi
  objects+=(-object "$binary")
done

"$llvm_profdata" merge -sparse "$profraw"/*.profraw -o "$dir/merged.profdata"
# The first -object is llvm-cov's positional binary.
objects=("${objects[1]}" "${objects[@]:2}")
sources=(runtime properties planner)
"$llvm_cov" report "${objects[@]}" -instr-profile="$dir/merged.profdata" \
  -show-branch-summary -show-region-summary=false \
  "${sources[@]}" >"$dir/report.txt"
"$llvm_cov" show "${objects[@]}" -instr-profile="$dir/merged.profdata" \
  -format=html -show-branches=count -output-dir="$dir/html" "${sources[@]}"
cat "$dir/report.txt"

# Lines (covered/total) of the files the corpora are meant to reach.
echo "== named files (lines, branches)"
for f in runtime/program_validator.cc runtime/program.cc properties/csv_plan.cc \
    properties/json_plan.cc properties/json.cc planner/minimalloc_csv.cc; do
  awk -v f="$f" '$1 == f { printf "   %-32s lines %5s (%s missed of %s)  branches %s\n", f, $7, $6, $5, $10 }' \
    "$dir/report.txt"
done
echo "== report: $dir/report.txt, HTML: $dir/html/index.html"
exit "$status"
