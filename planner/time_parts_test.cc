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

TEST(TimePartsTest, PartItemsKeepThePartsOrder) {
  const std::vector<PlanItem> items = {
      {1, 1, 0, 0}, {2, 4, 1, 1}, {3, 8, 2, 2}};
  const std::vector<PlanItem> part = PartItems(items, {2, 0});
  ASSERT_EQ(part.size(), 2u);
  EXPECT_EQ(part[0].size, 3u);
  EXPECT_EQ(part[0].alignment, 8u);
  EXPECT_EQ(part[1].size, 1u);
}

}  // namespace
}  // namespace planner
}  // namespace memplan
