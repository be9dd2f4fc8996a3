#!/usr/bin/env bash
# memplan verify on ExecuTorch activation-memory traces (.json with
# traceEvents): exit codes, codes and the structured fields of --json.
set -uo pipefail
memplan="$1"
source "$(dirname "$0")/test_lib.sh"

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

expect_rc 0 "$memplan" verify "$tmp/valid.json"
expect_in "valid: no violations" "$tmp/out"

expect_rc 1 "$memplan" verify --json "$tmp/overlap.json"
expect_in '"allocations":["a","c"],"mem_id":1,"bytes":[16,32],"lifetime":[1,1]' \
  "$tmp/out"
expect_rc 2 "$memplan" verify "$tmp/broken.json"
grep -q 'memory trace json 1:.*traceEvents\[0\]' "$tmp/err" ||
  fail "broken trace: no line:column error naming traceEvents[0]"
expect_rc 1 "$memplan" verify --align 64 "$tmp/valid.json"
expect_in "alignment: b" "$tmp/out"

finish
