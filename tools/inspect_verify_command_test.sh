#!/usr/bin/env bash
# End-to-end: `memplan inspect` and `memplan verify` on programs the planner
# emits, including bad arguments (exit 2 with a message).
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
expect_rc 2 "${memplan}" inspect "${tmp}/p.pte" --method
expect_in "--method needs a name" "${tmp}/err"
expect_rc 2 "${memplan}" inspect "${tmp}/p.pte" --bogus
expect_in "unexpected argument '--bogus'" "${tmp}/err"
expect_rc 2 "${memplan}" inspect
expect_rc 2 "${memplan}" inspect "${tmp}/missing.pte"
printf 'junk' >"${tmp}/junk.pte"
expect_rc 2 "${memplan}" inspect "${tmp}/junk.pte"
expect_rc 0 "${memplan}" inspect --help

# verify: valid, JSON, bad arguments.
expect_rc 0 "${memplan}" verify "${tmp}/p.pte"
expect_in "valid: no violations" "${tmp}/out"
expect_rc 0 "${memplan}" verify --json "${tmp}/p.pte"
/usr/bin/python3 -c 'import json, sys; json.load(open(sys.argv[1]))' \
  "${tmp}/out" || fail "verify --json is not JSON"
expect_rc 2 "${memplan}" verify "${tmp}/p.pte" --align 3
expect_in "power of two" "${tmp}/err"
expect_rc 2 "${memplan}" verify "${tmp}/p.pte" --align
expect_in "--align needs a value" "${tmp}/err"
expect_rc 2 "${memplan}" verify "${tmp}/p.pte" --method
expect_rc 2 "${memplan}" verify "${tmp}/p.pte" --bogus
expect_rc 2 "${memplan}" verify
expect_rc 2 "${memplan}" verify "${tmp}/p.pte" "${tmp}/p.pte"
expect_rc 2 "${memplan}" verify "${tmp}/missing.pte"
expect_rc 2 "${memplan}" verify "${tmp}/junk.pte"
expect_rc 0 "${memplan}" verify --help

finish
