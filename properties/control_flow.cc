#include "properties/control_flow.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace memplan {
namespace properties {

std::vector<TrueBranch> TrueBranches(const std::vector<Jump>& jumps) {
  auto forward = [](const Jump& jump) {
    return jump.destination > jump.at + 1;
  };
  std::unordered_map<TimeValue, TimeValue> entry_to;  // Destination: at.
  for (const Jump& jump : jumps) {
    if (forward(jump)) entry_to.emplace(jump.destination, jump.at);
  }
  std::vector<TrueBranch> branches;
  for (const Jump& jump : jumps) {
    if (!jump.always || !forward(jump)) continue;
    auto entry = entry_to.find(jump.at + 1);
    if (entry != entry_to.end() && entry->second < jump.at) {
      branches.push_back({entry->second, jump.at, jump.destination});
    }
  }
  auto key = [](const TrueBranch& b) {
    return std::make_tuple(b.entry, b.skip, b.join);
  };
  std::sort(branches.begin(), branches.end(),
            [&](const TrueBranch& x, const TrueBranch& y) {
              return key(x) < key(y);
            });
  branches.erase(std::unique(branches.begin(), branches.end()), branches.end());
  return branches;
}

std::vector<bool> MovedInBeforeEveryNaming(
    TimeValue positions, const std::vector<Jump>& jumps,
    const std::vector<SlotNamings>& slots) {
  std::vector<bool> moved(slots.size(), false);
  if (positions <= 0) return moved;
  const size_t n = static_cast<size_t>(positions);
  auto in_range = [n](TimeValue p) {
    return p >= 0 && static_cast<uint64_t>(p) < n;
  };
  // The jumps into each position (jumps_from[begin[p], begin[p + 1]]),
  // and whether the one before falls through.
  std::vector<size_t> begin(n + 1, 0);
  std::vector<uint8_t> falls_through(n, 1);
  for (const Jump& jump : jumps) {
    if (!in_range(jump.at)) continue;
    if (jump.always) falls_through[static_cast<size_t>(jump.at)] = 0;
    if (in_range(jump.destination)) {
      ++begin[static_cast<size_t>(jump.destination) + 1];
    }
  }
  for (size_t p = 0; p < n; ++p) begin[p + 1] += begin[p];
  std::vector<size_t> jumps_from(begin[n]);
  {
    std::vector<size_t> fill(begin.begin(), begin.end() - 1);
    for (const Jump& jump : jumps) {
      if (in_range(jump.at) && in_range(jump.destination)) {
        jumps_from[fill[static_cast<size_t>(jump.destination)]++] =
            static_cast<size_t>(jump.at);
      }
    }
  }
  // A pass looks at every position and jump once.
  const uint64_t pass_work = n + jumps_from.size();
  uint64_t work_left = kMaxMovedWork;
  const size_t judged = std::min(slots.size(), kMaxMovedSlots);
  std::vector<uint64_t> gen(n), in(n), out(n);
  for (size_t base = 0; base < judged; base += 64) {
    const size_t count = std::min<size_t>(64, judged - base);
    std::fill(gen.begin(), gen.end(), 0);
    for (size_t k = 0; k < count; ++k) {
      for (TimeValue p : slots[base + k].moves_in) {
        if (in_range(p)) gen[static_cast<size_t>(p)] |= uint64_t{1} << k;
      }
    }
    // The greatest fixed point, from "moved in" everywhere but the start;
    // a position no path reaches stays so, and names nothing that runs.
    std::fill(out.begin(), out.end(), ~uint64_t{0});
    bool settled = false;
    for (int pass = 0; pass < kMaxPasses && !settled; ++pass) {
      if (work_left < pass_work) break;
      work_left -= pass_work;
      settled = true;
      for (size_t p = 0; p < n; ++p) {
        uint64_t before = 0;  // A run starts at position 0.
        if (p > 0) {
          before = falls_through[p - 1] ? out[p - 1] : ~uint64_t{0};
          for (size_t j = begin[p]; j < begin[p + 1]; ++j) {
            before &= out[jumps_from[j]];
          }
        }
        in[p] = before;
        const uint64_t after = before | gen[p];
        if (after != out[p]) {
          out[p] = after;
          settled = false;
        }
      }
    }
    if (!settled) continue;  // Not shown: false for this batch.
    for (size_t k = 0; k < count; ++k) {
      bool all = true;
      for (TimeValue p : slots[base + k].others) {
        if (!in_range(p) || !((in[static_cast<size_t>(p)] >> k) & 1)) {
          all = false;
          break;
        }
      }
      moved[base + k] = all;
    }
  }
  return moved;
}

Loops::Loops(std::vector<std::pair<TimeValue, TimeValue>> spans,
             TimeValue positions) {
  if (spans.empty() || positions <= 0) return;
  // Outer loops first: by head, then the longest.
  std::sort(spans.begin(), spans.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first < y.first : x.second > y.second;
  });
  // Make the family laminar: a loop that starts inside the open one and
  // ends past it crosses it; the two become one loop over both. The stack
  // holds the open loops, outermost first.
  std::vector<std::pair<TimeValue, TimeValue>> stack, laminar;
  auto close_until = [&](TimeValue position) {
    while (!stack.empty() && stack.back().second < position) {
      laminar.push_back(stack.back());
      stack.pop_back();
    }
  };
  for (const auto& span : spans) {
    close_until(span.first);
    std::pair<TimeValue, TimeValue> loop = span;
    while (!stack.empty() && loop.second > stack.back().second) {
      loop.first = std::min(loop.first, stack.back().first);
      stack.pop_back();
    }
    if (!stack.empty() && stack.back() == loop) continue;  // Duplicate.
    stack.push_back(loop);
  }
  close_until(positions + 1);
  // Merging can leave the same span twice (and nested ones inside it).
  std::sort(laminar.begin(), laminar.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first < y.first : x.second > y.second;
  });
  laminar.erase(std::unique(laminar.begin(), laminar.end()), laminar.end());

  // Depths, parents and each position's innermost loop in one sweep.
  const size_t n = laminar.size();
  loops_.reserve(n);
  std::vector<int32_t> parent(n, -1);
  innermost_.assign(static_cast<size_t>(positions), -1);
  std::vector<int32_t> open;
  TimeValue next_position = 0;
  auto fill_until = [&](TimeValue end) {  // Positions < end.
    for (; next_position < end && next_position < positions; ++next_position) {
      while (!open.empty() && loops_[open.back()].tail < next_position) {
        open.pop_back();
      }
      innermost_[next_position] = open.empty() ? -1 : open.back();
    }
  };
  for (size_t i = 0; i < n; ++i) {
    fill_until(laminar[i].first);
    while (!open.empty() && loops_[open.back()].tail < laminar[i].first) {
      open.pop_back();
    }
    const int32_t id = static_cast<int32_t>(i);
    parent[i] = open.empty() ? -1 : open.back();
    loops_.push_back({laminar[i].first, laminar[i].second,
                      open.empty() ? 0 : loops_[open.back()].depth + 1});
    open.push_back(id);
  }
  fill_until(positions);

  int32_t max_depth = 0;
  for (const Loop& loop : loops_) max_depth = std::max(max_depth, loop.depth);
  up_.push_back(parent);
  for (int32_t reach = 2; reach <= max_depth; reach *= 2) {
    const std::vector<int32_t>& half = up_.back();
    std::vector<int32_t> full(n, -1);
    for (size_t i = 0; i < n; ++i) {
      full[i] = half[i] < 0 ? -1 : half[half[i]];
    }
    up_.push_back(std::move(full));
  }
}

int32_t Loops::AncestorAt(int32_t node, int32_t depth) const {
  int32_t steps = loops_[node].depth - depth;
  for (size_t k = 0; steps > 0 && node >= 0; ++k, steps >>= 1) {
    if (steps & 1) node = up_[k][node];
  }
  return node;
}

Lifetime Loops::Widen(Lifetime lifetime) const {
  if (loops_.empty() || lifetime.first > lifetime.last) return lifetime;
  auto innermost = [&](TimeValue p) -> int32_t {
    if (p < 0 || static_cast<uint64_t>(p) >= innermost_.size()) return -1;
    return innermost_[static_cast<size_t>(p)];
  };
  const int32_t x = innermost(lifetime.first);
  const int32_t y = innermost(lifetime.last);
  // The innermost loop holding both ends (-1: none); every loop below it
  // on either end's path is half covered and is taken whole.
  int32_t a = x, b = y;
  if (a >= 0 && b >= 0) {
    int32_t depth = std::min(loops_[a].depth, loops_[b].depth);
    a = AncestorAt(a, depth);
    b = AncestorAt(b, depth);
    if (a != b) {
      for (int32_t k = static_cast<int32_t>(up_.size()) - 1; k >= 0; --k) {
        if (up_[k][a] != up_[k][b]) {
          a = up_[k][a];
          b = up_[k][b];
        }
      }
      a = up_[0][a];
    }
  } else {
    a = -1;
  }
  const int32_t common = a;
  const int32_t below = common < 0 ? 0 : loops_[common].depth + 1;
  if (x >= 0 && x != common) {
    lifetime.first =
        std::min(lifetime.first, loops_[AncestorAt(x, below)].head);
  }
  if (y >= 0 && y != common) {
    lifetime.last = std::max(lifetime.last, loops_[AncestorAt(y, below)].tail);
  }
  return lifetime;
}

}  // namespace properties
}  // namespace memplan
