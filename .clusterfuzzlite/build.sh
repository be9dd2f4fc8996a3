#!/bin/bash -eu
# Builds every memplan fuzz target without Bazel, as OSS-Fuzz/ClusterFuzzLite
# do: $CXX/$CXXFLAGS for the code, $LIB_FUZZING_ENGINE at link time, output
# binaries, <target>_seed_corpus.zip and <target>.dict into $OUT.
cd "${SRC}/memplan" 2>/dev/null || cd "$(dirname "$0")/.."
root="$(pwd)"
work="${WORK:-$(mktemp -d)}/memplan"
mkdir -p "$work/gen/schema" "$work/obj" "$OUT"

# The schema headers, generated as the Bazel genrules do.
"${FLATC:-flatc}" --cpp --scoped-enums --gen-object-api --reflect-names \
  -o "$work/gen/schema" schema/program.fbs schema/scalar_type.fbs
"${FLATC:-flatc}" --cpp --scoped-enums -o "$work/gen/schema" \
  schema/bundled_program.fbs

flags=(-std=c++17 -I"$root" -I"$work/gen" ${CXXFLAGS})
# The fuzz targets use the CUDA runtime only where a toolkit exists.
if [[ -f /usr/local/cuda/include/cuda_runtime.h &&
      -f /usr/local/cuda/lib64/libcudart_static.a && -z "${MEMPLAN_NO_CUDA:-}" ]]; then
  flags+=(-DMEMPLAN_HAVE_CUDA=1 -isystem /usr/local/cuda/include)
  cuda_libs=(/usr/local/cuda/lib64/libcudart_static.a -ldl -lpthread -lrt)
else
  cuda_libs=()
fi

# Every library source of the layers below fuzz/ (tests, benchmarks and
# mains excluded), compiled once, $MEMPLAN_JOBS (default: every core) at a
# time.
jobs="${MEMPLAN_JOBS:-$(nproc)}"
objects=()
pids=()
while IFS= read -r src; do
  # Test-only helpers (RapidCheck generators, gtest utilities) are not needed.
  if grep -qE '#include [<"](rapidcheck|gtest|gmock|benchmark)' "$src"; then
    continue
  fi
  obj="$work/obj/${src//\//_}.o"
  $CXX "${flags[@]}" -c "$src" -o "$obj" &
  pids+=($!)
  objects+=("$obj")
  if ((${#pids[@]} >= jobs)); then
    wait "${pids[0]}"
    pids=("${pids[@]:1}")
  fi
done < <(find schema runtime planner properties fuzz -name '*.cc' \
           ! -name '*_test.cc' ! -name '*_main.cc' ! -name '*_benchmark.cc' \
           ! -name '*_fuzzer.cc' ! -name 'replay_main.cc' \
           ! -name 'make_seed_corpus.cc' | sort)
for pid in "${pids[@]}"; do wait "$pid"; done
ar rcs "$work/libmemplan.a" "${objects[@]}"

dict_for() {
  case "$1" in
    program_*) echo fuzz/program.dict ;;
    plan_reader_fuzzer) echo fuzz/plan.dict ;;
    graph_text_fuzzer) echo fuzz/graph.dict ;;
    *) echo "" ;;
  esac
}

for src in fuzz/*_fuzzer.cc; do
  target="$(basename "$src" .cc)"
  $CXX "${flags[@]}" "$src" -o "$OUT/$target" $LIB_FUZZING_ENGINE \
    "$work/libmemplan.a" \
    "${cuda_libs[@]}"
  if [[ -d "corpus/$target" ]]; then
    rm -f "$OUT/${target}_seed_corpus.zip"
    (cd "corpus/$target" && zip -q -r -j "$OUT/${target}_seed_corpus.zip" .)
  fi
  # The example models are seeds of the graph text too.
  if [[ "$target" == graph_text_fuzzer ]]; then
    zip -q -j "$OUT/${target}_seed_corpus.zip" examples/graphs/*.graph
  fi
  dict="$(dict_for "$target")"
  if [[ -n "$dict" ]]; then cp "$dict" "$OUT/$target.dict"; fi
  echo "built $OUT/$target"
done
