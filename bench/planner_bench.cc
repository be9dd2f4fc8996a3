// Time and plan quality (height / live-bytes lower bound) of every
// placement algorithm on generated model-like workloads.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "bench/workloads.h"
#include "planner/algorithm.h"
#include "planner/lower_bound.h"

namespace memplan {
namespace bench {
namespace {

// The options of most rows: only "exact" looks at the budget.
planner::AlgorithmOptions SmallBudget() {
  planner::AlgorithmOptions options;
  options.max_nodes = 200'000;
  options.max_seconds = 2.0;
  return options;
}

void PlanItems(benchmark::State& state, const std::string& name,
               const std::vector<planner::PlanItem>& items,
               const planner::AlgorithmOptions& options = SmallBudget()) {
  const uint64_t lower_bound = planner::LiveBytesLowerBound(items);
  std::unique_ptr<planner::Algorithm> algorithm = planner::MakeAlgorithm(name);
  planner::Placement placement;
  for (auto _ : state) {
    Result<planner::Placement> result = algorithm->Place(items, options);
    if (!result.ok()) {
      state.SkipWithError(result.error().ToString().c_str());
      return;
    }
    placement = std::move(*result);
    benchmark::DoNotOptimize(placement.height);
  }
  state.counters["items"] = static_cast<double>(items.size());
  state.counters["height_over_lb"] =
      lower_bound == 0 ? 1.0
                       : static_cast<double>(placement.height) / lower_bound;
  state.counters["proven"] = placement.proven_optimal ? 1 : 0;
}

void PlanWorkload(benchmark::State& state, const std::string& name) {
  WorkloadShape shape;
  shape.items = static_cast<size_t>(state.range(0));
  PlanItems(state, name, ModelLikeWorkload(shape));
}

BENCHMARK_CAPTURE(PlanWorkload, naive, std::string("naive"))
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanWorkload, greedy, std::string("greedy"))
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanWorkload, best_fit, std::string("best_fit"))
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanWorkload, multi_fit, std::string("multi_fit"))
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);
// Exact search only on small partitions, under the budget above.
BENCHMARK_CAPTURE(PlanWorkload, exact, std::string("exact"))
    ->Arg(20)
    ->Arg(40)
    ->Arg(80)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// Lifetimes with no model's shape (bench/workloads.h UniformWorkload):
// holes below the top almost everywhere, so nearly every item searches.
void PlanUniform(benchmark::State& state, const std::string& name) {
  PlanItems(state, name,
            UniformWorkload(static_cast<size_t>(state.range(0)), 1));
}
BENCHMARK_CAPTURE(PlanUniform, best_fit, std::string("best_fit"))
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanUniform, multi_fit, std::string("multi_fit"))
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

// exact on tens of thousands of items, past its searches and past the
// dives' overlap graph (16,384 items or 1M pairs): dives over time
// (planner/multi_fit.cc TimeDives) for a 5 s budget; until 2026-12-07 it
// gave best fit's plan there.
void PlanLarge(benchmark::State& state, bool model_like) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<planner::PlanItem> items;
  if (model_like) {
    WorkloadShape shape;
    shape.items = n;
    items = ModelLikeWorkload(shape);
  } else {
    items = UniformWorkload(n, 1);
  }
  planner::AlgorithmOptions options;  // No node limit.
  options.max_seconds = 5.0;
  PlanItems(state, "exact", items, options);
}
BENCHMARK_CAPTURE(PlanLarge, exact_model_like, true)
    ->Arg(20'000)
    ->Arg(50'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(PlanLarge, exact_uniform, false)
    ->Arg(20'000)
    ->Arg(50'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
// Fully nested lifetimes, as a training graph keeps its activations for the
// backward pass: item i lives over [i, 2n - i], sizes at random, so the
// decreasing-size order is unrelated to the nesting. Every item is over
// all others; the best-fit planners once walked them all (20,000: ~20 s),
// and exact ran greedy, O(n^2) here, as a seed (100,000: 200 s). Every
// lifetime meets every other, so every algorithm reaches the lower bound
// (the sum of the sizes): this measures time only, not plan quality.
void PlanNested(benchmark::State& state, const std::string& name) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<planner::PlanItem> items;
  items.reserve(n);
  uint64_t seed = n;
  for (size_t i = 0; i < n; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    const auto k = static_cast<TimeValue>(i);
    items.push_back(
        {1 + (seed >> 44), 1, k, static_cast<TimeValue>(2 * n) - k});
  }
  std::unique_ptr<planner::Algorithm> algorithm = planner::MakeAlgorithm(name);
  planner::AlgorithmOptions options;
  options.max_seconds = 1.0;  // Only "exact" looks at the budget.
  for (auto _ : state) {
    Result<planner::Placement> result = algorithm->Place(items, options);
    if (!result.ok()) {
      state.SkipWithError(result.error().ToString().c_str());
      return;
    }
    benchmark::DoNotOptimize(result->height);
  }
}
BENCHMARK_CAPTURE(PlanNested, best_fit, std::string("best_fit"))
    ->Arg(20'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanNested, multi_fit, std::string("multi_fit"))
    ->Arg(20'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMillisecond);
// Within its 1 s budget (its seeds included).
BENCHMARK_CAPTURE(PlanNested, exact, std::string("exact"))
    ->Arg(20'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace
}  // namespace bench
}  // namespace memplan
