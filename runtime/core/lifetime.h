// Positions in execution order and the inclusive lifetime over them, as the
// planner's items and the oracle's allocations both state them.
#pragma once

#include <cstdint>

namespace memplan {

// Positions in execution order; a lifetime is [first, last], inclusive.
// Signed so that a negative position in a file is reported, not wrapped.
using TimeValue = int64_t;

struct Lifetime {
  TimeValue first = 0;  // First position at which the tensor is live.
  TimeValue last = 0;   // Last position at which it is live.
};

}  // namespace memplan
