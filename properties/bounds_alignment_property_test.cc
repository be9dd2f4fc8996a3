// Invariants: every tensor lies inside its buffer at an aligned offset;
// the buffer map is well formed; and the lifetimes the oracle re-derives
// from the emitted program lie inside the planner's.
//
// Why containment and not equality: the planner stretches a root over
// every use of its aliases and a mutable buffer over the whole program
// (its bytes must survive), while the file only shows where each value
// itself is named. For values that are neither alias roots nor mutable
// buffers the two are equal, which the second property checks.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "planner/emitter.h"
#include "planner/memory_planner.h"
#include "properties/generators.h"
#include "properties/plan_checks.h"

namespace memplan {
namespace properties {
namespace {

void CheckBoundsAlignmentBufferMap(uint64_t min_global_alignment) {
  const planner::Graph graph = *GenGraph();
  planner::PlanOptions options =
      *GenPlanOptions({"naive", "greedy", "best_fit", "exact"});
  options.alignment = std::max(options.alignment, min_global_alignment);
  Result<planner::PlanResult> result = planner::PlanGraph(graph, options);
  RC_ASSERT(result.ok());
  for (const planner::TensorAllocation& t : result->tensors) {
    if (!t.planned) continue;
    RC_ASSERT(t.offset % options.alignment == 0u);
    RC_ASSERT(t.offset % t.alignment == 0u);
    RC_ASSERT(t.offset + t.size <= result->buffers.at(t.mem_id - 1).size);
  }
  PlannedGraphVerdict verdict = CheckPlannedGraph(graph, *result, options);
  RC_ASSERT(verdict.pipeline_error.empty());
  for (const Report* report :
       {&verdict.planner_report, &verdict.program_report}) {
    if (!report->ok()) RC_FAIL(verdict.Describe());
    RC_ASSERT(report->count(ViolationCode::kBounds) == 0u);
    RC_ASSERT(report->count(ViolationCode::kAlignment) == 0u);
    RC_ASSERT(report->count(ViolationCode::kBufferMap) == 0u);
    RC_ASSERT(report->count(ViolationCode::kLifetime) == 0u);
  }
  // One device entry per non-CPU buffer, none for CPU ones.
  size_t device_buffers = 0;
  for (const planner::BufferInfo& b : result->buffers) {
    device_buffers += b.device.is_cpu() ? 0 : 1;
  }
  RC_ASSERT(verdict.program_plan.device_map.size() == device_buffers);
}

// A global alignment of 8 or more covers every element size generated.
RC_GTEST_PROP(BoundsAlignmentProperty, TensorsInBoundsAlignedBufferMapSound,
              ()) {
  CheckBoundsAlignmentBufferMap(8);
}

// Found by this suite: with a global alignment below an element size
// (alignment=4, a double) the planner once put the double at offset 4.
// Counterexample: t0 int8 [] input, t1 int8 [] out of n0, t2 double [] out
// of n1, naive, alignment=4. The planner now aligns every root to
// max(global, own, element size).
RC_GTEST_PROP(BoundsAlignmentProperty,
              OffsetsAlignedToElementSizeUnderSmallGlobalAlignment, ()) {
  CheckBoundsAlignmentBufferMap(1);
}

RC_GTEST_PROP(BoundsAlignmentProperty, FileLifetimesLieInsidePlannedOnes, ()) {
  const planner::Graph graph = *GenGraph();
  const planner::PlanOptions options = *GenPlanOptions({"greedy"});
  Result<planner::PlanResult> result = planner::PlanGraph(graph, options);
  RC_ASSERT(result.ok());
  PlannedGraphVerdict verdict = CheckPlannedGraph(graph, *result, options);
  RC_ASSERT(verdict.pipeline_error.empty());
  if (!verdict.lifetime_mismatches.empty()) RC_FAIL(verdict.Describe());

  std::set<std::string> roots_of_aliases;
  for (const Allocation& a : verdict.planner_plan.allocations) {
    if (a.alias_of) roots_of_aliases.insert(*a.alias_of);
  }
  std::map<std::string, const Allocation*> in_file;
  for (const Allocation& a : verdict.program_plan.allocations) {
    in_file[a.id] = &a;
  }
  // Node n's own KernelCall sits at kernel[n]; its et_view declarations
  // (one per alias it defines) just before it.
  const std::vector<TimeValue> kernel = planner::KernelPositions(graph);
  for (const Allocation& a : verdict.planner_plan.allocations) {
    if (a.kind == SpecKind::kMutableBuffer || roots_of_aliases.count(a.id)) {
      continue;
    }
    const Allocation* b = in_file.at(a.id);
    // Node n's instructions are (kernel[n-1], kernel[n]].
    auto of_node = [&](TimeValue position, TimeValue node) {
      const TimeValue previous = node == 0 ? -1 : kernel[node - 1];
      return position > previous && position <= kernel[node];
    };
    RC_ASSERT(of_node(b->lifetime.first, a.lifetime.first));
    RC_ASSERT(of_node(b->lifetime.last, a.lifetime.last));
    // Only an alias is named before its node's own KernelCall (by et_view).
    if (!a.alias_of && a.kind != SpecKind::kInput) {
      RC_ASSERT(b->lifetime.first == kernel[a.lifetime.first]);
    }
  }
}

}  // namespace
}  // namespace properties
}  // namespace memplan
