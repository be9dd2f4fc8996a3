// Runs several algorithms on one partition and keeps the lowest plan, like
// ExecuTorch's MemoryPlanningAlgorithmSuite, reporting every member.
#pragma once

#include <string>
#include <vector>

#include "planner/algorithm.h"
#include "runtime/core/result.h"

namespace memplan {
namespace planner {

struct SuiteMemberResult {
  std::string name;
  uint64_t height = 0;
  bool proven_optimal = false;
  // No plan is lower (Placement::lower_bound): exact algorithms prove it;
  // 0 from the others.
  uint64_t lower_bound = 0;
  double seconds = 0;  // Wall time of this member's Place().
};

struct SuiteResult {
  // The lowest plan; the earliest member on ties. Its lower_bound is the
  // highest any member proved (up to its height), and it is proven optimal
  // where that reaches its height: exact proving a height best_fit reached
  // first proves best_fit's plan.
  Placement best;
  std::string best_name;
  std::vector<SuiteMemberResult> members;  // In the order of `names`.
};

// Errors on an empty or unknown name, or on the first member's error.
Result<SuiteResult> RunSuite(const std::vector<std::string>& names,
                             const std::vector<PlanItem>& items,
                             const AlgorithmOptions& options);

}  // namespace planner
}  // namespace memplan
