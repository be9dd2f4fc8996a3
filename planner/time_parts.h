// A placement problem's independent parts along time. Where no item's
// lifetime spans a time cut, the items before it and those after it never
// meet, so each side can be placed on its own, from offset 0, and the
// whole plan's height is the highest side's. Programs split this way where
// phases run one after another with nothing live across the seam (methods
// or stages planned into one arena); multi_fit and exact then give each
// part its own budget, where one placement of all items spreads its
// effort over all of them and the worst part sets the height.
#pragma once

#include <cstddef>
#include <vector>

#include "planner/algorithm.h"

namespace memplan {
namespace planner {

// The items of each part, in item order; parts in time order. Items of size
// 0 meet nothing and join no part: they are in none (offset 0 places them).
// One part (or none) where the problem does not split.
std::vector<std::vector<size_t>> TimeParts(const std::vector<PlanItem>& items);

// The items of one part, in its order.
std::vector<PlanItem> PartItems(const std::vector<PlanItem>& items,
                                const std::vector<size_t>& part);

}  // namespace planner
}  // namespace memplan
