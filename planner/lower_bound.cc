#include "planner/lower_bound.h"

#include <algorithm>
#include <string>
#include <utility>

#include "runtime/core/checked_math.h"

namespace memplan {
namespace planner {

Error ValidatePlanItems(const std::vector<PlanItem>& items) {
  uint64_t total = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const PlanItem& item = items[i];
    const std::string where = "items[" + std::to_string(i) + "]";
    if (!IsPowerOfTwo(item.alignment)) {
      return Error(ErrorCode::kInvalidArgument,
                   where + ".alignment = " + std::to_string(item.alignment) +
                       ", must be a power of two >= 1");
    }
    if (item.lifetime.first > item.lifetime.last) {
      return Error(
          ErrorCode::kInvalidArgument,
          where + ".first = " + std::to_string(item.lifetime.first) +
              ", must be <= last = " + std::to_string(item.lifetime.last));
    }
    // Padding is counted twice; see the header for why greedy needs it.
    if (!CheckedAdd(total, item.size, &total) ||
        !CheckedAdd(total, item.alignment - 1, &total) ||
        !CheckedAdd(total, item.alignment - 1, &total)) {
      return Error(ErrorCode::kInvalidArgument,
                   where + ".size = " + std::to_string(item.size) +
                       " (alignment " + std::to_string(item.alignment) +
                       "): the sum of sizes plus twice their alignment "
                       "padding up to this item exceeds 2^64 - 1");
    }
  }
  return Error::Ok();
}

uint64_t LiveBytesLowerBound(const std::vector<PlanItem>& items) {
  // (time, 0 = start | 1 = end, size): at equal times starts come first,
  // because inclusive lifetimes that meet at one position overlap.
  struct Event {
    TimeValue time;
    int kind;
    uint64_t size;
  };
  std::vector<Event> events;
  events.reserve(2 * items.size());
  for (const PlanItem& item : items) {
    events.push_back({item.lifetime.first, 0, item.size});
    events.push_back({item.lifetime.last, 1, item.size});
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return a.time != b.time ? a.time < b.time : a.kind < b.kind;
  });
  uint64_t live = 0;
  uint64_t peak = 0;
  for (const Event& event : events) {
    if (event.kind == 0) {
      live += event.size;
      peak = std::max(peak, live);
    } else {
      live -= event.size;
    }
  }
  return peak;
}

uint64_t PlacementHeight(const std::vector<PlanItem>& items,
                         const std::vector<uint64_t>& offsets) {
  uint64_t height = 0;
  for (size_t i = 0; i < items.size() && i < offsets.size(); ++i) {
    height = std::max(height, offsets[i] + items[i].size);
  }
  return height;
}

}  // namespace planner
}  // namespace memplan
