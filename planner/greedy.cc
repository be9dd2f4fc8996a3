// Matches ExecuTorch's greedy + pick_shared_obj + materialize_buffer
// (exir/memory_planning.py, the version with allow_overlapping_allocations):
// - Order: bisect.insort by allocated size (stable ascending), then reversed:
//   largest first, and equal sizes in reverse insertion (item) order.
// - Allocated size: size rounded up to the item's alignment (TensorSpec
//   realign); the sort key is that rounded size.
// - Pick: the first shared object, in creation order, none of whose
//   allocations overlaps the item's lifetime -> offset 0 in it. Otherwise,
//   if overlapping is allowed, the first object where the highest end of
//   the overlapping allocations, m, is > 0 and m + size <= object size ->
//   offset m. Otherwise a new object of the item's size.
// - Layout: objects in creation order, each starting where the previous one
//   ends; the total is the sum of object sizes.
// Per-item alignments generalize ExecuTorch's single one: m and each
// object's start are rounded up to the alignment needed; with one alignment
// for all items and aligned sizes both roundings are no-ops, so offsets and
// total equal ExecuTorch's.
#include "planner/greedy.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>

#include "planner/lower_bound.h"
#include "runtime/core/checked_math.h"

namespace memplan {
namespace planner {
namespace {

struct Allocation {
  size_t item;
  uint64_t offset;  // Inside the shared object.
};

// A segment of the buffer that items with disjoint lifetimes share.
struct SharedObject {
  uint64_t size = 0;
  uint64_t alignment = 1;  // Largest alignment among its allocations.
  std::vector<Allocation> allocations;
  // Union of the allocations' lifetimes as disjoint [first, last] runs,
  // keyed by first: answers "does anything here overlap?" in O(log n).
  std::map<TimeValue, TimeValue> busy;

  bool Overlaps(TimeValue first, TimeValue last) const {
    auto it = busy.upper_bound(last);
    if (it == busy.begin()) return false;
    --it;
    return it->second >= first;
  }

  void MarkBusy(TimeValue first, TimeValue last) {
    auto it = busy.upper_bound(first);
    if (it != busy.begin()) {
      auto prev = std::prev(it);
      if (prev->second >= first) it = prev;
    }
    while (it != busy.end() && it->first <= last) {
      first = std::min(first, it->first);
      last = std::max(last, it->second);
      it = busy.erase(it);
    }
    busy.emplace(first, last);
  }
};

}  // namespace

Result<Placement> GreedyAlgorithm::Place(const std::vector<PlanItem>& items,
                                         const AlgorithmOptions&) const {
  MEMPLAN_RETURN_IF_ERROR(ValidatePlanItems(items));
  const size_t n = items.size();
  std::vector<uint64_t> allocated(n);
  for (size_t i = 0; i < n; ++i) {
    // Bounded by ValidatePlanItems: size + alignment - 1 fits.
    CheckedAlignUp(items[i].size, items[i].alignment, &allocated[i]);
  }
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return allocated[a] < allocated[b];
  });
  std::reverse(order.begin(), order.end());

  std::vector<SharedObject> objects;
  std::vector<size_t> object_of(n);
  std::vector<uint64_t> offset_in_object(n);
  for (size_t i : order) {
    const PlanItem& item = items[i];
    SharedObject* picked = nullptr;
    uint64_t offset = 0;
    for (SharedObject& object : objects) {
      if (!object.Overlaps(item.lifetime.first, item.lifetime.last)) {
        picked = &object;
        break;
      }
    }
    if (picked == nullptr && allow_overlapping_allocations_) {
      for (SharedObject& object : objects) {
        if (object.size <= allocated[i]) continue;  // m > 0 cannot fit.
        uint64_t max_end = 0;
        for (const Allocation& a : object.allocations) {
          const PlanItem& other = items[a.item];
          if (item.lifetime.last < other.lifetime.first ||
              item.lifetime.first > other.lifetime.last)
            continue;
          max_end = std::max(max_end, a.offset + allocated[a.item]);
        }
        uint64_t aligned = 0;
        if (max_end == 0 || !CheckedAlignUp(max_end, item.alignment, &aligned))
          continue;
        if (aligned <= object.size && allocated[i] <= object.size - aligned) {
          picked = &object;
          offset = aligned;
          break;
        }
      }
    }
    if (picked == nullptr) {
      objects.emplace_back();
      picked = &objects.back();
      picked->size = allocated[i];
    }
    picked->alignment = std::max(picked->alignment, item.alignment);
    picked->allocations.push_back({i, offset});
    picked->MarkBusy(item.lifetime.first, item.lifetime.last);
    object_of[i] = static_cast<size_t>(picked - objects.data());
    offset_in_object[i] = offset;
  }

  // An object's start padding (< its alignment) and its size rounding (<
  // its first item's alignment) are both paid for by ValidatePlanItems'
  // sum(size + 2 * (alignment - 1)), so validated items never fail here.
  std::vector<uint64_t> object_offset(objects.size());
  uint64_t cursor = 0;
  for (size_t k = 0; k < objects.size(); ++k) {
    if (!CheckedAlignUp(cursor, objects[k].alignment, &object_offset[k]) ||
        !CheckedAdd(object_offset[k], objects[k].size, &cursor)) {
      return Error(
          ErrorCode::kInvalidArgument,
          "greedy: shared object " + std::to_string(k) + " ends past 2^64 - 1");
    }
  }
  Placement placement;
  placement.offsets.resize(n);
  for (size_t i = 0; i < n; ++i) {
    placement.offsets[i] = object_offset[object_of[i]] + offset_in_object[i];
  }
  placement.height = PlacementHeight(items, placement.offsets);
  return placement;
}

}  // namespace planner
}  // namespace memplan
