#include "planner/time_parts.h"

#include <algorithm>
#include <utility>

#include "planner/lower_bound.h"

namespace memplan {
namespace planner {

std::vector<std::vector<size_t>> TimeParts(const std::vector<PlanItem>& items) {
  std::vector<size_t> by_first;
  by_first.reserve(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].size != 0) by_first.push_back(i);
  }
  std::stable_sort(by_first.begin(), by_first.end(), [&](size_t a, size_t b) {
    return items[a].lifetime.first < items[b].lifetime.first;
  });
  std::vector<std::vector<size_t>> parts;
  TimeValue reach = 0;  // The last time the current part's items live.
  for (size_t i : by_first) {
    const Lifetime& lifetime = items[i].lifetime;
    if (parts.empty() || lifetime.first > reach) {
      parts.emplace_back();
      reach = lifetime.last;
    }
    parts.back().push_back(i);
    reach = std::max(reach, lifetime.last);
  }
  for (std::vector<size_t>& part : parts) std::sort(part.begin(), part.end());
  return parts;
}

std::vector<TimePart> ByLiveBytes(const std::vector<PlanItem>& items,
                                  std::vector<std::vector<size_t>> parts) {
  std::vector<TimePart> split(parts.size());
  for (size_t p = 0; p < parts.size(); ++p) {
    TimePart& part = split[p];
    part.indices = std::move(parts[p]);
    part.items.reserve(part.indices.size());
    for (size_t i : part.indices) part.items.push_back(items[i]);
    part.live_bytes = LiveBytesLowerBound(part.items);
  }
  std::stable_sort(split.begin(), split.end(),
                   [](const TimePart& a, const TimePart& b) {
                     return a.live_bytes > b.live_bytes;
                   });
  return split;
}

}  // namespace planner
}  // namespace memplan
