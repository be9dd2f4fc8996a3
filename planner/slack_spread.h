// Spreading a capacity's slack over the items live in each section, so that
// every section holds the capacity exactly. A plan of the grown items is a
// plan of the items, and a perfect packing (every section full), which the
// exact search's sweep decides far faster than plans with gaps: near-tight
// problems (a perfect packing with some items shrunk a little) have such
// spreads just above their bound.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace memplan {
namespace planner {

// An item's sections (compressed times), inclusive: lo <= hi.
struct SectionSpan {
  uint32_t lo, hi;
};

// Growths g[i] >= 0 such that in every section t the growths of the items
// live there add up to slack[t], or nullopt where there are none (a
// section with slack and no item, say, or slack that would have to shrink
// an item). Spreads are many; this is a cheapest one for item costs drawn
// from `seed` (a vertex of the polytope of spreads: seeds differ in which
// items grow). A min-cost flow: node k is the boundary before section k,
// item i an arc from lo to hi + 1 carrying g[i], node k supplies
// slack[k] - slack[k - 1]. Slack whose rises add up to over 2^62 (units)
// is refused, as are spans outside the sections.
std::optional<std::vector<uint64_t>> SpreadSlack(
    const std::vector<SectionSpan>& items, const std::vector<uint64_t>& slack,
    uint64_t seed);

}  // namespace planner
}  // namespace memplan
