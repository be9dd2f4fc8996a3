// Invariants of control flow and aliasing: a node's scratch arena never
// shares bytes with a tensor live at that node (so a value computed before
// a cond survives the cond's arena); an alias root's lifetime covers every
// tensor it backs.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "planner/memory_planner.h"
#include "properties/generators.h"

namespace memplan {
namespace properties {
namespace {

bool BytesMeet(const planner::TensorAllocation& a,
               const planner::TensorAllocation& b) {
  return a.size > 0 && b.size > 0 && a.offset < b.offset + b.size &&
         b.offset < a.offset + a.size;
}

RC_GTEST_PROP(ControlFlowProperty, NoScratchArenaOverlapsALiveTensor, ()) {
  const planner::Graph graph = *GenGraph();
  const planner::PlanOptions options =
      *GenPlanOptions({"naive", "greedy", "best_fit", "exact"});
  Result<planner::PlanResult> result = planner::PlanGraph(graph, options);
  RC_ASSERT(result.ok());
  const auto& tensors = result->tensors;
  bool any_scratch = false;
  for (size_t k = 0; k < graph.nodes().size(); ++k) {
    for (planner::ValueId s : graph.nodes()[k].scratch) {
      const planner::TensorAllocation& arena = tensors[s];
      if (!arena.planned) continue;
      any_scratch = true;
      RC_ASSERT(arena.lifetime.first == static_cast<int64_t>(k));
      RC_ASSERT(arena.lifetime.last == static_cast<int64_t>(k));
      for (const planner::TensorAllocation& t : tensors) {
        if (!t.planned || t.value_id == s || t.mem_id != arena.mem_id) continue;
        bool live_at_node = t.lifetime.first <= static_cast<int64_t>(k) &&
                            static_cast<int64_t>(k) <= t.lifetime.last;
        RC_ASSERT(!(live_at_node && BytesMeet(arena, t)));
      }
    }
  }
  RC_CLASSIFY(any_scratch, "scratch arena");
}

RC_GTEST_PROP(ControlFlowProperty, AliasRootLifetimeCoversItsAliases, ()) {
  const planner::Graph graph = *GenGraph();
  const planner::PlanOptions options = *GenPlanOptions({"greedy"});
  Result<planner::PlanResult> result = planner::PlanGraph(graph, options);
  RC_ASSERT(result.ok());
  for (const planner::TensorAllocation& t : result->tensors) {
    if (!t.alias_of || !t.planned) continue;
    const planner::TensorAllocation& root =
        result->tensors[graph.RootOf(t.value_id)];
    RC_ASSERT(root.name == *t.alias_of);
    RC_ASSERT(root.lifetime.first <= t.lifetime.first);
    RC_ASSERT(t.lifetime.last <= root.lifetime.last);
    RC_ASSERT(root.mem_id == t.mem_id);
    RC_ASSERT(root.offset == t.offset);
    RC_ASSERT(t.size <= root.size);
  }
}

}  // namespace
}  // namespace properties
}  // namespace memplan
