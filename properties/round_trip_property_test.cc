// Invariants: plan -> emit -> parse -> Plan is the same plan (mem_id,
// offset, size, device per tensor); planning is deterministic (same graph,
// same plan, byte-identical program), also through the graph text format.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "planner/emitter.h"
#include "planner/graph_format.h"
#include "planner/memory_planner.h"
#include "properties/generators.h"
#include "properties/plan_checks.h"

namespace memplan {
namespace properties {
namespace {

RC_GTEST_PROP(RoundTripProperty, PlanReadBackFromTheFileIsThePlan, ()) {
  const planner::Graph graph = *GenGraph();
  const planner::PlanOptions options =
      *GenPlanOptions({"naive", "greedy", "best_fit", "exact"});
  Result<planner::PlanResult> result = planner::PlanGraph(graph, options);
  RC_ASSERT(result.ok());
  PlannedGraphVerdict verdict = CheckPlannedGraph(graph, *result, options);
  RC_ASSERT(verdict.pipeline_error.empty());
  if (!verdict.round_trip_mismatches.empty()) RC_FAIL(verdict.Describe());
  RC_ASSERT(verdict.program_plan.allocations.size() ==
            verdict.planner_plan.allocations.size());
  RC_ASSERT(verdict.program_plan.buffers.size() == result->buffers.size());
  for (size_t b = 0; b < result->buffers.size(); ++b) {
    RC_ASSERT(verdict.program_plan.buffers[b].size ==
              static_cast<Offset>(result->buffers[b].size));
    RC_ASSERT(verdict.program_plan.buffers[b].device ==
              result->buffers[b].device);
  }
}

RC_GTEST_PROP(RoundTripProperty, SameGraphGivesByteIdenticalPrograms, ()) {
  const planner::Graph graph = *GenGraph();
  const planner::PlanOptions options =
      *GenPlanOptions({"naive", "greedy", "best_fit", "exact"});
  Result<planner::PlanResult> first = planner::PlanGraph(graph, options);
  Result<planner::PlanResult> second = planner::PlanGraph(graph, options);
  RC_ASSERT(first.ok() && second.ok());
  Result<std::vector<uint8_t>> a = planner::EmitProgram(graph, *first);
  Result<std::vector<uint8_t>> b = planner::EmitProgram(graph, *second);
  RC_ASSERT(a.ok() && b.ok());
  RC_ASSERT(*a == *b);
  // The text format loses nothing the planner uses.
  Result<planner::Graph> reparsed =
      planner::ParseGraph(planner::FormatGraph(graph));
  if (!reparsed.ok()) RC_FAIL(reparsed.error().ToString());
  Result<planner::PlanResult> third = planner::PlanGraph(*reparsed, options);
  RC_ASSERT(third.ok());
  Result<std::vector<uint8_t>> c = planner::EmitProgram(*reparsed, *third);
  RC_ASSERT(c.ok());
  RC_ASSERT(*a == *c);
}

}  // namespace
}  // namespace properties
}  // namespace memplan
