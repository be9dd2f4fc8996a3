#!/usr/bin/env bash
# run_python_test.sh [--asan] PYTHON3 TEST.py [MODULE.so]: runs the
# unittest file with the module's folder on sys.path, under the python3 the
# module was built for (no module: pybind11 or python3-dev missing here,
# skip). --asan: the module was built with ASan/UBSan; preload clang's
# runtime into the uninstrumented interpreter.
set -euo pipefail
if [[ "${1:-}" == "--asan" ]]; then
  shift
  runtime="$(clang -print-file-name=libclang_rt.asan-x86_64.so 2>/dev/null || true)"
  if [[ ! -f "$runtime" ]]; then
    echo "SKIP: built with ASan but clang's shared ASan runtime is not here"
    exit 0
  fi
  export LD_PRELOAD="$runtime"
  # CPython does not free everything at exit; the module's own leaks are
  # covered by the C++ tests.
  export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1"
fi
python3="$1"
test_py="$2"
shift
if [[ $# -lt 2 || -z "$python3" ]]; then
  echo "SKIP: memplan.so not built (pybind11-dev or python3-dev missing)"
  exit 0
fi
module_dir="$(dirname "$2")"
shared="${TEST_SRCDIR}/shared_data/data/pte"
export MEMPLAN_SHARED_PTE="$shared"
export PYTHONPATH="$module_dir"
exec "$python3" "$test_py" -v
