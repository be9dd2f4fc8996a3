#include "planner/best_fit.h"

#include <algorithm>
#include <numeric>

#include "planner/highest_ends.h"
#include "planner/lower_bound.h"
#include "planner/time_axis.h"
#include "runtime/core/checked_math.h"

namespace memplan {
namespace planner {
namespace {

// See PlaceInOrder's skip_sets.
constexpr size_t kSkipGrace = 64;

// Disjoint half-open byte ranges [start, end), sorted; touching or
// overlapping ranges are merged, so a densely packed region is one entry and
// a sorted vector stays short (cheaper than a node-based map here).
class ByteRanges {
 public:
  void Add(uint64_t start, uint64_t end) {
    // First range that ends at or after `start`: it may merge with ours.
    auto first = std::lower_bound(
        ranges_.begin(), ranges_.end(), start,
        [](const Range& r, uint64_t value) { return r.end < value; });
    auto last = first;
    while (last != ranges_.end() && last->start <= end) {
      start = std::min(start, last->start);
      end = std::max(end, last->end);
      ++last;
    }
    if (first == last) {
      ranges_.insert(first, Range{start, end});
    } else {
      *first = Range{start, end};
      ranges_.erase(first + 1, last);
    }
  }

  struct Range {
    uint64_t start;
    uint64_t end;
  };

  // The first range that ends after `offset` (or end()).
  const Range* FirstEndingAfter(uint64_t offset) const {
    const auto it = std::upper_bound(
        ranges_.begin(), ranges_.end(), offset,
        [](uint64_t value, const Range& r) { return value < r.end; });
    return ranges_.data() + (it - ranges_.begin());
  }
  const Range* end() const { return ranges_.data() + ranges_.size(); }
  bool empty() const { return ranges_.empty(); }

 private:
  std::vector<Range> ranges_;
};

// Bottom-up segment tree over compressed time. An item is stored in `own`
// of the O(log T) nodes that exactly cover its lifetime, and in `sub` of
// those nodes and of every node on the paths from its two end leaves to the
// root. The occupied bytes over a lifetime are then the union of `sub` of
// the covering nodes and `own` of the nodes on the two end paths, so a
// query touches O(log T) sets instead of every overlapping item.
class OccupancyTree {
 public:
  explicit OccupancyTree(size_t leaves) {
    size_ = 1;
    while (size_ < leaves) size_ <<= 1;
    own_.assign(2 * size_, kNone);
    sub_.assign(2 * size_, kNone);
  }

  void Insert(size_t lo, size_t hi, uint64_t start, uint64_t end) {
    for (size_t l = lo + size_, r = hi + size_ + 1; l < r; l >>= 1, r >>= 1) {
      if (l & 1) {
        Set(&own_, l).Add(start, end);
        Set(&sub_, l++).Add(start, end);
      }
      if (r & 1) {
        Set(&own_, --r).Add(start, end);
        Set(&sub_, r).Add(start, end);
      }
    }
    for (size_t a = (lo + size_) >> 1, b = (hi + size_) >> 1; a >= 1;
         a >>= 1, b >>= 1) {
      Set(&sub_, a).Add(start, end);
      if (b != a) Set(&sub_, b).Add(start, end);
    }
  }

  // The sets whose union is everything placed during [lo, hi]; valid until
  // the next Insert (the sets live in one vector).
  void Collect(size_t lo, size_t hi,
               std::vector<const ByteRanges*>* out) const {
    out->clear();
    for (size_t l = lo + size_, r = hi + size_ + 1; l < r; l >>= 1, r >>= 1) {
      if (l & 1) Push(sub_, l++, out);
      if (r & 1) Push(sub_, --r, out);
    }
    for (size_t a = lo + size_, b = hi + size_; a >= 1; a >>= 1, b >>= 1) {
      Push(own_, a, out);
      if (b != a) Push(own_, b, out);
    }
  }

 private:
  static constexpr uint32_t kNone = 0xffffffffu;

  ByteRanges& Set(std::vector<uint32_t>* index, size_t node) {
    uint32_t& id = (*index)[node];
    if (id == kNone) {
      id = static_cast<uint32_t>(storage_.size());
      storage_.emplace_back();
    }
    return storage_[id];
  }

  void Push(const std::vector<uint32_t>& index, size_t node,
            std::vector<const ByteRanges*>* out) const {
    if (index[node] != kNone && !storage_[index[node]].empty()) {
      out->push_back(&storage_[index[node]]);
    }
  }

  size_t size_ = 1;
  std::vector<uint32_t> own_;
  std::vector<uint32_t> sub_;
  std::vector<ByteRanges> storage_;
};

// A lower bound, per time, on the top of the block of bytes occupied from
// offset 0 up at that time: the candidate offset of an item can start at the
// highest bound over its lifetime, since every offset below is taken at one
// of its times. Without it, an item over many others placed in another
// order (nested lifetimes, as training graphs keep activations) walks every
// fragment of the occupancy sets below the top: O(n) per item.
//
// Placing [start, end) over [lo, hi] at the lowest free offset means no
// bound there exceeds start; where one equals start the block now reaches
// end. Bounds below start are left alone (the block may reach start through
// other items, but need not), so the bound is never above the true top.
class BlockTops {
 public:
  explicit BlockTops(size_t leaves) {
    size_ = 1;
    while (size_ < leaves) size_ <<= 1;
    max_.assign(2 * size_, 0);
    min_.assign(2 * size_, 0);
  }

  uint64_t Max(size_t lo, size_t hi) { return Max(1, 0, size_ - 1, lo, hi); }

  // Every bound in [lo, hi] equal to start becomes end (start < end).
  void Raise(size_t lo, size_t hi, uint64_t start, uint64_t end) {
    Raise(1, 0, size_ - 1, lo, hi, start, end);
  }

 private:
  uint64_t Max(size_t node, size_t nl, size_t nr, size_t lo, size_t hi) {
    if (hi < nl || nr < lo) return 0;
    // A node whose bounds are all one value answers for all its leaves.
    if ((lo <= nl && nr <= hi) || max_[node] == min_[node]) return max_[node];
    const size_t mid = nl + (nr - nl) / 2;
    return std::max(Max(2 * node, nl, mid, lo, hi),
                    Max(2 * node + 1, mid + 1, nr, lo, hi));
  }

  void Raise(size_t node, size_t nl, size_t nr, size_t lo, size_t hi,
             uint64_t start, uint64_t end) {
    if (hi < nl || nr < lo || max_[node] < start || min_[node] > start) {
      return;
    }
    if (lo <= nl && nr <= hi && min_[node] == start && max_[node] == start) {
      Assign(node, end);
      return;
    }
    PushDown(node);
    const size_t mid = nl + (nr - nl) / 2;
    Raise(2 * node, nl, mid, lo, hi, start, end);
    Raise(2 * node + 1, mid + 1, nr, lo, hi, start, end);
    max_[node] = std::max(max_[2 * node], max_[2 * node + 1]);
    min_[node] = std::min(min_[2 * node], min_[2 * node + 1]);
  }

  void Assign(size_t node, uint64_t value) { max_[node] = min_[node] = value; }
  // A node whose bounds are all one value hands it to its children.
  void PushDown(size_t node) {
    if (max_[node] == min_[node] && node < size_) {
      Assign(2 * node, max_[node]);
      Assign(2 * node + 1, max_[node]);
    }
  }

  size_t size_ = 1;
  std::vector<uint64_t> max_;
  std::vector<uint64_t> min_;
};

// A placed item's bytes [start, end).
struct ByteRange {
  uint64_t start, end;
};
bool StartsBefore(const ByteRange& a, const ByteRange& b) {
  return a.start < b.start;
}

// The lowest aligned offset where `item` meets none of `count` conflicts,
// the k-th [start(k), end(k)), in order of start. Offsets stay below
// sum(size + alignment - 1), as ValidatePlanItems bounded; a conflict that
// ends at or below the candidate no longer matters, since the candidate
// only rises.
template <typename Start, typename End>
uint64_t LowestFree(size_t count, const PlanItem& item, Start start, End end) {
  uint64_t offset = 0;
  for (size_t k = 0; k < count; ++k) {
    if (start(k) >= offset + item.size) break;
    const uint64_t top = end(k);
    if (top > offset) CheckedAlignUp(top, item.alignment, &offset);
  }
  return offset;
}

// The same placement, each item's conflicts gathered by `for_each_earlier`
// (which calls back with every item placed before it that it overlaps in
// time), sorted by offset and passed in one sweep. The lowest free aligned
// offset is unique, so every way of finding the conflicts gives the same
// offsets.
template <typename ForEachEarlier>
std::vector<uint64_t> PlaceBySweep(const std::vector<PlanItem>& items,
                                   const std::vector<size_t>& order,
                                   ForEachEarlier for_each_earlier) {
  std::vector<uint64_t> offsets(items.size(), 0);
  std::vector<ByteRange> conflicts;
  for (size_t i : order) {
    const PlanItem& item = items[i];
    if (item.size == 0) continue;  // Occupies no byte: offset 0 is valid.
    conflicts.clear();
    for_each_earlier(i, [&](size_t j) {
      conflicts.push_back({offsets[j], offsets[j] + items[j].size});
    });
    std::sort(conflicts.begin(), conflicts.end(), StartsBefore);
    offsets[i] = LowestFree(
        conflicts.size(), item, [&](size_t k) { return conflicts[k].start; },
        [&](size_t k) { return conflicts[k].end; });
  }
  return offsets;
}

// For small partitions: every item placed before is looked at. O(n^2) time
// checks, but no sets to build (multi_fit places a partition a dozen times).
std::vector<uint64_t> PlaceInOrderByScan(const std::vector<PlanItem>& items,
                                         const std::vector<size_t>& order) {
  std::vector<size_t> placed;
  return PlaceBySweep(items, order, [&](size_t i, auto conflict) {
    const PlanItem& item = items[i];
    for (size_t j : placed) {
      if (items[j].lifetime.first <= item.lifetime.last &&
          item.lifetime.first <= items[j].lifetime.last) {
        conflict(j);
      }
    }
    placed.push_back(i);
  });
}

}  // namespace

std::vector<uint64_t> PlaceInOrder(const std::vector<PlanItem>& items,
                                   const TimeAxis& times,
                                   const std::vector<size_t>& order) {
  if (order.size() <= kMaxScanItems) return PlaceInOrderByScan(items, order);
  std::vector<uint64_t> offsets(items.size(), 0);
  OccupancyTree tree(times.size());
  BlockTops tops(times.size());
  HighestEnds ends(times.size());
  // Items placed at or above every end over their lifetimes (each one at
  // its candidate, no set looked at) go into the tree only when a later
  // item needs its sets: with nested lifetimes (activations kept for a
  // backward pass) none ever does.
  struct Pending {
    size_t lo, hi;
    uint64_t start, end;
  };
  std::vector<Pending> pending;
  // Where few items can skip, the highest ends cost more than they save:
  // on planner_bench's model-like PlanWorkload/best_fit/100000, where
  // 99,929 of 100,000 items had to look, the medians were 470-530 ms with
  // them against 433-476 ms without (interleaved runs). Once kSkipGrace
  // more items looked than skipped, they are dropped for good and every
  // item looks.
  bool skip_sets = true;
  size_t looked = 0, skipped = 0;
  std::vector<const ByteRanges*> sets;
  // Per set, its first range that may still meet the candidate: the
  // candidate only rises, so each cursor only moves forward.
  struct Cursor {
    const ByteRanges::Range* at;
    const ByteRanges::Range* end;
  };
  std::vector<Cursor> cursors;
  for (size_t i : order) {
    const PlanItem& item = items[i];
    if (item.size == 0) continue;  // Occupies no byte: offset 0 is valid.
    const size_t lo = times.IndexOf(item.lifetime.first);
    const size_t hi = times.IndexOf(item.lifetime.last);
    // Raise the candidate past each conflict until no set objects. Offsets
    // stay below sum(size + alignment - 1), which ValidatePlanItems bounded.
    uint64_t offset = 0;
    const uint64_t block_top = tops.Max(lo, hi);
    CheckedAlignUp(block_top, item.alignment, &offset);
    if (!skip_sets || ends.Above(lo, hi, offset)) {
      if (skip_sets && ++looked > skipped + kSkipGrace) {
        skip_sets = false;
      }
      for (const Pending& p : pending) tree.Insert(p.lo, p.hi, p.start, p.end);
      pending.clear();
      tree.Collect(lo, hi, &sets);
      cursors.clear();
      for (const ByteRanges* set : sets) {
        cursors.push_back({set->FirstEndingAfter(offset), set->end()});
      }
      // Round the sets until each in turn has left the candidate alone.
      for (size_t s = 0, clean = 0; clean < cursors.size();
           s = s + 1 == cursors.size() ? 0 : s + 1) {
        ++clean;
        Cursor& c = cursors[s];
        for (; c.at != c.end && c.at->start < offset + item.size; ++c.at) {
          if (c.at->end > offset) {
            CheckedAlignUp(c.at->end, item.alignment, &offset);
            clean = 1;
          }
        }
      }
      tree.Insert(lo, hi, offset, offset + item.size);
    } else {
      ++skipped;
      pending.push_back({lo, hi, offset, offset + item.size});
    }
    offsets[i] = offset;
    if (skip_sets) ends.Raise(lo, hi, offset + item.size);
    // No bound over the lifetime exceeds block_top: only an item right on
    // it can raise one.
    if (offset == block_top) tops.Raise(lo, hi, offset, offset + item.size);
  }
  return offsets;
}

std::vector<uint64_t> PlaceInOrder(const std::vector<PlanItem>& items,
                                   const OverlapGraph& overlaps,
                                   const std::vector<size_t>& order) {
  return GraphPlacer(items, overlaps).Place(order);
}

std::vector<uint64_t> GraphPlacer::Place(const std::vector<size_t>& order) {
  const std::vector<uint32_t>& neighbors = overlaps_.neighbors();
  if (neighbors.size() > kMaxPushed) {
    std::vector<uint8_t> placed(items_.size(), 0);
    return PlaceBySweep(items_, order, [&](size_t i, auto conflict) {
      for (size_t e = overlaps_.begin(i); e < overlaps_.end(i); ++e) {
        if (placed[neighbors[e]]) conflict(neighbors[e]);
      }
      placed[i] = 1;
    });
  }
  // Each item's conflicts (its neighbours placed before it) are pushed as
  // they are placed, into the slots of its own adjacency list, and put in
  // order of offset by insertion: in a compaction's order (by offset) they
  // come nearly sorted. Where they do not (more than kMaxMovesPerConflict
  // moves each), std::sort finishes. Sorting each item's conflicts afresh
  // had been 29% of multi_fit's time on asplos2024 D and J, whose items
  // meet 118 and 141 others on average. A move is cheap against a sort's
  // comparisons: with 16-byte ranges in the slots (7ac460a), 921k pairs
  // took 5-15% longer than a sort each at 16 moves, and every bound from 4
  // to 128 did better the larger it was. With item numbers in the slots,
  // 4,000 random lifetimes with 467k pairs take 226-232 ms in a warm loop
  // against 197-207 ms with a sort each, but a single run 233 ms against
  // 248 ms (one core).
  constexpr size_t kMaxMovesPerConflict = 64;
  // The buffers, as locals while placing (members, every store to them
  // made the compiler read the others' addresses again: J 13.3 ms against
  // 7.9 ms), given back at the end.
  std::vector<uint32_t> count = std::move(count_);
  std::vector<uint32_t> pushed = std::move(pushed_);
  const size_t n = items_.size();
  count.assign(n, 0);
  pushed.resize(neighbors.size());
  std::vector<uint64_t> offsets(n, 0);
  auto below = [&](uint32_t a, uint32_t b) { return offsets[a] < offsets[b]; };
  for (size_t i : order) {
    const PlanItem& item = items_[i];
    if (item.size == 0) continue;  // Occupies no byte: offset 0 is valid.
    uint32_t* conflicts = pushed.data() + overlaps_.begin(i);
    const size_t conflicts_size = count[i];
    const size_t max_moves = kMaxMovesPerConflict * conflicts_size;
    size_t moves = 0;
    for (size_t a = 1; a < conflicts_size && moves <= max_moves; ++a) {
      const uint32_t c = conflicts[a];
      size_t b = a;
      for (; b > 0 && below(c, conflicts[b - 1]); --b) {
        conflicts[b] = conflicts[b - 1];
      }
      conflicts[b] = c;
      moves += a - b;
    }
    if (moves > max_moves) {
      std::sort(conflicts, conflicts + conflicts_size, below);
    }
    const uint64_t offset = LowestFree(
        conflicts_size, item, [&](size_t k) { return offsets[conflicts[k]]; },
        [&](size_t k) {
          return offsets[conflicts[k]] + items_[conflicts[k]].size;
        });
    offsets[i] = offset;
    // Pushed to every neighbour: one placed before never reads its slots
    // again, and each neighbour pushes once, so no count passes its degree.
    for (size_t e = overlaps_.begin(i); e < overlaps_.end(i); ++e) {
      const uint32_t j = neighbors[e];
      pushed[overlaps_.begin(j) + count[j]++] = static_cast<uint32_t>(i);
    }
  }
  count_ = std::move(count);
  pushed_ = std::move(pushed);
  return offsets;
}

TimeAxis LifetimeAxis(const std::vector<PlanItem>& items) {
  std::vector<TimeValue> endpoints;
  endpoints.reserve(2 * items.size());
  for (const PlanItem& item : items) {
    endpoints.push_back(item.lifetime.first);
    endpoints.push_back(item.lifetime.last);
  }
  return TimeAxis(std::move(endpoints));
}

Result<Placement> BestFitAlgorithm::Place(const std::vector<PlanItem>& items,
                                          const AlgorithmOptions&) const {
  MEMPLAN_RETURN_IF_ERROR(ValidatePlanItems(items));
  const size_t n = items.size();
  Placement placement;
  if (n == 0) return placement;

  // Largest first; then longest lifetime; then item order, for determinism.
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const PlanItem& x = items[a];
    const PlanItem& y = items[b];
    if (x.size != y.size) return x.size > y.size;
    const uint64_t lx =
        static_cast<uint64_t>(x.lifetime.last) - x.lifetime.first;
    const uint64_t ly =
        static_cast<uint64_t>(y.lifetime.last) - y.lifetime.first;
    if (lx != ly) return lx > ly;
    return a < b;
  });
  placement.offsets = PlaceInOrder(items, LifetimeAxis(items), order);
  placement.height = PlacementHeight(items, placement.offsets);
  return placement;
}

}  // namespace planner
}  // namespace memplan
