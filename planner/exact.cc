// The search enumerates canonical plans: sort a plan's items by (offset,
// index) and drop every item as low as it goes; each item then sits at 0 or
// on top of an earlier, lifetime-overlapping item. So the search picks the
// next item in that order, and its offset is forced: the aligned highest end
// of the placed items it overlaps. Pruning:
// - order: the next (offset, index) must exceed the previous one;
// - section bound: at every time, the unplaced items live there must stack
//   above max(highest placed end there, previous offset) within the target;
// - stuck items: an unplaced item already below the previous offset whose
//   overlapping items are all placed can never be lifted into order.
// Heights are minimized by solving "fits in H?" for H = best - 1 until that
// is refuted (proof) or the budget runs out.
#include "planner/exact.h"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "planner/best_fit.h"
#include "planner/greedy.h"
#include "planner/lower_bound.h"
#include "planner/time_axis.h"
#include "runtime/core/checked_math.h"

namespace memplan {
namespace planner {
namespace {

struct Item {
  uint64_t size;
  uint64_t alignment;
  size_t lo, hi;  // Compressed lifetime (sections), inclusive.
  size_t index;   // Position in the caller's item list.
};

class Search {
 public:
  Search(std::vector<Item> items, size_t sections,
         const AlgorithmOptions& options)
      : items_(std::move(items)),
        options_(options),
        start_(std::chrono::steady_clock::now()) {
    const size_t m = items_.size();
    neighbors_.resize(m);
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = i + 1; j < m; ++j) {
        if (items_[i].lo <= items_[j].hi && items_[j].lo <= items_[i].hi) {
          neighbors_[i].push_back(j);
          neighbors_[j].push_back(i);
        }
      }
    }
    base_.assign(m, 0);
    offset_.assign(m, 0);
    placed_.assign(m, false);
    unplaced_neighbors_.resize(m);
    for (size_t i = 0; i < m; ++i) {
      unplaced_neighbors_[i] = neighbors_[i].size();
    }
    floor_.assign(sections, 0);
    remain_.assign(sections, 0);
    for (const Item& item : items_) {
      for (size_t s = item.lo; s <= item.hi; ++s) remain_[s] += item.size;
    }
  }

  // True: found a plan of height <= target (in best_offsets()). False with
  // exhausted() false: no such plan exists.
  bool FitsIn(uint64_t target) {
    target_ = target;
    return Dfs(0, 0, SIZE_MAX);
  }

  bool exhausted() const { return exhausted_; }
  uint64_t nodes() const { return nodes_; }
  const std::vector<uint64_t>& solution() const { return solution_; }

 private:
  bool OutOfBudget() {
    if (exhausted_) return true;
    if (nodes_ >= options_.max_nodes) exhausted_ = true;
    if ((nodes_ & 1023) == 0) {
      const std::chrono::duration<double> spent =
          std::chrono::steady_clock::now() - start_;
      if (spent.count() > options_.max_seconds) exhausted_ = true;
    }
    return exhausted_;
  }

  uint64_t OffsetOf(size_t i) const {
    uint64_t offset = 0;
    CheckedAlignUp(base_[i], items_[i].alignment, &offset);
    return offset;
  }

  // Whether the unplaced items can still fit above previous offset `last`.
  bool Feasible(uint64_t last, size_t last_index) const {
    for (size_t j = 0; j < items_.size(); ++j) {
      if (placed_[j]) continue;
      const uint64_t own = OffsetOf(j);
      if (own < last || (own == last && j < last_index)) {
        if (unplaced_neighbors_[j] == 0) return false;
      }
      uint64_t lowest = 0;
      CheckedAlignUp(last, items_[j].alignment, &lowest);
      lowest = std::max(lowest, own);
      if (lowest > target_ || items_[j].size > target_ - lowest) return false;
    }
    for (size_t s = 0; s < floor_.size(); ++s) {
      if (remain_[s] == 0) continue;
      const uint64_t floor = std::max(floor_[s], last);
      if (floor > target_ || remain_[s] > target_ - floor) return false;
    }
    return true;
  }

  bool Dfs(size_t depth, uint64_t last, size_t last_index) {
    ++nodes_;
    if (depth == items_.size()) {
      solution_ = offset_;
      return true;
    }
    if (OutOfBudget()) return false;
    // Lowest offset first, larger items first among equals: good plans
    // early tighten nothing here, but refute faster in practice.
    std::vector<std::pair<uint64_t, size_t>> candidates;
    for (size_t i = 0; i < items_.size(); ++i) {
      if (placed_[i]) continue;
      const uint64_t offset = OffsetOf(i);
      if (offset < last ||
          (offset == last && last_index != SIZE_MAX && i < last_index)) {
        continue;
      }
      if (offset > target_ || items_[i].size > target_ - offset) continue;
      candidates.emplace_back(offset, i);
    }
    std::sort(candidates.begin(), candidates.end(),
              [&](const auto& a, const auto& b) {
                if (a.first != b.first) return a.first < b.first;
                if (items_[a.second].size != items_[b.second].size) {
                  return items_[a.second].size > items_[b.second].size;
                }
                return a.second < b.second;
              });
    for (const auto& [offset, i] : candidates) {
      const Item& item = items_[i];
      const uint64_t end = offset + item.size;
      // Place i, remembering what to undo.
      placed_[i] = true;
      offset_[i] = offset;
      std::vector<uint64_t> old_base;
      old_base.reserve(neighbors_[i].size());
      for (size_t j : neighbors_[i]) {
        old_base.push_back(base_[j]);
        base_[j] = std::max(base_[j], end);
        --unplaced_neighbors_[j];
      }
      std::vector<uint64_t> old_floor(floor_.begin() + item.lo,
                                      floor_.begin() + item.hi + 1);
      for (size_t s = item.lo; s <= item.hi; ++s) {
        floor_[s] = std::max(floor_[s], end);
        remain_[s] -= item.size;
      }
      const bool found = Feasible(offset, i) && Dfs(depth + 1, offset, i);
      for (size_t s = item.lo; s <= item.hi; ++s) {
        floor_[s] = old_floor[s - item.lo];
        remain_[s] += item.size;
      }
      for (size_t k = 0; k < neighbors_[i].size(); ++k) {
        base_[neighbors_[i][k]] = old_base[k];
        ++unplaced_neighbors_[neighbors_[i][k]];
      }
      placed_[i] = false;
      if (found || exhausted_) return found;
    }
    return false;
  }

  std::vector<Item> items_;
  AlgorithmOptions options_;
  std::chrono::steady_clock::time_point start_;
  std::vector<std::vector<size_t>> neighbors_;
  std::vector<uint64_t> base_;    // Highest end of placed neighbors.
  std::vector<uint64_t> offset_;  // Offsets of placed items.
  std::vector<bool> placed_;
  std::vector<size_t> unplaced_neighbors_;
  std::vector<uint64_t> floor_;   // Highest placed end per section.
  std::vector<uint64_t> remain_;  // Unplaced bytes live per section.
  std::vector<uint64_t> solution_;
  uint64_t target_ = 0;
  uint64_t nodes_ = 0;
  bool exhausted_ = false;
};

}  // namespace

Result<Placement> ExactAlgorithm::Place(const std::vector<PlanItem>& items,
                                        const AlgorithmOptions& options) const {
  MEMPLAN_RETURN_IF_ERROR(ValidatePlanItems(items));
  // Seed with the better heuristic (ties: best_fit), so exact never loses.
  Result<Placement> best_fit = BestFitAlgorithm().Place(items, options);
  if (!best_fit.ok()) return best_fit.error();
  Result<Placement> greedy = GreedyAlgorithm().Place(items, options);
  if (!greedy.ok()) return greedy.error();
  Placement best = greedy->height < best_fit->height ? std::move(*greedy)
                                                     : std::move(*best_fit);
  best.proven_optimal = false;
  const uint64_t lower_bound = LiveBytesLowerBound(items);
  if (best.height <= lower_bound) {
    best.proven_optimal = true;
    return best;
  }

  std::vector<TimeValue> endpoints;
  for (const PlanItem& item : items) {
    if (item.size == 0) continue;
    endpoints.push_back(item.first);
    endpoints.push_back(item.last);
  }
  const TimeAxis times(std::move(endpoints));
  std::vector<Item> search_items;
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].size == 0) continue;  // Offset 0 never collides.
    search_items.push_back({items[i].size, items[i].alignment,
                            times.IndexOf(items[i].first),
                            times.IndexOf(items[i].last), i});
  }
  if (search_items.size() > kMaxSearchItems) return best;

  Search search(search_items, times.size(), options);
  while (best.height > lower_bound) {
    if (!search.FitsIn(best.height - 1)) {
      best.proven_optimal = !search.exhausted();
      break;
    }
    std::vector<uint64_t> offsets(items.size(), 0);
    for (size_t k = 0; k < search_items.size(); ++k) {
      offsets[search_items[k].index] = search.solution()[k];
    }
    best.offsets = std::move(offsets);
    best.height = PlacementHeight(items, best.offsets);
  }
  if (best.height <= lower_bound) best.proven_optimal = true;
  return best;
}

}  // namespace planner
}  // namespace memplan
