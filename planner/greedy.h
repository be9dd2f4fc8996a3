// ExecuTorch's `greedy` (exir/memory_planning.py): items largest first, each
// into the first shared object it fits, objects laid out one after another.
#pragma once

#include <string>
#include <vector>

#include "planner/algorithm.h"

namespace memplan {
namespace planner {

class GreedyAlgorithm : public Algorithm {
 public:
  // allow_overlapping_allocations as in ExecuTorch: true by default; Vulkan
  // turns it off.
  explicit GreedyAlgorithm(bool allow_overlapping_allocations = true)
      : allow_overlapping_allocations_(allow_overlapping_allocations) {}

  std::string name() const override { return "greedy"; }
  Result<Placement> Place(const std::vector<PlanItem>& items,
                          const AlgorithmOptions& options) const override;

 private:
  bool allow_overlapping_allocations_;
};

}  // namespace planner
}  // namespace memplan
