#include "planner/suite.h"

#include <algorithm>
#include <chrono>
#include <memory>

namespace memplan {
namespace planner {

Result<SuiteResult> RunSuite(const std::vector<std::string>& names,
                             const std::vector<PlanItem>& items,
                             const AlgorithmOptions& options) {
  if (names.empty()) {
    return Error(ErrorCode::kInvalidArgument, "suite: no algorithm named");
  }
  SuiteResult suite;
  for (size_t k = 0; k < names.size(); ++k) {
    std::unique_ptr<Algorithm> algorithm = MakeAlgorithm(names[k]);
    if (algorithm == nullptr) {
      return Error(ErrorCode::kNotFound, "suite: names[" + std::to_string(k) +
                                             "] = \"" + names[k] +
                                             "\" is not an algorithm");
    }
    const auto start = std::chrono::steady_clock::now();
    Result<Placement> placement = algorithm->Place(items, options);
    const std::chrono::duration<double> spent =
        std::chrono::steady_clock::now() - start;
    if (!placement.ok()) return placement.error();
    suite.members.push_back({names[k], placement->height,
                             placement->proven_optimal, placement->lower_bound,
                             spent.count()});
    if (k == 0 || placement->height < suite.best.height) {
      suite.best = std::move(*placement);
      suite.best_name = names[k];
    }
  }
  for (const SuiteMemberResult& member : suite.members) {
    suite.best.lower_bound =
        std::max(suite.best.lower_bound,
                 std::min(member.lower_bound, suite.best.height));
  }
  suite.best.proven_optimal =
      suite.best.proven_optimal || suite.best.height <= suite.best.lower_bound;
  return suite;
}

}  // namespace planner
}  // namespace memplan
