// Generated planning workloads shaped like exported models: mostly
// short-lived activations, some long-lived tensors (skip connections,
// inputs, outputs), sizes log-uniform.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "planner/algorithm.h"

namespace memplan {
namespace bench {

struct WorkloadShape {
  size_t items = 1000;
  uint64_t seed = 1;
  double long_lived_fraction = 0.05;  // Live for up to a quarter of the run.
  double whole_run_fraction = 0.005;  // Live from first to last position.
  uint64_t min_size = 64;             // Sizes log-uniform in [min, max].
  uint64_t max_size = 4 << 20;
  uint64_t alignment = 16;  // ExecuTorch's default; sizes padded.
};

// Deterministic for a given shape. About two items start per position.
std::vector<planner::PlanItem> ModelLikeWorkload(const WorkloadShape& shape);

// No model's shape: `items` lifetimes starting uniformly over 2 x items
// positions, each 1 to 500 positions long (about 125 live at a time, none
// for the whole run), sizes log-uniform in [64 B, 1 MiB] padded to 16.
// Best fit finds holes below the top nearly everywhere here, so nearly
// every item searches its occupancy sets. Deterministic in (items, seed).
std::vector<planner::PlanItem> UniformWorkload(size_t items, uint64_t seed);

}  // namespace bench
}  // namespace memplan
