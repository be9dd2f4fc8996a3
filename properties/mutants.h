// Known planner bugs, planted as transformations of a correct plan (or of
// the program emitted for it) the way the buggy planner would have
// produced it, so the suite can show that its checks catch each one.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "planner/graph.h"
#include "planner/memory_planner.h"
#include "planner/plan_result.h"
#include "properties/report.h"

namespace memplan {
namespace properties {

struct MutantCase {
  planner::Graph graph;
  planner::PlanOptions options;
};

struct Mutant {
  std::string name;
  ViolationCode expected;  // The oracle code that must report it.
  // true: every case the bug acts on is wrong and must be reported; false:
  // on some graphs the bug is harmless (no tensor reused the bytes a
  // shortened lifetime freed; offsets aligned by chance), so only some.
  bool every_case = true;
  // true: some check (not necessarily the expected code) flags every case
  // the bug acts on; false for bugs that can be harmless on a graph.
  bool always_flagged = true;
  // Turns a correct plan into the buggy one; may also replace the program
  // bytes (left empty: emit from the plan). false: this case gives the bug
  // nothing to act on.
  std::function<bool(const MutantCase&, planner::PlanResult*,
                     std::vector<uint8_t>* program)>
      apply;
  // Where its cases come from.
  std::function<std::vector<MutantCase>()> cases;
};

// view_drops_device, partition_ignores_device_index,
// lifetime_end_off_by_one, in_place_at_other_offset, mem_id_off_by_one,
// alignment_ignored, offset_high_bits_dropped.
std::vector<Mutant> PlannerMutants();

// `count` generated graphs from fixed seeds, planned with device planning,
// greedy, alignment 16.
std::vector<MutantCase> GeneratedCases(int count, uint64_t seed);
// Graphs with a buffer over 4 GiB and a tensor placed above 2^32.
std::vector<MutantCase> BigOffsetCases();

struct MutantOutcome {
  int applicable = 0;  // Cases the bug acted on.
  int killed = 0;      // Of those, the ones the expected code reported.
  std::set<std::string> killed_by;  // Checks that fired, across cases.
  // A case no check flagged at all (an equivalent mutant there).
  std::string first_survivor;
  std::string baseline_failure;  // An unmutated plan that was not clean.
};

MutantOutcome RunMutant(const Mutant& mutant);

}  // namespace properties
}  // namespace memplan
