// Device-aware memory planning of a Graph: partition by (pool, device), run
// the placement algorithm(s) per partition, number the buffers, check
// per-device capacity.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "planner/algorithm.h"
#include "planner/graph.h"
#include "planner/lifetimes.h"
#include "planner/plan_result.h"
#include "runtime/core/result.h"

namespace memplan {
namespace planner {

struct PlanOptions {
  // One name, or several for a suite: each runs, the smallest total wins.
  std::vector<std::string> algorithms = {"greedy"};
  uint64_t alignment = 16;      // Global; a spec's own alignment may raise it.
  uint64_t buffer_padding = 0;  // Extra bytes at the end of each used buffer.
  // false: ExecuTorch's default, every tensor planned as CPU (legacy mode).
  bool device_planning = true;
  LifetimeOptions lifetimes;
  std::map<Device, uint64_t> capacity;  // Bytes a device may hold in total.
  AlgorithmOptions algorithm_options;
};

// Numbering: buffer 0 is reserved; custom pools keep their mem_id; the
// automatic buffers follow the highest custom pool id, CPU first (only when
// some CPU tensor is planned), then other devices by (type, index).
// Errors: unknown algorithm, a custom pool holding two devices, sizes that
// overflow, a device over its capacity (naming device, needed, available).
Result<PlanResult> PlanGraph(const Graph& graph, const PlanOptions& options);

// "cuda:0=1048576" -> {cuda:0, 1048576}.
Result<std::pair<Device, uint64_t>> ParseCapacity(std::string_view text);

}  // namespace planner
}  // namespace memplan
