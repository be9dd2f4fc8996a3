// Every algorithm on random workloads (fixed seeds): plans are valid, and
// the algorithms order as they must (lower bound <= exact <= heuristics,
// greedy <= naive).
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/algorithm.h"
#include "planner/lower_bound.h"
#include "runtime/core/error_matchers.h"

namespace memplan {
namespace planner {
namespace {

using ::memplan::testing::IsError;
using ::testing::HasSubstr;

// ExecuTorch-like items (one alignment, sizes padded to it) when `padded`,
// otherwise mixed alignments and unpadded sizes.
std::vector<PlanItem> RandomItems(std::mt19937_64* rng, int count,
                                  TimeValue horizon, bool padded) {
  std::uniform_int_distribution<TimeValue> time(0, horizon);
  std::uniform_int_distribution<int> log_size(0, 10);
  std::uniform_int_distribution<int> log_alignment(0, 4);
  const uint64_t shared_alignment = uint64_t{1} << log_alignment(*rng);
  std::vector<PlanItem> items;
  for (int i = 0; i < count; ++i) {
    const TimeValue a = time(*rng), b = time(*rng);
    uint64_t size = ((*rng)() % 4 == 0)
                        ? 0
                        : (uint64_t{1} << log_size(*rng)) + (*rng)() % 7;
    uint64_t alignment = uint64_t{1} << log_alignment(*rng);
    if (padded) {
      alignment = shared_alignment;
      size = (size + alignment - 1) / alignment * alignment;
    }
    items.push_back({size, alignment, std::min(a, b), std::max(a, b)});
  }
  return items;
}

// No two lifetime-overlapping items share a byte; offsets aligned; height
// is max(offset + size) and at least the live-bytes bound.
void ExpectValid(const std::vector<PlanItem>& items, const Placement& plan,
                 const std::string& name) {
  ASSERT_EQ(plan.offsets.size(), items.size()) << name;
  uint64_t height = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    EXPECT_EQ(plan.offsets[i] % items[i].alignment, 0u)
        << name << " item " << i;
    height = std::max(height, plan.offsets[i] + items[i].size);
    for (size_t j = i + 1; j < items.size(); ++j) {
      const bool live_together =
          items[i].lifetime.first <= items[j].lifetime.last &&
          items[j].lifetime.first <= items[i].lifetime.last;
      const bool share_bytes =
          plan.offsets[i] < plan.offsets[j] + items[j].size &&
          plan.offsets[j] < plan.offsets[i] + items[i].size;
      EXPECT_FALSE(live_together && share_bytes)
          << name << " items " << i << " and " << j;
    }
  }
  EXPECT_EQ(plan.height, height) << name;
  EXPECT_GE(plan.height, LiveBytesLowerBound(items)) << name;
}

TEST(AlgorithmsAgreeTest, PlansAreValidAndOrdered) {
  for (uint64_t seed = 1; seed <= 170; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const int count = seed <= 150 ? 2 + static_cast<int>(seed % 11) : 60;
    // Odd seeds: ExecuTorch's setting, where greedy's objects never add up
    // to more than naive's sum. Even seeds: mixed alignments, where padding
    // an object's start to a member's alignment can cost more than naive.
    const bool padded = seed % 2 == 1;
    const std::vector<PlanItem> items = RandomItems(&rng, count, count, padded);
    std::map<std::string, Placement> plans;
    for (const std::string& name : AlgorithmNames()) {
      AlgorithmOptions options;
      options.max_nodes = 20'000;
      Result<Placement> plan = MakeAlgorithm(name)->Place(items, options);
      ASSERT_TRUE(plan.ok()) << name << ": " << plan.error().ToString();
      ExpectValid(items, *plan, name);
      plans[name] = *plan;
    }
    if (padded) {
      EXPECT_LE(plans["greedy"].height, plans["naive"].height);
    }
    EXPECT_LE(plans["exact"].height, plans["best_fit"].height);
    EXPECT_LE(plans["exact"].height, plans["greedy"].height);
  }
}

// Random items of `count` over `times` times, sizes 1..4, alignments 1
// or 2: small enough for BruteForceOptimum.
std::vector<PlanItem> TinyItems(uint64_t seed, int count, TimeValue times) {
  std::mt19937_64 rng(seed);
  std::vector<PlanItem> items;
  for (int i = 0; i < count; ++i) {
    const TimeValue a = rng() % times, b = rng() % times;
    items.push_back(
        {1 + rng() % 4, 1u << (rng() % 2), std::min(a, b), std::max(a, b)});
  }
  return items;
}

// The lowest height of any valid plan, by trying every aligned offset of
// every item in turn (cutting off branches that already reach `best`).
uint64_t BruteForceOptimum(const std::vector<PlanItem>& items, uint64_t best) {
  std::vector<uint64_t> offsets(items.size());
  std::function<void(size_t, uint64_t)> search = [&](size_t k,
                                                     uint64_t height) {
    if (height >= best) return;
    if (k == items.size()) {
      best = height;
      return;
    }
    for (uint64_t o = 0; o + items[k].size < best; o += items[k].alignment) {
      bool ok = true;
      for (size_t j = 0; j < k && ok; ++j) {
        ok =
            !(items[k].lifetime.first <= items[j].lifetime.last &&
              items[j].lifetime.first <= items[k].lifetime.last &&
              o < offsets[j] + items[j].size && offsets[j] < o + items[k].size);
      }
      if (!ok) continue;
      offsets[k] = o;
      search(k + 1, std::max(height, o + items[k].size));
    }
  };
  search(0, 0);
  return best;
}

// The exact algorithm's proven optimum against brute force on `count`
// random items over `times` times.
void ExpectExactMatchesBruteForce(uint64_t seeds, int count, TimeValue times) {
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const std::vector<PlanItem> items = TinyItems(seed, count, times);
    Result<Placement> exact = MakeAlgorithm("exact")->Place(items, {});
    ASSERT_TRUE(exact.ok());
    ASSERT_TRUE(exact->proven_optimal);
    Result<Placement> naive = MakeAlgorithm("naive")->Place(items, {});
    ASSERT_TRUE(naive.ok());
    EXPECT_EQ(exact->height, BruteForceOptimum(items, naive->height + 1));
  }
}

TEST(AlgorithmsAgreeTest, ExactMatchesBruteForceOnTinyInputs) {
  ExpectExactMatchesBruteForce(60, 4, 4);
}

TEST(AlgorithmsAgreeTest, ExactMatchesBruteForceOnSmallInputsWithCuts) {
  // Eight items over six times: the search splits them at times no
  // unplaced item spans, and a part it refuted comes back, with the same
  // items and other floors, after the search backtracks.
  ExpectExactMatchesBruteForce(400, 8, 6);
}

// The exact algorithm's decisions at capacities around the brute-force
// optimum O: at O and above it finds a plan within the capacity, below it
// proves that none fits, and no bound it reports is above O (a proof that
// says more than the truth would pass every height check). A bound is
// never reported above the lowest plan known, so an overstated proof shows
// only where the heuristics exact starts from are above O and the search
// refutes O - 1 (the live bytes are below it): 6 of the first 5,000 seeds,
// searched for with BruteForceOptimum and listed here.
TEST(AlgorithmsAgreeTest, ExactDecisionsAgreeWithBruteForce) {
  constexpr uint64_t kSeedsAboveTheOptimum[] = {310,  1522, 1615,
                                                2467, 3089, 3529};
  std::vector<uint64_t> seeds(std::begin(kSeedsAboveTheOptimum),
                              std::end(kSeedsAboveTheOptimum));
  for (uint64_t seed = 1; seed <= 150; ++seed) seeds.push_back(seed);
  for (uint64_t seed : seeds) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const std::vector<PlanItem> items = TinyItems(seed, 8, 6);
    Result<Placement> naive = MakeAlgorithm("naive")->Place(items, {});
    ASSERT_TRUE(naive.ok());
    const uint64_t optimum = BruteForceOptimum(items, naive->height + 1);
    if (seed > 150) {
      // Still a case that shows an overstated proof (else pick others).
      Result<Placement> heuristic =
          MakeAlgorithm("multi_fit")->Place(items, {});
      ASSERT_TRUE(heuristic.ok());
      ASSERT_GT(heuristic->height, optimum);
      ASSERT_LT(LiveBytesLowerBound(items), optimum);
    }
    for (uint64_t capacity = std::max<uint64_t>(optimum, 3) - 2;
         capacity <= optimum + 1; ++capacity) {
      SCOPED_TRACE("capacity " + std::to_string(capacity));
      AlgorithmOptions options;
      options.capacity = capacity;
      Result<Placement> decided = MakeAlgorithm("exact")->Place(items, options);
      ASSERT_TRUE(decided.ok());
      EXPECT_LE(decided->lower_bound, optimum);
      if (capacity >= optimum) {
        EXPECT_LE(decided->height, capacity);
      } else {
        EXPECT_GT(decided->lower_bound, capacity);
      }
    }
  }
}

TEST(AlgorithmsAgreeTest, EveryAlgorithmRefusesInvalidItems) {
  for (const std::string& name : AlgorithmNames()) {
    SCOPED_TRACE(name);
    const std::unique_ptr<Algorithm> algorithm = MakeAlgorithm(name);
    ASSERT_NE(algorithm, nullptr);
    EXPECT_THAT(algorithm->Place({{8, 12, 0, 0}}, {}),
                IsError(ErrorCode::kInvalidArgument,
                        HasSubstr("items[0].alignment = 12")));
    EXPECT_THAT(algorithm->Place({{8, 1, 0, 0}, {8, 1, 3, 2}}, {}),
                IsError(ErrorCode::kInvalidArgument,
                        HasSubstr("items[1].first = 3, must be <= last = 2")));
  }
}

TEST(AlgorithmsAgreeTest, MakeAlgorithmKnowsEveryNameAndNoOther) {
  for (const std::string& name : AlgorithmNames()) {
    ASSERT_NE(MakeAlgorithm(name), nullptr) << name;
    EXPECT_EQ(MakeAlgorithm(name)->name(), name);
  }
  EXPECT_EQ(MakeAlgorithm("tetris"), nullptr);
}

}  // namespace
}  // namespace planner
}  // namespace memplan
