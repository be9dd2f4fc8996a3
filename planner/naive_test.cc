#include "planner/naive.h"

#include <cstdint>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/lower_bound.h"
#include "runtime/core/error_matchers.h"

namespace memplan {
namespace planner {
namespace {

using ::memplan::testing::IsError;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(NaiveTest, PlacesItemsOneAfterAnotherAtAlignedOffsets) {
  // 10 bytes at 0; 8 bytes (align 8) at 16; 3 bytes (align 4) at 24 ends 27;
  // an empty item (align 16) at 32 adds no bytes.
  const std::vector<PlanItem> items = {
      {10, 1, 0, 0}, {8, 8, 0, 0}, {3, 4, 5, 9}, {0, 16, 1, 1}};
  Result<Placement> placement = NaiveAlgorithm().Place(items, {});
  ASSERT_TRUE(placement.ok()) << placement.error().ToString();
  EXPECT_THAT(placement->offsets, ElementsAre(0, 16, 24, 32));
  EXPECT_EQ(placement->height, 32u);
  EXPECT_FALSE(placement->proven_optimal);
}

TEST(NaiveTest, EmptyInputHasHeightZero) {
  Result<Placement> placement = NaiveAlgorithm().Place({}, {});
  ASSERT_TRUE(placement.ok());
  EXPECT_TRUE(placement->offsets.empty());
  EXPECT_EQ(placement->height, 0u);
}

TEST(NaiveTest, RejectsAlignmentThatIsNotAPowerOfTwo) {
  Result<Placement> placement =
      NaiveAlgorithm().Place({{4, 1, 0, 0}, {4, 3, 0, 0}}, {});
  ASSERT_FALSE(placement.ok());
  EXPECT_EQ(placement.error().code(), ErrorCode::kInvalidArgument);
  EXPECT_THAT(placement.error().message(), HasSubstr("items[1].alignment = 3"));
  EXPECT_THAT(NaiveAlgorithm().Place({{4, 0, 0, 0}}, {}),
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("items[0].alignment = 0")));
}

TEST(NaiveTest, RejectsLifetimeThatEndsBeforeItStarts) {
  Result<Placement> placement = NaiveAlgorithm().Place({{4, 1, 5, 4}}, {});
  EXPECT_THAT(placement,
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("items[0].first = 5, must be <= last = 4")));
}

TEST(NaiveTest, RejectsSizesWhoseAlignedSumOverflows) {
  Result<Placement> placement = NaiveAlgorithm().Place(
      {{UINT64_MAX / 2, 1, 0, 0}, {UINT64_MAX / 2, 1, 0, 0}, {8, 8, 0, 0}}, {});
  EXPECT_THAT(placement, IsError(ErrorCode::kInvalidArgument,
                                 HasSubstr("items[2].size = 8")));
}

TEST(LowerBoundTest, CountsItemsThatMeetAtOnePositionAsLiveTogether) {
  // [0,2] and [2,4] are both live at 2 (inclusive); [5,5] is alone.
  EXPECT_EQ(LiveBytesLowerBound({{3, 1, 0, 2}, {4, 1, 2, 4}, {6, 1, 5, 5}}),
            7u);
  EXPECT_EQ(LiveBytesLowerBound({{3, 1, 0, 1}, {4, 1, 2, 4}}), 4u);
  EXPECT_EQ(LiveBytesLowerBound({}), 0u);
}

}  // namespace
}  // namespace planner
}  // namespace memplan
