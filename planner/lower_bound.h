// The input contract every placement algorithm shares, and the simplest
// bound on any plan's height: the most bytes live at one time.
#pragma once

#include <cstdint>
#include <vector>

#include "planner/algorithm.h"
#include "runtime/core/error.h"

namespace memplan {
namespace planner {

// Checks alignment (a power of two >= 1), first <= last, and that
// sum(size + 2 * (alignment - 1)) fits in 64 bits. That sum bounds every
// algorithm's height, so none can overflow: stacking each item at an aligned
// offset needs at most alignment - 1 padding per item, and greedy's shared
// objects at most twice that (the first item's alignment rounds the
// object's size up, then may pad the object's start in the layout).
Error ValidatePlanItems(const std::vector<PlanItem>& items);

// value rounded up to `alignment`, a power of two, with no overflow check:
// for offsets that the bound above keeps in range (an aligned end of a
// stack of the items).
inline uint64_t AlignUpInBound(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}

// max over time of the summed sizes of the live items, as given (the
// graph planner passes sizes rounded up to alignment), in O(n log n). Items
// must have passed ValidatePlanItems. The oracle sweeps with its own copy
// (properties/lower_bound.h, MaxLiveBytes), on purpose;
// properties/live_bytes_bounds_agree_test holds the two to one answer.
uint64_t LiveBytesLowerBound(const std::vector<PlanItem>& items);

// max(offset + size) of a placement; 0 when empty.
uint64_t PlacementHeight(const std::vector<PlanItem>& items,
                         const std::vector<uint64_t>& offsets);

}  // namespace planner
}  // namespace memplan
