// Exact placement by branch and bound, after MiniMalloc (google/minimalloc):
// it searches canonical plans only and proves the minimum height, or
// returns the best plan found within AlgorithmOptions' budget.
#pragma once

#include <string>
#include <vector>

#include "planner/algorithm.h"

namespace memplan {
namespace planner {

class ExactAlgorithm : public Algorithm {
 public:
  // Above this many non-empty items the O(n^2) overlap table is not built:
  // the seed plan is returned, proven only if it meets the lower bound.
  static constexpr size_t kMaxSearchItems = 4096;

  std::string name() const override { return "exact"; }
  Result<Placement> Place(const std::vector<PlanItem>& items,
                          const AlgorithmOptions& options) const override;
};

}  // namespace planner
}  // namespace memplan
