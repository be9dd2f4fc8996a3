// The checks the property suite runs on a planned graph, shared by the
// property tests and the mutant test: the oracle on the planner's plan and
// on the emitted program's plan, device_index through the file, lifetimes
// re-derived from the file, and the plan's round trip through the file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "planner/graph.h"
#include "planner/memory_planner.h"
#include "planner/plan_result.h"
#include "properties/plan.h"
#include "properties/report.h"
#include "runtime/core/result.h"

namespace memplan {
namespace properties {

struct PlannedGraphVerdict {
  Report planner_report;  // Check() on the planner's own plan.
  Report program_report;  // Check() on the plan read back from the file.
  // Emit, Program::Load or an adapter failed; the reports are then empty.
  std::string pipeline_error;
  // A tensor whose device in the file differs from the graph's, from its
  // root's, or from its buffer's in MethodMeta.
  std::vector<std::string> device_mismatches;
  // A tensor whose re-derived lifetime is not inside the planner's, or an
  // alias live outside its root's planned lifetime, or an input, output or
  // mutable buffer whose planned lifetime breaks its kind's rule.
  std::vector<std::string> lifetime_mismatches;
  // A tensor whose mem_id, offset, size or device differ after the trip.
  std::vector<std::string> round_trip_mismatches;
  std::vector<uint8_t> program;  // The emitted bytes.
  Plan planner_plan;             // Ids "v<value id>" in both plans.
  Plan program_plan;

  // No violation, mismatch or pipeline error anywhere.
  bool ok() const;
  // Every finding, one per line, for failure messages.
  std::string Describe() const;
};

// Runs every check on `result`, a plan of `graph` made with `options` (or a
// mutant of one). Never loads memory: sizes only.
PlannedGraphVerdict CheckPlannedGraph(const planner::Graph& graph,
                                      const planner::PlanResult& result,
                                      const planner::PlanOptions& options);
// The same checks on given program bytes, as if EmitProgram had written
// them for `result` (for mutants of the emitter).
PlannedGraphVerdict CheckPlannedProgram(const planner::Graph& graph,
                                        const planner::PlanResult& result,
                                        const planner::PlanOptions& options,
                                        std::vector<uint8_t> program);

// Loads the emitted program onto a CPU allocator and a simulated CUDA
// device (two indices) in a local registry and checks that every tensor's
// [data, data + nbytes) lies in one buffer allocated by its own device's
// allocator, on its device index. Ok, or the first tensor that does not.
Error CheckLoadedOnOwnDevices(const std::vector<uint8_t>& program);

}  // namespace properties
}  // namespace memplan
