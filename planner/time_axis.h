// Lifetime endpoints compressed to 0..size()-1. Two inclusive lifetimes
// intersect exactly when their compressed ones do, because every endpoint
// is kept; algorithms index per-time structures by the compressed value.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "planner/algorithm.h"

namespace memplan {
namespace planner {

class TimeAxis {
 public:
  // `endpoints`: the first and last of every lifetime to compress.
  explicit TimeAxis(std::vector<TimeValue> endpoints)
      : times_(std::move(endpoints)) {
    std::sort(times_.begin(), times_.end());
    times_.erase(std::unique(times_.begin(), times_.end()), times_.end());
  }

  size_t size() const { return times_.size(); }
  // The endpoint whose compressed value is k (< size()).
  TimeValue at(size_t k) const { return times_[k]; }
  // The compressed value of an endpoint given to the constructor.
  size_t IndexOf(TimeValue t) const {
    return static_cast<size_t>(
        std::lower_bound(times_.begin(), times_.end(), t) - times_.begin());
  }

 private:
  std::vector<TimeValue> times_;
};

}  // namespace planner
}  // namespace memplan
