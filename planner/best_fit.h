// Decreasing-size best fit over the lifetime/offset plane (TFLite's
// greedy-by-size, XLA's global decreasing-size best fit): largest item
// first, each at the lowest aligned offset free during its whole lifetime.
#pragma once

#include <cstddef>
#include <cstdint>
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

// PlaceInOrder over one overlap graph, order after order, its buffers kept
// from one to the next (multi_fit compacts a partition a dozen times; a
// buffer got afresh each time was page faults in a single run). Items and
// graph are the caller's and must outlive it.
class GraphPlacer {
 public:
  GraphPlacer(const std::vector<PlanItem>& items, const OverlapGraph& overlaps)
      : items_(items), overlaps_(overlaps) {}

  std::vector<uint64_t> Place(const std::vector<size_t>& order);

 private:
  // Past this many pairs' slots (4 MiB of them), each item's conflicts are
  // gathered and sorted instead, with no buffers kept: with 921k pairs a
  // chain's pushed conflicts (then 29 MiB of byte ranges, got afresh for
  // each order) took 0.44 s and 70 MB in a single run against 0.26 s and
  // 15 MB (`memplan plan --csv --algo multi_fit`), and in a warm loop
  // gained nothing.
  static constexpr size_t kMaxPushed = size_t{1} << 20;

  const std::vector<PlanItem>& items_;
  const OverlapGraph& overlaps_;
  std::vector<uint32_t> count_;   // Per item, its conflicts pushed so far.
  std::vector<uint32_t> pushed_;  // Parallel to the graph's neighbours.
};

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
