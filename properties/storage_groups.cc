#include "properties/storage_groups.h"

#include <algorithm>
#include <unordered_map>

#include "runtime/core/checked_math.h"

namespace memplan {
namespace properties {
namespace {

constexpr size_t kBroken = SIZE_MAX;

bool Placeable(const Allocation& a) {
  return a.size >= 0 && a.lifetime.first <= a.lifetime.last;
}

}  // namespace

StorageGroups GroupStorage(const Plan& plan) {
  const std::vector<Allocation>& allocations = plan.allocations;
  const size_t n = allocations.size();
  std::unordered_map<std::string, size_t> index_of;
  index_of.reserve(n);
  for (size_t i = 0; i < n; ++i) index_of.emplace(allocations[i].id, i);

  // root[i]: the end of i's alias chain (i itself for a base), kBroken
  // for a dangling or cyclic chain. Each allocation is resolved once.
  constexpr size_t kUnknown = SIZE_MAX - 1;
  constexpr size_t kInProgress = SIZE_MAX - 2;
  std::vector<size_t> root(n, kUnknown);
  std::vector<size_t> path;
  for (size_t i = 0; i < n; ++i) {
    path.clear();
    size_t at = i;
    size_t found;
    while (true) {
      if (root[at] == kInProgress) {  // On this path: a cycle.
        found = kBroken;
        break;
      }
      if (root[at] != kUnknown) {
        found = root[at];
        break;
      }
      if (!allocations[at].alias_of) {
        found = at;
        break;
      }
      auto it = index_of.find(*allocations[at].alias_of);
      if (it == index_of.end()) {
        found = kBroken;
        path.push_back(at);
        break;
      }
      root[at] = kInProgress;
      path.push_back(at);
      at = it->second;
    }
    for (size_t p : path) root[p] = found;
    if (root[i] == kUnknown) root[i] = found;
  }

  StorageGroups out;
  std::vector<size_t> group_of(n, kBroken);
  for (size_t i = 0; i < n; ++i) {
    if (root[i] != i) continue;
    if (!Placeable(allocations[i])) continue;
    group_of[i] = out.groups.size();
    out.groups.emplace_back();
    out.groups.back().mem_id = allocations[i].mem_id;
  }
  for (size_t i = 0; i < n; ++i) {
    const Allocation& a = allocations[i];
    const size_t r = root[i];
    if (r == kBroken || group_of[r] == kBroken || !Placeable(a)) {
      out.unplaceable.push_back(i);
      continue;
    }
    const Allocation& base = allocations[r];
    // Exact in unsigned arithmetic when a.offset >= base.offset.
    const uint64_t distance =
        static_cast<uint64_t>(a.offset) - static_cast<uint64_t>(base.offset);
    const uint64_t alignment = IsPowerOfTwo(static_cast<uint64_t>(a.alignment))
                                   ? static_cast<uint64_t>(a.alignment)
                                   : 1;
    uint64_t delta = 0;
    if (r != i && a.mem_id == base.mem_id && a.offset >= base.offset &&
        base.size >= a.size &&
        distance <= static_cast<uint64_t>(base.size - a.size) &&
        distance % alignment == 0) {
      delta = distance;
    }
    StorageGroup& group = out.groups[group_of[r]];
    const uint64_t extent = delta + static_cast<uint64_t>(a.size);
    // A lifetime with a hole is planned over its hull.
    const Lifetime hull = LifetimeHull(a);
    if (group.members.empty()) {
      group.item = {extent, alignment, hull.first, hull.last};
    } else {
      group.item.size = std::max(group.item.size, extent);
      group.item.alignment = std::max(group.item.alignment, alignment);
      group.item.lifetime.first =
          std::min(group.item.lifetime.first, hull.first);
      group.item.lifetime.last = std::max(group.item.lifetime.last, hull.last);
    }
    if (i == r) {
      group.members.insert(group.members.begin(), {i, delta});
    } else {
      group.members.push_back({i, delta});
    }
    if (a.shared_name) group.names.emplace_back(*a.shared_name, delta);
  }
  for (StorageGroup& group : out.groups) {
    std::sort(group.names.begin(), group.names.end());
  }
  return out;
}

}  // namespace properties
}  // namespace memplan
