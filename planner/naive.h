// Naive placement: every item after the previous one, no reuse. The upper
// bound every other algorithm should beat; equals ExecuTorch's `naive`.
#pragma once

#include <string>
#include <vector>

#include "planner/algorithm.h"

namespace memplan {
namespace planner {

class NaiveAlgorithm : public Algorithm {
 public:
  std::string name() const override { return "naive"; }
  Result<Placement> Place(const std::vector<PlanItem>& items,
                          const AlgorithmOptions& options) const override;
};

}  // namespace planner
}  // namespace memplan
