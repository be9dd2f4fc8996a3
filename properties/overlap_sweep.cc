#include "properties/overlap_sweep.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <memory_resource>
#include <numeric>
#include <set>

namespace memplan {
namespace properties {
namespace {

struct ActiveKey {
  uint64_t begin;
  size_t index;
  bool operator<(const ActiveKey& other) const {
    return begin != other.begin ? begin < other.begin : index < other.index;
  }
  bool operator==(const ActiveKey& other) const {
    return begin == other.begin && index == other.index;
  }
};

bool Covers(const OverlapItem& outer, const OverlapItem& inner) {
  return outer.begin <= inner.begin && inner.end <= outer.end &&
         outer.last >= inner.last;
}

// Indices 0..n-1 stably ordered by time(i): an LSD radix sort on the
// distance from the earliest time, at most six 11-bit passes, so linear in n
// and free of the comparator calls that dominated the sweep.
template <typename TimeOf>
std::vector<size_t> StableOrderByTime(size_t n, TimeOf time) {
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (n < 2) return order;
  bool sorted = true;
  TimeValue low = time(0);
  TimeValue high = low;
  for (size_t i = 1; i < n; ++i) {
    const TimeValue t = time(i);
    sorted = sorted && time(i - 1) <= t;
    low = std::min(low, t);
    high = std::max(high, t);
  }
  // Planners usually emit allocations in time order: nothing to do then.
  if (sorted) return order;
  // Unsigned difference: exact even when the times span all of int64.
  auto key = [&](size_t i) {
    return static_cast<uint64_t>(time(i)) - static_cast<uint64_t>(low);
  };
  const uint64_t max_key =
      static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  constexpr int kDigitBits = 11;
  constexpr size_t kBuckets = size_t{1} << kDigitBits;
  std::vector<size_t> scratch(n);
  std::array<size_t, kBuckets> counts;
  for (int shift = 0; shift < 64 && (max_key >> shift) != 0;
       shift += kDigitBits) {
    counts.fill(0);
    for (size_t i : order) ++counts[(key(i) >> shift) & (kBuckets - 1)];
    size_t sum = 0;
    for (size_t& count : counts) {
      const size_t c = count;
      count = sum;
      sum += c;
    }
    for (size_t i : order) {
      scratch[counts[(key(i) >> shift) & (kBuckets - 1)]++] = i;
    }
    order.swap(scratch);
  }
  return order;
}

// The active set while few items are live at once (the usual case): a
// sorted vector, whose insert and expiry move at most kMaxSortedVector keys
// and whose walks are contiguous.
class SortedVectorSet {
 public:
  using const_iterator = std::vector<ActiveKey>::const_iterator;
  explicit SortedVectorSet(size_t capacity) { keys_.reserve(capacity); }
  const_iterator begin() const { return keys_.begin(); }
  const_iterator end() const { return keys_.end(); }
  // Branch-free halving: the compiler turns the step into a conditional
  // move, which beats std::lower_bound's unpredictable branches here.
  const_iterator lower_bound(const ActiveKey& key) const {
    if (keys_.empty()) return keys_.end();
    const ActiveKey* base = keys_.data();
    size_t length = keys_.size();
    while (length > 1) {
      const size_t half = length / 2;
      base = base[half - 1] < key ? base + half : base;
      length -= half;
    }
    return keys_.begin() + (base - keys_.data()) + (*base < key ? 1 : 0);
  }
  // hint: lower_bound({key.begin, 0}); only equal begins lie between.
  void insert(const_iterator hint, const ActiveKey& key) {
    while (hint != keys_.end() && *hint < key) ++hint;
    keys_.insert(hint, key);
  }
  // Expiry comes in batches (every item that ended before the next one
  // starts): one compaction pass per batch instead of one move per key.
  void Expire(const ActiveKey& /*key*/) { expired_ = true; }
  void FinishExpiry(const std::vector<uint8_t>& in_active) {
    if (!expired_) return;
    expired_ = false;
    keys_.erase(std::remove_if(keys_.begin(), keys_.end(),
                               [&](const ActiveKey& key) {
                                 return in_active[key.index] == 0;
                               }),
                keys_.end());
  }

 private:
  std::vector<ActiveKey> keys_;
  bool expired_ = false;  // Some keys wait for FinishExpiry.
};

// Past this many live items a balanced tree wins, and keeps the worst case
// at O(log n) per item.
constexpr size_t kMaxSortedVector = 512;

// A balanced tree whose nodes come from a pool, so an insert after an
// erase reuses memory instead of calling malloc.
class TreeSet {
 public:
  using const_iterator = std::pmr::set<ActiveKey>::const_iterator;
  explicit TreeSet(size_t /*capacity*/) {}
  const_iterator begin() const { return keys_.begin(); }
  const_iterator end() const { return keys_.end(); }
  const_iterator lower_bound(const ActiveKey& key) const {
    return keys_.lower_bound(key);
  }
  void insert(const_iterator hint, const ActiveKey& key) {
    keys_.insert(hint, key);
  }
  void Expire(const ActiveKey& key) { keys_.erase(key); }
  void FinishExpiry(const std::vector<uint8_t>& /*in_active*/) {}

 private:
  std::pmr::unsynchronized_pool_resource pool_;
  std::pmr::set<ActiveKey> keys_{&pool_};
};

// The most items live at one time; bounds the active set.
size_t MaxLive(const std::vector<OverlapItem>& items,
               const std::vector<size_t>& by_first,
               const std::vector<size_t>& by_last) {
  size_t live = 0;
  size_t peak = 0;
  size_t next_expiry = 0;
  for (size_t x : by_first) {
    while (next_expiry < by_last.size() &&
           items[by_last[next_expiry]].last < items[x].first) {
      ++next_expiry;
      --live;
    }
    peak = std::max(peak, ++live);
  }
  return peak;
}

template <typename ActiveSet>
void Sweep(const std::vector<OverlapItem>& items,
           const std::vector<size_t>& by_first,
           const std::vector<size_t>& by_last, size_t capacity,
           size_t max_pairs, OverlapFindings& findings) {
  const size_t n = items.size();
  // Bounds the walk to the left: no entry reaches further right than its
  // begin plus the longest item.
  uint64_t reach = 0;
  for (const OverlapItem& item : items) {
    reach = std::max(reach, item.end - item.begin);
  }
  ActiveSet active(capacity);
  std::vector<uint8_t> in_active(n, 0);
  size_t next_expiry = 0;
  auto record = [&](size_t earlier, size_t later) {
    ++findings.count;
    if (findings.pairs.size() < max_pairs) {
      findings.pairs.push_back({earlier, later});
    }
  };

  for (size_t x_index : by_first) {
    const OverlapItem& x = items[x_index];
    while (next_expiry < n && items[by_last[next_expiry]].last < x.first) {
      const size_t expired = by_last[next_expiry++];
      if (in_active[expired]) {
        in_active[expired] = 0;
        active.Expire({items[expired].begin, expired});
      }
    }
    active.FinishExpiry(in_active);
    bool conflict = false;
    bool covered = false;
    auto visit = [&](size_t y_index) {
      const OverlapItem& y = items[y_index];
      if (y.family == x.family) {
        covered = covered || Covers(y, x);
      } else {
        record(y_index, x_index);
        conflict = true;
      }
    };
    auto right = active.lower_bound({x.begin, 0});
    for (auto it = right; it != active.end() && it->begin < x.end; ++it) {
      visit(it->index);
    }
    if (right != active.begin()) {
      auto it = std::prev(right);
      const size_t family = items[it->index].family;
      // Live entries that overlap each other share a family (conflicting
      // ones never enter), so only this family can reach x from the left.
      while (true) {
        const OverlapItem& y = items[it->index];
        if (y.family != family || x.begin - y.begin >= reach) break;
        if (y.end > x.begin) visit(it->index);
        if (it == active.begin()) break;
        --it;
      }
    }
    if (!conflict && !covered) {
      active.insert(right, {x.begin, x_index});
      in_active[x_index] = 1;
    }
  }
}

}  // namespace

OverlapFindings FindOverlapsSweep(const std::vector<OverlapItem>& items,
                                  size_t max_pairs) {
  OverlapFindings findings;
  if (items.empty()) return findings;
  // Stable by first, so ties keep index order: items go live in
  // (first, index) order. Ties in last may expire in any order.
  const std::vector<size_t> by_first =
      StableOrderByTime(items.size(), [&](size_t i) { return items[i].first; });
  const std::vector<size_t> by_last =
      StableOrderByTime(items.size(), [&](size_t i) { return items[i].last; });
  const size_t peak = MaxLive(items, by_first, by_last);
  if (peak <= kMaxSortedVector) {
    Sweep<SortedVectorSet>(items, by_first, by_last, peak, max_pairs, findings);
  } else {
    Sweep<TreeSet>(items, by_first, by_last, peak, max_pairs, findings);
  }
  return findings;
}

}  // namespace properties
}  // namespace memplan
