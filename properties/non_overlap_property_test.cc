// Invariant: in every buffer, two tensors whose lifetimes overlap never
// share a byte unless one aliases the other; for every algorithm and
// every option set. The oracle's sweep and the all-pairs reference agree.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "planner/algorithm.h"
#include "planner/memory_planner.h"
#include "properties/check.h"
#include "properties/generators.h"
#include "properties/overlap_reference.h"
#include "properties/planner_plan.h"

namespace memplan {
namespace properties {
namespace {

// The oracle's items of every buffer, built here independently of check().
std::vector<std::vector<OverlapItem>> ItemsPerBuffer(const Plan& plan) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < plan.allocations.size(); ++i) {
    index[plan.allocations[i].id] = i;
  }
  std::map<MemId, std::vector<OverlapItem>> items;
  for (size_t i = 0; i < plan.allocations.size(); ++i) {
    const Allocation& a = plan.allocations[i];
    if (a.size == 0) continue;
    size_t family = a.alias_of ? index.at(*a.alias_of) : i;
    items[a.mem_id].push_back({static_cast<uint64_t>(a.offset),
                               static_cast<uint64_t>(a.offset + a.size),
                               a.lifetime.first, a.lifetime.last, family});
  }
  std::vector<std::vector<OverlapItem>> out;
  for (auto& [mem_id, list] : items) out.push_back(std::move(list));
  return out;
}

RC_GTEST_PROP(NonOverlapProperty, NoLiveTensorsShareBytesForEveryAlgorithm,
              ()) {
  GraphGenOptions small;
  small.max_steps = 12;
  const planner::Graph graph = *GenGraph(small);
  for (const std::string& algorithm : planner::AlgorithmNames()) {
    const planner::PlanOptions options = *GenPlanOptions({algorithm});
    Result<planner::PlanResult> result = planner::PlanGraph(graph, options);
    RC_ASSERT(result.ok());
    Result<Plan> plan = PlanFromPlannerResult(*result);
    RC_ASSERT(plan.ok());
    Report report = Check(*plan);
    if (!report.ok()) RC_FAIL(algorithm + ":\n" + FormatText(report));
    for (const std::vector<OverlapItem>& items : ItemsPerBuffer(*plan)) {
      RC_ASSERT(FindOverlapsReference(items, 10).count == 0u);
    }
  }
}

// The two overlap checks agree on plans that do overlap: planted by
// moving one tensor onto another's bytes.
RC_GTEST_PROP(NonOverlapProperty, SweepAndReferenceAgreeOnPlantedOverlaps, ()) {
  const planner::Graph graph = *GenGraph();
  const planner::PlanOptions options = *GenPlanOptions({"greedy"});
  Result<planner::PlanResult> result = planner::PlanGraph(graph, options);
  RC_ASSERT(result.ok());
  std::vector<planner::TensorAllocation*> roots;
  for (planner::TensorAllocation& t : result->tensors) {
    if (t.planned && !t.alias_of) roots.push_back(&t);
  }
  RC_PRE(roots.size() >= 2u);
  const size_t a = *rc::gen::inRange<size_t>(0, roots.size());
  const size_t b = *rc::gen::inRange<size_t>(0, roots.size());
  RC_PRE(a != b && roots[a]->mem_id == roots[b]->mem_id);
  // In bounds, so that the overlap (not the bounds check) is what is seen.
  RC_PRE(roots[a]->offset + roots[b]->size <=
         result->buffers[roots[a]->mem_id - 1].size);
  roots[b]->offset = roots[a]->offset;
  roots[b]->lifetime.first = roots[a]->lifetime.first;
  roots[b]->lifetime.last =
      std::max(roots[b]->lifetime.last, roots[a]->lifetime.first);
  for (planner::TensorAllocation& t : result->tensors) {
    if (t.alias_of == roots[b]->name) t.offset = roots[a]->offset;
  }
  Result<Plan> plan = PlanFromPlannerResult(*result);
  RC_ASSERT(plan.ok());
  uint64_t reference = 0;
  for (const std::vector<OverlapItem>& items : ItemsPerBuffer(*plan)) {
    reference += FindOverlapsReference(items, 1000).count;
  }
  Report report = Check(*plan);
  RC_ASSERT(reference >= 1u);
  RC_ASSERT((report.count(ViolationCode::kOverlap) > 0) == (reference > 0));
}

}  // namespace
}  // namespace properties
}  // namespace memplan
