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
#include <cstdint>
#include <vector>

#include "planner/algorithm.h"

namespace memplan {
namespace planner {

// The items of each part, in item order; parts in time order. Items of size
// 0 meet nothing and join no part: they are in none (offset 0 places them).
// One part (or none) where the problem does not split.
std::vector<std::vector<size_t>> TimeParts(const std::vector<PlanItem>& items);

// One part: where its items are in the whole problem (in item order), the
// items, and the most bytes they have live at once.
struct TimePart {
  std::vector<size_t> indices;
  std::vector<PlanItem> items;
  uint64_t live_bytes = 0;
};

// TimeParts' `parts` with their items, the most live bytes first (ties:
// time order): the order multi_fit and exact place them in, since the
// plan is as high as its highest part.
std::vector<TimePart> ByLiveBytes(const std::vector<PlanItem>& items,
                                  std::vector<std::vector<size_t>> parts);

}  // namespace planner
}  // namespace memplan
