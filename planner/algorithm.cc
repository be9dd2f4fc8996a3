#include "planner/algorithm.h"

#include "planner/best_fit.h"
#include "planner/exact.h"
#include "planner/greedy.h"
#include "planner/multi_fit.h"
#include "planner/naive.h"

namespace memplan {
namespace planner {

std::unique_ptr<Algorithm> MakeAlgorithm(const std::string& name) {
  if (name == "naive") return std::make_unique<NaiveAlgorithm>();
  if (name == "greedy") return std::make_unique<GreedyAlgorithm>();
  if (name == "best_fit") return std::make_unique<BestFitAlgorithm>();
  if (name == "multi_fit") return std::make_unique<MultiFitAlgorithm>();
  if (name == "exact") return std::make_unique<ExactAlgorithm>();
  return nullptr;
}

std::vector<std::string> AlgorithmNames() {
  return {"naive", "greedy", "best_fit", "multi_fit", "exact"};
}

}  // namespace planner
}  // namespace memplan
