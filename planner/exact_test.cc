#include "planner/exact.h"

#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/minimalloc_csv.h"

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
