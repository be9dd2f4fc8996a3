#!/usr/bin/env bash
# End-to-end: `memplan inspect` and `memplan verify` on programs the planner
# emits, including --help and bad arguments (exit 2 with a message).
set -uo pipefail
memplan="$1"
graphs="$2"
source "$(dirname "$0")/test_lib.sh"

expect_rc 0 "${memplan}" plan "${graphs}/multi_device.graph" -o "${tmp}/p.pte"

# inspect: text, JSON, one method, errors.
expect_rc 0 "${memplan}" inspect "${tmp}/p.pte"
expect_in 'method "multi_device"' "${tmp}/out"
expect_in "cuda:1" "${tmp}/out"
expect_rc 0 "${memplan}" inspect "${tmp}/p.pte" --json
/usr/bin/python3 -c 'import json, sys; json.load(open(sys.argv[1]))' \
  "${tmp}/out" || fail "inspect --json is not JSON"
expect_rc 0 "${memplan}" inspect "${tmp}/p.pte" --method multi_device
expect_rc 2 "${memplan}" inspect "${tmp}/p.pte" --method no_such_method
expect_usage_error inspect "${tmp}/p.pte" --method
expect_in "--method: 1 required NAME missing" "${tmp}/err"
expect_usage_error inspect "${tmp}/p.pte" --bogus
expect_in "unknown option '--bogus'" "${tmp}/err"
expect_usage_error inspect
expect_in "FILE is required" "${tmp}/err"
expect_usage_error inspect "${tmp}/p.pte" "${tmp}/p.pte"
expect_in "unexpected argument '${tmp}/p.pte'" "${tmp}/err"
expect_rc 2 "${memplan}" inspect "${tmp}/missing.pte"
printf 'junk' >"${tmp}/junk.pte"
expect_rc 2 "${memplan}" inspect "${tmp}/junk.pte"
expect_help inspect "Usage: memplan inspect [OPTIONS] FILE"

# verify: valid, JSON, bad arguments.
expect_rc 0 "${memplan}" verify "${tmp}/p.pte"
expect_in "valid: no violations" "${tmp}/out"
expect_rc 0 "${memplan}" verify --json "${tmp}/p.pte"
/usr/bin/python3 -c 'import json, sys; json.load(open(sys.argv[1]))' \
  "${tmp}/out" || fail "verify --json is not JSON"
expect_usage_error verify "${tmp}/p.pte" --align 3
expect_in "power of two" "${tmp}/err"
expect_usage_error verify "${tmp}/p.pte" --align
expect_in "--align: 1 required N missing" "${tmp}/err"
expect_usage_error verify "${tmp}/p.pte" --align -4
expect_in "--align: must be a power of two" "${tmp}/err"
expect_usage_error verify "${tmp}/p.pte" --align x
expect_in "--align: must be a power of two" "${tmp}/err"
expect_usage_error verify "${tmp}/p.pte" --method
expect_in "--method: 1 required NAME missing" "${tmp}/err"
expect_usage_error verify "${tmp}/p.pte" --alias-op
expect_in "--alias-op: 1 required NAME missing" "${tmp}/err"
expect_usage_error verify "${tmp}/p.pte" --bogus
expect_in "unknown option '--bogus'" "${tmp}/err"
expect_usage_error verify
expect_in "FILE is required" "${tmp}/err"
expect_usage_error verify "${tmp}/p.pte" "${tmp}/p.pte"
expect_in "unexpected argument '${tmp}/p.pte'" "${tmp}/err"
expect_rc 2 "${memplan}" verify "${tmp}/missing.pte"
expect_rc 2 "${memplan}" verify "${tmp}/junk.pte"
expect_help verify "Usage: memplan verify [OPTIONS] FILE"
# Repeatable options take one value each: the FILE after --alias-op stays
# the FILE.
expect_rc 0 "${memplan}" verify --alias-op my::view "${tmp}/p.pte"
expect_in "valid: no violations" "${tmp}/out"

finish
