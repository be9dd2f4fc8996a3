#!/usr/bin/env bash
# End-to-end: `memplan plan` on graphs and on programs (re-planning), with
# exit codes, the refusal of a larger plan, --help and bad arguments.
set -uo pipefail
memplan="$1"
graphs="$2"
pte_dir="${TEST_SRCDIR:-/nonexistent}/shared_data/data/pte"
source "$(dirname "$0")/test_lib.sh"

# A graph planned wastefully (naive: one place per tensor), on two devices.
expect_rc 0 "${memplan}" plan "${graphs}/multi_device.graph" --algo naive \
  -o "${tmp}/naive.pte"
[[ -s "${tmp}/naive.pte" ]] || fail "naive.pte not written"

# Re-planned: smaller, per device, written, valid.
expect_rc 0 "${memplan}" plan "${tmp}/naive.pte" -o "${tmp}/replanned.pte"
expect_in "cuda:1" "${tmp}/out"
expect_in "multi_fit" "${tmp}/out"
expect_in "saved" "${tmp}/out"
expect_in "wrote ${tmp}/replanned.pte" "${tmp}/out"
expect_rc 0 "${memplan}" verify "${tmp}/replanned.pte"
expect_in "valid: no violations" "${tmp}/out"

# Without -o nothing is written; a program is known by its magic too.
cp "${tmp}/naive.pte" "${tmp}/program.bin"
expect_rc 0 "${memplan}" plan "${tmp}/program.bin" --algo best_fit
expect_in "nothing written" "${tmp}/out"
expect_in "best_fit" "${tmp}/out"

# A larger plan is refused (exit 1, no file) unless asked.
rm -f "${tmp}/larger.pte"
expect_rc 1 "${memplan}" plan "${tmp}/replanned.pte" --algo naive \
  -o "${tmp}/larger.pte"
expect_in "would grow" "${tmp}/err"
expect_in "--allow-larger" "${tmp}/err"
[[ -e "${tmp}/larger.pte" ]] && fail "a refused plan was written"
expect_rc 0 "${memplan}" plan "${tmp}/replanned.pte" --algo naive \
  --allow-larger -o "${tmp}/larger.pte"
[[ -s "${tmp}/larger.pte" ]] || fail "--allow-larger wrote nothing"
expect_rc 0 "${memplan}" verify "${tmp}/larger.pte"

# Alignment: control_flow has tensors whose offsets at 16 are no multiples
# of 4096; at --align 4096 every offset is.
off4096() {
  awk '$1 ~ /^[0-9]+$/ && NF >= 6 && $(NF-2) ~ /^[0-9]+$/ {
         n++; if ($(NF-2) % 4096 != 0) bad++ }
       END { if (n == 0) print "none"; else print bad + 0 }' "$1"
}
expect_rc 0 "${memplan}" plan "${graphs}/control_flow.graph" --algo naive \
  -o "${tmp}/cf.pte"
expect_rc 0 "${memplan}" plan "${tmp}/cf.pte" -o "${tmp}/cf16.pte"
expect_rc 0 "${memplan}" inspect "${tmp}/cf16.pte"
[[ "$(off4096 "${tmp}/out")" =~ ^[1-9] ]] || fail "no offset off 4096 at 16"
expect_rc 0 "${memplan}" plan "${tmp}/cf.pte" --align 4096 --allow-larger \
  -o "${tmp}/cf4096.pte"
expect_rc 0 "${memplan}" inspect "${tmp}/cf4096.pte"
[[ "$(off4096 "${tmp}/out")" == 0 ]] || fail "--align 4096 not honoured"
expect_rc 0 "${memplan}" verify "${tmp}/cf4096.pte"

# A MiniMalloc CSV problem: 6 bytes live at every step, but no plan under
# 7 (planner/exact_test.cc, ProvesAGapThatNoAlignmentCauses); exact proves
# it within its budget, and the solution written verifies.
printf '%s\n' id,lower,upper,size a,0,3,1 b,1,4,1 c,2,5,1 d,0,1,5 e,1,2,4 \
  f,2,3,3 g,3,4,4 h,4,5,5 >"${tmp}/gap.csv"
expect_rc 0 "${memplan}" plan --csv "${tmp}/gap.csv" --algo best_fit,exact \
  --exact-seconds 30 -o "${tmp}/gap.solution.csv"
expect_in "8 buffers, lower bound 6" "${tmp}/out"
expect_in "ratio 1.167 optimal" "${tmp}/out"
expect_in "wrote ${tmp}/gap.solution.csv (best: best_fit, height 7)" \
  "${tmp}/out"
expect_rc 0 "${memplan}" verify "${tmp}/gap.solution.csv"
expect_in "valid: no violations" "${tmp}/out"

# A node budget: enough to prove it, and none (the seeds' plan, unproven).
expect_rc 0 "${memplan}" plan --csv "${tmp}/gap.csv" --algo exact \
  --exact-nodes 1000
expect_in "ratio 1.167 optimal" "${tmp}/out"
expect_rc 0 "${memplan}" plan --csv "${tmp}/gap.csv" --algo exact \
  --exact-nodes 0
expect_in "no plan below 6 (ratio 1.000)" "${tmp}/out"

# Two of them one after another in time: two parts, each placed apart
# (planner/time_parts.h), both proven at 7.
printf '%s\n' id,lower,upper,size a,0,3,1 b,1,4,1 c,2,5,1 d,0,1,5 e,1,2,4 \
  f,2,3,3 g,3,4,4 h,4,5,5 a2,10,13,1 b2,11,14,1 c2,12,15,1 d2,10,11,5 \
  e2,11,12,4 f2,12,13,3 g2,13,14,4 h2,14,15,5 >"${tmp}/gap2.csv"
expect_rc 0 "${memplan}" plan --csv "${tmp}/gap2.csv" --algo exact \
  --exact-nodes 100000 -o "${tmp}/gap2.solution.csv"
expect_in "16 buffers, lower bound 6; 2 parts in time" "${tmp}/out"
expect_in "ratio 1.167 optimal" "${tmp}/out"
expect_rc 0 "${memplan}" verify "${tmp}/gap2.solution.csv"
expect_in "valid: no violations" "${tmp}/out"

# At a capacity (MiniMalloc's --capacity), a decision, exact's by default:
# 7 fits, and the solution is written; 6 does not (proven: no plan below 7,
# exit 1, nothing written); under the live bytes nothing is searched. A
# graph's capacity names its device; a CSV's is one byte count.
expect_rc 0 "${memplan}" plan --csv "${tmp}/gap.csv" --capacity 7 \
  -o "${tmp}/gap.cap7.csv"
expect_in "exact     height              7" "${tmp}/out"
expect_in "capacity 7: fits (exact, height 7)" "${tmp}/out"
expect_rc 0 "${memplan}" verify "${tmp}/gap.cap7.csv"
expect_rc 1 "${memplan}" plan --csv "${tmp}/gap.csv" --capacity 6 \
  --exact-seconds 30 -o "${tmp}/gap.cap6.csv"
expect_in "capacity 6: does not fit (no plan is below 7)" "${tmp}/out"
expect_in "no solution written" "${tmp}/err"
[[ ! -e "${tmp}/gap.cap6.csv" ]] || fail "a plan over the capacity written"
expect_rc 1 "${memplan}" plan --csv "${tmp}/gap2.csv" --capacity 5
expect_in "capacity 5: does not fit (no plan is below 6)" "${tmp}/out"
expect_rc 1 "${memplan}" plan --csv "${tmp}/gap.csv" --capacity 6 \
  --algo best_fit
expect_in "capacity 6: no plan within it found (the lowest 7), and none ruled out; --algo exact searches for one" \
  "${tmp}/out"
expect_usage_error plan --csv "${tmp}/gap.csv" --capacity cpu=7
expect_in "a CSV problem has one arena: --capacity BYTES, once (not 'cpu=7')" \
  "${tmp}/err"
expect_usage_error plan --csv "${tmp}/gap.csv" --capacity 7 --capacity 8
expect_in "a CSV problem has one arena" "${tmp}/err"
expect_usage_error plan --csv "${tmp}/gap.csv" --capacity 0
expect_in "--capacity 0: an arena of no bytes" "${tmp}/err"
expect_usage_error plan "${graphs}/small_cnn.graph" --capacity 4096
expect_in "a graph's capacities name their device (e.g. cpu=4096)" \
  "${tmp}/err"

# Bad arguments and bad inputs: exit 2 with a message.
expect_usage_error plan --csv "${tmp}/gap.csv" --exact-nodes 1.5
expect_in "--exact-nodes: must be a number of nodes (0, 1, 2, ...), not '1.5'" \
  "${tmp}/err"
expect_usage_error plan --csv "${tmp}/gap.csv" --exact-seconds 0
expect_in "--exact-seconds: must be a positive number of seconds, not '0'" \
  "${tmp}/err"
expect_usage_error plan "${tmp}/naive.pte" --padding 4
expect_in "--padding applies to graphs" "${tmp}/err"
expect_usage_error plan "${tmp}/naive.pte" --no-plan-inputs --capacity cpu=64
expect_in "--no-plan-inputs applies to graphs" "${tmp}/err"
expect_usage_error plan "${tmp}/naive.pte" --align 3
expect_in "power of two" "${tmp}/err"
expect_usage_error plan "${tmp}/naive.pte" --algo
expect_in "--algo: 1 required NAME[,NAME...] missing" "${tmp}/err"
expect_usage_error plan "${tmp}/naive.pte" --algo no_such_algo
expect_in "--algo: unknown algorithm 'no_such_algo' (known: naive," "${tmp}/err"
expect_usage_error plan "${graphs}/small_cnn.graph" --allow-larger
expect_in "--allow-larger applies to programs" "${tmp}/err"
expect_usage_error plan "${graphs}/small_cnn.graph" --bogus
expect_in "unknown option '--bogus'" "${tmp}/err"
expect_usage_error plan "${graphs}/small_cnn.graph" -o
expect_in "--output: 1 required FILE missing" "${tmp}/err"
expect_usage_error plan --csv
expect_in "--csv: 1 required PROBLEM.csv missing" "${tmp}/err"
expect_usage_error plan "${graphs}/small_cnn.graph" --padding -1
expect_in "--padding: must be a byte count" "${tmp}/err"
expect_usage_error plan "${graphs}/small_cnn.graph" --capacity cpu=lots
expect_in "--capacity: capacity 'cpu=lots'" "${tmp}/err"
expect_usage_error plan "${graphs}/small_cnn.graph" "${graphs}/control_flow.graph"
expect_in "unexpected argument '${graphs}/control_flow.graph'" "${tmp}/err"
expect_usage_error plan "${graphs}/small_cnn.graph" --csv "${tmp}/p.csv"
expect_in "more than one input" "${tmp}/err"
expect_rc 2 "${memplan}" plan "${tmp}/missing.pte"
printf 'not a program at all' >"${tmp}/junk.pte"
expect_rc 2 "${memplan}" plan "${tmp}/junk.pte"
expect_usage_error plan
expect_in "no input graph or --csv file" "${tmp}/err"
expect_help plan "Usage: memplan plan [OPTIONS] [INPUT]"
expect_in "PROGRAM.pte|PROGRAM.bpte" "${tmp}/out"

# --algos, the older spelling, plans the same; not both at once.
expect_rc 0 "${memplan}" plan "${graphs}/multi_device.graph" --algos naive \
  -o "${tmp}/naive_algos.pte"
cmp -s "${tmp}/naive.pte" "${tmp}/naive_algos.pte" ||
  fail "--algos naive differs from --algo naive"
expect_usage_error plan "${graphs}/small_cnn.graph" --algo naive --algos greedy
expect_in "--algos: is the older spelling of --algo" "${tmp}/err"

# The real programs in ../shared/data, where present.
if [[ -d "${pte_dir}" ]]; then
  for f in "${pte_dir}"/*.pte "${pte_dir}"/*.bpte; do
    [[ -e "$f" ]] || continue
    out="${tmp}/real_$(basename "$f").pte"
    expect_rc 0 "${memplan}" plan "$f" -o "${out}"
    expect_rc 0 "${memplan}" verify "${out}"
  done
fi

finish
