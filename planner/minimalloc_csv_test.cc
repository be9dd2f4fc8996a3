#include "planner/minimalloc_csv.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace memplan {
namespace planner {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;

std::string ErrorOf(const std::string& text) {
  Result<MinimallocProblem> problem = ParseMinimallocCsv(text);
  return problem.ok() ? "" : problem.error().message();
}

TEST(MinimallocCsvTest, ConvertsHalfOpenLifetimesToInclusive) {
  Result<MinimallocProblem> problem =
      ParseMinimallocCsv("id,lower,upper,size\nb1,0,3,4\nx,9,21,7\n");
  ASSERT_TRUE(problem.ok()) << problem.error().ToString();
  EXPECT_THAT(problem->buffers, ElementsAre(Field(&MinimallocBuffer::id, "b1"),
                                            Field(&MinimallocBuffer::id, "x")));
  EXPECT_THAT(
      ToPlanItems(*problem),
      ElementsAre(
          AllOf(Field(&PlanItem::size, 4u), Field(&PlanItem::alignment, 1u),
                Field(&PlanItem::first, 0), Field(&PlanItem::last, 2)),
          AllOf(Field(&PlanItem::size, 7u), Field(&PlanItem::first, 9),
                Field(&PlanItem::last, 20))));
}

TEST(MinimallocCsvTest, WriteAddsAnOffsetColumnAndKeepsRows) {
  Result<MinimallocProblem> problem =
      ParseMinimallocCsv("id,lower,upper,size\r\nb1,0,3,4\r\nb2,3,9,4\r\n");
  ASSERT_TRUE(problem.ok());
  Result<std::string> text = WriteMinimallocCsv(*problem, {8, 0});
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "id,lower,upper,size,offset\nb1,0,3,4,8\nb2,3,9,4,0\n");
  EXPECT_FALSE(WriteMinimallocCsv(*problem, {1}).ok());
}

TEST(MinimallocCsvTest, WriteOverwritesAnExistingOffsetInPlace) {
  Result<MinimallocProblem> problem =
      ParseMinimallocCsv("offset,id,size,lower,upper\n5,a,2,1,2\n");
  ASSERT_TRUE(problem.ok());
  EXPECT_EQ(problem->buffers[0].offset, 5u);
  Result<std::string> text = WriteMinimallocCsv(*problem, {7});
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "offset,id,size,lower,upper\n7,a,2,1,2\n");
}

TEST(MinimallocCsvTest, ErrorsNameTheLineAndColumn) {
  EXPECT_THAT(ErrorOf("id,lower,size\n"),
              HasSubstr("line 1, column 'upper': missing"));
  EXPECT_THAT(ErrorOf("id,lower,upper,size\nb,0,3,4\nc,0,x3,4\n"),
              HasSubstr("line 3, column 'upper': \"x3\" is not an integer"));
  EXPECT_THAT(ErrorOf("id,lower,upper,size\nb,0,3,-4\n"),
              HasSubstr("line 2, column 'size': -4 is negative"));
  EXPECT_THAT(ErrorOf("id,lower,upper,size\nb,3,3,4\n"),
              HasSubstr("line 2, column 'upper': 3, must be > lower = 3"));
  EXPECT_THAT(ErrorOf("id,lower,upper,size\nb,0,3,18446744073709551616\n"),
              HasSubstr("line 2, column 'size'"));
  EXPECT_THAT(ErrorOf("id,lower,upper,size\nb,0,9223372036854775808,1\n"),
              HasSubstr("line 2, column 'upper'"));
  EXPECT_THAT(ErrorOf("id,lower,upper,size\nb,0,3\n"),
              HasSubstr("line 2: 3 fields, header has 4"));
  EXPECT_THAT(ErrorOf(""), HasSubstr("line 1"));
}

TEST(MinimallocCsvTest, AcceptsTheLargestSizeAndTime) {
  Result<MinimallocProblem> problem = ParseMinimallocCsv(
      "id,lower,upper,size\nb,0,9223372036854775807,18446744073709551615\n");
  ASSERT_TRUE(problem.ok()) << problem.error().ToString();
  EXPECT_EQ(problem->buffers[0].size, UINT64_MAX);
  EXPECT_EQ(ToPlanItems(*problem)[0].last, INT64_MAX - 1);
}

}  // namespace
}  // namespace planner
}  // namespace memplan
