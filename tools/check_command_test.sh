#!/usr/bin/env bash
# End-to-end: `memplan check` and `memplan render` on the binary. Exit
# codes, violation codes in the table, red rectangles in the SVGs, every
# SVG well-formed XML (python3's xml.etree), deterministic JSON, --help and
# bad arguments.
set -uo pipefail
memplan="$1"
source "$(dirname "$0")/test_lib.sh"

# Every SVG under $1 (files and inline in index.html) parses as XML.
check_xml() {
  /usr/bin/python3 - "$1" <<'PY' || fail "XML check of $1"
import glob, re, sys, xml.etree.ElementTree as ET
root = sys.argv[1]
svgs = sorted(glob.glob(root + "/plans/*.svg"))
assert svgs, "no SVG written under " + root
for path in svgs:
    ET.parse(path)
html = open(root + "/index.html", encoding="utf-8").read()
inline = re.findall(r"<svg .*?</svg>", html, re.S)
assert len(inline) == len(svgs), (len(inline), len(svgs))
for svg in inline:
    ET.fromstring(svg)
print("xml ok:", len(svgs), "svgs")
PY
}

# 1. Default corpus (embedded graphs only): everything holds.
unset MEMPLAN_SHARED_DATA
expect_rc 0 "${memplan}" check --report "${tmp}/default" --no-times
for g in control_flow multi_device small_cnn transformer_block views_inplace; do
  expect_in "${g}.graph" "${tmp}/out"
done
expect_in "OK: 5 input(s)" "${tmp}/out"
expect_in "cpu,cuda:0,cuda:1" "${tmp}/out"
check_xml "${tmp}/default"

# 2. A planted overlap and a CPU tensor in a CUDA buffer: exit 1, codes
# named, offending rectangles red in the report.
cat >"${tmp}/overlap.json" <<'JSON'
{"buffers": [{"mem_id": 1, "size": 160}],
 "allocations": [
  {"id": "x", "mem_id": 1, "offset": 0, "size": 64, "first": 0, "last": 1, "device": "cpu"},
  {"id": "y", "mem_id": 1, "offset": 32, "size": 64, "first": 1, "last": 4, "device": "cpu"}]}
JSON
cat >"${tmp}/cross_device.json" <<'JSON'
{"buffers": [{"mem_id": 1, "size": 64, "device": "cpu"},
             {"mem_id": 2, "size": 128, "device": "cuda:0"}],
 "allocations": [
  {"id": "x", "mem_id": 1, "offset": 0, "size": 64, "first": 0, "last": 1, "device": "cpu"},
  {"id": "stray", "mem_id": 2, "offset": 0, "size": 128, "first": 0, "last": 2, "device": "cpu"}]}
JSON
expect_rc 1 "${memplan}" check "${tmp}/overlap.json" --report "${tmp}/overlap"
expect_in "given: 1 overlap" "${tmp}/out"
expect_in "FAILED" "${tmp}/out"
expect_in 'fill="#d62728" stroke="#7f0000" stroke-width' "${tmp}/overlap/index.html"
expect_in ">overlap: x [0,1] bytes [0,64)" "${tmp}/overlap/index.html"
check_xml "${tmp}/overlap"

expect_rc 1 "${memplan}" check "${tmp}/cross_device.json" --report "${tmp}/cross"
expect_in "given: 1 cross_device" "${tmp}/out"
expect_in ">cross_device: stray" "${tmp}/cross/index.html"
python3_red=$(grep -c '<title>stray (plain)' "${tmp}/cross/plans/000.svg")
[[ "${python3_red}" -ge 1 ]] || fail "stray not drawn"
grep -q 'fill="#d62728"[^>]*><title>stray (plain)' "${tmp}/cross/plans/000.svg" ||
  fail "stray is not red"
check_xml "${tmp}/cross"

# A good input next to a bad one still fails the run.
expect_rc 1 "${memplan}" check "${tmp}/overlap.json" "${tmp}/cross_device.json"

# 3. Unreadable input: exit 2, the path named.
expect_rc 2 "${memplan}" check "${tmp}/missing.graph"
expect_in "missing.graph: unreadable" "${tmp}/out"
echo '{"buffers": [' >"${tmp}/broken.json"
expect_rc 2 "${memplan}" check "${tmp}/broken.json"
expect_rc 2 "${memplan}" check --algos nope

# 4. --json --no-times is deterministic and valid JSON.
expect_rc 1 "${memplan}" check --json --no-times "${tmp}/overlap.json"
cp "${tmp}/out" "${tmp}/json1"
expect_rc 1 "${memplan}" check --json --no-times "${tmp}/overlap.json"
cmp -s "${tmp}/out" "${tmp}/json1" || fail "--json --no-times differs"
/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit_code"] == 1, d
assert d["inputs"][0]["oracle"] == "FAIL", d
assert "seconds" not in d["inputs"][0]
' "${tmp}/out" || fail "--json output"

# 5. render: one plan, well-formed, deterministic; violations give exit 1.
graph="examples/graphs/multi_device.graph"
expect_rc 0 "${memplan}" render "${graph}" -o "${tmp}/a.svg"
expect_rc 0 "${memplan}" render "${graph}" -o "${tmp}/b.svg"
cmp -s "${tmp}/a.svg" "${tmp}/b.svg" || fail "render is not deterministic"
expect_in "buffer 2 · cuda:0" "${tmp}/a.svg"
expect_in "buffer 3 · cuda:1" "${tmp}/a.svg"
expect_rc 0 "${memplan}" render "${graph}" --algo naive -o "${tmp}/naive.svg"
expect_rc 1 "${memplan}" render "${tmp}/overlap.json" -o "${tmp}/overlap.svg"
expect_in 'fill="#d62728"' "${tmp}/overlap.svg"
expect_rc 2 "${memplan}" render "${tmp}/missing.pte" -o "${tmp}/m.svg"
/usr/bin/python3 -c '
import sys, xml.etree.ElementTree as ET
for p in sys.argv[1:]:
    ET.parse(p)
' "${tmp}/a.svg" "${tmp}/naive.svg" "${tmp}/overlap.svg" || fail "render XML"

# 6. check's command line: --help, bad arguments exit 2 naming the problem;
# --algos (the older spelling) and --algo choose the same algorithms.
cnn="examples/graphs/small_cnn.graph"
expect_help check "Usage: memplan check [OPTIONS] [PATH...]"
expect_in "--algo NAME[,NAME...]" "${tmp}/out"
expect_usage_error check "${cnn}" --bogus
expect_in "unknown option '--bogus'" "${tmp}/err"
expect_usage_error check "${cnn}" --report
expect_in "--report: 1 required DIR missing" "${tmp}/err"
expect_usage_error check "${cnn}" --alias-op
expect_in "--alias-op: 1 required NAME missing" "${tmp}/err"
expect_usage_error check "${cnn}" --exact-seconds 0
expect_in "--exact-seconds: must be a positive number" "${tmp}/err"
expect_usage_error check "${cnn}" --exact-nodes -1
expect_in "--exact-nodes: must be a number of nodes (0, 1, 2, ...), not '-1'" \
  "${tmp}/err"
expect_usage_error check "${cnn}" --algo greedy,nope
expect_in "--algo: unknown algorithm 'nope'" "${tmp}/err"
expect_usage_error check "${cnn}" --algos ,
expect_in "--algos: needs an algorithm name" "${tmp}/err"
expect_usage_error check "${cnn}" --algo greedy --algos naive
expect_in "--algos: is the older spelling of --algo" "${tmp}/err"
mkdir -p "${tmp}/empty"
expect_usage_error check "${tmp}/empty"
expect_in "no inputs found" "${tmp}/err"
expect_rc 0 "${memplan}" check --json --no-times --algo greedy,naive "${cnn}"
cp "${tmp}/out" "${tmp}/algo.json"
expect_in '"greedy"' "${tmp}/algo.json"
expect_rc 0 "${memplan}" check --json --no-times --algos greedy,naive "${cnn}"
cmp -s "${tmp}/out" "${tmp}/algo.json" || fail "--algos differs from --algo"
# A repeatable option takes one value: the path after it stays a path.
expect_rc 0 "${memplan}" check --no-times --alias-op my::view "${cnn}"
expect_in "OK: 1 input(s)" "${tmp}/out"

# 7. render's command line: nothing is drawn on a usage error.
expect_help render "Usage: memplan render [OPTIONS] FILE"
rm -f "${tmp}/u.svg"
expect_usage_error render "${graph}" -o "${tmp}/u.svg" --bogus
expect_in "unknown option '--bogus'" "${tmp}/err"
expect_usage_error render "${graph}" -o
expect_in "--output: 1 required PLAN.svg missing" "${tmp}/err"
expect_usage_error render "${graph}" -o "${tmp}/u.svg" --algo
expect_in "--algo: 1 required NAME missing" "${tmp}/err"
expect_usage_error render "${graph}" -o "${tmp}/u.svg" --algo nope
expect_in "--algo: unknown algorithm 'nope'" "${tmp}/err"
expect_usage_error render "${graph}" -o "${tmp}/u.svg" --algo suite
expect_in "--algo: takes one algorithm, not 'suite'" "${tmp}/err"
expect_usage_error render "${graph}"
expect_in "--output is required" "${tmp}/err"
expect_usage_error render -o "${tmp}/u.svg"
expect_in "FILE is required" "${tmp}/err"
expect_usage_error render "${graph}" "${cnn}" -o "${tmp}/u.svg"
expect_in "unexpected argument '${cnn}'" "${tmp}/err"
[[ -e "${tmp}/u.svg" ]] && fail "render wrote an SVG on a usage error"
expect_rc 0 "${memplan}" render "${graph}" --algos naive -o "${tmp}/u.svg"
cmp -s "${tmp}/u.svg" "${tmp}/naive.svg" || fail "--algos differs from --algo"

finish
