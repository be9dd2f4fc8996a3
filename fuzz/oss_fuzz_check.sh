#!/bin/bash
# fuzz/oss_fuzz_check.sh [SANITIZER...]: builds the fuzz targets the way
# OSS-Fuzz / ClusterFuzzLite's `compile` does, without docker, and runs each.
#
# From a clean clone of HEAD (uncommitted changes are not in it) under a
# temporary $SRC, for each sanitizer (default: address undefined coverage):
# a fresh environment (env -i) with CC, CXX, CFLAGS, CXXFLAGS,
# LIB_FUZZING_ENGINE, SANITIZER, FUZZING_ENGINE, ARCHITECTURE, SRC, OUT and
# WORK set as base-builder's Dockerfile and `compile` set them for
# libFuzzer; $SRC/build.sh (a copy of .clusterfuzzlite/build.sh, as the
# Dockerfile makes) runs from $SRC/memplan; then every target in $OUT runs
# with -runs=$RUNS (default 2000) over its unzipped <target>_seed_corpus.zip
# with its .dict. Coverage builds write their profiles to $WORK/profraw.
#
# Differences from the real image, by necessity: Debian's clang 14 and
# libstdc++ (the image uses its own clang and libc++, whose headers are not
# installed here), Debian's flatc/flatbuffers 2.0.8 instead of the ones the
# Dockerfile builds, and -fsanitize=function dropped from UBSan (Debian's
# clang-14 runtime lacks its handlers).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${RUNS:-2000}"
sanitizers=("$@")
if [[ ${#sanitizers[@]} == 0 ]]; then sanitizers=(address undefined coverage); fi
top="${MEMPLAN_CHECK_DIR:-$(mktemp -d /tmp/oss_fuzz_check.XXXXXX)}"
mkdir -p "$top"

src="$top/src"
rm -rf "$src"
mkdir -p "$src"
git clone --quiet "$root" "$src/memplan"
echo "== clean clone of $(git -C "$src/memplan" rev-parse --short HEAD) in $src/memplan"
cp "$src/memplan/.clusterfuzzlite/build.sh" "$src/build.sh"

# base-clang's CFLAGS and base-builder's per-sanitizer flags (libFuzzer).
base_cflags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
ubsan_checks="array-bounds,bool,builtin,enum,float-divide-by-zero,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unsigned-integer-overflow,unreachable,vla-bound,vptr"
ubsan_fatal="array-bounds,bool,builtin,enum,float-divide-by-zero,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unreachable,vla-bound,vptr"
sanitizer_flags() {
  case "$1" in
    address) echo "-fsanitize=address -fsanitize-address-use-after-scope" ;;
    undefined) echo "-fsanitize=$ubsan_checks -fno-sanitize-recover=$ubsan_fatal" ;;
    coverage) echo "-fprofile-instr-generate -fcoverage-mapping -pthread -Wl,--no-as-needed -Wl,-ldl -Wl,-lm -Wno-unused-command-line-argument" ;;
    *) echo "unknown sanitizer $1" >&2; return 1 ;;
  esac
}

status=0
summary=()
for sanitizer in "${sanitizers[@]}"; do
  out="$top/out/$sanitizer"
  work="$top/work/$sanitizer"
  rm -rf "$out" "$work"
  mkdir -p "$out" "$work"
  flags="$base_cflags $(sanitizer_flags "$sanitizer") -fsanitize=fuzzer-no-link"
  echo "== $sanitizer: build.sh (CFLAGS=$flags)"
  start=$(date +%s)
  if ! (cd "$src/memplan" && env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$HOME" \
      CC=clang CXX=clang++ CCC=clang++ \
      CFLAGS="$flags" CXXFLAGS="$flags" \
      LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
      SANITIZER="$sanitizer" FUZZING_ENGINE=libfuzzer FUZZING_LANGUAGE=c++ \
      ARCHITECTURE=x86_64 SRC="$src" OUT="$out" WORK="$work" \
      MEMPLAN_JOBS="${MEMPLAN_JOBS:-$(nproc)}" \
      bash -eu "$src/build.sh") >"$work/build.log" 2>&1; then
    echo "   build FAILED, see $work/build.log"
    tail -n 20 "$work/build.log"
    summary+=("$sanitizer: build failed")
    status=1
    continue
  fi
  echo "   built in $(($(date +%s) - start)) s"

  for binary in "$out"/*_fuzzer; do
    target="$(basename "$binary")"
    seeds="$work/seeds/$target"
    mkdir -p "$seeds" "$work/artifacts/$target" "$work/profraw"
    if [[ -f "$out/${target}_seed_corpus.zip" ]]; then
      unzip -q -o "$out/${target}_seed_corpus.zip" -d "$seeds"
    fi
    args=("-runs=$runs" -timeout=25 -rss_limit_mb=2560 -seed=1
      "-artifact_prefix=$work/artifacts/$target/")
    if [[ -f "$out/$target.dict" ]]; then args+=("-dict=$out/$target.dict"); fi
    start=$(date +%s)
    set +e
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:symbolize=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:silence_unsigned_overflow=1 \
    LLVM_PROFILE_FILE="$work/profraw/$target.%p.profraw" \
      "$binary" "${args[@]}" "$seeds" >"$work/$target.log" 2>&1
    rc=$?
    set -e
    seconds=$(($(date +%s) - start))
    done_line="$(grep -E '^Done [0-9]+ runs' "$work/$target.log" | tail -n 1 || true)"
    cov="$(grep -E '^#[0-9]+.*cov: ' "$work/$target.log" | tail -n 1 |
      sed -nE 's/.*cov: ([0-9]+) ft: ([0-9]+).*/\1 edges, \2 features/p')"
    line="$sanitizer $target: rc=$rc, $(ls "$seeds" | wc -l) seeds, ${done_line:-no Done line}, ${cov:-no coverage line}, ${seconds}s"
    echo "   $line"
    summary+=("$line")
    if [[ $rc != 0 ]]; then
      status=1
      grep -E 'ERROR|runtime error|fuzzer:|SUMMARY' "$work/$target.log" | head -n 8 || true
    fi
  done
done

echo "== summary (results in $top)"
printf '   %s\n' "${summary[@]}"
exit "$status"
