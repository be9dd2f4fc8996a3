// A toy planner outside memplan: first fit in time order. memplan's oracle
// judges its plan, then memplan's suite shows what it could have saved.
#include <cstdio>
#include <string>
#include <vector>

#include "properties/oracle.h"

namespace oracle = memplan::oracle;

int main() {
  oracle::Problem problem;
  // id, [lower, upper), size, alignment.
  problem.buffers = {{"a", 0, 0, 3, 48, 16},
                     {"b", 0, 1, 4, 32, 16},
                     {"c", 0, 3, 6, 64, 16},
                     {"d", 0, 4, 6, 16, 16}};
  // "My" planner: everything side by side (no reuse).
  oracle::Solution mine;
  for (const oracle::ProblemBuffer& b : problem.buffers) {
    mine.offsets.push_back(mine.height);
    mine.height += b.size;
  }
  memplan::Result<oracle::Plan> plan = oracle::PlanOfSolution(problem, mine);
  if (!plan.ok()) {
    std::fprintf(stderr, "%s\n", plan.error().ToString().c_str());
    return 2;
  }
  oracle::Report report = oracle::Check(*plan);
  std::printf("%s", oracle::FormatText(report).c_str());
  memplan::Result<oracle::Solution> best = oracle::Solve(problem, "suite");
  if (!best.ok()) {
    std::fprintf(stderr, "%s\n", best.error().ToString().c_str());
    return 2;
  }
  std::printf("my planner: %llu bytes; memplan %s: %llu bytes\n",
              static_cast<unsigned long long>(mine.height),
              best->algorithm.c_str(),
              static_cast<unsigned long long>(best->height));
  return report.ok() ? 0 : 1;
}
