#include "planner/exact.h"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>
#include <random>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/lower_bound.h"
#include "planner/minimalloc_csv.h"
#include "planner/multi_fit.h"
#include "planner/random_tiling.h"
#include "planner/splitmix64.h"

namespace memplan {
namespace planner {
namespace {

using ::testing::ElementsAre;

TEST(ExactTest, FindsTheOptimumBestFitAndGreedyMiss) {
  // best_fit and greedy both reach 8 here (best_fit_test shows why). At
  // time 1 items 0 and 3 hold 6 bytes, and 6 fits: 3 [0,4), 0 [4,6),
  // 2 [0,2), 4 [2,5), 1 [2,3).
  const std::vector<PlanItem> items = {
      {2, 1, 1, 3}, {1, 1, 3, 3}, {2, 1, 3, 4}, {4, 1, 1, 2}, {3, 1, 4, 4}};
  Result<Placement> placement = ExactAlgorithm().Place(items, {});
  ASSERT_TRUE(placement.ok()) << placement.error().ToString();
  EXPECT_EQ(placement->height, 6u);
  EXPECT_TRUE(placement->proven_optimal);
}

TEST(ExactTest, ProvesAnOptimumAboveTheLiveBytesBound) {
  // Three 3-byte items, align 4, all live together: offsets are multiples
  // of 4 and pairwise 4 apart, so one sits at >= 8: height 11, while only
  // 9 bytes are ever live. The search must refute 10.
  const std::vector<PlanItem> items = {
      {3, 4, 0, 2}, {3, 4, 1, 2}, {3, 4, 2, 3}};
  Result<Placement> placement = ExactAlgorithm().Place(items, {});
  ASSERT_TRUE(placement.ok());
  EXPECT_EQ(placement->height, 11u);
  EXPECT_TRUE(placement->proven_optimal);
}

// Every time step holds 6 bytes: 1-byte items a (steps 0-2), b (1-3) and
// c (2-4), and one block a step, which at height 6 must leave the 1-byte
// items its step holds at the edges or next to each other. So a and c are
// at edges (steps 0 and 4), apart (both live at step 2): say a at 0, c at
// 5. Then b is at 1 or 5 (step 1) and at 0 or 4 (step 3): no plan is 6
// high, while only 6 bytes are ever live; 7 is the optimum.
const std::vector<PlanItem> kGap = {{1, 1, 0, 2}, {1, 1, 1, 3}, {1, 1, 2, 4},
                                    {5, 1, 0, 0}, {4, 1, 1, 1}, {3, 1, 2, 2},
                                    {4, 1, 3, 3}, {5, 1, 4, 4}};

TEST(ExactTest, ProvesAGapThatNoAlignmentCauses) {
  const std::vector<PlanItem>& items = kGap;
  ASSERT_EQ(LiveBytesLowerBound(items), 6u);
  Result<Placement> placement = ExactAlgorithm().Place(items, {});
  ASSERT_TRUE(placement.ok());
  EXPECT_EQ(placement->height, 7u);
  EXPECT_TRUE(placement->proven_optimal);
  EXPECT_EQ(placement->lower_bound, 7u);
}

TEST(ExactTest, ReportsProgressUpToItsResult) {
  // The decision at 6 starts, fails, and proves 7.
  const std::vector<PlanItem>& items = kGap;
  std::vector<SearchProgress> reports;
  AlgorithmOptions options;
  options.on_progress = [&](const SearchProgress& progress) {
    reports.push_back(progress);
  };
  Result<Placement> placement = ExactAlgorithm().Place(items, options);
  ASSERT_TRUE(placement.ok());
  ASSERT_FALSE(reports.empty());
  EXPECT_TRUE(
      std::any_of(reports.begin(), reports.end(),
                  [](const SearchProgress& p) { return p.trying == 6; }));
  for (size_t k = 1; k < reports.size(); ++k) {
    EXPECT_LE(reports[k].height, reports[k - 1].height);
    EXPECT_GE(reports[k].lower_bound, reports[k - 1].lower_bound);
    EXPECT_GE(reports[k].seconds, reports[k - 1].seconds);
  }
  EXPECT_EQ(reports.back().height, placement->height);
  EXPECT_EQ(reports.back().lower_bound, placement->lower_bound);
  EXPECT_EQ(reports.back().trying, 0u);
}

TEST(ExactTest, ReportsUnprovenWhenTheBudgetRunsOut) {
  // Same refutation with a budget of one node: the seed plan comes back,
  // valid but unproven.
  AlgorithmOptions options;
  options.max_nodes = 1;
  Result<Placement> placement = ExactAlgorithm().Place(
      {{3, 4, 0, 2}, {3, 4, 1, 2}, {3, 4, 2, 3}}, options);
  ASSERT_TRUE(placement.ok());
  EXPECT_EQ(placement->height, 11u);
  EXPECT_FALSE(placement->proven_optimal);
  // What is proven without a search: 9 bytes live, each item padded to 4.
  EXPECT_EQ(placement->lower_bound, 9u);
}

TEST(ExactTest, SolvesMinimallocInput12AtHeight12) {
  const char* path = "external/shared_data/data/minimalloc/input.12.csv";
  if (!std::ifstream(path).good()) {
    GTEST_SKIP() << path << " is absent (no ../shared/data here)";
  }
  Result<MinimallocProblem> problem = ReadMinimallocCsvFile(path);
  ASSERT_TRUE(problem.ok()) << problem.error().ToString();
  Result<Placement> placement =
      ExactAlgorithm().Place(ToPlanItems(*problem), {});
  ASSERT_TRUE(placement.ok());
  EXPECT_EQ(placement->height, 12u);
  EXPECT_TRUE(placement->proven_optimal);
}

// All pairs: no two time-overlapping items share a byte, offsets aligned.
bool ValidPlan(const std::vector<PlanItem>& items, const Placement& plan) {
  if (plan.offsets.size() != items.size()) return false;
  for (size_t i = 0; i < items.size(); ++i) {
    if (plan.offsets[i] % items[i].alignment != 0) return false;
    for (size_t j = i + 1; j < items.size(); ++j) {
      if (items[i].size == 0 || items[j].size == 0) continue;
      if (items[i].lifetime.last < items[j].lifetime.first ||
          items[j].lifetime.last < items[i].lifetime.first) {
        continue;
      }
      if (plan.offsets[i] < plan.offsets[j] + items[j].size &&
          plan.offsets[j] < plan.offsets[i] + items[i].size) {
        return false;
      }
    }
  }
  return PlacementHeight(items, plan.offsets) == plan.height;
}

TEST(ExactTest, ProvesAPinwheelAtTheLiveBytesBound) {
  // A pinwheel (no straight cut splits it) filling 6 bytes x 3 times: four
  // buffers turn around the one in the middle. Every time holds 6 bytes,
  // so 6 is optimal and the bound proves it.
  const std::vector<PlanItem> items = {
      {4, 1, 0, 0},  // Bytes [0,4) at time 0.
      {2, 1, 0, 1},  // Bytes [4,6) at 0-1.
      {2, 1, 1, 2},  // Bytes [0,2) at 1-2.
      {2, 1, 1, 1},  // Bytes [2,4) at 1: the hub.
      {4, 1, 2, 2},  // Bytes [2,6) at 2.
  };
  Result<Placement> placement = ExactAlgorithm().Place(items, {});
  ASSERT_TRUE(placement.ok());
  EXPECT_EQ(placement->height, 6u);
  EXPECT_TRUE(placement->proven_optimal);
  EXPECT_EQ(placement->lower_bound, 6u);
  EXPECT_TRUE(ValidPlan(items, *placement));
}

TEST(ExactTest, TilesAFullRectangle) {
  // Every time holds exactly 8 bytes, so a plan of height 8 is a tiling,
  // which the time sweep finds: item 2 takes the 3 bytes item 0 leaves,
  // items 3 and 4 the 5 that item 1 leaves, items 5 and 6 the 4 and 3 that
  // items 4 and 2 leave, and item 7 the 5 of items 3 and 5.
  const std::vector<PlanItem> items = {
      {3, 1, 0, 0}, {5, 1, 0, 1}, {3, 1, 1, 2}, {1, 1, 2, 3},
      {4, 1, 2, 2}, {4, 1, 3, 3}, {3, 1, 3, 4}, {5, 1, 4, 4},
  };
  Result<Placement> placement = ExactAlgorithm().Place(items, {});
  ASSERT_TRUE(placement.ok());
  EXPECT_EQ(placement->height, 8u);
  EXPECT_TRUE(placement->proven_optimal);
  EXPECT_TRUE(ValidPlan(items, *placement));
}

TEST(ExactTest, TilesRandomFullRectangles) {
  // Tilings of about 140 items that the heuristics mostly miss, so the
  // sweep decides them (the search after it on some), backtracking, with
  // restarts, and skipping the layouts it has refuted: whatever it prunes,
  // it must still find a tiling. A node budget, not a time one, so the
  // outcome does not depend on the machine (about 4 s in all with -c opt).
  // Storing a layout as refuted when the node limit cut its search short,
  // or leaving one crossing item out of the stored layout, each misses
  // tilings here.
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const std::vector<PlanItem> items = RandomTiling(&rng, 48, 24);
    AlgorithmOptions options;
    options.max_nodes = 10'000'000;
    options.max_seconds = 3600;
    Result<Placement> placement = ExactAlgorithm().Place(items, options);
    ASSERT_TRUE(placement.ok());
    EXPECT_EQ(placement->height, 48u);
    EXPECT_TRUE(placement->proven_optimal);
    EXPECT_TRUE(ValidPlan(items, *placement));
  }
}

TEST(ExactTest, TilesInFineUnitsPastTheBitsetsMemory) {
  // Tilings of 40 x 2^16 bytes over 96 times, under one byte live
  // throughout (so the sweep's unit is a byte): a window's bitset takes up
  // to 41k words, and the bitsets of every section do not fit in the
  // sweep's 32 MiB at once. They are dropped when full (dozens of times
  // over these seeds) and built again as the sweep goes on. With the dropped
  // ones still read (their windows not marked unbuilt), seed 3 came out
  // above its bound. Seed 9 is not decided within the nodes (nor was 6
  // while the horizon was only as far as every bitset fit at once).
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    std::vector<PlanItem> items = RandomTiling(&rng, 40, 96);
    for (PlanItem& item : items) item.size <<= 16;
    items.push_back({1, 1, 0, 95});
    const uint64_t height = (uint64_t{40} << 16) + 1;
    AlgorithmOptions options;
    options.max_nodes = 10'000'000;
    options.max_seconds = 3600;
    Result<Placement> placement = ExactAlgorithm().Place(items, options);
    ASSERT_TRUE(placement.ok());
    EXPECT_EQ(placement->height, height);
    EXPECT_TRUE(placement->proven_optimal);
    EXPECT_TRUE(ValidPlan(items, *placement));
  }
}

TEST(ExactTest, FindsPlansOnACoarserGrid) {
  // Random tilings of 48 units of 4 KiB in sizes of 1-9 units, each size
  // then cut by 0-255 bytes: the tiling's offsets still hold the items
  // within 48 units, but every section has slack and the sizes share no
  // grid coarser than a byte. Rounded up to 4 KiB they are the tiling
  // again, which the sweep decides within the grids' share of the nodes on
  // these two seeds, asked for a plan within 48 units. Without the
  // coarser grids exact finds none there on any of the first 8 seeds (2-6%
  // above); nor does it, without a capacity, within these nodes, where the
  // grids come after the bound's decision with less of them.
  for (uint64_t seed : {3, 4}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    std::vector<PlanItem> items = RandomTiling(&rng, 48, 24);
    for (PlanItem& item : items) item.size = item.size * 4096 - rng() % 256;
    AlgorithmOptions options;
    options.max_nodes = 2'000'000;
    options.max_seconds = 3600;
    options.capacity = 48 * 4096;
    Result<Placement> placement = ExactAlgorithm().Place(items, options);
    ASSERT_TRUE(placement.ok());
    EXPECT_LE(placement->height, 48u * 4096);
    EXPECT_FALSE(placement->proven_optimal);  // No rounded bound counts.
    EXPECT_LT(placement->lower_bound, placement->height);
    EXPECT_TRUE(ValidPlan(items, *placement));
  }
}

// A tiling 20 bytes wide over 600 times, beside 100 one-byte items that
// live through all of it: at 120 bytes every time is full.
std::vector<PlanItem> LongLivedItems() {
  std::mt19937_64 rng(7);
  std::vector<PlanItem> items = RandomTiling(&rng, 20, 600);
  TimeValue last = 0;
  for (const PlanItem& item : items) {
    last = std::max(last, item.lifetime.last);
  }
  for (int k = 0; k < 100; ++k) items.push_back({1, 1, 0, last});
  return items;
}

// LongLivedItems planned by exact within `options`, on a thread of its own
// with a stack of `stack_bytes`.
Result<Placement> PlanLongLivedOnAStackOf(size_t stack_bytes,
                                          const AlgorithmOptions& options) {
  struct Job {
    std::vector<PlanItem> items;
    AlgorithmOptions options;
    std::optional<Result<Placement>> placement;
  } job;
  job.items = LongLivedItems();
  job.options = options;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack_bytes);
  pthread_t thread;
  const int started = pthread_create(
      &thread, &attr,
      [](void* arg) -> void* {
        Job& job = *static_cast<Job*>(arg);
        job.placement = ExactAlgorithm().Place(job.items, job.options);
        return nullptr;
      },
      &job);
  pthread_attr_destroy(&attr);
  if (started != 0) return Error(ErrorCode::kInternal, "no thread");
  pthread_join(thread, nullptr);
  return std::move(*job.placement);
}

TEST(ExactTest, SweepsLongLivedItemsWithoutRunningOutOfStack) {
  // 100 items live from the first time to the last, beside a tiling of
  // 600 times: the sweep meets the 100 in every one of its sections. It
  // took a frame for each and overflowed an 8 MiB stack (the test
  // crashed); now only its choices take frames.
  AlgorithmOptions options;
  options.max_nodes = 20'000'000;
  options.max_seconds = 3600;
  Result<Placement> placement =
      PlanLongLivedOnAStackOf(size_t{8} << 20, options);
  ASSERT_TRUE(placement.ok()) << placement.error().ToString();
  EXPECT_TRUE(ValidPlan(LongLivedItems(), *placement));
  EXPECT_EQ(placement->height, 120u);
  EXPECT_TRUE(placement->proven_optimal);
}

TEST(ExactTest, StopsSearchingWhereTheStackWouldRunOut) {
  // On a 192 KiB stack the sweep and the search on the caller's thread
  // reach the stack's floor and stop there, out of budget: a plan still
  // comes back, valid. Without that floor the thread crashes, even with
  // the sweep's frames only per choice. (The searches on threads of their
  // own do not find this tiling alone: a second's budget ends them.)
  AlgorithmOptions options;
  options.max_seconds = 1;
  Result<Placement> placement =
      PlanLongLivedOnAStackOf(size_t{192} << 10, options);
  ASSERT_TRUE(placement.ok()) << placement.error().ToString();
  EXPECT_TRUE(ValidPlan(LongLivedItems(), *placement));
  EXPECT_GE(placement->height, 120u);
}

TEST(ExactTest, HonoursAlignmentAndSkipsEmptyItems) {
  // Offsets are multiples of 8; the empty item sits at 0 (it collides with
  // nothing, whatever its alignment).
  const std::vector<PlanItem> items = {
      {5, 8, 0, 1}, {3, 8, 1, 2}, {0, 64, 0, 2}, {8, 8, 2, 3}};
  Result<Placement> placement = ExactAlgorithm().Place(items, {});
  ASSERT_TRUE(placement.ok());
  EXPECT_TRUE(ValidPlan(items, *placement));
  EXPECT_EQ(placement->offsets[2], 0u);
  // 5 and 3 overlap at time 1, so one sits at 8 or above: 8 + 3 at best
  // (and at time 2, 3 + 8 bytes are live anyway).
  EXPECT_EQ(placement->height, 11u);
  EXPECT_TRUE(placement->proven_optimal);
}

TEST(ExactTest, NeverWorseThanBestFitAndAlwaysValid) {
  // Random small problems at mixed alignments; a tight node budget so
  // some searches stop early: the plan must still be valid and no higher
  // than best_fit's, and the reported bound no higher than the plan.
  uint64_t state = 12345;
  auto next = [&state](uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  };
  for (int round = 0; round < 200; ++round) {
    std::vector<PlanItem> items(2 + next(14));
    for (PlanItem& item : items) {
      item.size = next(5) == 0 ? 0 : 1 + next(40);
      item.alignment = uint64_t{1} << next(4);
      item.lifetime.first = static_cast<TimeValue>(next(8));
      item.lifetime.last =
          item.lifetime.first + static_cast<TimeValue>(next(4));
    }
    AlgorithmOptions options;
    options.max_nodes = 2000;
    Result<Placement> exact = ExactAlgorithm().Place(items, options);
    Result<Placement> best_fit = MakeAlgorithm("best_fit")->Place(items, {});
    ASSERT_TRUE(exact.ok() && best_fit.ok());
    SCOPED_TRACE("round " + std::to_string(round));
    EXPECT_TRUE(ValidPlan(items, *exact));
    EXPECT_LE(exact->height, best_fit->height);
    EXPECT_LE(exact->lower_bound, exact->height);
    EXPECT_GE(exact->lower_bound, LiveBytesLowerBound(items));
    if (exact->proven_optimal) {
      EXPECT_EQ(exact->lower_bound, exact->height);
    }
  }
}

// Six searches race on threads, with multi_fit's dives beside the first
// decision, and the first to find a plan stops the others: without the
// lockstep (planner/lockstep.h), which of them got there first in time
// chose among plans of one height. Two problems at mixed alignments whose
// bound is out of reach (found among random ones: with a race won in time,
// 7 and 1 of 20 runs gave another plan), each planned again and again: one
// plan.
TEST(ExactTest, PlansTheSameItemsTheSameWayEveryTime) {
  const std::vector<std::vector<PlanItem>> problems = {
      {{791, 128, 4, 5},
       {7, 128, 5, 6},
       {4, 1, 1, 3},
       {152, 1, 4, 6},
       {7, 1, 1, 2},
       {158, 1, 0, 2},
       {608, 1, 5, 7},
       {47, 1, 4, 5},
       {391, 1, 5, 5},
       {5, 128, 0, 1},
       {6, 128, 4, 5},
       {511, 128, 5, 7}},
      {{498, 1, 2, 2},
       {229, 128, 5, 7},
       {2, 1, 5, 5},
       {1, 128, 2, 4},
       {76, 128, 2, 3},
       {334, 1, 4, 6},
       {351, 1, 1, 2},
       {697, 1, 1, 2},
       {832, 1, 4, 4},
       {5, 128, 0, 0},
       {2, 1, 0, 0},
       {2, 128, 0, 2}},
  };
  for (const std::vector<PlanItem>& items : problems) {
    Result<Placement> first = ExactAlgorithm().Place(items, {});
    ASSERT_TRUE(first.ok());
    ASSERT_TRUE(first->proven_optimal);
    ASSERT_GT(first->height, LiveBytesLowerBound(items));  // It searched.
    for (int again = 0; again < 20; ++again) {
      Result<Placement> plan = ExactAlgorithm().Place(items, {});
      ASSERT_TRUE(plan.ok());
      EXPECT_EQ(plan->offsets, first->offsets) << "run " << again;
    }
  }
}

// 300 tiny items that do not tile: no search finishes on them.
std::vector<PlanItem> TinyItemsThatDoNotTile() {
  std::vector<PlanItem> items;
  for (int i = 0; i < 300; ++i) {
    items.push_back({static_cast<uint64_t>(3 + (i * 7) % 11), 1,
                     static_cast<TimeValue>(i / 3),
                     static_cast<TimeValue>(i / 3 + (i % 5))});
  }
  return items;
}

TEST(ExactTest, StopsAtTheTimeBudget) {
  // The search cannot finish, so the time budget must end it, with a valid
  // unproven plan.
  const std::vector<PlanItem> items = TinyItemsThatDoNotTile();
  AlgorithmOptions options;
  options.max_nodes = uint64_t{1} << 40;
  options.max_seconds = 0.2;
  const auto start = std::chrono::steady_clock::now();
  Result<Placement> placement = ExactAlgorithm().Place(items, options);
  const std::chrono::duration<double> spent =
      std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(placement.ok());
  EXPECT_TRUE(ValidPlan(items, *placement));
  EXPECT_LT(spent.count(), 2.0);
}

// The dives beside the bound's decision report their lower plans while
// it runs (between the first search's epochs, then while the calling
// thread waits for the other searches), not only once it has ended: the
// first lower height comes right after the decision's start, with no
// report of its end (trying 0) between. 300 items of 5-21 units, bound
// 135; multi_fit gives 137, the dives 136 and then 135 during the
// decision. (On TinyItemsThatDoNotTile multi_fit now gives 82 at its bound
// of 81, and the dives find nothing lower.)
TEST(ExactTest, ReportsTheDivesWhileTheBoundIsDecided) {
  std::vector<PlanItem> items;
  for (int i = 0; i < 300; ++i) {
    items.push_back({static_cast<uint64_t>(5 + (i * 11) % 17), 1,
                     static_cast<TimeValue>(i / 3),
                     static_cast<TimeValue>(i / 3 + (i % 5))});
  }
  std::vector<SearchProgress> reports;
  AlgorithmOptions options;
  options.max_nodes = 2'000'000;
  options.max_seconds = 3600;
  options.on_progress = [&](const SearchProgress& progress) {
    reports.push_back(progress);
  };
  Result<Placement> placement = ExactAlgorithm().Place(items, options);
  ASSERT_TRUE(placement.ok());
  ASSERT_FALSE(reports.empty());
  const uint64_t bound = LiveBytesLowerBound(items);
  const uint64_t seed = reports.front().height;
  size_t k = 1;
  while (k < reports.size() &&
         !(reports[k].trying == bound && reports[k].height < seed)) {
    ++k;
  }
  ASSERT_LT(k, reports.size());
  EXPECT_EQ(reports[k - 1].trying, bound);
  EXPECT_EQ(reports[k - 1].height, seed);
  for (size_t j = 1; j < reports.size(); ++j) {
    EXPECT_LE(reports[j].height, reports[j - 1].height);
  }
  EXPECT_EQ(reports.back().height, placement->height);
}

TEST(ExactTest, EveryNodeBudgetEndsWithoutATimeBudget) {
  // Budgets that leave the bisection a node or two: a decision on none or
  // one node uses none, and while one that used none was tried again the
  // search ran until the deadline, here 31 years away (a hang, which the
  // test's timeout reports).
  for (const std::vector<PlanItem>& items : {TinyItemsThatDoNotTile(), kGap}) {
    for (uint64_t nodes = 1; nodes <= 300; ++nodes) {
      SCOPED_TRACE("nodes " + std::to_string(nodes));
      AlgorithmOptions options;
      options.max_nodes = nodes;
      options.max_seconds = 1e300;
      Result<Placement> placement = ExactAlgorithm().Place(items, options);
      ASSERT_TRUE(placement.ok());
      EXPECT_TRUE(ValidPlan(items, *placement));
    }
  }
}

TEST(ExactTest, ANodeBudgetGivesOnePlanWhateverTheTime) {
  // With the nodes running out first (and a time budget past the clock's
  // range, which is capped, not overflowed), every run gives one plan.
  const std::vector<PlanItem> items = TinyItemsThatDoNotTile();
  AlgorithmOptions options;
  options.max_nodes = 50'000;
  options.max_seconds = 1e300;
  Result<Placement> first = ExactAlgorithm().Place(items, options);
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(ValidPlan(items, *first));
  EXPECT_FALSE(first->proven_optimal);
  for (int again = 1; again < 4; ++again) {
    Result<Placement> plan = ExactAlgorithm().Place(items, options);
    ASSERT_TRUE(plan.ok());
    EXPECT_EQ(plan->offsets, first->offsets) << "run " << again;
    EXPECT_EQ(plan->lower_bound, first->lower_bound) << "run " << again;
  }
}

// Past kMaxSearchItems items exact dives for its budget (it gave
// multi_fit's plan until 2026-12-06): 5,000 random lifetimes, 300k pairs,
// where multi_fit ends above the live-bytes bound and the dives reach it
// (with levels in bands, multi_fit reaches it on 20 of the first 30 seeds,
// and on 3 more the first dive does).
TEST(ExactTest, DivesPastTheSearchesItemLimit) {
  SplitMix64 random(21);
  std::vector<PlanItem> items;
  const uint64_t sizes[] = {64, 128, 256, 1024, 4096, 65536};
  for (int i = 0; i < 5000; ++i) {
    const TimeValue first = static_cast<TimeValue>(random.Next() % 2501);
    const TimeValue length = static_cast<TimeValue>(1 + random.Next() % 60);
    const uint64_t unit = sizes[random.Next() % 6];
    const uint64_t size = unit * (1 + random.Next() % 8);
    items.push_back({size, 1, first, first + length - 1});
  }
  ASSERT_GT(items.size(), ExactAlgorithm::kMaxSearchItems);
  const uint64_t bound = LiveBytesLowerBound(items);
  Result<Placement> heuristic = MakeAlgorithm("multi_fit")->Place(items, {});
  ASSERT_TRUE(heuristic.ok());
  EXPECT_GT(heuristic->height, bound);
  AlgorithmOptions options;
  options.max_nodes = 2'000'000;  // 200 dives; the nodes decide.
  options.max_seconds = 1e300;
  std::vector<uint64_t> heights;  // Progress: each lower plan as it comes.
  options.on_progress = [&](const SearchProgress& progress) {
    EXPECT_LE(progress.lower_bound, progress.height);
    heights.push_back(progress.height);
  };
  Result<Placement> plan = ExactAlgorithm().Place(items, options);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(ValidPlan(items, *plan));
  EXPECT_EQ(plan->height, bound);
  EXPECT_TRUE(plan->proven_optimal);
  ASSERT_GE(heights.size(), 2u);  // Not only the end.
  EXPECT_TRUE(std::is_sorted(heights.rbegin(), heights.rend()));
  EXPECT_LT(heights.front(), heuristic->height);
  EXPECT_EQ(heights.back(), plan->height);
}

// At a capacity (AlgorithmOptions::capacity) exact decides it alone: no
// decision at the lower bound before, no bisection after, and a plan
// within it ends the search. multi_fit gives 50 on this 48-wide tiling.
TEST(ExactTest, DecidesAtTheCapacityAlone) {
  std::mt19937_64 rng(2);
  const std::vector<PlanItem> items = RandomTiling(&rng, 48, 24);
  Result<Placement> seeded = MultiFitAlgorithm().Place(items, {});
  ASSERT_TRUE(seeded.ok());
  ASSERT_EQ(seeded->height, 50u);
  std::vector<uint64_t> tried;
  AlgorithmOptions options;
  options.capacity = 49;
  options.max_nodes = 10'000'000;
  options.max_seconds = 3600;
  options.on_progress = [&](const SearchProgress& progress) {
    if (progress.trying != 0) tried.push_back(progress.trying);
  };
  Result<Placement> placement = ExactAlgorithm().Place(items, options);
  ASSERT_TRUE(placement.ok());
  EXPECT_LE(placement->height, 49u);
  EXPECT_TRUE(ValidPlan(items, *placement));
  ASSERT_FALSE(tried.empty());
  for (uint64_t capacity : tried) EXPECT_EQ(capacity, 49u);
}

// A capacity ruled out: by the search (6 on kGap: none below 7), or by
// the live bytes alone, with no decision tried; and where the items split
// in time, by a part that does not fit.
TEST(ExactTest, ProvesThatNothingFitsACapacity) {
  std::vector<uint64_t> tried;
  AlgorithmOptions options;
  options.max_seconds = 3600;
  options.max_nodes = 10'000'000;
  options.on_progress = [&](const SearchProgress& progress) {
    if (progress.trying != 0) tried.push_back(progress.trying);
  };
  options.capacity = 6;
  Result<Placement> searched = ExactAlgorithm().Place(kGap, options);
  ASSERT_TRUE(searched.ok());
  EXPECT_EQ(searched->lower_bound, 7u);
  EXPECT_THAT(tried, ElementsAre(6u));

  tried.clear();
  options.capacity = 5;
  Result<Placement> under = ExactAlgorithm().Place(kGap, options);
  ASSERT_TRUE(under.ok());
  EXPECT_GE(under->lower_bound, 6u);
  EXPECT_TRUE(tried.empty());

  std::vector<PlanItem> twice = kGap;
  for (PlanItem item : kGap) {
    item.lifetime.first += 10;
    item.lifetime.last += 10;
    twice.push_back(item);
  }
  tried.clear();
  options.capacity = 6;
  Result<Placement> parts = ExactAlgorithm().Place(twice, options);
  ASSERT_TRUE(parts.ok());
  EXPECT_EQ(parts->lower_bound, 7u);
  EXPECT_GT(parts->height, 6u);
  // The first part's refutation decides the whole.
  EXPECT_THAT(tried, ElementsAre(6u));
}

TEST(ExactTest, EmptyInputIsTriviallyOptimal) {
  Result<Placement> placement = ExactAlgorithm().Place({}, {});
  ASSERT_TRUE(placement.ok());
  EXPECT_EQ(placement->height, 0u);
  EXPECT_TRUE(placement->proven_optimal);
  EXPECT_FALSE(ExactAlgorithm().Place({{1, 1, 1, 0}}, {}).ok());
}

}  // namespace
}  // namespace planner
}  // namespace memplan
