// The planner's result: plain data, one record per tensor and per buffer.
// The oracle's adapter reads this type; keep it free of behaviour.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "planner/algorithm.h"
#include "planner/spec.h"
#include "runtime/core/device.h"
#include "runtime/core/lifetime.h"

namespace memplan {
namespace planner {

struct TensorAllocation {
  std::string name;
  int32_t value_id = 0;  // Index into Graph::tensors() (and ET12 values).
  SpecKind kind = SpecKind::kPlain;
  bool planned = false;    // false: no mem_id/offset (constant, unbound...).
  uint32_t mem_id = 0;     // >= 1 when planned.
  uint64_t offset = 0;     // Bytes from the start of buffer mem_id.
  uint64_t size = 0;       // Bytes of the tensor itself (without padding).
  Lifetime lifetime;       // [first, last], inclusive node indices.
  Device device;           // Views / in-place: their root's device.
  uint64_t alignment = 1;  // The offset is a multiple of it.
  std::optional<std::string> alias_of;  // Root tensor of a view / in-place.
};

struct BufferInfo {
  uint32_t mem_id = 0;  // >= 1; buffers[i].mem_id == i + 1.
  uint64_t size = 0;    // Bytes, padding included; 0 for an unused id.
  Device device;
  // Most bytes live at one time, each tensor rounded up to its alignment
  // (the oracle's bound counts raw bytes); "lower_bound" in the CLI table.
  uint64_t aligned_lower_bound = 0;
};

struct AlgorithmStats {
  std::string name;
  uint64_t total_bytes = 0;     // Sum of buffer sizes with this algorithm.
  bool proven_optimal = false;  // Every partition proven optimal.
  double seconds = 0;
  std::string error;  // Non-empty when the algorithm failed.
};

struct PlanResult {
  std::string graph_name;
  std::string algorithm;  // The one whose plan this is (smallest total).
  std::vector<TensorAllocation> tensors;   // Graph::tensors() order.
  std::vector<BufferInfo> buffers;         // mem_id 1..N; 0 is reserved.
  std::vector<AlgorithmStats> algorithms;  // Every algorithm tried.

  uint64_t total_bytes() const {
    uint64_t total = 0;
    for (const BufferInfo& buffer : buffers) total += buffer.size;
    return total;
  }
};

}  // namespace planner
}  // namespace memplan
