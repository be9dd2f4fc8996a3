// The all-pairs overlap check, O(n^2): the specification the sweep is
// tested against and benchmarked beside. Never used by check().
#pragma once

#include <cstddef>
#include <vector>

#include "properties/overlap_sweep.h"

namespace memplan {
namespace properties {

// Every conflicting pair (a < b), in index order; count is exact.
OverlapFindings FindOverlapsReference(const std::vector<OverlapItem>& items,
                                      size_t max_pairs);

}  // namespace properties
}  // namespace memplan
