// Decreasing-size best fit over the lifetime/offset plane (TFLite's
// greedy-by-size, XLA's global decreasing-size best fit): largest item
// first, each at the lowest aligned offset free during its whole lifetime.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "planner/algorithm.h"
#include "planner/overlap_graph.h"
#include "planner/time_axis.h"

namespace memplan {
namespace planner {

// Places items in `order` (indices into items; any subset, each once), each
// at the lowest offset aligned for it that is free throughout its lifetime
// of the items placed before it; items left out, and empty ones, get 0.
// Items must have passed ValidatePlanItems; `times` holds their endpoints.
// O(log T) sets touched per item; up to kMaxScanItems items, a plain scan
// of the items placed before (the same offsets, faster when small).
constexpr size_t kMaxScanItems = 1024;
std::vector<uint64_t> PlaceInOrder(const std::vector<PlanItem>& items,
                                   const TimeAxis& times,
                                   const std::vector<size_t>& order);
// The same offsets, each item's conflicts read off `overlaps` (built over
// these items, empty ones without edges): O(its neighbours) per item, and
// sorting them, which in a compaction's order (by offset) costs little.
std::vector<uint64_t> PlaceInOrder(const std::vector<PlanItem>& items,
                                   const OverlapGraph& overlaps,
                                   const std::vector<size_t>& order);

// The compressed axis of the items' lifetime endpoints.
TimeAxis LifetimeAxis(const std::vector<PlanItem>& items);

class BestFitAlgorithm : public Algorithm {
 public:
  std::string name() const override { return "best_fit"; }
  Result<Placement> Place(const std::vector<PlanItem>& items,
                          const AlgorithmOptions& options) const override;
};

}  // namespace planner
}  // namespace memplan
