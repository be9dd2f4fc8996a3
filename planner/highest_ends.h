// Per time, the highest end of any item placed then (0 where none is), in
// a segment tree: a node's tag is an end over every time under it, its max
// the highest end over them (its tag's and its subtree's). Best fit asks
// whether an offset is at or above the highest end over a lifetime (then
// it is free throughout it, which takes no look at the occupancy sets);
// multi_fit's dives over the times ask for that end (an unplaced item's
// lowest offset).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace memplan {
namespace planner {

class HighestEnds {
 public:
  explicit HighestEnds(size_t leaves) {
    size_ = 1;
    while (size_ < leaves) size_ <<= 1;
    nodes_.assign(2 * size_, Node{0, 0});
  }

  // Every end 0 again.
  void Clear() { std::fill(nodes_.begin(), nodes_.end(), Node{0, 0}); }

  // Whether some end over [lo, hi] is above `offset`. (It had its own
  // walk that stopped at the first such end: planner_bench's best_fit at
  // 100,000 items, three interleaved runs on one core, 306-323 / 643-688 /
  // 115-123 ms with it, 317-325 / 663-687 / 118-125 ms without, model-like
  // / no model's shape / nested.)
  bool Above(size_t lo, size_t hi, uint64_t offset) const {
    return Highest(lo, hi) > offset;
  }

  // The highest end over [lo, hi].
  uint64_t Highest(size_t lo, size_t hi) const {
    uint64_t highest = 0;
    // The tags above: every node whose span holds time lo or time hi, up
    // both paths until they meet, then one.
    size_t a = (lo + size_) >> 1, b = (hi + size_) >> 1;
    for (; a != b; a >>= 1, b >>= 1) {
      highest = std::max({highest, nodes_[a].tag, nodes_[b].tag});
    }
    for (; a >= 1; a >>= 1) highest = std::max(highest, nodes_[a].tag);
    for (size_t l = lo + size_, r = hi + size_ + 1; l < r; l >>= 1, r >>= 1) {
      if (l & 1) highest = std::max(highest, nodes_[l++].max);
      if (r & 1) highest = std::max(highest, nodes_[--r].max);
    }
    return highest;
  }

  // Every end over [lo, hi] at least `end`.
  void Raise(size_t lo, size_t hi, uint64_t end) {
    for (size_t l = lo + size_, r = hi + size_ + 1; l < r; l >>= 1, r >>= 1) {
      if (l & 1) Tag(l++, end);
      if (r & 1) Tag(--r, end);
    }
    for (size_t a = (lo + size_) >> 1, b = (hi + size_) >> 1; a >= 1;
         a >>= 1, b >>= 1) {
      Pull(a);
      if (b != a) Pull(b);
    }
  }

 private:
  struct Node {
    uint64_t max;  // The highest end over the node's times.
    uint64_t tag;  // An end over all of them.
  };

  void Tag(size_t node, uint64_t end) {
    nodes_[node].tag = std::max(nodes_[node].tag, end);
    nodes_[node].max = std::max(nodes_[node].max, end);
  }
  void Pull(size_t node) {
    nodes_[node].max = std::max(
        {nodes_[node].max, nodes_[2 * node].max, nodes_[2 * node + 1].max});
  }

  size_t size_ = 1;
  std::vector<Node> nodes_;
};

}  // namespace planner
}  // namespace memplan
