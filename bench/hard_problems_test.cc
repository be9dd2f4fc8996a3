#include "bench/hard_problems.h"

#include <algorithm>

#include "gtest/gtest.h"
#include "planner/lower_bound.h"

namespace memplan {
namespace bench {
namespace {

// All pairs: the first two time-overlapping items that share a byte, as
// "i,j", or "" when the plan is valid and every offset is aligned.
std::string FirstConflict(const HardProblem& problem) {
  const auto& items = problem.items;
  const auto& offsets = problem.construction_offsets;
  for (size_t i = 0; i < items.size(); ++i) {
    if (offsets[i] % items[i].alignment != 0)
      return "misaligned " + problem.name;
    for (size_t j = i + 1; j < items.size(); ++j) {
      if (items[i].last < items[j].first || items[j].last < items[i].first) {
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
      EXPECT_EQ(FirstConflict(problem), "");
      EXPECT_EQ(
          planner::PlacementHeight(problem.items, problem.construction_offsets),
          problem.optimum);
      for (const planner::PlanItem& item : problem.items) {
        EXPECT_GT(item.size, 0u);
      }
      if (GetParam() == HardFamily::kUnreachable) {
        EXPECT_FALSE(problem.optimum_known);
        // A single buffer has no column left to shrink below its own top.
        if (buffers > 2) EXPECT_LT(problem.lower_bound, problem.optimum);
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
    EXPECT_EQ(a.items[i].first, b.items[i].first);
    EXPECT_EQ(a.items[i].last, b.items[i].last);
  }
  EXPECT_EQ(a.construction_offsets, b.construction_offsets);
  const HardProblem c = MakeHardProblem(GetParam(), 300, 5);
  EXPECT_NE(a.construction_offsets, c.construction_offsets);
}

TEST_P(HardProblemsTest, SizesLookLikeAModels) {
  // Many small buffers, a few at least an eighth of the height; the
  // aligned families pad some sizes to odd values.
  const HardProblem problem = MakeHardProblem(GetParam(), 1000, 3);
  size_t small = 0, huge = 0, odd = 0;
  for (const planner::PlanItem& item : problem.items) {
    if (item.size * 64 <= problem.optimum) ++small;
    if (item.size * 8 >= problem.optimum) ++huge;
    if (item.size % 64 != 0) ++odd;
  }
  EXPECT_GT(small, problem.items.size() / 2);
  EXPECT_GT(huge, 0u);
  if (GetParam() == HardFamily::kAligned16 ||
      GetParam() == HardFamily::kAligned64) {
    EXPECT_GT(odd, problem.items.size() / 10);
    EXPECT_EQ(problem.items[0].alignment,
              GetParam() == HardFamily::kAligned16 ? 16u : 64u);
  } else {
    EXPECT_EQ(odd, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Families, HardProblemsTest,
    ::testing::Values(HardFamily::kTight, HardFamily::kUnreachable,
                      HardFamily::kAligned16, HardFamily::kAligned64),
    [](const auto& info) { return std::string(HardFamilyName(info.param)); });

TEST(HardSuiteTest, CoversEveryFamilyAndSize) {
  const std::vector<HardProblem> suite = HardSuite(500);
  EXPECT_EQ(suite.size(), 4u * 4u * 3u);
  EXPECT_EQ(suite.front().name, "tight/n=100/seed=1");
  EXPECT_EQ(suite.back().name, "aligned64/n=500/seed=3");
}

}  // namespace
}  // namespace bench
}  // namespace memplan
