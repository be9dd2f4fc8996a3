// The fast heuristic: several placements of one partition, the lowest kept.
//
// Decreasing-size best fit (best_fit.h) first, so multi_fit is never higher
// than best_fit. Partitions of up to kMaxSkylineItems items are then placed
// by squeaky-wheel dives over the overlap graph of their lifetimes: each dive
// places, at every step, the unplaced item that can go lowest (ties: the
// higher priority), and the items a dive leaves ending above the lower
// bound gain priority for the next one, in proportion to how far above
// (Joslin and Clements, JAIR 1999), and a dive within 3% of the best so
// far is also flipped (below) once. Where the graph would be too large for
// dives, they are placed bottom-up (skyline.h) instead, under two orders, by
// size and by size x lifetime, forwards and backwards in time. Then
// bottom-up with sizes jittered while a budget of item placements lasts.
// The best bottom-up placements are compacted (items re-placed lowest
// first, in order of offset, which never raises one), and the lowest plan
// is improved by flipping it upside down and compacting again while that
// lowers it.
// Deterministic: the jitter has a fixed seed.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "planner/algorithm.h"

namespace memplan {
namespace planner {

class MultiFitAlgorithm : public Algorithm {
 public:
  // Above this, only best fit runs (the bottom-up placement costs
  // O(live items) per step where best fit costs O(log T) sets).
  static constexpr size_t kMaxSkylineItems = 4096;

  std::string name() const override { return "multi_fit"; }
  Result<Placement> Place(const std::vector<PlanItem>& items,
                          const AlgorithmOptions& options) const override;
};

}  // namespace planner
}  // namespace memplan
