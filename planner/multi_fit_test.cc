#include "planner/multi_fit.h"

#if defined(__linux__)
#include <sched.h>
#endif

#include <chrono>
#include <optional>
#include <random>
#include <string>
#include <utility>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/best_fit.h"
#include "planner/exact.h"
#include "planner/lower_bound.h"
#include "planner/random_tiling.h"
#include "planner/skyline.h"
#include "planner/time_parts.h"

namespace memplan {
namespace planner {
namespace {

using ::testing::ElementsAre;

// An independent check: every offset aligned, no two live items share a
// byte (all pairs, no sweep), height = max(offset + size).
void ExpectValid(const std::vector<PlanItem>& items, const Placement& p) {
  ASSERT_EQ(p.offsets.size(), items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    EXPECT_EQ(p.offsets[i] % items[i].alignment, 0u) << "item " << i;
    for (size_t j = i + 1; j < items.size(); ++j) {
      const bool live_together =
          items[i].lifetime.first <= items[j].lifetime.last &&
          items[j].lifetime.first <= items[i].lifetime.last;
      const bool share_bytes = p.offsets[i] < p.offsets[j] + items[j].size &&
                               p.offsets[j] < p.offsets[i] + items[i].size;
      EXPECT_FALSE(live_together && share_bytes && items[i].size > 0 &&
                   items[j].size > 0)
          << "items " << i << " and " << j;
    }
  }
  EXPECT_EQ(p.height, PlacementHeight(items, p.offsets));
}

// multi_fit's plan is valid, at or below best fit's, at or above the bound.
void ExpectValidNotAboveBestFit(const std::vector<PlanItem>& items) {
  Result<Placement> placement = MultiFitAlgorithm().Place(items, {});
  ASSERT_TRUE(placement.ok()) << placement.error().ToString();
  ExpectValid(items, *placement);
  Result<Placement> best_fit = BestFitAlgorithm().Place(items, {});
  ASSERT_TRUE(best_fit.ok());
  EXPECT_LE(placement->height, best_fit->height);
  EXPECT_GE(placement->height, LiveBytesLowerBound(items));
}

std::vector<PlanItem> RandomItems(uint32_t seed, size_t n) {
  std::mt19937 rng(seed);
  std::vector<PlanItem> items;
  for (size_t i = 0; i < n; ++i) {
    const int64_t first = static_cast<int64_t>(rng() % (n / 2 + 1));
    const int64_t last = first + static_cast<int64_t>(rng() % 8);
    const uint64_t size = rng() % 7 == 0 ? 0 : 1 + rng() % 5000;
    items.push_back({size, uint64_t{1} << (rng() % 7), first, last});
  }
  return items;
}

TEST(MultiFitTest, PacksWhereDecreasingSizeBestFitLeavesAHole) {
  // a 4 [0,0], b 1 [1,1], c 3 [1,3], d 3 [0,1], e 4 [3,5].
  // Best fit, largest first: a -> 0; e -> 0 (a is dead by 3); c -> 4 (e
  // holds [0,4) at 3); d -> 7 (a holds [0,4) at 0, c [4,7) at 1): height 10.
  // Bottom-up from time 0: d at 0, a on it at 3; at time 1 b on d at 3, c on b
  // at 4; e at 0 from time 3 on. Height 7 = b + c + d, live at 1.
  const std::vector<PlanItem> items = {
      {4, 1, 0, 0}, {1, 1, 1, 1}, {3, 1, 1, 3}, {3, 1, 0, 1}, {4, 1, 3, 5}};
  Result<Placement> best_fit = BestFitAlgorithm().Place(items, {});
  ASSERT_TRUE(best_fit.ok());
  EXPECT_EQ(best_fit->height, 10u);
  Result<Placement> placement = MultiFitAlgorithm().Place(items, {});
  ASSERT_TRUE(placement.ok()) << placement.error().ToString();
  ExpectValid(items, *placement);
  EXPECT_EQ(placement->height, 7u);
  EXPECT_EQ(LiveBytesLowerBound(items), 7u);
  EXPECT_FALSE(placement->proven_optimal);  // A heuristic claims nothing.
}

// Small problems with slack (10 items over 12 times, sizes 1 to 8), whose
// optimum exact proves: multi_fit reaches 999 of the 1,000 (best_fit 821,
// greedy 756, so these tell algorithms apart). It reached all 1,000 until
// its chains started their wheels again every 10 dives (kDivesPerStart);
// seed 883 (33 against 31) needs a longer run of one wheel. Restarting
// first after 20 dives keeps 1,000 but does less on the generated
// families (1.10390x against 1.10252x over six streams). Covering each
// level's time by plain length (every time counting the same, not as its
// live bytes make it pressing) gives 997, with the restarts or without.
TEST(MultiFitTest, ReachesTheOptimumOfSmallProblems) {
  int optimal = 0;
  for (uint32_t seed = 1; seed <= 1000; ++seed) {
    std::mt19937 rng(seed);
    std::vector<PlanItem> items;
    for (int i = 0; i < 10; ++i) {
      int64_t first = static_cast<int64_t>(rng() % 12);
      int64_t last = static_cast<int64_t>(rng() % 12);
      if (first > last) std::swap(first, last);
      items.push_back({1 + rng() % 8, 1, first, last});
    }
    SCOPED_TRACE("seed " + std::to_string(seed));
    Result<Placement> placement = MultiFitAlgorithm().Place(items, {});
    ASSERT_TRUE(placement.ok());
    ExpectValid(items, *placement);
    Result<Placement> exact = ExactAlgorithm().Place(items, {});
    ASSERT_TRUE(exact.ok());
    ASSERT_TRUE(exact->proven_optimal);
    if (placement->height == exact->height) ++optimal;
  }
  EXPECT_GE(optimal, 999);
}

TEST(MultiFitTest, HonoursAlignmentTheCsvRegressionNeeds) {
  // a 3 [0,2] align 1, c 2 [1,2] align 8: c at 0, a above it at 2.
  const std::vector<PlanItem> items = {{3, 1, 0, 2}, {2, 8, 1, 2}};
  Result<Placement> placement = MultiFitAlgorithm().Place(items, {});
  ASSERT_TRUE(placement.ok());
  ExpectValid(items, *placement);
  EXPECT_THAT(placement->offsets, ElementsAre(2, 0));
  EXPECT_EQ(placement->height, 5u);
}

TEST(MultiFitTest, NeverAboveBestFitAndAlwaysValid) {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    const std::vector<PlanItem> items = RandomItems(seed, 10 + seed * 7);
    SCOPED_TRACE("seed " + std::to_string(seed));
    ExpectValidNotAboveBestFit(items);
  }
}

TEST(MultiFitTest, SizesInBytesPackAsWellAsRoundOnes) {
  // Random tilings of 48 units of 4 KiB over 24 times, and the same with
  // every size cut by 0-255 bytes: every plan of the round sizes holds the
  // cut ones, so they are no harder, but their items seldom end level with
  // each other. With levels in bands the mean height over 20 seeds is
  // 1.027x 48 units cut and 1.030x round (1.029x at kDiveWork 130,000);
  // with each level one offset the cut ones gave 1.067x.
  double round_sum = 0, cut_sum = 0;
  constexpr uint64_t kSeeds = 20;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    std::vector<PlanItem> round = RandomTiling(&rng, 48, 24);
    for (PlanItem& item : round) item.size *= 4096;
    std::vector<PlanItem> cut = round;
    for (PlanItem& item : cut) item.size -= rng() % 256;
    for (const std::vector<PlanItem>* items : {&round, &cut}) {
      Result<Placement> placement = MultiFitAlgorithm().Place(*items, {});
      ASSERT_TRUE(placement.ok());
      ExpectValid(*items, *placement);
      (items == &round ? round_sum : cut_sum) +=
          static_cast<double>(placement->height) / (48 * 4096);
    }
  }
  EXPECT_LE(cut_sum / kSeeds, round_sum / kSeeds + 0.01);
}

TEST(MultiFitTest, ValidWhereOffsetsNeedWideKeys) {
  // Sizes scaled by 2^34 and one byte-sized item: offsets in units of the
  // gcd (1) pass 2^32, so the dives key their queue by 128 bits.
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    std::vector<PlanItem> items = RandomItems(seed, 60);
    for (PlanItem& item : items) {
      item.size <<= 34;
      item.alignment <<= 34;
    }
    items.push_back({1, 1, 0, 100});
    SCOPED_TRACE("seed " + std::to_string(seed));
    ExpectValidNotAboveBestFit(items);
  }
}

// PacksWhereDecreasingSizeBestFitLeavesAHole's five items scaled by 2^58
// (so best fit misses the bound and dives run), and two pairs of 1-byte
// items far later in time, each pair stacked. Counted by their live bytes,
// those times weigh about 2^-488 each: added to the big items' weight in a
// level's cover they round away, so no cover chooses them. They go at
// their level anyway (none of them meets a chosen item), and each pair's
// second one above the first.
TEST(MultiFitTest, ValidWhereALevelsCoverRoundsItemsAway) {
  std::vector<PlanItem> items = {
      {4, 1, 0, 0}, {1, 1, 1, 1}, {3, 1, 1, 3}, {3, 1, 0, 1}, {4, 1, 3, 5}};
  for (PlanItem& item : items) item.size <<= 58;
  const int64_t late = int64_t{1} << 60;
  items.push_back({1, 1, 20, late});
  items.push_back({1, 1, 20, late});
  items.push_back({1, 1, late + 1, late + 1});
  items.push_back({1, 1, late + 1, late + 1});
  Result<Placement> best_fit = BestFitAlgorithm().Place(items, {});
  ASSERT_TRUE(best_fit.ok());
  EXPECT_GT(best_fit->height, LiveBytesLowerBound(items));
  Result<Placement> placement = MultiFitAlgorithm().Place(items, {});
  ASSERT_TRUE(placement.ok());
  ExpectValid(items, *placement);
  EXPECT_EQ(placement->height, uint64_t{7} << 58);
}

TEST(MultiFitTest, IsDeterministic) {
  const std::vector<PlanItem> items = RandomItems(7, 200);
  Result<Placement> a = MultiFitAlgorithm().Place(items, {});
  Result<Placement> b = MultiFitAlgorithm().Place(items, {});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->offsets, b->offsets);
}

#if defined(__linux__)
// On one CPU (the calling thread's affinity) the second chain of dives runs
// after the first instead of on a thread: the same plans.
TEST(MultiFitTest, OneCpuGivesTheSamePlans) {
  cpu_set_t all;
  ASSERT_EQ(sched_getaffinity(0, sizeof(all), &all), 0);
  int first = 0;
  while (first < CPU_SETSIZE && !CPU_ISSET(first, &all)) ++first;
  ASSERT_LT(first, CPU_SETSIZE);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  std::mt19937_64 rng(5);
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const std::vector<PlanItem> items =
        seed % 2 == 0 ? RandomItems(seed, 300) : RandomTiling(&rng, 64, 40);
    Result<Placement> threaded = MultiFitAlgorithm().Place(items, {});
    ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
    Result<Placement> alone = MultiFitAlgorithm().Place(items, {});
    ASSERT_EQ(sched_setaffinity(0, sizeof(all), &all), 0);
    ASSERT_TRUE(threaded.ok() && alone.ok());
    EXPECT_EQ(threaded->offsets, alone->offsets);
  }
}
#endif

TEST(MultiFitTest, LargePartitionsAreBestFitsPlan) {
  std::vector<PlanItem> items =
      RandomItems(3, MultiFitAlgorithm::kMaxSkylineItems + 1);
  // One item across all of them, so that they do not split in time.
  items.push_back({1, 1, 0, static_cast<int64_t>(items.size())});
  Result<Placement> placement = MultiFitAlgorithm().Place(items, {});
  Result<Placement> best_fit = BestFitAlgorithm().Place(items, {});
  ASSERT_TRUE(placement.ok() && best_fit.ok());
  EXPECT_EQ(placement->offsets, best_fit->offsets);
}

// Past kMaxBottomUpItems items where lifetimes meet too often for the
// dives' graph (about 4.2M pairs here, each lifetime half the time), the
// bottom-up tries and their compactions would cost several times best
// fit's time: best fit's plan, which is above the bound here.
TEST(MultiFitTest, LargeDensePartitionsAreBestFitsPlan) {
  std::mt19937 rng(5);
  std::vector<PlanItem> items;
  for (size_t i = 0; i <= MultiFitAlgorithm::kMaxBottomUpItems; ++i) {
    const int64_t first = static_cast<int64_t>(rng() % 1000);
    const int64_t last = first + 500 + static_cast<int64_t>(rng() % 500);
    items.push_back({1 + rng() % 5000, 1, first, last});
  }
  Result<Placement> placement = MultiFitAlgorithm().Place(items, {});
  Result<Placement> best_fit = BestFitAlgorithm().Place(items, {});
  ASSERT_TRUE(placement.ok() && best_fit.ok());
  EXPECT_GT(best_fit->height, LiveBytesLowerBound(items));
  EXPECT_EQ(placement->offsets, best_fit->offsets);
}

// Short lifetimes over a long time split into parts
// (planner/time_parts.h), each placed apart: valid, and never above best
// fit, whose plan of each part is the one it makes of that part alone.
TEST(MultiFitTest, PartsInTimeArePlacedApart) {
  const std::vector<PlanItem> items =
      RandomItems(3, MultiFitAlgorithm::kMaxSkylineItems + 1);
  ASSERT_GT(TimeParts(items).size(), 1u);
  Result<Placement> placement = MultiFitAlgorithm().Place(items, {});
  Result<Placement> best_fit = BestFitAlgorithm().Place(items, {});
  ASSERT_TRUE(placement.ok() && best_fit.ok());
  ExpectValid(items, *placement);
  EXPECT_LE(placement->height, best_fit->height);
  Result<Placement> again = MultiFitAlgorithm().Place(items, {});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->offsets, placement->offsets);
}

TEST(MultiFitTest, EmptyInputsAndErrors) {
  Result<Placement> empty = MultiFitAlgorithm().Place({}, {});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->height, 0u);
  Result<Placement> zero = MultiFitAlgorithm().Place({{0, 1, 0, 3}}, {});
  ASSERT_TRUE(zero.ok());
  EXPECT_THAT(zero->offsets, ElementsAre(0));
  EXPECT_EQ(zero->height, 0u);
  EXPECT_EQ(MakeAlgorithm("multi_fit")->name(), "multi_fit");
}

// Up to `max_dives` dives, for at most an hour.
DiveBudget Dives(uint64_t max_dives) {
  DiveBudget budget;
  budget.max_dives = max_dives;
  budget.until = std::chrono::steady_clock::now() + std::chrono::hours(1);
  return budget;
}

TEST(DiveUntilTest, BestFitsPlanWhenNoDiveRuns) {
  const std::vector<PlanItem> items = RandomItems(5, 120);
  Result<Placement> best_fit = BestFitAlgorithm().Place(items, {});
  ASSERT_TRUE(best_fit.ok());
  uint64_t dives = 99;
  std::optional<Placement> none = DiveUntil(items, Dives(0), &dives);
  ASSERT_TRUE(none.has_value());
  EXPECT_EQ(dives, 0u);
  EXPECT_EQ(none->offsets, best_fit->offsets);
  // A deadline already passed: no dive either.
  DiveBudget late = Dives(1000);
  late.until = std::chrono::steady_clock::now();
  dives = 99;
  std::optional<Placement> after = DiveUntil(items, late, &dives);
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(dives, 0u);
  EXPECT_EQ(after->offsets, best_fit->offsets);
  // Stopped by its caller before the first dive.
  DiveBudget stopped = Dives(1000);
  stopped.proceed = [] { return false; };
  dives = 99;
  std::optional<Placement> none_run = DiveUntil(items, stopped, &dives);
  ASSERT_TRUE(none_run.has_value());
  EXPECT_EQ(dives, 0u);
  EXPECT_EQ(none_run->offsets, best_fit->offsets);
  // Already as low as asked.
  DiveBudget low_enough = Dives(1000);
  low_enough.stop_at = best_fit->height;
  dives = 99;
  std::optional<Placement> at = DiveUntil(items, low_enough, &dives);
  ASSERT_TRUE(at.has_value());
  EXPECT_EQ(dives, 0u);
  EXPECT_EQ(at->offsets, best_fit->offsets);
}

TEST(DiveUntilTest, MoreDivesNeverHigherAndEachPlanValid) {
  int lowered = 0;
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    const std::vector<PlanItem> items = RandomItems(seed, 150);
    SCOPED_TRACE("seed " + std::to_string(seed));
    uint64_t few_dives = 0, many_dives = 0;
    std::optional<Placement> few = DiveUntil(items, Dives(10), &few_dives);
    std::optional<Placement> many = DiveUntil(items, Dives(400), &many_dives);
    ASSERT_TRUE(few.has_value() && many.has_value());
    ExpectValid(items, *few);
    ExpectValid(items, *many);
    EXPECT_LE(few_dives, 10u);
    EXPECT_LE(many_dives, 400u);
    // The same dives in the same order, and the lowest kept.
    EXPECT_LE(many->height, few->height);
    EXPECT_GE(many->height, LiveBytesLowerBound(items));
    // Short of the bound, every allowed dive ran.
    if (many->height > LiveBytesLowerBound(items)) {
      EXPECT_EQ(many_dives, 400u);
    }
    lowered += many->height < few->height;
  }
  // The extra dives find lower plans on some of them.
  EXPECT_GT(lowered, 0);
}

TEST(DiveUntilTest, StopsAtTheBound) {
  // PacksWhereDecreasingSizeBestFitLeavesAHole's items: best fit 10, the
  // bound 7, which a dive reaches; none runs after that.
  const std::vector<PlanItem> items = {
      {4, 1, 0, 0}, {1, 1, 1, 1}, {3, 1, 1, 3}, {3, 1, 0, 1}, {4, 1, 3, 5}};
  uint64_t dives = 0;
  std::optional<Placement> placed = DiveUntil(items, Dives(1000), &dives);
  ASSERT_TRUE(placed.has_value());
  ExpectValid(items, *placed);
  EXPECT_EQ(placed->height, 7u);
  EXPECT_GE(dives, 1u);
  EXPECT_LT(dives, 1000u);
}

// Lifetimes that nearly all meet: more pairs than the dives' graph holds
// (each of these items meets every other, about 1.3M pairs), so the dives
// go over time (TimeDives).
std::vector<PlanItem> DenseItems(uint32_t seed, size_t n) {
  std::mt19937 rng(seed);
  std::vector<PlanItem> items;
  for (size_t i = 0; i < n; ++i) {
    const int64_t first = static_cast<int64_t>(rng() % 100);
    const int64_t last = 900 + static_cast<int64_t>(rng() % 100);
    items.push_back(
        {1 + rng() % 5000, uint64_t{1} << (rng() % 5), first, last});
  }
  return items;
}

TEST(DiveUntilTest, DivesOverTimePastTheGraphsBound) {
  const std::vector<PlanItem> items = DenseItems(4, 1600);
  Result<Placement> best_fit = BestFitAlgorithm().Place(items, {});
  ASSERT_TRUE(best_fit.ok());
  uint64_t dives = 0;
  std::optional<Placement> placed = DiveUntil(items, Dives(2), &dives);
  ASSERT_TRUE(placed.has_value());
  ExpectValid(items, *placed);
  EXPECT_EQ(dives, 2u);
  EXPECT_LE(placed->height, best_fit->height);
  EXPECT_GE(placed->height, LiveBytesLowerBound(items));
  // None starts past the deadline.
  DiveBudget late = Dives(2);
  late.until = std::chrono::steady_clock::now();
  std::optional<Placement> stopped = DiveUntil(items, late, &dives);
  ASSERT_TRUE(stopped.has_value());
  EXPECT_EQ(dives, 0u);
  EXPECT_EQ(stopped->offsets, best_fit->offsets);
  // And one going past it stops (its first clock reading is 10,000 items
  // into the dive; this one looks at about 2.5M): no plan from it.
  std::vector<double> priority(items.size(), 0);
  EXPECT_TRUE(DiveOnceForTest(items, priority, true, true,
                              std::chrono::steady_clock::now())
                  .empty());
}

TEST(DiveUntilTest, EmptyOnlyWhereTheItemsAreInvalidOrNone) {
  uint64_t dives = 0;
  EXPECT_FALSE(DiveUntil({{8, 1, 3, 2}}, Dives(10), &dives).has_value());
  EXPECT_FALSE(DiveUntil({}, Dives(10), &dives).has_value());
}

// The dives over time (TimeDives) are the dives over the graph (Dives)
// without it: the same levels, covers and offsets, whatever the
// priorities, bands or alignments. A second implementation on purpose, for
// items whose graph would be too large; this holds the two to one answer.
TEST(DiveOnceTest, OverTimeAsOverTheGraph) {
  std::mt19937 rng(17);
  int compared = 0;
  for (uint32_t round = 0; round < 300; ++round) {
    const size_t n = 1 + rng() % 250;
    const uint64_t shared_alignment = uint64_t{1} << (rng() % 7);
    const bool mixed = rng() % 2 == 0;
    const int64_t span = 1 + static_cast<int64_t>(rng() % (2 * n));
    std::vector<PlanItem> items;
    // Rounds where many items live from (or nearly from) the start to (or
    // nearly to) the end: dives over the times then start on a flat
    // skyline.
    const bool from_start = round % 3 == 0;
    for (size_t i = 0; i < n; ++i) {
      int64_t first = static_cast<int64_t>(rng() % span);
      // Mostly short lifetimes, some to the end, a few over everything.
      int64_t last = rng() % 20 == 0 ? span
                     : rng() % 10 == 0
                         ? first + static_cast<int64_t>(rng() % span)
                         : first + static_cast<int64_t>(rng() % 6);
      if (rng() % 15 == 0) first = 0;
      if (from_start && rng() % 2 == 0) {  // At or near both ends.
        first = rng() % 2 == 0 ? 0 : static_cast<int64_t>(rng() % 3);
        last = rng() % 2 == 0 ? span : span - static_cast<int64_t>(rng() % 3);
        first = std::min(first, span);
        last = std::max(first, last);
      }
      const uint64_t size = rng() % 9 == 0   ? 0
                            : rng() % 2 == 0 ? 64 * (1 + rng() % 16)
                                             : 1 + rng() % 5000;
      items.push_back({size,
                       mixed ? uint64_t{1} << (rng() % 7) : shared_alignment,
                       first, last});
    }
    std::vector<double> priority(n);
    for (double& p : priority) p = static_cast<double>(rng() % 50);
    for (bool bands : {true, false}) {
      SCOPED_TRACE("round " + std::to_string(round) +
                   (bands ? " bands" : " exact levels"));
      const std::vector<uint64_t> graph =
          DiveOnceForTest(items, priority, bands, false);
      const std::vector<uint64_t> time =
          DiveOnceForTest(items, priority, bands, true);
      ASSERT_EQ(graph.size(), n);
      ASSERT_EQ(time, graph);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 600);
}

TEST(SkylineTest, FillsEachLowestRunAndGivesUpPastItsWork) {
  // x 2 [0,2], y 1 [0,0], z 1 [1,2]. At time 0 the floor is 0 over [0, 3):
  // x and y waste nothing there, x also reaches the wall, so x goes first,
  // at 0. Then y at 2 (time 0 is still lowest), then z at 2 (time 1).
  const std::vector<PlanItem> items = {
      {2, 1, 0, 2}, {1, 1, 0, 0}, {1, 1, 1, 2}};
  const TimeAxis times = LifetimeAxis(items);
  const std::vector<uint64_t> priority = {1, 2, 3};
  std::optional<std::vector<uint64_t>> offsets = SkylinePlace(
      items, times, priority, SkylineDirection::kForward, 1'000'000);
  ASSERT_TRUE(offsets.has_value());
  EXPECT_THAT(*offsets, ElementsAre(0, 2, 2));
  // Mirrored in time, x and z start first; x reaches the wall: x at 0, then
  // z and y at 2. Past its work budget the placement gives up.
  offsets = SkylinePlace(items, times, priority, SkylineDirection::kBackward,
                         1'000'000);
  ASSERT_TRUE(offsets.has_value());
  EXPECT_THAT(*offsets, ElementsAre(0, 2, 2));
  EXPECT_FALSE(
      SkylinePlace(items, times, priority, SkylineDirection::kForward, 2)
          .has_value());
}

}  // namespace
}  // namespace planner
}  // namespace memplan
