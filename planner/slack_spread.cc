#include "planner/slack_spread.h"

#include <lemon/network_simplex.h>
#include <lemon/static_graph.h>

#include <algorithm>
#include <limits>
#include <utility>

#include "planner/splitmix64.h"

namespace memplan {
namespace planner {

std::optional<std::vector<uint64_t>> SpreadSlack(
    const std::vector<SectionSpan>& items, const std::vector<uint64_t>& slack,
    uint64_t seed) {
  // The flow's sums stay within int64: all rises of the slack together (an
  // upper bound on any arc's flow and on the supplies the simplex moves).
  constexpr uint64_t kMaxRise = uint64_t{1} << 62;
  constexpr size_t kMaxNodes = std::numeric_limits<int>::max() / 2;
  const size_t sections = slack.size();
  if (sections >= kMaxNodes || items.size() >= kMaxNodes) return std::nullopt;
  uint64_t rise = 0;
  for (size_t k = 0; k < sections; ++k) {
    const uint64_t before = k > 0 ? slack[k - 1] : 0;
    if (slack[k] > before) {
      if (slack[k] - before > kMaxRise - rise) return std::nullopt;
      rise += slack[k] - before;
    }
  }
  // StaticDigraph wants its arcs sorted by source; its arc k is then the
  // k-th of them, so each item's arc is found through `arc_of`.
  std::vector<std::pair<int, int>> arcs;
  std::vector<size_t> order(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].lo > items[i].hi || items[i].hi >= sections) {
      return std::nullopt;
    }
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return items[a].lo < items[b].lo;
  });
  std::vector<size_t> arc_of(items.size());
  for (size_t k = 0; k < order.size(); ++k) {
    const SectionSpan& span = items[order[k]];
    arcs.emplace_back(static_cast<int>(span.lo), static_cast<int>(span.hi + 1));
    arc_of[order[k]] = k;
  }
  lemon::StaticDigraph graph;
  graph.build(static_cast<int>(sections + 1), arcs.begin(), arcs.end());
  lemon::StaticDigraph::NodeMap<int64_t> supply(graph);
  for (size_t k = 0; k <= sections; ++k) {
    const int64_t here = k < sections ? static_cast<int64_t>(slack[k]) : 0;
    const int64_t before = k > 0 ? static_cast<int64_t>(slack[k - 1]) : 0;
    supply[graph.node(static_cast<int>(k))] = here - before;
  }
  lemon::StaticDigraph::ArcMap<int64_t> cost(graph);
  SplitMix64 draw(seed);
  for (size_t i = 0; i < items.size(); ++i) {
    cost[graph.arc(static_cast<int>(arc_of[i]))] =
        1 + static_cast<int64_t>(draw.Next() % 1024);
  }
  // The supplies add up to zero (they telescope), so LEMON's default
  // supply type (outflow - inflow >= supply) holds each with equality.
  using Simplex = lemon::NetworkSimplex<lemon::StaticDigraph, int64_t, int64_t>;
  Simplex flow(graph);
  flow.supplyMap(supply).costMap(cost);
  if (flow.run() != Simplex::OPTIMAL) return std::nullopt;
  std::vector<uint64_t> growth(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    growth[i] = static_cast<uint64_t>(
        flow.flow(graph.arc(static_cast<int>(arc_of[i]))));
  }
  return growth;
}

}  // namespace planner
}  // namespace memplan
