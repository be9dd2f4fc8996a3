// Invariant: CPU and device buffers share nothing. No buffer mixes
// devices; each buffer's device in the emitted program matches its
// tensors'; loaded onto CPU + simulated CUDA, every tensor pointer lands in
// an allocation of its own device.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>

#include "planner/memory_planner.h"
#include "properties/generators.h"
#include "properties/plan_checks.h"
#include "runtime/program.h"

namespace memplan {
namespace properties {
namespace {

planner::PlanOptions DevicePlanningOptions() {
  planner::PlanOptions options =
      *GenPlanOptions({"naive", "greedy", "best_fit"});
  options.device_planning = true;
  return options;
}

RC_GTEST_PROP(ZeroSharingProperty, NoBufferMixesDevices, ()) {
  const planner::Graph graph = *GenGraph();
  const planner::PlanOptions options = DevicePlanningOptions();
  Result<planner::PlanResult> result = planner::PlanGraph(graph, options);
  RC_ASSERT(result.ok());
  for (const planner::TensorAllocation& t : result->tensors) {
    if (!t.planned) continue;
    const planner::BufferInfo& buffer = result->buffers.at(t.mem_id - 1);
    RC_ASSERT(buffer.device == t.device);
    RC_ASSERT(t.device == graph.DeviceOf(t.value_id));
  }
  PlannedGraphVerdict verdict = CheckPlannedGraph(graph, *result, options);
  RC_ASSERT(verdict.pipeline_error.empty());
  RC_ASSERT(verdict.planner_report.count(ViolationCode::kCrossDevice) == 0u);
  RC_ASSERT(verdict.program_report.count(ViolationCode::kCrossDevice) == 0u);
  RC_ASSERT(verdict.device_mismatches.empty());
}

RC_GTEST_PROP(ZeroSharingProperty, MethodMetaBufferDevicesMatchTheirTensors,
              ()) {
  const planner::Graph graph = *GenGraph();
  const planner::PlanOptions options = DevicePlanningOptions();
  Result<planner::PlanResult> result = planner::PlanGraph(graph, options);
  RC_ASSERT(result.ok());
  PlannedGraphVerdict verdict = CheckPlannedGraph(graph, *result, options);
  RC_ASSERT(verdict.pipeline_error.empty());
  Result<Program> program =
      Program::Load(verdict.program.data(), verdict.program.size());
  RC_ASSERT(program.ok());
  Result<MethodMeta> meta = program->method_meta(0);
  RC_ASSERT(meta.ok());
  RC_ASSERT(meta->num_memory_planned_buffers() == result->buffers.size());
  for (size_t b = 0; b < result->buffers.size(); ++b) {
    Result<Device> device = meta->memory_planned_buffer_device(b);
    RC_ASSERT(device.ok());
    RC_ASSERT(*device == result->buffers[b].device);
  }
  std::map<uint32_t, Device> device_of_buffer;
  for (const PlannedTensor& t : meta->planned_tensors()) {
    auto [it, inserted] = device_of_buffer.emplace(t.memory_id, t.device);
    RC_ASSERT(it->second == t.device);
  }
}

RC_GTEST_PROP(ZeroSharingProperty, LoadedTensorsLieInTheirOwnDevicesMemory,
              ()) {
  const planner::Graph graph = *GenGraph();
  const planner::PlanOptions options = DevicePlanningOptions();
  Result<planner::PlanResult> result = planner::PlanGraph(graph, options);
  RC_ASSERT(result.ok());
  PlannedGraphVerdict verdict = CheckPlannedGraph(graph, *result, options);
  RC_ASSERT(verdict.pipeline_error.empty());
  Error loaded = CheckLoadedOnOwnDevices(verdict.program);
  if (!loaded.ok()) RC_FAIL(loaded.ToString());
}

}  // namespace
}  // namespace properties
}  // namespace memplan
