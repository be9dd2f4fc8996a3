// Invariant: every spec kind carries its device through emit ->
// Program::Load -> program_plan: the device of each tensor in the file ==
// its device in the graph == its root base's device, for views of views
// and in-place chains too.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "planner/memory_planner.h"
#include "properties/generators.h"
#include "properties/plan_checks.h"

namespace memplan {
namespace properties {
namespace {

// Depth of an alias chain: 0 for owning kinds, 2 for a view of a view.
int AliasDepth(const planner::Graph& graph, planner::ValueId id) {
  int depth = 0;
  while (std::optional<planner::ValueId> base = graph.tensor(id).base()) {
    id = *base;
    ++depth;
  }
  return depth;
}

RC_GTEST_PROP(DeviceIndexProperty, EverySpecKindKeepsItsDeviceThroughTheFile,
              ()) {
  const planner::Graph graph = *GenGraph();
  planner::PlanOptions options = *GenPlanOptions({"greedy"});
  options.device_planning = true;
  Result<planner::PlanResult> result = planner::PlanGraph(graph, options);
  RC_ASSERT(result.ok());
  int deepest = 0;
  bool on_cuda1 = false;
  for (size_t i = 0; i < graph.tensors().size(); ++i) {
    deepest = std::max(deepest, AliasDepth(graph, static_cast<int32_t>(i)));
    on_cuda1 |= graph.DeviceOf(static_cast<int32_t>(i)) == Device::Cuda(1);
  }
  RC_CLASSIFY(deepest >= 2, "view of a view / in-place chain");
  RC_CLASSIFY(on_cuda1, "cuda:1");

  PlannedGraphVerdict verdict = CheckPlannedGraph(graph, *result, options);
  RC_ASSERT(verdict.pipeline_error.empty());
  if (!verdict.device_mismatches.empty()) RC_FAIL(verdict.Describe());
  RC_ASSERT(verdict.planner_report.count(ViolationCode::kDeviceInfo) == 0u);
  RC_ASSERT(verdict.program_report.count(ViolationCode::kDeviceInfo) == 0u);
  // The oracle's plan read from the file names the same devices.
  for (const Allocation& a : verdict.program_plan.allocations) {
    const planner::ValueId id = std::stoi(a.id.substr(1));
    RC_ASSERT(a.device.has_value());
    RC_ASSERT(*a.device == graph.DeviceOf(id));
    RC_ASSERT(*a.device == graph.DeviceOf(graph.RootOf(id)));
  }
}

// Legacy mode (ExecuTorch's default): everything is CPU:0 in the file.
RC_GTEST_PROP(DeviceIndexProperty, WithoutDevicePlanningEverythingIsCpu, ()) {
  const planner::Graph graph = *GenGraph();
  planner::PlanOptions options = *GenPlanOptions({"greedy"});
  options.device_planning = false;
  Result<planner::PlanResult> result = planner::PlanGraph(graph, options);
  RC_ASSERT(result.ok());
  PlannedGraphVerdict verdict = CheckPlannedGraph(graph, *result, options);
  RC_ASSERT(verdict.pipeline_error.empty());
  if (!verdict.device_mismatches.empty()) RC_FAIL(verdict.Describe());
  for (const Allocation& a : verdict.program_plan.allocations) {
    RC_ASSERT(a.device == std::optional<Device>(Device::Cpu()));
  }
  RC_ASSERT(verdict.program_plan.device_map.empty());
}

}  // namespace
}  // namespace properties
}  // namespace memplan
