// Metamorphic invariants: adding a CPU tensor never changes a device
// buffer or a device tensor's place; swapping cuda:0 and cuda:1 everywhere
// keeps the multiset of buffer sizes per device type.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "planner/memory_planner.h"
#include "properties/generators.h"

namespace memplan {
namespace properties {
namespace {

// name -> (device, offset, size of its buffer) for every device tensor.
std::map<std::string, std::tuple<Device, uint64_t, uint64_t>> DevicePlaces(
    const planner::PlanResult& result) {
  std::map<std::string, std::tuple<Device, uint64_t, uint64_t>> places;
  for (const planner::TensorAllocation& t : result.tensors) {
    if (!t.planned || t.device.is_cpu()) continue;
    places[t.name] = {t.device, t.offset, result.buffers.at(t.mem_id - 1).size};
  }
  return places;
}

planner::PlanOptions HeuristicOptions() {
  planner::PlanOptions options =
      *GenPlanOptions({"naive", "greedy", "best_fit"});
  options.device_planning = true;
  return options;
}

RC_GTEST_PROP(MetamorphicProperty, AddingACpuTensorKeepsDeviceBuffers, ()) {
  const planner::Graph graph = *GenGraph();
  const planner::Graph more =
      AddCpuTensor(graph, *rc::gen::inRange<uint32_t>(0, 1000), *GenShape(64));
  const planner::PlanOptions options = HeuristicOptions();
  Result<planner::PlanResult> before = planner::PlanGraph(graph, options);
  Result<planner::PlanResult> after = planner::PlanGraph(more, options);
  RC_ASSERT(before.ok() && after.ok());
  RC_ASSERT(DevicePlaces(*before) == DevicePlaces(*after));
}

std::map<DeviceType, std::vector<uint64_t>> SizesPerType(
    const planner::PlanResult& result) {
  std::map<DeviceType, std::vector<uint64_t>> sizes;
  for (const planner::BufferInfo& b : result.buffers) {
    sizes[b.device.type].push_back(b.size);
  }
  for (auto& [type, list] : sizes) std::sort(list.begin(), list.end());
  return sizes;
}

RC_GTEST_PROP(MetamorphicProperty, SwappingCudaIndicesKeepsBufferSizes, ()) {
  const planner::Graph graph = *GenGraph();
  const planner::Graph swapped =
      RelabelDevices(graph, Device::Cuda(0), Device::Cuda(1));
  const planner::PlanOptions options = HeuristicOptions();
  Result<planner::PlanResult> a = planner::PlanGraph(graph, options);
  Result<planner::PlanResult> b = planner::PlanGraph(swapped, options);
  RC_ASSERT(a.ok() && b.ok());
  RC_ASSERT(SizesPerType(*a) == SizesPerType(*b));
  RC_ASSERT(a->total_bytes() == b->total_bytes());
  // And the swap really moved something when there was something to move.
  for (const planner::TensorAllocation& t : b->tensors) {
    if (t.device.is_cpu()) continue;
    const Device original = a->tensors[t.value_id].device;
    RC_ASSERT(original.index == 1 - t.device.index);
  }
}

}  // namespace
}  // namespace properties
}  // namespace memplan
