#include "properties/lower_bound.h"

#include <algorithm>

namespace memplan {
namespace properties {

uint64_t MaxLiveBytes(const std::vector<LiveInterval>& intervals) {
  struct Event {
    TimeValue time;
    bool start;
    uint64_t size;
  };
  std::vector<Event> events;
  events.reserve(intervals.size() * 2);
  for (const LiveInterval& interval : intervals) {
    events.push_back({interval.first, true, interval.size});
    events.push_back({interval.last, false, interval.size});
  }
  // An end at time t closes after every start at t (lifetimes are inclusive).
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    if (a.time != b.time) return a.time < b.time;
    return a.start && !b.start;
  });
  // Counted in 128 bits so that saturating the peak never loses a later end.
  unsigned __int128 live = 0;
  unsigned __int128 peak = 0;
  for (const Event& event : events) {
    if (event.start) {
      live += event.size;
      peak = std::max(peak, live);
    } else {
      live -= event.size;
    }
  }
  return peak > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(peak);
}

}  // namespace properties
}  // namespace memplan
