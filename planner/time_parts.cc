#include "planner/time_parts.h"

#include <algorithm>
#include <numeric>

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

std::vector<PlanItem> PartItems(const std::vector<PlanItem>& items,
                                const std::vector<size_t>& part) {
  std::vector<PlanItem> out;
  out.reserve(part.size());
  for (size_t i : part) out.push_back(items[i]);
  return out;
}

}  // namespace planner
}  // namespace memplan
