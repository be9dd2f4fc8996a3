#!/usr/bin/env bash
# memplan verify on ExecuTorch activation-memory traces (.json with
# traceEvents): exit codes, codes and the structured fields of --json.
set -euo pipefail
memplan="$1"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"

event() {  # name offset bytes step
  printf '{"name": "%s", "cat": "memory_allocation", "ph": "X", "ts": %d, "dur": %d, "pid": 1, "tid": %d, "args": {"bytes": %d}}' \
    "$1" "$2" "$3" "$4" "$3"
}
# a [0,1] at [0,32); b [1,2] at [32,64): valid. c on a's bytes at step 1.
printf '{"traceEvents": [%s, %s, %s, %s]}\n' "$(event a 0 32 0)" \
  "$(event a 0 32 1)" "$(event b 32 32 1)" "$(event b 32 32 2)" \
  > "$tmp/valid.json"
printf '{"traceEvents": [%s, %s, %s]}\n' "$(event a 0 32 0)" \
  "$(event a 0 32 1)" "$(event c 16 32 1)" > "$tmp/overlap.json"
printf '{"traceEvents": [{"name": "a", "cat": "memory_allocation", "ph": "X", "ts": "0"}]}\n' \
  > "$tmp/broken.json"

"$memplan" verify "$tmp/valid.json" > "$tmp/out.txt"
grep -q "valid: no violations" "$tmp/out.txt"

set +e
"$memplan" verify --json "$tmp/overlap.json" > "$tmp/out.json"
status=$?
"$memplan" verify "$tmp/broken.json" 2> "$tmp/err.txt"
broken=$?
"$memplan" verify --align 64 "$tmp/valid.json" > "$tmp/align.txt"
aligned=$?
set -e
[[ $status -eq 1 ]] || { echo "FAIL: overlap trace exited $status"; exit 1; }
grep -q '"allocations":\["a","c"\],"mem_id":1,"bytes":\[16,32\],"lifetime":\[1,1\]' \
  "$tmp/out.json" || { cat "$tmp/out.json"; exit 1; }
[[ $broken -eq 2 ]] || { echo "FAIL: broken trace exited $broken"; exit 1; }
grep -q 'memory trace json 1:.*traceEvents\[0\]' "$tmp/err.txt" ||
  { cat "$tmp/err.txt"; exit 1; }
[[ $aligned -eq 1 ]] && grep -q "alignment: b" "$tmp/align.txt" ||
  { echo "FAIL: --align 64"; cat "$tmp/align.txt"; exit 1; }
echo PASS
