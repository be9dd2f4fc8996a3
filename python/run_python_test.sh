#!/usr/bin/env bash
# run_python_test.sh PYTHON3 TEST.py [MODULE.so]: runs the unittest file
# with the module's folder on sys.path, under the python3 the module was
# built for (no module: pybind11 or python3-dev missing here, skip).
set -euo pipefail
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
