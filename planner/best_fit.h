// Decreasing-size best fit over the lifetime/offset plane (TFLite's
// greedy-by-size, XLA's global decreasing-size best fit): largest item
// first, each at the lowest aligned offset free during its whole lifetime.
#pragma once

#include <string>
#include <vector>

#include "planner/algorithm.h"

namespace memplan {
namespace planner {

class BestFitAlgorithm : public Algorithm {
 public:
  std::string name() const override { return "best_fit"; }
  Result<Placement> Place(const std::vector<PlanItem>& items,
                          const AlgorithmOptions& options) const override;
};

}  // namespace planner
}  // namespace memplan
