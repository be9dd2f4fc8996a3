#include "bench/hard_problems.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "planner/lower_bound.h"

namespace memplan {
namespace bench {
namespace {

// All pairs: the first two time-overlapping items that share a byte, as
// "i,j", or "" when the plan is valid and every offset is aligned.
std::string FirstConflict(const HardProblem& problem,
                          const std::vector<uint64_t>& offsets) {
  const auto& items = problem.items;
  for (size_t i = 0; i < items.size(); ++i) {
    if (offsets[i] % items[i].alignment != 0)
      return "misaligned " + problem.name;
    for (size_t j = i + 1; j < items.size(); ++j) {
      if (items[i].lifetime.last < items[j].lifetime.first ||
          items[j].lifetime.last < items[i].lifetime.first) {
        continue;
      }
      if (offsets[i] < offsets[j] + items[j].size &&
          offsets[j] < offsets[i] + items[i].size) {
        return std::to_string(i) + "," + std::to_string(j);
      }
    }
  }
  return "";
}

class HardProblemsTest : public ::testing::TestWithParam<HardFamily> {};

TEST_P(HardProblemsTest, ConstructionIsAValidPlanAtTheOptimum) {
  for (size_t buffers : {1, 2, 37, 100, 500, 2000}) {
    for (uint64_t seed : {1, 2}) {
      const HardProblem problem = MakeHardProblem(GetParam(), buffers, seed);
      SCOPED_TRACE(problem.name);
      ASSERT_EQ(problem.items.size(), buffers);
      ASSERT_EQ(problem.construction_offsets.size(), buffers);
      ASSERT_TRUE(planner::ValidatePlanItems(problem.items).ok());
      EXPECT_EQ(FirstConflict(problem, problem.construction_offsets), "");
      EXPECT_EQ(
          planner::PlacementHeight(problem.items, problem.construction_offsets),
          problem.optimum);
      for (const planner::PlanItem& item : problem.items) {
        EXPECT_GT(item.size, 0u);
      }
      if (GetParam() == HardFamily::kUnreachable) {
        EXPECT_FALSE(problem.optimum_known);
        // A single buffer has no column left to shrink below its own top.
        if (buffers > 2) {
          EXPECT_LT(problem.lower_bound, problem.optimum);
        }
      } else {
        EXPECT_TRUE(problem.optimum_known);
        EXPECT_EQ(problem.lower_bound, problem.optimum);
      }
    }
  }
}

TEST_P(HardProblemsTest, SameArgumentsSameProblem) {
  const HardProblem a = MakeHardProblem(GetParam(), 300, 4);
  const HardProblem b = MakeHardProblem(GetParam(), 300, 4);
  EXPECT_EQ(a.name, std::string(HardFamilyName(GetParam())) + "/n=300/seed=4");
  ASSERT_EQ(a.items.size(), b.items.size());
  for (size_t i = 0; i < a.items.size(); ++i) {
    EXPECT_EQ(a.items[i].size, b.items[i].size);
    EXPECT_EQ(a.items[i].lifetime.first, b.items[i].lifetime.first);
    EXPECT_EQ(a.items[i].lifetime.last, b.items[i].lifetime.last);
  }
  EXPECT_EQ(a.construction_offsets, b.construction_offsets);
  const HardProblem c = MakeHardProblem(GetParam(), 300, 5);
  EXPECT_NE(a.construction_offsets, c.construction_offsets);
}

TEST_P(HardProblemsTest, SizesLookLikeAModels) {
  // Most buffers small (at most H/16), a few huge (H/4 or more); the
  // aligned families pad some sizes short of their alignment; few buffers
  // start at one step (one op, one output).
  const HardProblem problem = MakeHardProblem(GetParam(), 1000, 3);
  const size_t n = problem.items.size();
  size_t small = 0, huge = 0, unaligned = 0;
  std::map<TimeValue, size_t> starts;
  for (const planner::PlanItem& item : problem.items) {
    if (item.size * 16 <= problem.optimum) ++small;
    if (item.size * 4 >= problem.optimum) ++huge;
    if (item.size % std::max<uint64_t>(item.alignment, 64) != 0) ++unaligned;
    ++starts[item.lifetime.first];
  }
  EXPECT_GT(small, n / 2);
  EXPECT_GT(huge, 0u);
  EXPECT_LT(huge, n / 5);
  EXPECT_GT(starts.size(), n / 5);
  if (GetParam() == HardFamily::kAligned16 ||
      GetParam() == HardFamily::kAligned64) {
    EXPECT_GT(unaligned, n / 10);
    EXPECT_EQ(problem.items[0].alignment,
              GetParam() == HardFamily::kAligned16 ? 16u : 64u);
  } else {
    EXPECT_EQ(unaligned, 0u);
  }
}

TEST_P(HardProblemsTest, ReversedInTimeKeepsTheConstruction) {
  const HardProblem problem = MakeHardProblem(GetParam(), 300, 2);
  const HardProblem reversed = ReversedInTime(problem);
  ASSERT_EQ(reversed.items.size(), problem.items.size());
  EXPECT_EQ(FirstConflict(reversed, reversed.construction_offsets), "");
  EXPECT_EQ(planner::LiveBytesLowerBound(reversed.items), problem.lower_bound);
  TimeValue lo = problem.items[0].lifetime.first, hi = lo;
  for (const planner::PlanItem& item : problem.items) {
    lo = std::min(lo, item.lifetime.first);
    hi = std::max(hi, item.lifetime.last);
  }
  const HardProblem back = ReversedInTime(reversed);
  for (size_t i = 0; i < problem.items.size(); ++i) {
    const Lifetime& was = problem.items[i].lifetime;
    EXPECT_EQ(reversed.items[i].lifetime.first, lo + hi - was.last);
    EXPECT_EQ(reversed.items[i].lifetime.last, lo + hi - was.first);
    EXPECT_EQ(back.items[i].lifetime.first, was.first);
    EXPECT_EQ(back.items[i].lifetime.last, was.last);
    EXPECT_EQ(reversed.items[i].size, problem.items[i].size);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Families, HardProblemsTest,
    ::testing::Values(HardFamily::kTight, HardFamily::kUnreachable,
                      HardFamily::kAligned16, HardFamily::kAligned64),
    [](const auto& info) { return std::string(HardFamilyName(info.param)); });

// A node budget, not a time one, so that a loaded machine gives the same
// answer (the time is only a backstop).
planner::AlgorithmOptions UnderNodeBudget(uint64_t nodes) {
  planner::AlgorithmOptions options;
  options.max_nodes = nodes;
  options.max_seconds = 60;
  return options;
}

// exact's plan of `problem`: valid, at `height`, and proven optimal.
void ExpectExactProves(const HardProblem& problem, uint64_t height,
                       const planner::AlgorithmOptions& options) {
  Result<planner::Placement> placement =
      planner::MakeAlgorithm("exact")->Place(problem.items, options);
  ASSERT_TRUE(placement.ok());
  EXPECT_EQ(FirstConflict(problem, placement->offsets), "");
  EXPECT_EQ(placement->height, height);
  EXPECT_TRUE(placement->proven_optimal);
}

TEST(HardProblemsExactTest, ProvesSmallOnesOptimal) {
  // Small members of each family: exact finds and proves the known
  // optimum; on the unreachable family it proves an optimum no higher than
  // the construction.
  const planner::AlgorithmOptions options = UnderNodeBudget(300'000);
  const std::unique_ptr<planner::Algorithm> exact =
      planner::MakeAlgorithm("exact");
  for (HardFamily family :
       {HardFamily::kTight, HardFamily::kAligned16, HardFamily::kAligned64}) {
    for (size_t buffers : {40, 150}) {
      for (uint64_t seed : {1, 2}) {
        const HardProblem problem = MakeHardProblem(family, buffers, seed);
        SCOPED_TRACE(problem.name);
        ExpectExactProves(problem, problem.optimum, options);
      }
    }
  }
  for (uint64_t seed : {1, 3}) {
    const HardProblem problem =
        MakeHardProblem(HardFamily::kUnreachable, 40, seed);
    SCOPED_TRACE(problem.name);
    Result<planner::Placement> placement = exact->Place(problem.items, options);
    ASSERT_TRUE(placement.ok());
    EXPECT_EQ(FirstConflict(problem, placement->offsets), "");
    EXPECT_LE(placement->height, problem.optimum);
    EXPECT_GE(placement->height, problem.lower_bound);
    EXPECT_TRUE(placement->proven_optimal);
  }
}

// Tilings with time run backwards, which the sweep forwards does not
// decide at this budget: exact proved 67 of the 90 reversed tilings of
// 100, 150 and 200 buffers (seeds 1-10) at 300k nodes with it alone, and
// proves all 90 with the sweep backwards too, which meets them in the
// generator's own direction.
TEST(HardProblemsExactTest, ProvesTilingsWithTimeReversed) {
  const planner::AlgorithmOptions options = UnderNodeBudget(300'000);
  const std::pair<HardFamily, std::pair<size_t, uint64_t>> cases[] = {
      {HardFamily::kTight, {150, 3}},
      {HardFamily::kTight, {200, 2}},
      {HardFamily::kAligned16, {150, 5}},
      {HardFamily::kAligned64, {100, 2}}};
  for (const auto& [family, size_seed] : cases) {
    const HardProblem problem = ReversedInTime(
        MakeHardProblem(family, size_seed.first, size_seed.second));
    SCOPED_TRACE(problem.name);
    ExpectExactProves(problem, problem.optimum, options);
  }
}

// Larger unreachable packings: slack in every section, a little. The
// searches must leave gaps in the right places and miss them; grown back
// into tilings (exact.cc's grown_tiling) the sweep finds plans at the
// construction's height, where exact stayed 1.8-14% above it without that,
// at the same budget.
TEST(HardProblemsExactTest, GrowsNearTightPackingsBackIntoTilings) {
  const planner::AlgorithmOptions options = UnderNodeBudget(500'000);
  const std::unique_ptr<planner::Algorithm> exact =
      planner::MakeAlgorithm("exact");
  const std::pair<size_t, uint64_t> cases[] = {
      {100, 1}, {100, 2}, {100, 3}, {200, 3}, {300, 1}};
  for (const auto& [buffers, seed] : cases) {
    const HardProblem problem =
        MakeHardProblem(HardFamily::kUnreachable, buffers, seed);
    SCOPED_TRACE(problem.name);
    Result<planner::Placement> placement = exact->Place(problem.items, options);
    ASSERT_TRUE(placement.ok());
    EXPECT_EQ(FirstConflict(problem, placement->offsets), "");
    EXPECT_LE(placement->height, problem.optimum);
  }
}

// Small unreachable packings with slack in most sections (so the sweep
// decides nothing) whose bound multi_fit misses and the search reaches:
// what the search finds there, not the heuristics, is what exact returns.
// With the search disabled (Searches::FitsIn always out of budget) exact
// misses all six. Of the first 40 seeds at 30 and 40 buffers these are
// all such packings where it does: on five others (30/21, 30/33, 40/2,
// 40/19, 40/24) the dives and grown tilings find the bound without it.
// (Since the dives' levels are bands, multi_fit reaches the bound of the
// earlier cases 30/10, 30/11, 30/27 and 40/18.)
TEST(HardProblemsExactTest, FindsSlackPackingsAtTheBoundMultiFitMisses) {
  const planner::AlgorithmOptions options = UnderNodeBudget(2'000'000);
  const std::unique_ptr<planner::Algorithm> multi_fit =
      planner::MakeAlgorithm("multi_fit");
  const std::pair<size_t, uint64_t> cases[] = {{30, 35}, {40, 1},  {40, 12},
                                               {40, 15}, {40, 17}, {40, 23}};
  for (const auto& [buffers, seed] : cases) {
    const HardProblem problem =
        MakeHardProblem(HardFamily::kUnreachable, buffers, seed);
    SCOPED_TRACE(problem.name);
    Result<planner::Placement> heuristic =
        multi_fit->Place(problem.items, options);
    ASSERT_TRUE(heuristic.ok());
    EXPECT_GT(heuristic->height, problem.lower_bound);
    ExpectExactProves(problem, problem.lower_bound, options);
  }
}

// Two of those packings side by side in time: no item spans the cut
// between them, so exact decides them apart (planner/time_parts.h), the
// lower one only up to the other's height. Before it did, one search
// solved them as two parts, each at or above the last offset placed; with
// the parts' floor one byte too high that search missed the plans of the
// first and the last pair (and of one of the packings above, alone, where
// it still shows).
TEST(HardProblemsExactTest, SolvesPackingsSideBySideAsParts) {
  const planner::AlgorithmOptions options = UnderNodeBudget(2'000'000);
  const std::pair<size_t, uint64_t> pairs[][2] = {
      {{30, 10}, {30, 11}}, {{30, 17}, {40, 15}}, {{40, 2}, {40, 18}}};
  for (const auto& pair : pairs) {
    std::vector<HardProblem> parts;
    for (const auto& [buffers, seed] : pair) {
      parts.push_back(MakeHardProblem(HardFamily::kUnreachable, buffers, seed));
    }
    const HardProblem both = InSequence("side by side", parts);
    SCOPED_TRACE(std::to_string(pair[0].second) + "+" +
                 std::to_string(pair[1].second));
    ExpectExactProves(both, planner::LiveBytesLowerBound(both.items), options);
  }
}

// Nine tight and aligned packings of 100-300 buffers one after another in
// time: each decided apart, within what the highest needs, exact proves
// all three at 2M nodes (0.1-0.4 s); decided as one problem it did not
// (1.10x, 1.15x and 1.17x the optimum, out of nodes). Its progress
// reports the whole plan, every part's height and bound in it, so that
// the height never rises (reporting the part being decided alone, it
// did) and the bound never falls.
TEST(HardProblemsExactTest, DecidesPhasesApart) {
  planner::AlgorithmOptions options = UnderNodeBudget(2'000'000);
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    const HardProblem problem = MakePhasedProblem(seed);
    SCOPED_TRACE(problem.name);
    std::vector<planner::SearchProgress> reports;
    options.on_progress = [&](const planner::SearchProgress& progress) {
      reports.push_back(progress);
    };
    ExpectExactProves(problem, problem.optimum, options);
    EXPECT_FALSE(reports.empty());
    planner::SearchProgress before = reports.front();
    for (const planner::SearchProgress& progress : reports) {
      EXPECT_GE(progress.height, problem.optimum);
      EXPECT_LE(progress.lower_bound, problem.optimum);
      EXPECT_LE(progress.height, before.height);  // The whole plan's.
      EXPECT_GE(progress.lower_bound, before.lower_bound);
      before = progress;
    }
  }
}

TEST(PhasedProblemTest, PhasesInSequenceKeepTheirPlans) {
  const std::vector<HardProblem> phases = PhasesOf(2);
  const HardProblem problem = MakePhasedProblem(2);
  EXPECT_EQ(problem.name, "phased/n=1800/seed=2");
  ASSERT_EQ(problem.items.size(), 1800u);
  EXPECT_EQ(FirstConflict(problem, problem.construction_offsets), "");
  uint64_t highest = 0;
  TimeValue last = -1;
  size_t k = 0;
  for (const HardProblem& phase : phases) {
    highest = std::max(highest, phase.optimum);
    TimeValue first = std::numeric_limits<TimeValue>::max();
    for (size_t i = 0; i < phase.items.size(); ++i, ++k) {
      EXPECT_EQ(problem.items[k].size, phase.items[i].size);
      first = std::min(first, problem.items[k].lifetime.first);
    }
    EXPECT_GT(first, last);  // Nothing live across a seam.
    for (size_t i = k - phase.items.size(); i < k; ++i) {
      last = std::max(last, problem.items[i].lifetime.last);
    }
  }
  EXPECT_EQ(problem.optimum, highest);
  EXPECT_EQ(problem.lower_bound, highest);
  EXPECT_TRUE(problem.optimum_known);
}

TEST(ParallelProblemTest, StreamsSideBySideKeepTheirPlans) {
  const std::vector<HardProblem> streams = StreamsOf(3);
  const HardProblem problem = MakeParallelProblem(3);
  EXPECT_EQ(problem.name, "parallel/n=2400/seed=3");
  ASSERT_EQ(problem.items.size(), 2400u);
  ASSERT_TRUE(planner::ValidatePlanItems(problem.items).ok());
  EXPECT_EQ(FirstConflict(problem, problem.construction_offsets), "");
  uint64_t sum = 0;
  TimeValue longest = 0;
  size_t k = 0;
  for (const HardProblem& stream : streams) {
    sum += stream.optimum;
    for (const planner::PlanItem& item : stream.items) {
      EXPECT_EQ(problem.items[k].size, item.size);
      EXPECT_EQ(problem.items[k].alignment, item.alignment);
      longest = std::max(longest, problem.items[k++].lifetime.last + 1);
    }
  }
  // Perfect packings stretched to one span stay perfect: every time holds
  // every stream's height.
  std::vector<uint64_t> live(static_cast<size_t>(longest), 0);
  for (const planner::PlanItem& item : problem.items) {
    const uint64_t padded =
        (item.size + item.alignment - 1) / item.alignment * item.alignment;
    for (TimeValue t = item.lifetime.first; t <= item.lifetime.last; ++t) {
      live[static_cast<size_t>(t)] += padded;
    }
  }
  EXPECT_EQ(std::count(live.begin(), live.end(), sum),
            static_cast<std::ptrdiff_t>(live.size()));
  EXPECT_EQ(problem.optimum, sum);
  EXPECT_EQ(problem.lower_bound, sum);
  EXPECT_EQ(
      planner::PlacementHeight(problem.items, problem.construction_offsets),
      sum);
  EXPECT_TRUE(problem.optimum_known);
  // Many more lifetimes meet than in a stream: past the 65,000 pairs at
  // which multi_fit made no dives until 2026-12-06.
  std::vector<std::pair<TimeValue, TimeValue>> lifetimes;
  for (const planner::PlanItem& item : problem.items) {
    lifetimes.emplace_back(item.lifetime.first, item.lifetime.last);
  }
  std::sort(lifetimes.begin(), lifetimes.end());
  uint64_t pairs = 0;
  for (size_t i = 0; i < lifetimes.size(); ++i) {
    for (size_t j = i + 1;
         j < lifetimes.size() && lifetimes[j].first <= lifetimes[i].second;
         ++j) {
      ++pairs;
    }
  }
  EXPECT_GT(pairs, 65'000u);
}

// Where many lifetimes meet, multi_fit still dives: on the parallel streams
// 1.170x, 1.162x and 1.174x the optimum, against 1.213x, 1.183x and 1.215x
// when it made no dives past 130,000 items and pairs a dive (all three
// fail; best fit 1.227x, 1.184x, 1.218x).
TEST(HardProblemsQualityTest, MultiFitDivesWhereManyLifetimesMeet) {
  const std::unique_ptr<planner::Algorithm> multi_fit =
      planner::MakeAlgorithm("multi_fit");
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    const HardProblem problem = MakeParallelProblem(seed);
    SCOPED_TRACE(problem.name);
    Result<planner::Placement> placement = multi_fit->Place(problem.items, {});
    ASSERT_TRUE(placement.ok());
    EXPECT_EQ(FirstConflict(problem, placement->offsets), "");
    EXPECT_LE(static_cast<double>(placement->height),
              1.18 * static_cast<double>(problem.optimum));
  }
}

// Nor does multi_fit stop diving at 4,096 items (it did until 2026-12-06):
// three packings of 2,000 buffers in parallel, 6,000 items in one part,
// 1.228x the optimum where best fit, and multi_fit before, gave 1.295x.
TEST(HardProblemsQualityTest, MultiFitDivesPastFourThousandItems) {
  const HardProblem problem = InParallel(
      "parallel/n=6000", {MakeHardProblem(HardFamily::kTight, 2000, 1),
                          MakeHardProblem(HardFamily::kAligned16, 2000, 1),
                          MakeHardProblem(HardFamily::kAligned64, 2000, 1)});
  ASSERT_EQ(problem.items.size(), 6000u);
  Result<planner::Placement> best_fit =
      planner::MakeAlgorithm("best_fit")->Place(problem.items, {});
  Result<planner::Placement> multi_fit =
      planner::MakeAlgorithm("multi_fit")->Place(problem.items, {});
  ASSERT_TRUE(best_fit.ok());
  ASSERT_TRUE(multi_fit.ok());
  EXPECT_EQ(FirstConflict(problem, multi_fit->offsets), "");
  EXPECT_LE(static_cast<double>(multi_fit->height),
            0.97 * static_cast<double>(best_fit->height));
}

// multi_fit places phases apart too, each up to the highest so far: never
// higher than the highest phase placed alone. Placed as one problem, the
// phases' dives shared one budget: 1.213x, 1.214x and 1.170x the optimum,
// against 1.179x, 1.099x and 1.130x.
TEST(HardProblemsQualityTest, MultiFitPlacesPhasesApart) {
  const std::unique_ptr<planner::Algorithm> multi_fit =
      planner::MakeAlgorithm("multi_fit");
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    const HardProblem problem = MakePhasedProblem(seed);
    SCOPED_TRACE(problem.name);
    uint64_t highest_alone = 0;
    for (const HardProblem& phase : PhasesOf(seed)) {
      Result<planner::Placement> alone = multi_fit->Place(phase.items, {});
      ASSERT_TRUE(alone.ok());
      highest_alone = std::max(highest_alone, alone->height);
    }
    Result<planner::Placement> placement = multi_fit->Place(problem.items, {});
    ASSERT_TRUE(placement.ok());
    EXPECT_EQ(FirstConflict(problem, placement->offsets), "");
    EXPECT_LE(placement->height, highest_alone);
  }
}

// multi_fit's squeaky-wheel dives: on small aligned packings its other
// tries reach the optimum on 15 of the 30 aligned16 ones, one chain of
// dives on 25, two chains (area and start ranks) on 26; on the aligned64
// ones one chain reaches 21, two reach 27. Blaming only the items that end
// in the upper half of a dive's excess: 25 and 28 (on 200 seeds at 40
// buffers 171 and 168, against 173 and 173; at 60 buffers 84 and 85,
// against 78 and 90). Dives that cover each level's free time (a heaviest
// set of disjoint lifetimes) instead of placing its items in priority
// order: 29 and 29 (on 200 seeds at 40 buffers 193 and 187; at 60, 154
// and 164). Starting each chain's wheel again every 10 dives (see
// kDivesPerStart): the same at 40; at 60 buffers 29 and 30 against 27 and
// 29, so the test at 60 fails without the new starts. With the dives'
// levels in bands (kBandBelowMedian) in both chains: 23 and 21 at 40, 12
// (aligned16) at 60; with the start-ranked chain's every other run in
// exact levels (Bands::kAlternate), 29 and 28, and 29.
int MultiFitOptima(HardFamily family, size_t buffers) {
  const std::unique_ptr<planner::Algorithm> multi_fit =
      planner::MakeAlgorithm("multi_fit");
  int optimal = 0;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    const HardProblem problem = MakeHardProblem(family, buffers, seed);
    Result<planner::Placement> placement = multi_fit->Place(problem.items, {});
    EXPECT_TRUE(placement.ok()) << problem.name;
    if (!placement.ok()) continue;
    EXPECT_EQ(FirstConflict(problem, placement->offsets), "") << problem.name;
    if (placement->height == problem.optimum) ++optimal;
  }
  return optimal;
}

TEST(HardProblemsQualityTest, MultiFitReachesMostSmallAlignedOptima) {
  EXPECT_GE(MultiFitOptima(HardFamily::kAligned16, 40), 28);
  EXPECT_GE(MultiFitOptima(HardFamily::kAligned64, 40), 28);
  EXPECT_GE(MultiFitOptima(HardFamily::kAligned16, 60), 28);
}

TEST(HardSuiteTest, CoversEveryFamilyAndSize) {
  const std::vector<HardProblem> suite = HardSuite(500);
  EXPECT_EQ(suite.size(), 4u * 4u * 3u);
  EXPECT_EQ(suite.front().name, "tight/n=100/seed=1");
  EXPECT_EQ(suite.back().name, "aligned64/n=500/seed=3");
}

}  // namespace
}  // namespace bench
}  // namespace memplan
