// The fast heuristic: several placements of one partition, the lowest kept.
//
// Decreasing-size best fit (best_fit.h) first, so multi_fit is never higher
// than best_fit. Partitions of up to kMaxSkylineItems items are then placed
// by squeaky-wheel dives over the overlap graph of their lifetimes: each dive
// fills level after level (the lowest offset an unplaced item can take)
// with a heaviest set of the items that can go there whose lifetimes are
// disjoint, an item weighing its lifetime's length (each time counted by
// a power of the bytes live then) times a small power of its priority, so
// that each level's busiest free times are covered as fully as they can
// be; and the items a dive leaves ending in the upper half
// of its excess over the lower bound gain priority for the next one, in
// proportion to how far into it (Joslin and Clements, JAIR 1999); each
// chain's three lowest dives are also flipped (below) once. Two chains of
// dives run, from the area ranks and from the start ranks (time order),
// the second on a second thread where one can be had and the process may
// run on more than one CPU (the plan does not depend on it); every 10 dives a
// chain starts its priorities again from its ranks plus noise, so that it tries
// several regions. Where the graph would be too large for dives, partitions of
// up to kMaxBottomUpItems items are placed bottom-up (skyline.h) instead, under
// two orders, by size and by size x lifetime, forwards and backwards in
// time; larger ones get best fit's plan. Then bottom-up with sizes jittered,
// for the work the dives left (where they stopped at their number, not their
// work) or, without dives, while a budget of item placements lasts.
// The best bottom-up placements are compacted (items re-placed lowest
// first, in order of offset, which never raises one), and the lowest plan
// is improved by flipping it upside down and compacting again while that
// lowers it.
// Deterministic: the jitter and the noise have fixed seeds.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "planner/algorithm.h"

namespace memplan {
namespace planner {

class MultiFitAlgorithm : public Algorithm {
 public:
  // Above this, only best fit runs. It was 4096 until 2026-12-06:
  // asplos2024 A..K overlaid two, three and four times over
  // (hard_planner_bench --overlay at 0.70, 0.85 and 0.80: 6,224, 9,336 and
  // 12,448 items) then came out 1.239x, 1.227x and 1.314x the bound, and
  // now 1.078x, 1.045x and 1.053x in 0.09-0.14 s; 16,000 random
  // lifetimes, 1M pairs, 1.040x -> 1.001x in 0.28 s.
  static constexpr size_t kMaxSkylineItems = 16384;
  // ... and above this where no dives run (more pairs of lifetimes that
  // meet than the dives' graph holds), only best fit too: there the tries
  // are bottom-up placements, each costing O(live items) a step where best
  // fit costs O(log T) sets, and their compactions and flips each about
  // best fit's time. From 2026-12-06 to 2026-12-07 they ran up to
  // kMaxSkylineItems: planner_bench's 10k rows (no graph) took 75 ms and
  // 156 ms against 17 ms and 40 ms, for 1.0039x and 1.0434x against
  // 1.0051x and 1.0442x the bound.
  static constexpr size_t kMaxBottomUpItems = 4096;

  std::string name() const override { return "multi_fit"; }
  Result<Placement> Place(const std::vector<PlanItem>& items,
                          const AlgorithmOptions& options) const override;
};

// How long DiveUntil dives: whichever ends first.
struct DiveBudget {
  uint64_t max_dives = 0;
  std::chrono::steady_clock::time_point until;  // Checked before each dive.
  uint64_t stop_at = 0;  // A plan this low (the live-bytes bound or above).
  // Asked before each dive, where set: false ends the dives. exact paces
  // the dives beside its searches with it.
  std::function<bool()> proceed;
  // Told each lower height a chain reaches, where set (on the calling
  // thread): exact's progress where it dives alone.
  std::function<void(uint64_t height)> on_lower;
};

// multi_fit's squeaky-wheel dives (best fit, then dives with their flips:
// here each dive within 3% of the best so far, as it comes, so that more
// dives never give a higher plan) past multi_fit's bound on their number,
// within `budget` or until a plan at the live-bytes bound: its two chains
// one after the other, the start ranks' with half the time and dives, then
// the area ranks'. Where multi_fit would not dive (more than
// kMaxSkylineItems items, or an overlap graph past its bound) the same
// dives run over the times instead of the graph (TimeDives in
// multi_fit.cc), each stopped where it would pass `budget.until`. The
// lowest plan found, and in *dives how many dives ran; empty where the
// items are invalid or none. Reads `items` only, so it may run beside
// other readers.
std::optional<Placement> DiveUntil(const std::vector<PlanItem>& items,
                                   const DiveBudget& budget, uint64_t* dives);

// One squeaky-wheel dive from `priority` (one per item), its levels in
// bands of offsets or not, over the lifetimes' overlap graph or, with
// `over_time`, over the times without one (as the dives go past the
// graph's bound): the same offsets either way, which multi_fit_test and
// planner_items_fuzzer check. Empty where the items are invalid, or the
// graph is past its bound and `over_time` is false, or a dive over time is
// still going at `until`. For tests.
std::vector<uint64_t> DiveOnceForTest(
    const std::vector<PlanItem>& items, const std::vector<double>& priority,
    bool bands, bool over_time,
    std::chrono::steady_clock::time_point until =
        std::chrono::steady_clock::time_point::max());

}  // namespace planner
}  // namespace memplan
