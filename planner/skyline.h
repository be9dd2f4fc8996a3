// Canonical bottom-up placement, greedily (the canonical solutions of
// MiniMalloc, ASPLOS 2023, without its search): the floor of every time is
// the top of what has been placed there. Repeatedly take the leftmost time
// at the lowest floor and place on it one unplaced item live then, at the
// highest floor over the item's lifetime. The item chosen leaves the least
// area (bytes x times) empty below itself; among those, the one that shares
// the most edges with what is placed (it ends where the floor rises, its top
// meets the floor on either side), then the one that still lets unplaced
// items cover the rest of the lowest run end to end, then by priority. A
// time that no unplaced item crosses is closed. It wins on tight packings
// (every time full, as bench/hard_problems.h builds them), where placing
// the largest first leaves holes no later item fills; it loses where holes
// below the floor would be reused, so it is one of multi_fit's tries.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "planner/algorithm.h"
#include "planner/time_axis.h"

namespace memplan {
namespace planner {

enum class SkylineDirection {
  kForward,   // Leftmost means earliest.
  kBackward,  // Time mirrored: leftmost means latest.
};

// One offset per item (0 for empty ones), or nullopt once the work (times
// and items looked at) exceeds `max_work`. Items must have passed
// ValidatePlanItems; `times` holds their endpoints. Between items that
// waste as much and share as many edges, the higher `priority` wins (one
// per item). A step looks first at the items that start at the chosen
// time; when none of them fits without waste, it evaluates up to 64
// unplaced items live then, in O(their lifetime) each.
std::optional<std::vector<uint64_t>> SkylinePlace(
    const std::vector<PlanItem>& items, const TimeAxis& times,
    const std::vector<uint64_t>& priority, SkylineDirection direction,
    uint64_t max_work);

}  // namespace planner
}  // namespace memplan
