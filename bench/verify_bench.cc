// The oracle's cost: Check() on generated valid plans of 10k..1M
// allocations (goal: 1M in under 2 s), and the O(n log n) overlap sweep
// beside the all-pairs reference at 10k (goal: >= 100x).
#include <random>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "properties/check.h"
#include "properties/overlap_reference.h"
#include "properties/overlap_sweep.h"

namespace memplan {
namespace properties {
namespace {

constexpr int kSlots = 64;
constexpr Offset kSlotBytes = 4096;

// A valid plan: 64 slots of one buffer, each reused by a new allocation
// every two positions; sizes and alignment vary, so nothing is trivial.
Plan ValidPlan(size_t n) {
  std::mt19937_64 rng(n);
  Plan plan;
  plan.buffers.push_back({1, kSlots * kSlotBytes, Device::Cpu()});
  plan.allocations.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    Allocation a;
    a.id = "t" + std::to_string(i);
    a.offset = static_cast<Offset>(i % kSlots) * kSlotBytes;
    a.size = 64 + static_cast<Offset>(rng() % (kSlotBytes - 64));
    TimeValue round = static_cast<TimeValue>(i / kSlots) * 2;
    a.lifetime = {round + static_cast<TimeValue>(rng() % 2), round + 1};
    a.device = Device::Cpu();
    a.alignment = 64;
    plan.allocations.push_back(std::move(a));
  }
  return plan;
}

std::vector<OverlapItem> Items(const Plan& plan) {
  std::vector<OverlapItem> items;
  for (size_t i = 0; i < plan.allocations.size(); ++i) {
    const Allocation& a = plan.allocations[i];
    items.push_back({static_cast<uint64_t>(a.offset),
                     static_cast<uint64_t>(a.offset + a.size), a.lifetime.first,
                     a.lifetime.last, i});
  }
  return items;
}

void BM_CheckValidPlan(benchmark::State& state) {
  Plan plan = ValidPlan(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    Report report = Check(plan);
    if (!report.ok()) state.SkipWithError("generated plan is not valid");
    benchmark::DoNotOptimize(report);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_CheckValidPlan)
    ->Arg(10'000)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond);

void BM_OverlapSweep(benchmark::State& state) {
  std::vector<OverlapItem> items =
      Items(ValidPlan(static_cast<size_t>(state.range(0))));
  for (auto _ : state) {
    OverlapFindings findings = FindOverlapsSweep(items, 100);
    if (findings.count != 0) state.SkipWithError("unexpected overlap");
    benchmark::DoNotOptimize(findings);
  }
}
BENCHMARK(BM_OverlapSweep)->Arg(10'000)->Unit(benchmark::kMillisecond);

// Hostile but valid: one base and n - 1 aliases of it at offsets i, all
// ending at n, each living longer than the one before, so no alias covers
// another and all are live together.
std::vector<OverlapItem> NestedFamily(size_t n) {
  std::vector<OverlapItem> items;
  items.push_back({0, n, 0, 1, 0});
  for (size_t i = 1; i < n; ++i) {
    items.push_back({i, n, 0, static_cast<TimeValue>(1 + i), 0});
  }
  return items;
}

void BM_OverlapSweepNestedFamily(benchmark::State& state) {
  std::vector<OverlapItem> items =
      NestedFamily(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    OverlapFindings findings = FindOverlapsSweep(items, 100);
    if (findings.count != 0) state.SkipWithError("unexpected overlap");
    benchmark::DoNotOptimize(findings);
  }
}
BENCHMARK(BM_OverlapSweepNestedFamily)
    ->Arg(10'000)
    ->Arg(40'000)
    ->Unit(benchmark::kMillisecond);

// Hostile and invalid: n / 2 disjoint items, then n / 2 items of other
// families each over all of their bytes: n^2 / 4 conflicting pairs.
std::vector<OverlapItem> ManyPairs(size_t n) {
  std::vector<OverlapItem> items;
  const size_t half = n / 2;
  for (size_t i = 0; i < half; ++i)
    items.push_back({8 * i, 8 * i + 8, 0, 1, i});
  for (size_t i = half; i < n; ++i) items.push_back({0, 8 * half, 1, 1, i});
  return items;
}

void BM_OverlapSweepManyPairs(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<OverlapItem> items = ManyPairs(n);
  for (auto _ : state) {
    OverlapFindings findings = FindOverlapsSweep(items, 100);
    if (findings.count != (n / 2) * (n - n / 2)) {
      state.SkipWithError("wrong count of pairs");
    }
    benchmark::DoNotOptimize(findings);
  }
}
BENCHMARK(BM_OverlapSweepManyPairs)
    ->Arg(10'000)
    ->Arg(40'000)
    ->Unit(benchmark::kMillisecond);

void BM_OverlapReference(benchmark::State& state) {
  std::vector<OverlapItem> items =
      Items(ValidPlan(static_cast<size_t>(state.range(0))));
  for (auto _ : state) {
    OverlapFindings findings = FindOverlapsReference(items, 100);
    if (findings.count != 0) state.SkipWithError("unexpected overlap");
    benchmark::DoNotOptimize(findings);
  }
}
BENCHMARK(BM_OverlapReference)->Arg(10'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace properties
}  // namespace memplan
