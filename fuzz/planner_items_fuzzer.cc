// Bytes -> placement items (FuzzedDataProvider) -> every algorithm, without
// the graph, emitter and loader around them (planner_fuzzer has the full
// path), so that thousands of item sets a second reach the algorithms. Each
// placement is checked independently (no shared bytes between items whose
// lifetimes overlap, alignment, height, lower bound, the padded-sum bound
// ValidatePlanItems relies on) and differentially: exact (when proven) <=
// best_fit, greedy and naive; greedy <= naive at one alignment; multi_fit's
// dives over the times give the dives over the graph's plan.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "planner/algorithm.h"
#include "planner/lower_bound.h"
#include "planner/multi_fit.h"
#include "properties/check.h"
#include "properties/plan.h"
#include "properties/report.h"
#include "runtime/core/checked_math.h"

namespace {

using memplan::planner::AlgorithmOptions;
using memplan::planner::Placement;
using memplan::planner::PlanItem;

[[noreturn]] void Fail(const std::string& algorithm, const std::string& what) {
  std::fprintf(stderr, "planner_items_fuzzer: %s: %s\n", algorithm.c_str(),
               what.c_str());
  __builtin_trap();
}

std::vector<PlanItem> ConsumeItems(FuzzedDataProvider& in) {
  std::vector<PlanItem> items(in.ConsumeIntegralInRange<size_t>(0, 24));
  for (PlanItem& item : items) {
    item.size = in.ConsumeBool()
                    ? in.ConsumeIntegralInRange<uint64_t>(0, 256)
                    : in.ConsumeIntegralInRange<uint64_t>(0, 1 << 20);
    item.alignment = uint64_t{1} << in.ConsumeIntegralInRange(0, 7);
    item.lifetime.first = in.ConsumeIntegralInRange<int64_t>(0, 31);
    item.lifetime.last =
        item.lifetime.first + in.ConsumeIntegralInRange<int64_t>(0, 15);
  }
  return items;
}

// The same items as the planner would pass them: one alignment (the
// largest), sizes padded to it.
std::vector<PlanItem> PlannerLike(std::vector<PlanItem> items) {
  uint64_t alignment = 1;
  for (const PlanItem& item : items) {
    alignment = std::max(alignment, item.alignment);
  }
  for (PlanItem& item : items) {
    item.alignment = alignment;
    item.size = (item.size + alignment - 1) / alignment * alignment;
  }
  return items;
}

// The oracle's rules for one partition, written without the planner's code.
void CheckPlacement(const std::string& name, const std::vector<PlanItem>& items,
                    const Placement& placement) {
  if (placement.offsets.size() != items.size()) {
    Fail(name, "offsets for " + std::to_string(placement.offsets.size()) +
                   " of " + std::to_string(items.size()) + " items");
  }
  uint64_t height = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    uint64_t end = 0;
    if (!memplan::CheckedAdd(placement.offsets[i], items[i].size, &end)) {
      Fail(name, "item " + std::to_string(i) + " end overflows");
    }
    if (placement.offsets[i] % items[i].alignment != 0) {
      Fail(name, "item " + std::to_string(i) + " offset " +
                     std::to_string(placement.offsets[i]) + " not aligned to " +
                     std::to_string(items[i].alignment));
    }
    height = std::max(height, end);
    for (size_t j = 0; j < i; ++j) {
      bool live_together = items[i].lifetime.first <= items[j].lifetime.last &&
                           items[j].lifetime.first <= items[i].lifetime.last;
      if (!live_together || items[i].size == 0 || items[j].size == 0) continue;
      uint64_t a = placement.offsets[i], b = placement.offsets[j];
      if (a < b + items[j].size && b < a + items[i].size) {
        Fail(name, "items " + std::to_string(j) + " and " + std::to_string(i) +
                       " overlap in time and bytes");
      }
    }
  }
  if (placement.height != height) {
    Fail(name, "height " + std::to_string(placement.height) + ", max end " +
                   std::to_string(height));
  }
  if (height < memplan::planner::LiveBytesLowerBound(items)) {
    Fail(name, "height below the live-bytes lower bound");
  }
}

// The oracle judges the placement as a one-buffer plan on a device.
void CheckWithOracle(const std::string& name,
                     const std::vector<PlanItem>& items,
                     const Placement& placement, memplan::Device device) {
  namespace props = memplan::properties;
  props::Plan plan;
  props::Buffer buffer;
  buffer.mem_id = 1;
  buffer.size = static_cast<props::Offset>(placement.height);
  buffer.device = device;
  plan.buffers.push_back(buffer);
  for (size_t i = 0; i < items.size(); ++i) {
    props::Allocation a;
    a.id = "t" + std::to_string(i);
    a.mem_id = 1;
    a.offset = static_cast<props::Offset>(placement.offsets[i]);
    a.size = static_cast<props::Offset>(items[i].size);
    a.lifetime = {items[i].lifetime.first, items[i].lifetime.last};
    a.device = device;
    a.alignment = static_cast<props::Offset>(items[i].alignment);
    plan.allocations.push_back(a);
  }
  props::Report report = props::Check(plan);
  if (!report.ok()) Fail(name, "oracle: " + props::FormatText(report));
}

void PlaceAndCheck(const std::vector<PlanItem>& items, memplan::Device device) {
  if (!memplan::planner::ValidatePlanItems(items).ok()) return;
  AlgorithmOptions options;
  // Small budgets keep an execution fast; only proven results are compared.
  options.max_nodes = 5'000;
  options.max_seconds = 0.2;
  // Exact search is exponential: small graphs only, to keep executions fast.
  constexpr size_t kMaxExactItems = 10;
  std::map<std::string, Placement> placements;
  for (const std::string& name : memplan::planner::AlgorithmNames()) {
    if (name == "exact" && items.size() > kMaxExactItems) continue;
    std::unique_ptr<memplan::planner::Algorithm> algorithm =
        memplan::planner::MakeAlgorithm(name);
    if (algorithm == nullptr) Fail(name, "listed but MakeAlgorithm fails");
    memplan::Result<Placement> placement = algorithm->Place(items, options);
    if (!placement.ok()) {
      Fail(name, "refused valid items: " + placement.error().ToString());
    }
    CheckPlacement(name, items, *placement);
    CheckWithOracle(name, items, *placement, device);
    placements[name] = *placement;
  }
  auto height = [&](const char* name) { return placements.at(name).height; };
  // ValidatePlanItems argues no algorithm overflows because every height
  // stays within sum(size + 2 * (alignment - 1)); naive, which only stacks
  // aligned items, within sum(size + alignment - 1).
  uint64_t stacked_sum = 0;  // Both fit: ValidatePlanItems checked them.
  uint64_t bound = 0;
  // As the planner passes them: one alignment, sizes already padded to it.
  bool uniform_alignment = true;
  for (const PlanItem& item : items) {
    uniform_alignment &= item.alignment == items.front().alignment &&
                         item.size % item.alignment == 0;
    stacked_sum += item.size + item.alignment - 1;
    bound += item.size + 2 * (item.alignment - 1);
  }
  for (const auto& [name, placement] : placements) {
    if (placement.height > bound) {
      Fail(name, "height " + std::to_string(placement.height) +
                     " > sum(size + 2 * (alignment - 1)) " +
                     std::to_string(bound));
    }
  }
  if (placements.count("naive") && height("naive") > stacked_sum) {
    Fail("naive", "height " + std::to_string(height("naive")) +
                      " > sum(size + alignment - 1) " +
                      std::to_string(stacked_sum));
  }
  // Then greedy is ExecuTorch's and never worse than naive; with mixed ones
  // naive's stacking order can pad less (regressions/).
  if (uniform_alignment && placements.count("greedy") &&
      placements.count("naive") && height("greedy") > height("naive")) {
    Fail("greedy", "height " + std::to_string(height("greedy")) + " > naive " +
                       std::to_string(height("naive")));
  }
  if (placements.count("exact") && placements.at("exact").proven_optimal) {
    for (const char* other : {"best_fit", "greedy", "naive"}) {
      if (placements.count(other) && height("exact") > height(other)) {
        Fail("exact", "proven height " + std::to_string(height("exact")) +
                          " > " + other + " " + std::to_string(height(other)));
      }
    }
    // At a capacity (a decision) just under and at that optimum: a valid
    // plan, none below the optimum, and no proof past it.
    const uint64_t optimum = height("exact");
    for (uint64_t capacity : {optimum - 1, optimum}) {
      if (capacity == 0) continue;
      AlgorithmOptions at = options;
      at.capacity = capacity;
      const std::string name = "exact at capacity " + std::to_string(capacity);
      memplan::Result<Placement> decided =
          memplan::planner::MakeAlgorithm("exact")->Place(items, at);
      if (!decided.ok()) Fail(name, decided.error().ToString());
      CheckPlacement(name, items, *decided);
      if (decided->height < optimum) {
        Fail(name, "height " + std::to_string(decided->height) +
                       " below the proven optimum " + std::to_string(optimum));
      }
      if (decided->lower_bound > optimum) {
        Fail(name, "proved no plan below " +
                       std::to_string(decided->lower_bound) +
                       ", past the optimum " + std::to_string(optimum));
      }
    }
  }
}

// One dive over the times and one over the overlap graph, with priorities
// from the bytes, in bands and in exact levels: the same offsets
// (multi_fit.cc's TimeDives are Dives without the graph).
void DivesAgree(const std::vector<PlanItem>& items, FuzzedDataProvider& in) {
  if (!memplan::planner::ValidatePlanItems(items).ok()) return;
  std::vector<double> priority(items.size());
  for (double& p : priority) {
    p = static_cast<double>(in.ConsumeIntegralInRange<int>(0, 50));
  }
  for (bool bands : {true, false}) {
    const std::vector<uint64_t> graph =
        memplan::planner::DiveOnceForTest(items, priority, bands, false);
    const std::vector<uint64_t> time =
        memplan::planner::DiveOnceForTest(items, priority, bands, true);
    if (graph.size() != items.size() || time != graph) {
      Fail("multi_fit dives", std::string("over the times unlike over the ") +
                                  "graph" + (bands ? " (bands)" : ""));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  memplan::Device device =
      in.ConsumeBool() ? memplan::Device::Cpu()
                       : memplan::Device::Cuda(in.ConsumeIntegralInRange(0, 3));
  std::vector<PlanItem> items = ConsumeItems(in);
  PlaceAndCheck(items, device);
  PlaceAndCheck(PlannerLike(items), device);
  DivesAgree(items, in);
  return 0;
}
