// The oracle's own lower bound on a buffer's size: the most bytes live at
// any one time, each allocation counted at its raw size (no alignment
// padding). A deliberate second copy of planner/lower_bound's sweep, so
// that the judge shares no code with the planners it judges;
// live_bytes_bounds_agree_test holds the two to one answer.
#pragma once

#include <cstdint>
#include <vector>

#include "properties/plan.h"

namespace memplan {
namespace properties {

struct LiveInterval {
  TimeValue first = 0;  // Inclusive lifetime, first <= last.
  TimeValue last = 0;
  uint64_t size = 0;
};

// Max over time of the summed sizes of live intervals; saturates at
// UINT64_MAX rather than wrapping on hostile sizes.
uint64_t MaxLiveBytes(const std::vector<LiveInterval>& intervals);

}  // namespace properties
}  // namespace memplan
