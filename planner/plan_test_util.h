// Test-only helpers: judge a PlanResult with the oracle, so each planner
// test asserts validity, not only the numbers it targets.
#pragma once

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "planner/graph.h"
#include "planner/graph_format.h"
#include "planner/plan_result.h"
#include "properties/check.h"
#include "properties/planner_plan.h"

namespace memplan {
namespace planner {
namespace testing {

// One line per broken invariant, as the oracle (properties/check.h) words
// it: planner tests judge their plans with the one Check there is.
inline std::vector<std::string> PlanViolations(const PlanResult& plan) {
  Result<properties::Plan> judged = properties::PlanFromPlannerResult(plan);
  if (!judged.ok()) return {"not a plan: " + judged.error().ToString()};
  std::vector<std::string> violations;
  for (const properties::Violation& v : properties::Check(*judged).violations) {
    violations.push_back(v.message);
  }
  return violations;
}

// The tensor named `name`; a missing one fails the test (a typo must not
// pass as a default-constructed allocation).
inline const TensorAllocation& Find(const PlanResult& plan,
                                    const std::string& name) {
  for (const TensorAllocation& t : plan.tensors) {
    if (t.name == name) return t;
  }
  ADD_FAILURE() << "no tensor named '" << name << "' in the plan";
  static const TensorAllocation kMissing{};
  return kMissing;
}

// Parses a graph that a test wrote by hand; an error here is a test bug.
inline Graph MustParse(const std::string& text) {
  Result<Graph> graph = ParseGraph(text);
  if (!graph.ok()) {
    ADD_FAILURE() << "test graph does not parse: " << graph.error().ToString();
    return Graph("unparsed");
  }
  return std::move(*graph);
}

}  // namespace testing
}  // namespace planner
}  // namespace memplan
