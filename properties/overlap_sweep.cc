#include "properties/overlap_sweep.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <memory_resource>
#include <numeric>
#include <set>
#include <utility>

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

// Counts, per group of items, the active ones whose key lies below a bound:
// each group's keys sorted once, with a Fenwick tree over its slots, so an
// update or a count is O(log n) however the active items nest.
class GroupedKeyCounter {
 public:
  // group_of[i] is item i's group, numbered densely from 0.
  GroupedKeyCounter(const std::vector<uint64_t>& keys,
                    const std::vector<size_t>& group_of)
      : sorted_(keys.size()), slot_(keys.size()), tree_(keys.size(), 0) {
    const size_t num_groups =
        group_of.empty()
            ? 0
            : *std::max_element(group_of.begin(), group_of.end()) + 1;
    start_.assign(num_groups + 1, 0);
    for (size_t g : group_of) ++start_[g + 1];
    for (size_t g = 0; g < num_groups; ++g) start_[g + 1] += start_[g];
    std::vector<size_t> order(keys.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return group_of[a] != group_of[b] ? group_of[a] < group_of[b]
                                        : keys[a] < keys[b];
    });
    for (size_t s = 0; s < order.size(); ++s) {
      sorted_[s] = keys[order[s]];
      slot_[order[s]] = s;
    }
  }
  void Add(size_t item, size_t group, int delta) {
    const size_t base = start_[group];
    const size_t size = start_[group + 1] - base;
    for (size_t i = slot_[item] - base + 1; i <= size; i += LowBit(i)) {
      tree_[base + i - 1] += delta;
    }
  }
  // Active items of the group whose key is < bound.
  uint64_t CountBelow(size_t group, uint64_t bound) const {
    const size_t base = start_[group];
    const auto first = sorted_.begin() + static_cast<std::ptrdiff_t>(base);
    const auto last =
        sorted_.begin() + static_cast<std::ptrdiff_t>(start_[group + 1]);
    int64_t count = 0;
    for (auto i =
             static_cast<size_t>(std::lower_bound(first, last, bound) - first);
         i > 0; i -= LowBit(i)) {
      count += tree_[base + i - 1];
    }
    return static_cast<uint64_t>(count);
  }

 private:
  static size_t LowBit(size_t i) { return i & (~i + 1); }
  std::vector<size_t> start_;     // Group g's slots: [start_[g], start_[g+1]).
  std::vector<uint64_t> sorted_;  // Keys by group, then by value.
  std::vector<size_t> slot_;      // Item -> its slot.
  std::vector<int64_t> tree_;     // One Fenwick tree per group's slots.
};

// Item i's family, renumbered densely from 0 (families are any numbers).
std::vector<size_t> DenseFamilies(const std::vector<OverlapItem>& items) {
  std::vector<std::pair<size_t, size_t>> by_family(items.size());
  for (size_t i = 0; i < items.size(); ++i) by_family[i] = {items[i].family, i};
  std::sort(by_family.begin(), by_family.end());
  std::vector<size_t> dense(items.size());
  size_t next = 0;
  for (size_t k = 0; k < by_family.size(); ++k) {
    if (k > 0 && by_family[k].first != by_family[k - 1].first) ++next;
    dense[by_family[k].second] = next;
  }
  return dense;
}

template <typename Field>
std::vector<uint64_t> KeysOf(const std::vector<OverlapItem>& items,
                             Field field) {
  std::vector<uint64_t> keys(items.size());
  for (size_t i = 0; i < items.size(); ++i) keys[i] = items[i].*field;
  return keys;
}

// How many active items of another family overlap an item's bytes, without
// walking them: the active items that overlap [begin, end) are those that
// begin before end, less those that end at or before begin; counted over
// all families and over the item's own, the difference is the conflicts.
class ConflictCounter {
 public:
  explicit ConflictCounter(const std::vector<OverlapItem>& items)
      : family_(DenseFamilies(items)),
        all_begins_(KeysOf(items, &OverlapItem::begin),
                    std::vector<size_t>(items.size(), 0)),
        all_ends_(KeysOf(items, &OverlapItem::end),
                  std::vector<size_t>(items.size(), 0)),
        family_begins_(KeysOf(items, &OverlapItem::begin), family_),
        family_ends_(KeysOf(items, &OverlapItem::end), family_) {}
  // Item i becomes active (+1) or leaves the active set (-1).
  void Add(size_t i, int delta) {
    all_begins_.Add(i, 0, delta);
    all_ends_.Add(i, 0, delta);
    family_begins_.Add(i, family_[i], delta);
    family_ends_.Add(i, family_[i], delta);
  }
  // Active items of other families whose bytes overlap those of item i, x.
  uint64_t Conflicts(size_t i, const OverlapItem& x) const {
    // end <= begin  <=>  end < begin + 1 (begin < end, so no overflow).
    const uint64_t all =
        all_begins_.CountBelow(0, x.end) - all_ends_.CountBelow(0, x.begin + 1);
    const size_t f = family_[i];
    const uint64_t own = family_begins_.CountBelow(f, x.end) -
                         family_ends_.CountBelow(f, x.begin + 1);
    return all - own;
  }

 private:
  std::vector<size_t> family_;  // Declared first: the counters below use it.
  GroupedKeyCounter all_begins_;
  GroupedKeyCounter all_ends_;
  GroupedKeyCounter family_begins_;
  GroupedKeyCounter family_ends_;
};

// Calls visit(y) for each active entry y whose bytes overlap x's, in the
// set's order from x's begin rightwards, then leftwards; stops when visit
// returns false.
template <typename ActiveSet, typename Visit>
void ForEachOverlapping(const std::vector<OverlapItem>& items,
                        const ActiveSet& active,
                        typename ActiveSet::const_iterator right,
                        const OverlapItem& x, uint64_t reach, Visit visit) {
  for (auto it = right; it != active.end() && it->begin < x.end; ++it) {
    if (!visit(it->index)) return;
  }
  if (right == active.begin()) return;
  auto it = std::prev(right);
  const size_t family = items[it->index].family;
  // Live entries that overlap each other share a family (conflicting ones
  // never enter), so only this family can reach x from the left.
  while (true) {
    const OverlapItem& y = items[it->index];
    if (y.family != family || x.begin - y.begin >= reach) return;
    if (y.end > x.begin && !visit(it->index)) return;
    if (it == active.begin()) return;
    --it;
  }
}

// Whether an active entry of x's family covers x, looking at no more than
// kMaxCoverLook entries: only those at x's begin and its left neighbours
// can. Called only where x conflicts with nothing, so every entry that
// overlaps x is of its family.
constexpr size_t kMaxCoverLook = 64;

template <typename ActiveSet>
bool CoveredNearby(const std::vector<OverlapItem>& items,
                   const ActiveSet& active,
                   typename ActiveSet::const_iterator right,
                   const OverlapItem& x) {
  size_t look = kMaxCoverLook;
  for (auto it = right; it != active.end() && it->begin == x.begin; ++it) {
    if (Covers(items[it->index], x)) return true;
    if (--look == 0) return false;
  }
  for (auto it = right; it != active.begin();) {
    --it;
    const OverlapItem& y = items[it->index];
    if (y.family != x.family) return false;
    if (Covers(y, x)) return true;
    if (--look == 0) return false;
  }
  return false;
}

// The sweep. With a ConflictCounter (large active sets), an item's conflicts
// are counted in O(log n) and the set is walked only to name pairs while
// fewer than max_pairs are named (each such walk names at least one, so
// these walks cost O(max_pairs n) in all) and for a bounded look for a
// covering entry. Without one (at most kMaxSortedVector live), one walk over
// the entries that overlap x does both, and costs at most that many steps.
template <typename ActiveSet>
void Sweep(const std::vector<OverlapItem>& items,
           const std::vector<size_t>& by_first,
           const std::vector<size_t>& by_last, size_t capacity,
           size_t max_pairs, ConflictCounter* counter,
           OverlapFindings& findings) {
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

  for (size_t x_index : by_first) {
    const OverlapItem& x = items[x_index];
    while (next_expiry < n && items[by_last[next_expiry]].last < x.first) {
      const size_t expired = by_last[next_expiry++];
      if (in_active[expired]) {
        in_active[expired] = 0;
        active.Expire({items[expired].begin, expired});
        if (counter != nullptr) counter->Add(expired, -1);
      }
    }
    active.FinishExpiry(in_active);
    const auto right = active.lower_bound({x.begin, 0});
    auto name = [&](size_t y_index) {
      if (items[y_index].family != x.family &&
          findings.pairs.size() < max_pairs) {
        findings.pairs.push_back({y_index, x_index});
      }
    };
    uint64_t conflicts = 0;
    bool covered = false;
    if (counter == nullptr) {
      ForEachOverlapping(items, active, right, x, reach, [&](size_t y_index) {
        const OverlapItem& y = items[y_index];
        if (y.family == x.family) {
          covered = covered || Covers(y, x);
        } else {
          ++conflicts;
          name(y_index);
        }
        return true;
      });
    } else {
      conflicts = counter->Conflicts(x_index, x);
      if (conflicts == 0) {
        covered = CoveredNearby(items, active, right, x);
      } else if (findings.pairs.size() < max_pairs) {
        ForEachOverlapping(items, active, right, x, reach, [&](size_t y_index) {
          name(y_index);
          return findings.pairs.size() < max_pairs;
        });
      }
    }
    findings.count += conflicts;
    if (conflicts == 0 && !covered) {
      active.insert(right, {x.begin, x_index});
      in_active[x_index] = 1;
      if (counter != nullptr) counter->Add(x_index, 1);
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
    Sweep<SortedVectorSet>(items, by_first, by_last, peak, max_pairs,
                           /*counter=*/nullptr, findings);
  } else {
    ConflictCounter counter(items);
    Sweep<TreeSet>(items, by_first, by_last, peak, max_pairs, &counter,
                   findings);
  }
  return findings;
}

}  // namespace properties
}  // namespace memplan
