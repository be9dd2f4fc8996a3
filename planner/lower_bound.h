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
// sum(size + alignment - 1) fits in 64 bits: any plan that stacks each item
// at an aligned offset above others then stays below 2^64.
Error ValidatePlanItems(const std::vector<PlanItem>& items);

// max over time of the bytes of the live items (no padding), in
// O(n log n). Items must have passed ValidatePlanItems.
uint64_t LiveBytesLowerBound(const std::vector<PlanItem>& items);

// max(offset + size) of a placement; 0 when empty.
uint64_t PlacementHeight(const std::vector<PlanItem>& items,
                         const std::vector<uint64_t>& offsets);

}  // namespace planner
}  // namespace memplan
