// A plan's storage groups: each alias base with the allocations that alias
// it, as one item for a planner. The re-planners (`memplan plan` on a
// program, `memplan check`'s re-plans of given plans) place groups, never
// bare allocations, so an alias that outlives its base keeps the base's
// bytes alive.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "planner/algorithm.h"
#include "properties/plan.h"

namespace memplan {
namespace properties {

struct StorageGroup {
  struct Member {
    size_t allocation;  // Index into Plan::allocations.
    // Bytes above the group's offset: the given distance from the base
    // when it is a valid place inside the base (same buffer, inside, at
    // the member's alignment), else 0. Which allocations alias is semantic
    // (the oracle's); where a view sits inside its base is not read from
    // the operator (0 for ExecuTorch's et_view and in-place outputs, an
    // argument of slice-like views), so the given plan's place is kept.
    uint64_t delta;
  };
  std::vector<Member> members;  // The base first.
  MemId mem_id = 0;             // The base's buffer.
  // Extent max(delta + size), alignment max, lifetime the union.
  planner::PlanItem item;
  // Members' shared names with their deltas, sorted: views of the plan's
  // names, valid while the plan is.
  std::vector<std::pair<std::string_view, uint64_t>> names;
};

struct StorageGroups {
  std::vector<StorageGroup> groups;  // In the order of their bases.
  // Allocations no group holds, for the oracle to report: a negative size,
  // first > last, an alias of something absent or of a cycle, or a
  // member of a group whose base is such.
  std::vector<size_t> unplaceable;
};

// Alias chains are followed to their root (the oracle's family).
StorageGroups GroupStorage(const Plan& plan);

}  // namespace properties
}  // namespace memplan
