// Exact placement after MiniMalloc (Moffitt, ASPLOS 2023): decision searches
// "fits in C?" over canonical plans, first at the lower bound (where some
// section has slack, with multi_fit's dives beside it on a thread of their
// own), then bisecting up to the best height found. It proves the minimum
// height, or returns the best plan found within AlgorithmOptions' budget (never
// worse than any heuristic; greedy, O(n^2) on nested lifetimes, is run as a
// seed only up to 10,000 items) with the best proven bound in
// Placement::lower_bound. max_seconds is wall time. A decision's search
// runs six preorders at once, one thread each (on one core they share it,
// which is still cheaper than restarting them in turn), and the dives one
// more: up to seven threads run.
#pragma once

#include <string>
#include <vector>

#include "planner/algorithm.h"

namespace memplan {
namespace planner {

class ExactAlgorithm : public Algorithm {
 public:
  // Above this many non-empty items, or this many overlapping pairs (the
  // search keeps one list entry per pair and side: 4 bytes each), there is
  // no search: the best heuristic plan is returned, proven only if it meets
  // the lower bound.
  static constexpr size_t kMaxSearchItems = 4096;
  static constexpr size_t kMaxSearchOverlaps = 8'000'000;

  std::string name() const override { return "exact"; }
  Result<Placement> Place(const std::vector<PlanItem>& items,
                          const AlgorithmOptions& options) const override;
};

}  // namespace planner
}  // namespace memplan
