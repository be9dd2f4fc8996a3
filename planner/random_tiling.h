// Test-only: random perfect packings of items, for the planners' tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "planner/algorithm.h"

namespace memplan {
namespace planner {

// A random tiling of `width` bytes by `steps` times: at each time some
// live items end, and each run of freed bytes is cut into new items (of 1-9
// bytes) that start there. Every time holds exactly `width` bytes.
inline std::vector<PlanItem> RandomTiling(std::mt19937_64* rng, uint64_t width,
                                          TimeValue steps) {
  struct Live {
    uint64_t size;
    TimeValue first;
  };
  std::vector<PlanItem> items;
  auto cut = [&](uint64_t bytes, TimeValue t, std::vector<Live>* into) {
    while (bytes > 0) {
      const uint64_t size = std::min<uint64_t>(bytes, 1 + (*rng)() % 9);
      into->push_back({size, t});
      bytes -= size;
    }
  };
  std::vector<Live> live;
  cut(width, 0, &live);
  for (TimeValue t = 1; t <= steps; ++t) {
    std::vector<Live> next;
    uint64_t freed = 0;
    for (const Live& l : live) {
      if (t == steps || (*rng)() % 3 == 0) {
        items.push_back({l.size, 1, l.first, t - 1});
        freed += l.size;
        continue;
      }
      if (freed > 0) cut(freed, t, &next);
      freed = 0;
      next.push_back(l);
    }
    if (t < steps && freed > 0) cut(freed, t, &next);
    live = std::move(next);
  }
  std::shuffle(items.begin(), items.end(), *rng);
  return items;
}

}  // namespace planner
}  // namespace memplan
