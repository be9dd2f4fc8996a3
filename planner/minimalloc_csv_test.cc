#include "planner/minimalloc_csv.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/core/error_matchers.h"

namespace memplan {
namespace planner {
namespace {

using ::memplan::testing::IsError;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;

std::string ErrorOf(const std::string& text) {
  Result<MinimallocProblem> problem = ParseMinimallocCsv(text);
  return problem.ok() ? "" : problem.error().message();
}

// A PlanItem live over [first, last], inclusive.
::testing::Matcher<PlanItem> LivesOver(TimeValue first, TimeValue last) {
  return Field(&PlanItem::lifetime, AllOf(Field(&Lifetime::first, first),
                                          Field(&Lifetime::last, last)));
}

TEST(MinimallocCsvTest, ConvertsHalfOpenLifetimesToInclusive) {
  Result<MinimallocProblem> problem =
      ParseMinimallocCsv("id,lower,upper,size\nb1,0,3,4\nx,9,21,7\n");
  ASSERT_TRUE(problem.ok()) << problem.error().ToString();
  EXPECT_THAT(problem->buffers, ElementsAre(Field(&MinimallocBuffer::id, "b1"),
                                            Field(&MinimallocBuffer::id, "x")));
  EXPECT_THAT(
      ToPlanItems(*problem),
      ElementsAre(AllOf(Field(&PlanItem::size, 4u),
                        Field(&PlanItem::alignment, 1u), LivesOver(0, 2)),
                  AllOf(Field(&PlanItem::size, 7u), LivesOver(9, 20))));
}

// A buffer with this id and half-open lifetime.
::testing::Matcher<MinimallocBuffer> IsBuffer(const std::string& id,
                                              int64_t lower, int64_t upper) {
  return AllOf(Field(&MinimallocBuffer::id, id),
               Field(&MinimallocBuffer::lower, lower),
               Field(&MinimallocBuffer::upper, upper));
}

TEST(MinimallocCsvTest, ReadsMiniMallocsOlderHeaderWithAnExclusiveEnd) {
  // MiniMalloc's benchmarks: "end" is one past the last live time, as
  // "upper" is (see minimalloc_csv.cc for the measurement).
  Result<MinimallocProblem> problem =
      ParseMinimallocCsv("buffer,start,end,size\n0,5,6,8\n1,0,10,3\n");
  ASSERT_TRUE(problem.ok()) << problem.error().ToString();
  EXPECT_THAT(problem->buffers,
              ElementsAre(IsBuffer("0", 5, 6), IsBuffer("1", 0, 10)));
  EXPECT_THAT(ToPlanItems(*problem),
              ElementsAre(LivesOver(5, 5), LivesOver(0, 9)));
  Result<MinimallocProblem> begin =
      ParseMinimallocCsv("buffer_id,begin,upper,size\nx,2,4,1\n");
  ASSERT_TRUE(begin.ok()) << begin.error().ToString();
  EXPECT_THAT(begin->buffers, ElementsAre(IsBuffer("x", 2, 4)));
  // Errors name the column as the file does.
  EXPECT_THAT(ErrorOf("buffer,start,end,size\n0,5,5,8\n"),
              HasSubstr("line 2, column 5 ('end'): 5, must be > start = 5"));
  EXPECT_THAT(ErrorOf("buffer,start,end,size\n0,5,x,8\n"),
              HasSubstr("('end'): \"x\" is not an integer"));
  EXPECT_THAT(ErrorOf("id,buffer,lower,upper,size\n"),
              HasSubstr("column 4 ('id'): appears twice in the header (as "
                        "'id' and 'buffer')"));
  // A missing column is named with the names it goes by.
  EXPECT_THAT(ErrorOf("buffer,end,size\n"),
              HasSubstr("the header has no 'lower' column (or 'start' or "
                        "'begin')"));
  EXPECT_THAT(ErrorOf("id,lower,size\n"),
              HasSubstr("the header has no 'upper' column (or 'end')"));
}

TEST(MinimallocCsvTest, WriteAddsAnOffsetColumnAndKeepsRows) {
  Result<MinimallocProblem> problem =
      ParseMinimallocCsv("id,lower,upper,size\r\nb1,0,3,4\r\nb2,3,9,4\r\n");
  ASSERT_TRUE(problem.ok());
  Result<std::string> text = WriteMinimallocCsv(*problem, {8, 0});
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "id,lower,upper,size,offset\nb1,0,3,4,8\nb2,3,9,4,0\n");
  EXPECT_THAT(
      WriteMinimallocCsv(*problem, {1}),
      IsError(ErrorCode::kInvalidArgument,
              HasSubstr("offsets has 1 entries, the problem has 2 rows")));
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
              HasSubstr("line 1: the header has no 'upper' column"));
  EXPECT_THAT(ErrorOf("id,lower,lower,upper,size\n"),
              HasSubstr("line 1, column 10 ('lower'): appears twice"));
  EXPECT_THAT(
      ErrorOf("id,lower,upper,size\nb,0,3,4\nc,0,x3,4\n"),
      HasSubstr("line 3, column 5 ('upper'): \"x3\" is not an integer"));
  EXPECT_THAT(ErrorOf("id,lower,upper,size\nb,0,3,-4\n"),
              HasSubstr("line 2, column 7 ('size'): -4 is negative"));
  EXPECT_THAT(ErrorOf("id,lower,upper,size\nb,3,3,4\n"),
              HasSubstr("line 2, column 5 ('upper'): 3, must be > lower = 3"));
  EXPECT_THAT(ErrorOf("id,lower,upper,size\nb,0,3,18446744073709551616\n"),
              HasSubstr("line 2, column 7 ('size'): 18446744073709551616 "
                        "exceeds 18446744073709551615"));
  EXPECT_THAT(ErrorOf("id,lower,upper,size\nb,0,9223372036854775808,1\n"),
              HasSubstr("line 2, column 5 ('upper'): 9223372036854775808 "
                        "exceeds 9223372036854775807"));
  EXPECT_THAT(ErrorOf("id,lower,upper,size\nb,0,3\n"),
              HasSubstr("line 2: 3 fields, the header has 4"));
  EXPECT_THAT(ErrorOf(""), HasSubstr("line 1: no header line"));
  EXPECT_THAT(ErrorOf("# only a comment\n\n"),
              HasSubstr("line 2: no header line"));
  EXPECT_THAT(ErrorOf("id,lower,upper,size\n ,0,3,4\n"),
              HasSubstr("line 2, column 2 ('id'): empty id"));
}

TEST(MinimallocCsvTest, DuplicateIdsAreRefusedWithBothLines) {
  EXPECT_THAT(ErrorOf("lower,upper,size,id\n0,1,8,a\n0,1,8,b\n"
                      "  1,2,8, a\n"),
              HasSubstr("line 4, column 10 ('id'): duplicate id 'a', first "
                        "on line 2"));
}

TEST(MinimallocCsvTest, WithoutAnIdColumnRowsAreNumbered) {
  Result<MinimallocProblem> problem =
      ParseMinimallocCsv("lower,upper,size\n0,1,8\n0,1,8\n");
  ASSERT_TRUE(problem.ok()) << problem.error().ToString();
  EXPECT_THAT(problem->buffers, ElementsAre(Field(&MinimallocBuffer::id, "0"),
                                            Field(&MinimallocBuffer::id, "1")));
}

TEST(MinimallocCsvTest, AlignmentColumnIsReadAndMustBeAPowerOfTwo) {
  Result<MinimallocProblem> problem = ParseMinimallocCsv(
      "id,lower,upper,size,alignment\na,0,3,3,1\nc,1,3,2,8\n");
  ASSERT_TRUE(problem.ok()) << problem.error().ToString();
  EXPECT_THAT(ToPlanItems(*problem),
              ElementsAre(Field(&PlanItem::alignment, 1u),
                          Field(&PlanItem::alignment, 8u)));
  EXPECT_THAT(ErrorOf("id,lower,upper,size,alignment\na,0,3,3,12\n"),
              HasSubstr("line 2, column 9 ('alignment'): 12 is not a power "
                        "of two"));
  EXPECT_THAT(ErrorOf("id,lower,upper,size,alignment\na,0,3,3,0\n"),
              HasSubstr("('alignment'): 0 is not a power of two"));

  // Without the column every row takes the default.
  MinimallocCsvOptions options;
  options.alignment = 16;
  problem = ParseMinimallocCsv("id,lower,upper,size\na,0,3,3\n", options);
  ASSERT_TRUE(problem.ok());
  EXPECT_EQ(problem->buffers[0].alignment, 16u);
}

TEST(MinimallocCsvTest, FilledHintOrGapsAreRefusedEmptyOnesRead) {
  EXPECT_THAT(ErrorOf("id,lower,upper,size,hint\na,0,3,3,\nb,0,3,3,16\n"),
              HasSubstr("line 3, column 9 ('hint'): offset hints are not "
                        "supported"));
  EXPECT_THAT(ErrorOf("id,lower,upper,size,gaps\na,0,9,3,2-4\n"),
              HasSubstr("line 2, column 9 ('gaps'): gaps are not supported"));
  Result<MinimallocProblem> problem =
      ParseMinimallocCsv("id,lower,upper,size,hint,gaps\na,0,9,3,,\n");
  ASSERT_TRUE(problem.ok()) << problem.error().ToString();
  EXPECT_EQ(problem->buffers.size(), 1u);
}

TEST(MinimallocCsvTest, CommentsBlanksAndBufferSize) {
  Result<MinimallocProblem> problem = ParseMinimallocCsv(
      "# a solution\n  # buffer_size: 24\n\nid, lower ,upper,size,offset\n"
      "\ta , 0, 3, 4 ,8\r\n");
  ASSERT_TRUE(problem.ok()) << problem.error().ToString();
  EXPECT_EQ(problem->buffer_size, 24u);
  EXPECT_TRUE(problem->has_offset_column);
  ASSERT_EQ(problem->buffers.size(), 1u);
  EXPECT_EQ(problem->buffers[0].id, "a");
  EXPECT_EQ(problem->buffers[0].line, 5u);
  EXPECT_EQ(problem->buffers[0].offset, 8u);
  EXPECT_THAT(ErrorOf("# buffer_size: x\nid,lower,upper,size\n"),
              HasSubstr("line 1, column 16 ('buffer_size'): \"x\" is not an "
                        "integer"));
}

TEST(MinimallocCsvTest, EmptyLifetimesAndByteLimitsAreOptions) {
  MinimallocCsvOptions options;
  options.allow_empty_lifetimes = true;
  options.max_bytes = INT64_MAX;
  Result<MinimallocProblem> problem =
      ParseMinimallocCsv("id,lower,upper,size\nb,5,5,4\n", options);
  ASSERT_TRUE(problem.ok()) << problem.error().ToString();
  EXPECT_EQ(problem->buffers[0].upper, 5);
  problem = ParseMinimallocCsv(
      "id,lower,upper,size\nb,0,1,9223372036854775808\n", options);
  EXPECT_THAT(problem,
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("('size'): 9223372036854775808 exceeds "
                                "9223372036854775807")));
}

TEST(MinimallocCsvTest, AcceptsTheLargestSizeAndTime) {
  Result<MinimallocProblem> problem = ParseMinimallocCsv(
      "id,lower,upper,size\nb,0,9223372036854775807,18446744073709551615\n");
  ASSERT_TRUE(problem.ok()) << problem.error().ToString();
  EXPECT_EQ(problem->buffers[0].size, UINT64_MAX);
  EXPECT_EQ(ToPlanItems(*problem)[0].lifetime.last, INT64_MAX - 1);
}

}  // namespace
}  // namespace planner
}  // namespace memplan
