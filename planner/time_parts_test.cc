#include "planner/time_parts.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace memplan {
namespace planner {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(TimePartsTest, SplitsWhereNoLifetimeSpansTheCut) {
  // [0,3] and [3,5] share time 3; [6,6] starts after both; [2,9] would
  // join them all.
  const std::vector<PlanItem> items = {
      {8, 1, 6, 6}, {4, 1, 0, 3}, {4, 1, 3, 5}, {2, 1, 7, 8}};
  EXPECT_THAT(TimeParts(items),
              ElementsAre(ElementsAre(1, 2), ElementsAre(0), ElementsAre(3)));
  std::vector<PlanItem> joined = items;
  joined.push_back({1, 1, 2, 9});
  EXPECT_THAT(TimeParts(joined), ElementsAre(ElementsAre(0, 1, 2, 3, 4)));
}

TEST(TimePartsTest, ANestedLifetimeKeepsThePartOpen) {
  // [0,9] holds [1,2]; [5,6] starts after [1,2] ends but inside [0,9].
  const std::vector<PlanItem> items = {
      {1, 1, 0, 9}, {1, 1, 1, 2}, {1, 1, 5, 6}};
  EXPECT_THAT(TimeParts(items), ElementsAre(ElementsAre(0, 1, 2)));
}

TEST(TimePartsTest, EmptyItemsJoinNoPart) {
  const std::vector<PlanItem> items = {
      {4, 1, 0, 1}, {0, 1, 0, 9}, {4, 1, 5, 6}};
  EXPECT_THAT(TimeParts(items), ElementsAre(ElementsAre(0), ElementsAre(2)));
  EXPECT_THAT(TimeParts({{0, 1, 0, 1}}), IsEmpty());
  EXPECT_THAT(TimeParts({}), IsEmpty());
}

TEST(TimePartsTest, ByLiveBytesPutsTheBusiestPartFirst) {
  // Three parts: 5 bytes live at once, then 9 (4 + 5 at time 3), then 9
  // again: the first 9 comes first (ties keep time order).
  const std::vector<PlanItem> items = {
      {5, 1, 0, 1}, {4, 2, 3, 4}, {5, 8, 3, 3}, {9, 1, 6, 6}};
  const std::vector<TimePart> split = ByLiveBytes(items, TimeParts(items));
  ASSERT_EQ(split.size(), 3u);
  EXPECT_THAT(split[0].indices, ElementsAre(1, 2));
  EXPECT_EQ(split[0].live_bytes, 9u);
  ASSERT_EQ(split[0].items.size(), 2u);
  EXPECT_EQ(split[0].items[1].size, 5u);
  EXPECT_EQ(split[0].items[1].alignment, 8u);
  EXPECT_THAT(split[1].indices, ElementsAre(3));
  EXPECT_EQ(split[1].live_bytes, 9u);
  EXPECT_THAT(split[2].indices, ElementsAre(0));
  EXPECT_EQ(split[2].live_bytes, 5u);
}

}  // namespace
}  // namespace planner
}  // namespace memplan
