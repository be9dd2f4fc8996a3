// The one small interface every placement algorithm implements.
//
// An algorithm sees the items of one partition (one device, one pool): a
// size, an alignment and an inclusive lifetime each. It returns one offset
// per item, in item order, such that two items whose lifetimes overlap never
// share a byte, and the height (the buffer size it needs). Aliases (views,
// in-place outputs) never reach an algorithm: the partitioner folds them
// into their base first.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/lifetime.h"
#include "runtime/core/result.h"

namespace memplan {
namespace planner {

struct PlanItem {
  PlanItem() = default;
  // PlanItem{size, alignment, first, last}, as the tests and readers write
  // items (an aggregate would want the lifetime's own braces).
  PlanItem(uint64_t size, uint64_t alignment, TimeValue first, TimeValue last)
      : size(size), alignment(alignment), lifetime{first, last} {}
  PlanItem(uint64_t size, uint64_t alignment, Lifetime lifetime)
      : size(size), alignment(alignment), lifetime(lifetime) {}

  uint64_t size = 0;  // Bytes the item occupies (already padded if needed).
  uint64_t alignment = 1;  // Offset must be a multiple of this (>= 1).
  // Positions at which the item is live: [first, last], inclusive.
  Lifetime lifetime;
};

// Where an exact search stands while it runs.
struct SearchProgress {
  uint64_t height = 0;       // The lowest plan found so far.
  uint64_t lower_bound = 0;  // Proven: no plan is lower.
  uint64_t trying = 0;       // The height being decided now, or 0.
  double seconds = 0;        // Since Place() began.
};

struct AlgorithmOptions {
  // Search budget for exact algorithms; heuristics ignore them. By default
  // the time decides: exact's searches race on up to seven threads, each
  // with its share of the nodes, and 5M (the old default) in all left
  // asplos2024 E unsolved after 2.4 s of its 10. Where the nodes run out
  // first, exact's plan depends on the items alone (not on the machine or
  // its load); where the time does, it may not. max_seconds counts up to
  // 1e9; not a positive number, no search.
  uint64_t max_nodes = 1'000'000'000;
  double max_seconds = 10.0;
  // Where nonzero, the arena's size in bytes, as MiniMalloc's --capacity:
  // exact decides whether the items fit in it rather than seeking the
  // lowest plan. It stops at the first plan no higher (its first decision
  // is at the capacity, not at the lower bound), and once it proves that
  // none is (its lower_bound then exceeds the capacity). Heuristics ignore
  // it.
  uint64_t capacity = 0;
  // If set, exact algorithms call it, on the thread that called Place(),
  // as each decision starts and as the lowest plan or the proven bound
  // improves (heuristics never do): for progress on a long search.
  std::function<void(const SearchProgress&)> on_progress;
};

struct Placement {
  std::vector<uint64_t> offsets;  // One per item, in item order.
  uint64_t height = 0;            // max(offset + size), 0 when empty.
  bool proven_optimal = false;    // Only exact algorithms set this.
  // A proven bound: no plan is lower. Exact algorithms set it (== height
  // when proven_optimal); 0 from the others means unknown.
  uint64_t lower_bound = 0;
};

class Algorithm {
 public:
  virtual ~Algorithm() = default;
  virtual std::string name() const = 0;
  // Errors only on impossible input (overflowing sizes, first > last).
  virtual Result<Placement> Place(const std::vector<PlanItem>& items,
                                  const AlgorithmOptions& options) const = 0;
};

// "naive", "greedy", "best_fit", "exact"; nullptr for an unknown name.
std::unique_ptr<Algorithm> MakeAlgorithm(const std::string& name);
// Every algorithm name MakeAlgorithm knows, in a stable order.
std::vector<std::string> AlgorithmNames();

}  // namespace planner
}  // namespace memplan
