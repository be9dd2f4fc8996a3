// The overlap check: a sweep over time with an ordered active set per
// buffer, O(n log n) on any plan, however its aliases nest, plus the walks
// that name at most max_pairs pairs; never all pairs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "properties/plan.h"

namespace memplan {
namespace properties {

// One allocation of one buffer as the overlap check sees it. Only items
// with a valid lifetime and in-bounds, non-empty bytes are given.
struct OverlapItem {
  uint64_t begin = 0;  // Bytes [begin, end), end > begin.
  uint64_t end = 0;
  TimeValue first = 0;  // Lifetime [first, last], first <= last.
  TimeValue last = 0;
  size_t family = 0;  // Alias root: items of one family may share bytes.
};

// The rule both checks apply to a pair.
inline bool ItemsConflict(const OverlapItem& a, const OverlapItem& b) {
  return a.family != b.family && a.first <= b.last && b.first <= a.last &&
         a.begin < b.end && b.begin < a.end;
}

struct OverlapPair {
  size_t a = 0;  // Indices into the items; a is the one live first.
  size_t b = 0;
};

struct OverlapFindings {
  std::vector<OverlapPair> pairs;  // At most max_pairs of them.
  uint64_t count = 0;              // Pairs found, reported or not.
};

// Items become live in (first, index) order and are checked against the
// live ones. An item that conflicts is reported and kept out of the active
// set, so the set stays free of cross-family overlaps and every check is a
// neighbour look-up. Hence: no pair found <=> no pair conflicts, and every
// pair found conflicts; pairs hidden behind an earlier conflict of the same
// item are not enumerated (the all-pairs reference does that). Where many
// items are live at once, each item's conflicts are counted rather than
// walked, and an item is kept out as covered only when a covering entry of
// its family lies among its nearest neighbours.
OverlapFindings FindOverlapsSweep(const std::vector<OverlapItem>& items,
                                  size_t max_pairs);

}  // namespace properties
}  // namespace memplan
