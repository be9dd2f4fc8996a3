#include "planner/suite.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/core/error_matchers.h"

namespace memplan {
namespace planner {
namespace {

using ::memplan::testing::IsError;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;

// best_fit and greedy reach 8, naive 12, exact 6 (see exact_test).
const std::vector<PlanItem> kItems = {
    {2, 1, 1, 3}, {1, 1, 3, 3}, {2, 1, 3, 4}, {4, 1, 1, 2}, {3, 1, 4, 4}};

TEST(SuiteTest, KeepsTheLowestPlanAndReportsEveryMember) {
  Result<SuiteResult> suite =
      RunSuite({"naive", "greedy", "best_fit", "exact"}, kItems, {});
  ASSERT_TRUE(suite.ok()) << suite.error().ToString();
  EXPECT_THAT(suite->members,
              ElementsAre(Field(&SuiteMemberResult::height, 12u),
                          Field(&SuiteMemberResult::height, 8u),
                          Field(&SuiteMemberResult::height, 8u),
                          Field(&SuiteMemberResult::height, 6u)));
  EXPECT_EQ(suite->best_name, "exact");
  EXPECT_EQ(suite->best.height, 6u);
  EXPECT_TRUE(suite->best.proven_optimal);
  EXPECT_TRUE(suite->members[3].proven_optimal);
  EXPECT_EQ(suite->members[3].lower_bound, 6u);  // exact's proof.
  EXPECT_EQ(suite->members[1].lower_bound, 0u);  // greedy proves nothing.
  EXPECT_GT(suite->members[0].seconds, 0.0);     // Measured, not the default 0.
  EXPECT_LT(suite->members[0].seconds, 60.0);    // Seconds, not microseconds.
}

TEST(SuiteTest, EveryAlgorithmRunsAndMultiFitMatchesExactHere) {
  // multi_fit places kItems bottom-up: 6, exact's optimum.
  Result<SuiteResult> suite = RunSuite(AlgorithmNames(), kItems, {});
  ASSERT_TRUE(suite.ok()) << suite.error().ToString();
  ASSERT_EQ(suite->members.size(), AlgorithmNames().size());
  for (const SuiteMemberResult& member : suite->members) {
    EXPECT_GE(member.height, suite->best.height) << member.name;
    if (member.name == "multi_fit") {
      EXPECT_EQ(member.height, 6u);
    } else if (member.name == "best_fit") {
      EXPECT_EQ(member.height, 8u);
    }
  }
  EXPECT_EQ(suite->best.height, 6u);
}

TEST(SuiteTest, TiesGoToTheEarlierMember) {
  Result<SuiteResult> suite = RunSuite({"best_fit", "greedy"}, kItems, {});
  ASSERT_TRUE(suite.ok());
  EXPECT_EQ(suite->best_name, "best_fit");
  EXPECT_THAT(suite->best.offsets, ElementsAre(4, 0, 6, 0, 0));
}

TEST(SuiteTest, AMembersProofCoversAnEarlierMembersPlanOfItsHeight) {
  Result<SuiteResult> suite = RunSuite({"multi_fit", "exact"}, kItems, {});
  ASSERT_TRUE(suite.ok());
  EXPECT_EQ(suite->best_name, "multi_fit");  // 6, as exact's; earlier.
  EXPECT_FALSE(suite->members[0].proven_optimal);
  EXPECT_EQ(suite->best.lower_bound, 6u);
  EXPECT_TRUE(suite->best.proven_optimal);

  Result<SuiteResult> heuristics = RunSuite({"best_fit", "greedy"}, kItems, {});
  ASSERT_TRUE(heuristics.ok());
  EXPECT_EQ(heuristics->best.lower_bound, 0u);
  EXPECT_FALSE(heuristics->best.proven_optimal);
}

TEST(SuiteTest, RejectsUnknownAndEmptyNames) {
  Result<SuiteResult> unknown = RunSuite({"naive", "tetris"}, kItems, {});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().code(), ErrorCode::kNotFound);
  EXPECT_THAT(unknown.error().message(), HasSubstr("names[1] = \"tetris\""));
  EXPECT_THAT(
      RunSuite({}, kItems, {}),
      IsError(ErrorCode::kInvalidArgument, HasSubstr("no algorithm named")));
}

TEST(SuiteTest, PassesOnAMembersInputError) {
  EXPECT_THAT(RunSuite({"naive"}, {{1, 1, 2, 1}}, {}),
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("items[0].first = 2, must be <= last = 1")));
}

}  // namespace
}  // namespace planner
}  // namespace memplan
