#include "planner/skyline.h"

#include <algorithm>
#include <limits>

#include "planner/lower_bound.h"

namespace memplan {
namespace planner {
namespace {

using Wide = unsigned __int128;
constexpr uint64_t kClosed = std::numeric_limits<uint64_t>::max();

// The floor of every compressed time, in a plain array (partitions are
// small here, and an item's range is read once per evaluation), with the
// minimum of each block of kBlock times to find the leftmost lowest time in
// O(T / kBlock + kBlock). A closed time holds kClosed: never the lowest,
// and inside no unplaced item's range.
class FloorProfile {
 public:
  explicit FloorProfile(size_t times)
      : floor_(times, 0), block_min_((times + kBlock - 1) / kBlock, 0) {}

  uint64_t at(size_t t) const { return floor_[t]; }

  void Assign(size_t lo, size_t hi, uint64_t value) {
    std::fill(floor_.begin() + lo, floor_.begin() + hi + 1, value);
    for (size_t b = lo / kBlock; b <= hi / kBlock; ++b) {
      const size_t begin = b * kBlock;
      const size_t end = std::min(floor_.size(), begin + kBlock);
      block_min_[b] =
          lo <= begin && end - 1 <= hi
              ? value
              : *std::min_element(floor_.begin() + begin, floor_.begin() + end);
    }
  }

  size_t LeftmostLowest() const {
    const size_t b = static_cast<size_t>(
        std::min_element(block_min_.begin(), block_min_.end()) -
        block_min_.begin());
    const size_t begin = b * kBlock;
    const size_t end = std::min(floor_.size(), begin + kBlock);
    return static_cast<size_t>(
        std::min_element(floor_.begin() + begin, floor_.begin() + end) -
        floor_.begin());
  }

  // The first time after `t` whose floor is above `value`, or T.
  size_t FirstAbove(size_t t, uint64_t value) const {
    while (t < floor_.size() && floor_[t] <= value) ++t;
    return t;
  }

 private:
  static constexpr size_t kBlock = 32;
  std::vector<uint64_t> floor_;
  std::vector<uint64_t> block_min_;
};

// The unplaced items live at a time: each item sits in the O(log T) nodes
// of a segment tree that exactly cover its lifetime, so the items crossing
// time t are those in the nodes on the path from t's leaf to the root.
// Placed items are dropped lazily, when a walk meets them.
class LiveItems {
 public:
  explicit LiveItems(size_t times) {
    while (size_ < times) size_ <<= 1;
    nodes_.resize(2 * size_);
  }
  void Insert(size_t lo, size_t hi, uint32_t item) {
    for (size_t l = lo + size_, r = hi + size_ + 1; l < r; l >>= 1, r >>= 1) {
      if (l & 1) nodes_[l++].push_back(item);
      if (r & 1) nodes_[--r].push_back(item);
    }
  }
  // Calls visit(item) for up to `limit` unplaced items live at `t`, the
  // shortest-lived nodes first.
  template <typename Visit>
  void ForEachLive(size_t t, const std::vector<bool>& placed, size_t limit,
                   Visit visit) {
    size_t visited = 0;
    for (size_t node = t + size_; node >= 1; node >>= 1) {
      std::vector<uint32_t>& items = nodes_[node];
      size_t kept = 0;
      for (size_t k = 0; k < items.size(); ++k) {
        if (placed[items[k]]) continue;
        items[kept++] = items[k];
        if (visited < limit) {
          visit(items[k]);
          ++visited;
        }
      }
      items.resize(kept);
    }
  }

 private:
  size_t size_ = 1;
  std::vector<std::vector<uint32_t>> nodes_;
};

}  // namespace

std::optional<std::vector<uint64_t>> SkylinePlace(
    const std::vector<PlanItem>& items, const TimeAxis& times,
    const std::vector<uint64_t>& priority, SkylineDirection direction,
    uint64_t max_work) {
  constexpr size_t kMaxCandidates = 64;
  constexpr size_t kMaxChainRun = 64;
  const size_t n = items.size();
  std::vector<uint64_t> offsets(n, 0);
  if (n == 0 || times.size() == 0) return offsets;
  const size_t last_time = times.size() - 1;
  std::vector<size_t> lo(n), hi(n);
  std::vector<bool> placed(n, false);
  std::vector<std::vector<uint32_t>> starting(times.size());
  LiveItems live(times.size());
  size_t remaining = 0;
  for (size_t i = 0; i < n; ++i) {
    lo[i] = times.IndexOf(items[i].lifetime.first);
    hi[i] = times.IndexOf(items[i].lifetime.last);
    if (direction == SkylineDirection::kBackward) {
      const size_t first = last_time - hi[i];
      hi[i] = last_time - lo[i];
      lo[i] = first;
    }
    if (items[i].size == 0) {
      placed[i] = true;  // Occupies no byte: offset 0 is valid.
      continue;
    }
    live.Insert(lo[i], hi[i], static_cast<uint32_t>(i));
    starting[lo[i]].push_back(static_cast<uint32_t>(i));
    ++remaining;
  }

  uint64_t work = 0;
  std::vector<bool> tileable;
  FloorProfile floors(times.size());
  while (remaining > 0) {
    const size_t t = floors.LeftmostLowest();
    const uint64_t lowest = floors.at(t);
    // The run of times at the lowest floor is [t, wall).
    const size_t wall = floors.FirstAbove(t, lowest);
    const uint64_t left_floor = t > 0 ? floors.at(t - 1) : kClosed;
    const uint64_t right_floor =
        wall < times.size() ? floors.at(wall) : kClosed;
    work += wall - t + 1;
    size_t best = n;
    uint64_t best_offset = 0;
    Wide best_waste = 0;
    int best_fitness = 0;
    auto consider = [&](uint32_t i, uint64_t offset, Wide waste) {
      const uint64_t top_edge = offset + items[i].size;
      const bool at_wall = hi[i] + 1 == wall;
      const int fitness = (at_wall ? 1 : 0) + (top_edge == left_floor ? 1 : 0) +
                          (at_wall && top_edge == right_floor ? 1 : 0);
      if (best == n || waste < best_waste ||
          (waste == best_waste &&
           (fitness > best_fitness ||
            (fitness == best_fitness && priority[i] > priority[best])))) {
        best = i;
        best_offset = offset;
        best_waste = waste;
        best_fitness = fitness;
      }
    };
    auto drop_placed = [&](std::vector<uint32_t>* list) {
      list->erase(std::remove_if(list->begin(), list->end(),
                                 [&](uint32_t i) { return placed[i]; }),
                  list->end());
    };
    // An item that wastes nothing starts at t (left of t the floor is
    // higher) and ends before the wall.
    auto wastes_nothing = [&](uint32_t i) {
      return hi[i] < wall && (lowest & (items[i].alignment - 1)) == 0;
    };
    // Without waste, the run [t, wall) is covered at this floor by a chain
    // of items, each starting where the last ended. tileable[x]: unplaced
    // items can still chain from t + x to the wall; prefer an item after
    // which they can (for runs up to kMaxChainRun times).
    const size_t run = wall - t;
    const bool chained = run <= kMaxChainRun;
    if (chained) {
      tileable.assign(run + 1, false);
      tileable[run] = true;
      for (size_t x = run; x-- > 0;) {
        drop_placed(&starting[t + x]);
        work += starting[t + x].size();
        for (uint32_t i : starting[t + x]) {
          if (wastes_nothing(i) && tileable[hi[i] + 1 - t]) {
            tileable[x] = true;
            break;
          }
        }
      }
    } else {
      drop_placed(&starting[t]);
    }
    work += starting[t].size();
    for (uint32_t i : starting[t]) {
      if (wastes_nothing(i) && (!chained || tileable[hi[i] + 1 - t])) {
        consider(i, lowest, 0);
      }
    }
    if (best == n && chained) {
      for (uint32_t i : starting[t]) {
        if (wastes_nothing(i)) consider(i, lowest, 0);
      }
    }
    if (best == n) {
      live.ForEachLive(t, placed, kMaxCandidates, [&](uint32_t i) {
        const uint64_t alignment = items[i].alignment;  // A power of two.
        uint64_t top = 0;
        Wide below = 0;
        for (size_t x = lo[i]; x <= hi[i]; ++x) {
          top = std::max(top, floors.at(x));
          below += floors.at(x);
        }
        work += hi[i] - lo[i] + 1;
        const uint64_t offset = AlignUpInBound(top, alignment);
        consider(i, offset,
                 static_cast<Wide>(offset) * (hi[i] - lo[i] + 1) - below);
      });
    }
    if (work > max_work) return std::nullopt;
    if (best == n) {
      floors.Assign(t, t, kClosed);  // Nothing left to place over t.
      continue;
    }
    offsets[best] = best_offset;
    placed[best] = true;
    --remaining;
    work += hi[best] - lo[best] + 1;
    floors.Assign(lo[best], hi[best], best_offset + items[best].size);
  }
  return offsets;
}

}  // namespace planner
}  // namespace memplan
