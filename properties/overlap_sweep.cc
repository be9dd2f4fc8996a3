#include "properties/overlap_sweep.h"

#include <algorithm>
#include <iterator>
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
};

bool Covers(const OverlapItem& outer, const OverlapItem& inner) {
  return outer.begin <= inner.begin && inner.end <= outer.end &&
         outer.last >= inner.last;
}

}  // namespace

OverlapFindings FindOverlapsSweep(const std::vector<OverlapItem>& items,
                                  size_t max_pairs) {
  const size_t n = items.size();
  OverlapFindings findings;
  std::vector<size_t> by_first(n), by_last(n);
  std::iota(by_first.begin(), by_first.end(), 0);
  std::iota(by_last.begin(), by_last.end(), 0);
  auto first_order = [&](size_t a, size_t b) {
    return items[a].first != items[b].first ? items[a].first < items[b].first
                                            : a < b;
  };
  auto last_order = [&](size_t a, size_t b) {
    return items[a].last < items[b].last;
  };
  // Planners usually emit allocations in time order: skip sorting then.
  if (!std::is_sorted(by_first.begin(), by_first.end(), first_order)) {
    std::sort(by_first.begin(), by_first.end(), first_order);
  }
  if (!std::is_sorted(by_last.begin(), by_last.end(), last_order)) {
    std::sort(by_last.begin(), by_last.end(), last_order);
  }
  // Bounds the walk to the left: no entry reaches further right than its
  // begin plus the longest item.
  uint64_t reach = 0;
  for (const OverlapItem& item : items) {
    reach = std::max(reach, item.end - item.begin);
  }

  std::set<ActiveKey> active;
  std::vector<bool> in_active(n, false);
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
      size_t expired = by_last[next_expiry++];
      if (in_active[expired]) {
        active.erase({items[expired].begin, expired});
        in_active[expired] = false;
      }
    }
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
      active.insert({x.begin, x_index});
      in_active[x_index] = true;
    }
  }
  return findings;
}

}  // namespace properties
}  // namespace memplan
