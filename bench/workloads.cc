#include "bench/workloads.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace memplan {
namespace bench {

std::vector<planner::PlanItem> ModelLikeWorkload(const WorkloadShape& shape) {
  std::mt19937_64 rng(shape.seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double log_min = std::log(static_cast<double>(shape.min_size));
  const double log_max = std::log(static_cast<double>(shape.max_size));
  // An op's output usually dies within a few ops.
  std::geometric_distribution<int> short_extra(0.45);
  const TimeValue horizon = static_cast<TimeValue>(shape.items / 2 + 1);
  std::vector<planner::PlanItem> items;
  items.reserve(shape.items);
  for (size_t i = 0; i < shape.items; ++i) {
    const TimeValue first = static_cast<TimeValue>(i / 2);
    TimeValue last = first + 1 + short_extra(rng);
    const double kind = unit(rng);
    if (kind < shape.whole_run_fraction) {
      items.push_back({0, shape.alignment, 0, horizon});
    } else {
      if (kind < shape.whole_run_fraction + shape.long_lived_fraction) {
        last =
            first + 1 + static_cast<TimeValue>(unit(rng) * (horizon / 4 + 1));
      }
      items.push_back({0, shape.alignment, first, std::min(last, horizon)});
    }
    const double bytes = std::exp(log_min + unit(rng) * (log_max - log_min));
    const uint64_t size = static_cast<uint64_t>(bytes);
    items.back().size =
        (size + shape.alignment - 1) / shape.alignment * shape.alignment;
  }
  return items;
}

std::vector<planner::PlanItem> UniformWorkload(size_t items, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double log_min = std::log(64.0);
  const double log_max = std::log(static_cast<double>(1 << 20));
  const uint64_t positions = 2 * static_cast<uint64_t>(items) + 1;
  std::vector<planner::PlanItem> out;
  out.reserve(items);
  for (size_t i = 0; i < items; ++i) {
    const auto first = static_cast<TimeValue>(rng() % positions);
    const auto length = static_cast<TimeValue>(1 + rng() % 500);
    const auto size = static_cast<uint64_t>(
        std::exp(log_min + unit(rng) * (log_max - log_min)));
    out.push_back({(size + 15) / 16 * 16, 16, first, first + length - 1});
  }
  return out;
}

}  // namespace bench
}  // namespace memplan
