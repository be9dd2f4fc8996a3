#include "properties/csv_plan.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "properties/check.h"

namespace memplan {
namespace properties {
namespace {

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
  EXPECT_EQ(report.buffers[0].lower_bound, 8u);
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
  ASSERT_FALSE(plan.ok());
  EXPECT_THAT(plan.error().message(), HasSubstr("no offsets"));
}

TEST(CsvPlanTest, MalformedRowsNameTheLineAndColumn) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {
           Case{"id,lower,upper,size,offset\nb,0,3,x,0\n",
                "csv line 2: size = 'x', must be an integer"},
           Case{"id,lower,upper,size,offset\nb,0,3,4\n",
                "csv line 2: 4 fields, the header has 5"},
           Case{"id,lower,size,offset\n", "header lacks column 'upper'"},
           Case{"id,lower,lower,upper,size,offset\n",
                "duplicate column 'lower'"},
           Case{"id,lower,upper,size,offset\nb,0,99999999999999999999,4,0\n",
                "upper = '99999999999999999999'"},
           Case{"", "no header line"},
           Case{"lower,upper,size,offset,id\n0,1,8,0,a\n0,1,8,8,b\n"
                "  1,2,8,0, a\n",
                "csv line 4, column 12: duplicate id 'a', first on line 2"},
       }) {
    Result<Plan> plan = PlanFromCsv(c.text);
    ASSERT_FALSE(plan.ok()) << c.text;
    EXPECT_THAT(plan.error().message(), HasSubstr(c.message)) << c.text;
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
  EXPECT_THAT(FormatText(report), HasSubstr("overflows 64 bits"));
}

}  // namespace
}  // namespace properties
}  // namespace memplan
