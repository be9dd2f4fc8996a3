#include "properties/csv_plan.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/algorithm.h"
#include "planner/minimalloc_csv.h"
#include "properties/check.h"
#include "runtime/core/error_matchers.h"

namespace memplan {
namespace properties {
namespace {

using ::memplan::testing::IsError;
using ::testing::HasSubstr;

TEST(CsvPlanTest, ReadsRowsAsHalfOpenLifetimesInOneBuffer) {
  Result<Plan> plan = PlanFromCsv(
      "id,lower,upper,size,offset\n"
      "b1,0,3,4,0\n"
      "b2,3,9,4,0\n"
      "b3, 0, 9, 4, 4\r\n");
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  ASSERT_EQ(plan->allocations.size(), 3u);
  const Allocation& b1 = plan->allocations[0];
  EXPECT_EQ(b1.id, "b1");
  EXPECT_EQ(b1.lifetime.first, 0);
  EXPECT_EQ(b1.lifetime.last, 2);  // [0, 3) half-open.
  EXPECT_EQ(plan->allocations[2].offset, 4);
  ASSERT_EQ(plan->buffers.size(), 1u);
  EXPECT_EQ(plan->buffers[0].size, 8);  // max(offset + size).
  // b1 ends at 2 and b2 starts at 3 on the same bytes: valid.
  Report report = Check(*plan);
  EXPECT_TRUE(report.ok()) << FormatText(report);
  EXPECT_EQ(report.buffers[0].live_bytes_lower_bound, 8u);
}

TEST(CsvPlanTest, OverlappingRowsAreReported) {
  Result<Plan> plan = PlanFromCsv(
      "offset,size,upper,lower,id\n"
      "0,4,4,0,b1\n"
      "2,4,9,3,b2\n");
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  Report report = Check(*plan);
  EXPECT_EQ(report.count(ViolationCode::kOverlap), 1u);
  EXPECT_THAT(FormatText(report),
              HasSubstr("b1 [0,3] bytes [0,4) and b2 [3,8] bytes [2,6)"));
}

TEST(CsvPlanTest, BufferSizeFromCommentOrOptions) {
  const char* text =
      "# buffer_size: 6\n"
      "lower,upper,size,offset,alignment\n"
      "0,2,4,4,4\n";
  Result<Plan> plan = PlanFromCsv(text);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->buffers[0].size, 6);
  EXPECT_EQ(plan->allocations[0].id, "0");  // No id column: the row number.
  EXPECT_EQ(plan->allocations[0].alignment, 4);
  EXPECT_EQ(Check(*plan).count(ViolationCode::kBounds), 1u);  // [4, 8) > 6.

  CsvPlanOptions options;
  options.buffer_size = 64;
  options.device = Device::Cuda(1);
  plan = PlanFromCsv(text, options);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->buffers[0].size, 64);
  EXPECT_EQ(plan->buffers[0].device, Device::Cuda(1));
  EXPECT_TRUE(Check(*plan).ok());
}

TEST(CsvPlanTest, EmptyOrReversedRangeFailsTheLifetimeCheck) {
  Result<Plan> plan = PlanFromCsv("id,lower,upper,size,offset\nb,5,5,4,0\n");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(Check(*plan).count(ViolationCode::kLifetime), 1u);
}

TEST(CsvPlanTest, ProblemWithoutOffsetsIsRefusedAsNoOffsets) {
  Result<Plan> plan = PlanFromCsv("id,lower,upper,size\nb1,0,3,4\n");
  EXPECT_THAT(plan,
              IsError(ErrorCode::kInvalidArgument, HasSubstr("no offsets")));
}

TEST(CsvPlanTest, MalformedRowsNameTheLineAndColumn) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {
           Case{"id,lower,upper,size,offset\nb,0,3,x,0\n",
                "csv line 2, column 7 ('size'): \"x\" is not an integer"},
           Case{"id,lower,upper,size,offset\nb,0,3,4\n",
                "csv line 2: 4 fields, the header has 5"},
           Case{"id,lower,size,offset\n",
                "csv line 1: the header has no 'upper' column"},
           Case{"id,lower,lower,upper,size,offset\n",
                "csv line 1, column 10 ('lower'): appears twice"},
           Case{"id,lower,upper,size,offset\nb,0,99999999999999999999,4,0\n",
                "csv line 2, column 5 ('upper'): 99999999999999999999 "
                "exceeds"},
           Case{"", "csv line 1: no header line"},
           Case{"id,lower,upper,size,offset\nb,0,1,9223372036854775808,0\n",
                "csv line 2, column 7 ('size'): 9223372036854775808 exceeds "
                "9223372036854775807"},
           Case{"id,lower,upper,size,offset,alignment\nb,0,1,4,0,3\n",
                "csv line 2, column 11 ('alignment'): 3 is not a power of "
                "two"},
           Case{"lower,upper,size,offset,id\n0,1,8,0,a\n0,1,8,8,b\n"
                "  1,2,8,0, a\n",
                "csv line 4, column 12 ('id'): duplicate id 'a', first on "
                "line 2"},
       }) {
    Result<Plan> plan = PlanFromCsv(c.text);
    EXPECT_THAT(plan,
                IsError(ErrorCode::kInvalidArgument, HasSubstr(c.message)))
        << c.text;
  }
}

TEST(CsvPlanTest, RowsWithoutAnIdColumnAreNumberedAndNeverDuplicates) {
  Result<Plan> plan = PlanFromCsv(
      "lower,upper,size,offset\n"
      "0,1,8,0\n"
      "0,1,8,0\n");
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  ASSERT_EQ(plan->allocations.size(), 2u);
  EXPECT_EQ(plan->allocations[0].id, "0");
  EXPECT_EQ(plan->allocations[1].id, "1");
  EXPECT_EQ(Check(*plan).count(ViolationCode::kOverlap), 1u);
}

TEST(CsvPlanTest, OverflowingRowIsLeftToTheBoundsCheck) {
  Result<Plan> plan = PlanFromCsv(
      "id,lower,upper,size,offset\n"
      "a,0,1,8,0\n"
      "b,0,1,9223372036854775807,8\n");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->buffers[0].size, 8);
  Report report = Check(*plan);
  EXPECT_EQ(report.count(ViolationCode::kBounds), 1u);
  EXPECT_THAT(FormatText(report), HasSubstr("9223372036854775807"));
}

// Issue 10's report: every algorithm put c at offset 3, and the oracle then
// refused the planner's own solution. The one reader gives c alignment 8.
TEST(CsvPlanTest, EveryAlgorithmsSolutionHonoursTheAlignmentColumn) {
  const char* problem_text =
      "id,lower,upper,size,alignment\n"
      "a,0,3,3,1\n"
      "c,1,3,2,8\n";
  Result<planner::MinimallocProblem> problem =
      planner::ParseMinimallocCsv(problem_text);
  ASSERT_TRUE(problem.ok()) << problem.error().ToString();
  for (const std::string& name : planner::AlgorithmNames()) {
    SCOPED_TRACE(name);
    Result<planner::Placement> placement =
        planner::MakeAlgorithm(name)->Place(planner::ToPlanItems(*problem), {});
    ASSERT_TRUE(placement.ok()) << placement.error().ToString();
    EXPECT_EQ(placement->offsets[1] % 8, 0u);
    Result<std::string> solution =
        planner::WriteMinimallocCsv(*problem, placement->offsets);
    ASSERT_TRUE(solution.ok());
    Result<Plan> plan = PlanFromCsv(*solution);
    ASSERT_TRUE(plan.ok()) << plan.error().ToString() << "\n" << *solution;
    EXPECT_EQ(plan->allocations[1].alignment, 8);
    Report report = Check(*plan);
    EXPECT_TRUE(report.ok()) << FormatText(report) << *solution;
  }
}

TEST(CsvPlanTest, SizesBeyondTheOraclesOffsetAreRefused) {
  Result<Plan> plan = PlanFromCsv(
      "id,lower,upper,size,offset\n"
      "a,0,1,8,9223372036854775808\n");
  EXPECT_THAT(
      plan,
      IsError(ErrorCode::kInvalidArgument,
              HasSubstr("csv line 2, column 9 ('offset'): "
                        "9223372036854775808 exceeds 9223372036854775807")));
}

}  // namespace
}  // namespace properties
}  // namespace memplan
