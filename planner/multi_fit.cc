#include "planner/multi_fit.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <utility>

#include "planner/best_fit.h"
#include "planner/lower_bound.h"
#include "planner/skyline.h"
#include "planner/time_axis.h"

namespace memplan {
namespace planner {
namespace {

// Items the jittered tries may place beyond the four fixed tries: 20 tries
// at 100 items, 4 at 500, 1 at 2000, none above.
constexpr size_t kJitterBudget = 2000;
// Bottom-up placements compacted, lowest first.
constexpr size_t kCompacted = 3;
constexpr int kMaxFlips = 4;
// A bottom-up try that looks at more than this many times and items per
// item and time gives up: it bounds many long, nested lifetimes.
constexpr uint64_t kWorkPerItem = 256;

// splitmix64: a fixed stream on every standard library.
class Jitter {
 public:
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_ = 1;
};

// The lifetime's length less one (no overflow at the full int64 range).
uint64_t Span(const PlanItem& item) {
  return static_cast<uint64_t>(item.last) - static_cast<uint64_t>(item.first);
}

// rank[i]: n for the first item of `order`, 1 for the last.
std::vector<uint64_t> Ranks(const std::vector<size_t>& order) {
  std::vector<uint64_t> rank(order.size());
  for (size_t k = 0; k < order.size(); ++k) rank[order[k]] = order.size() - k;
  return rank;
}

class Tries {
 public:
  Tries(const std::vector<PlanItem>& items, const TimeAxis& times)
      : items_(items), times_(times) {}

  // Re-places every item lowest first in order of `offsets`: each one's old
  // offset stays free of the items re-placed before it, so none rises.
  std::vector<uint64_t> Compact(const std::vector<uint64_t>& offsets) const {
    std::vector<size_t> order(items_.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return offsets[a] < offsets[b];
    });
    return PlaceInOrder(items_, times_, order);
  }

  void Keep(std::vector<uint64_t> offsets) {
    const uint64_t height = PlacementHeight(items_, offsets);
    if (best_.offsets.empty() || height < best_.height) {
      best_.offsets = std::move(offsets);
      best_.height = height;
    }
  }

  // Mirrors the best placement (the top item comes down first) and
  // compacts it, while that lowers it. Mirrored offsets may be unaligned,
  // so a flip may also come out higher; it is then dropped.
  void Flip() {
    for (int flip = 0; flip < kMaxFlips; ++flip) {
      std::vector<uint64_t> mirrored(items_.size());
      for (size_t i = 0; i < items_.size(); ++i) {
        mirrored[i] = best_.height - best_.offsets[i] - items_[i].size;
      }
      const uint64_t before = best_.height;
      Keep(Compact(mirrored));
      if (best_.height == before) return;
    }
  }

  // Holds a bottom-up placement; only the kCompacted lowest get compacted
  // (compaction lowers a placement by a few percent, rarely past others).
  void Hold(std::optional<std::vector<uint64_t>> offsets) {
    if (!offsets) return;
    const uint64_t height = PlacementHeight(items_, *offsets);
    held_.emplace_back(height, std::move(*offsets));
    std::stable_sort(
        held_.begin(), held_.end(),
        [](const auto& a, const auto& b) { return a.first < b.first; });
    if (held_.size() > kCompacted) held_.pop_back();
  }
  void CompactHeld() {
    for (auto& [height, offsets] : held_) Keep(Compact(offsets));
    held_.clear();
  }

  uint64_t height() const { return best_.height; }
  Placement Take() { return std::move(best_); }

 private:
  const std::vector<PlanItem>& items_;
  const TimeAxis& times_;
  Placement best_;
  std::vector<std::pair<uint64_t, std::vector<uint64_t>>> held_;
};

}  // namespace

Result<Placement> MultiFitAlgorithm::Place(const std::vector<PlanItem>& items,
                                           const AlgorithmOptions&) const {
  MEMPLAN_RETURN_IF_ERROR(ValidatePlanItems(items));
  const size_t n = items.size();
  if (n == 0) return Placement{};
  const TimeAxis times = LifetimeAxis(items);
  Tries tries(items, times);

  // Best fit's own order: largest first, then longest, then item order.
  std::vector<size_t> by_size(n);
  std::iota(by_size.begin(), by_size.end(), 0);
  std::sort(by_size.begin(), by_size.end(), [&](size_t a, size_t b) {
    if (items[a].size != items[b].size) return items[a].size > items[b].size;
    if (Span(items[a]) != Span(items[b])) {
      return Span(items[a]) > Span(items[b]);
    }
    return a < b;
  });
  tries.Keep(PlaceInOrder(items, times, by_size));
  // Nothing beats the most bytes live at once.
  if (n > kMaxSkylineItems || tries.height() == LiveBytesLowerBound(items)) {
    return tries.Take();
  }

  std::vector<size_t> by_area = by_size;
  std::stable_sort(by_area.begin(), by_area.end(), [&](size_t a, size_t b) {
    return static_cast<unsigned __int128>(items[a].size) * Span(items[a]) >
           static_cast<unsigned __int128>(items[b].size) * Span(items[b]);
  });
  const uint64_t max_work = kWorkPerItem * (n + times.size());
  const std::vector<uint64_t> size_rank = Ranks(by_size);
  const std::vector<uint64_t> area_rank = Ranks(by_area);
  for (const std::vector<uint64_t>* rank : {&size_rank, &area_rank}) {
    for (SkylineDirection direction :
         {SkylineDirection::kForward, SkylineDirection::kBackward}) {
      tries.Hold(SkylinePlace(items, times, *rank, direction, max_work));
    }
  }
  // Sizes scaled by a random factor in [0, 1): other ties, other choices.
  Jitter jitter;
  std::vector<uint64_t> jittered(n);
  for (size_t spent = 0, k = 0; spent + n <= kJitterBudget; spent += n, ++k) {
    for (size_t i = 0; i < n; ++i) {
      jittered[i] = static_cast<uint64_t>(
          (static_cast<unsigned __int128>(items[i].size) * jitter.Next()) >>
          64);
    }
    const SkylineDirection direction =
        k % 2 == 0 ? SkylineDirection::kForward : SkylineDirection::kBackward;
    tries.Hold(SkylinePlace(items, times, jittered, direction, max_work));
  }
  tries.CompactHeld();
  tries.Flip();
  return tries.Take();
}

}  // namespace planner
}  // namespace memplan
