#!/bin/bash
# Runs workflows_test.py (python3 + python3-yaml, from tools/bootstrap.sh).
set -euo pipefail
exec python3 "$(dirname "$0")/workflows_test.py" "$@"
