// Invariants of plan quality: every algorithm's buffers are at least their
// lower bound; greedy never needs more than naive; exact, when proven
// optimal, never more than any other; a suite is the min of its members.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "planner/algorithm.h"
#include "planner/memory_planner.h"
#include "properties/check.h"
#include "properties/generators.h"
#include "properties/planner_plan.h"

namespace memplan {
namespace properties {
namespace {

planner::PlanOptions SuiteOptions() {
  planner::PlanOptions options = *GenPlanOptions({"greedy"});
  options.algorithms = planner::AlgorithmNames();
  return options;
}

RC_GTEST_PROP(QualityProperty, EveryAlgorithmIsAtLeastTheLowerBound, ()) {
  GraphGenOptions small;
  small.max_steps = 10;
  const planner::Graph graph = *GenGraph(small);
  for (const std::string& algorithm : planner::AlgorithmNames()) {
    planner::PlanOptions options = *GenPlanOptions({algorithm});
    Result<planner::PlanResult> result = planner::PlanGraph(graph, options);
    RC_ASSERT(result.ok());
    Result<Plan> plan = PlanFromPlannerResult(*result);
    RC_ASSERT(plan.ok());
    Report report = Check(*plan);
    for (const BufferQuality& q : report.buffers) {
      // The oracle's bound counts raw bytes; the planner's aligned ones.
      RC_ASSERT(static_cast<uint64_t>(q.size) >= q.live_bytes_lower_bound);
      RC_ASSERT(result->buffers.at(q.mem_id - 1).size >=
                result->buffers.at(q.mem_id - 1).aligned_lower_bound);
      RC_ASSERT(result->buffers.at(q.mem_id - 1).aligned_lower_bound >=
                q.live_bytes_lower_bound);
    }
  }
}

void CheckSuiteOrdering(bool own_alignment) {
  GraphGenOptions small;
  small.max_steps = 10;
  small.own_alignment = own_alignment;
  const planner::Graph graph = *GenGraph(small);
  const planner::PlanOptions options = SuiteOptions();
  Result<planner::PlanResult> result = planner::PlanGraph(graph, options);
  RC_ASSERT(result.ok());
  std::map<std::string, const planner::AlgorithmStats*> stats;
  uint64_t min_total = UINT64_MAX;
  for (const planner::AlgorithmStats& s : result->algorithms) {
    RC_ASSERT(s.error.empty());
    stats[s.name] = &s;
    min_total = std::min(min_total, s.total_bytes);
  }
  RC_ASSERT(stats.size() == planner::AlgorithmNames().size());
  if (!own_alignment) {
    RC_ASSERT(stats["greedy"]->total_bytes <= stats["naive"]->total_bytes);
  }
  RC_CLASSIFY(stats["exact"]->proven_optimal, "exact proven optimal");
  if (stats["exact"]->proven_optimal) {
    for (const auto& [name, s] : stats) {
      RC_ASSERT(stats["exact"]->total_bytes <= s->total_bytes);
    }
  }
  RC_ASSERT(result->total_bytes() == min_total);
  RC_ASSERT(stats[result->algorithm]->total_bytes == min_total);
}

// Tensors at the global alignment only.
RC_GTEST_PROP(QualityProperty, GreedyAtMostNaiveExactAtMostAllSuiteIsMin, ()) {
  CheckSuiteOrdering(/*own_alignment=*/false);
}

// greedy <= naive is claimed only at the global alignment, which is
// ExecuTorch's setting (one alignment for every spec). With per-tensor
// alignment greedy's size order can open gaps naive's order does not
// (alignment=1, padding=8, no device planning: t0 int8 [] input align=128;
// t1 int8 [] align=128; t2 uint8 [960] scratch; t3 int32 [] align=32;
// n0 in=t0 out=t1; n1 torch.cond in=t1 out=t3 scratch=t2 gives greedy 1192
// bytes, naive 1128), so the suite, not greedy, is the one to rely on there.
RC_GTEST_PROP(QualityProperty, ExactAtMostAllSuiteIsMinWithPerTensorAlignment,
              ()) {
  CheckSuiteOrdering(/*own_alignment=*/true);
}

}  // namespace
}  // namespace properties
}  // namespace memplan
