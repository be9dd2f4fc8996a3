#include "properties/lower_bound.h"

#include <algorithm>
#include <utility>

namespace memplan {
namespace properties {

uint64_t MaxLiveBytes(const std::vector<LiveInterval>& intervals) {
  // Starts and ends sorted apart (plain pairs, no comparator over a mixed
  // event type); planners often emit both in order, then nothing is sorted.
  using TimedSize = std::pair<TimeValue, uint64_t>;
  std::vector<TimedSize> starts, ends;
  starts.reserve(intervals.size());
  ends.reserve(intervals.size());
  for (const LiveInterval& interval : intervals) {
    starts.push_back({interval.first, interval.size});
    ends.push_back({interval.last, interval.size});
  }
  auto by_time = [](const TimedSize& a, const TimedSize& b) {
    return a.first < b.first;
  };
  if (!std::is_sorted(starts.begin(), starts.end(), by_time)) {
    std::sort(starts.begin(), starts.end(), by_time);
  }
  if (!std::is_sorted(ends.begin(), ends.end(), by_time)) {
    std::sort(ends.begin(), ends.end(), by_time);
  }
  // Counted in 128 bits so that saturating the peak never loses a later end.
  unsigned __int128 live = 0;
  unsigned __int128 peak = 0;
  size_t next_end = 0;
  for (const TimedSize& start : starts) {
    // An end at time t closes after every start at t (lifetimes are
    // inclusive), so only ends before this start are subtracted.
    while (next_end < ends.size() && ends[next_end].first < start.first) {
      live -= ends[next_end++].second;
    }
    live += start.second;
    peak = std::max(peak, live);
  }
  return peak > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(peak);
}

}  // namespace properties
}  // namespace memplan
