// Which items' lifetimes meet: for closed lifetimes [first, last], the
// pairs that share a time, as adjacency lists (one sort by first, one sweep
// counting, one filling). exact's search and multi_fit's dives walk it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <optional>
#include <vector>

namespace memplan {
namespace planner {

class OverlapGraph {
 public:
  // Items [0, n), with first(i) <= last(i); items with skip(i) get no
  // edges. nullopt where more than max_pairs pairs meet.
  template <typename First, typename Last, typename Skip>
  static std::optional<OverlapGraph> Build(size_t n, First first, Last last,
                                           Skip skip, uint64_t max_pairs) {
    std::vector<uint32_t> by_first;
    for (uint32_t i = 0; i < n; ++i) {
      if (!skip(i)) by_first.push_back(i);
    }
    std::sort(by_first.begin(), by_first.end(), [&](uint32_t a, uint32_t b) {
      return first(a) != first(b) ? first(a) < first(b) : a < b;
    });
    // Calls f(a, b) for each pair while it returns true.
    auto for_each_pair = [&](auto f) {
      for (size_t k = 0; k < by_first.size(); ++k) {
        for (size_t l = k + 1;
             l < by_first.size() && first(by_first[l]) <= last(by_first[k]);
             ++l) {
          if (!f(by_first[k], by_first[l])) return;
        }
      }
    };
    uint64_t pairs = 0;
    for_each_pair([&](uint32_t, uint32_t) { return ++pairs <= max_pairs; });
    if (pairs > max_pairs) return std::nullopt;
    OverlapGraph graph;
    graph.begin_.assign(n + 1, 0);
    for_each_pair([&](uint32_t a, uint32_t b) {
      ++graph.begin_[a + 1];
      ++graph.begin_[b + 1];
      return true;
    });
    std::partial_sum(graph.begin_.begin(), graph.begin_.end(),
                     graph.begin_.begin());
    graph.neighbors_.resize(graph.begin_[n]);
    std::vector<size_t> fill(graph.begin_.begin(), graph.begin_.end() - 1);
    for_each_pair([&](uint32_t a, uint32_t b) {
      graph.neighbors_[fill[a]++] = b;
      graph.neighbors_[fill[b]++] = a;
      return true;
    });
    return graph;
  }

  uint64_t pairs() const { return neighbors_.size() / 2; }
  size_t degree(size_t i) const { return begin_[i + 1] - begin_[i]; }
  // Item i's neighbours: neighbors()[begin(i), end(i)).
  size_t begin(size_t i) const { return begin_[i]; }
  size_t end(size_t i) const { return begin_[i + 1]; }
  const std::vector<uint32_t>& neighbors() const { return neighbors_; }

 private:
  std::vector<size_t> begin_;
  std::vector<uint32_t> neighbors_;
};

}  // namespace planner
}  // namespace memplan
