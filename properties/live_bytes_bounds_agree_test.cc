// The planner (planner/lower_bound.h) and the oracle (properties/
// lower_bound.h) each sweep live bytes with their own code, so that the
// judge shares nothing with what it judges. This differential test holds the
// two copies to one answer on the same intervals.
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "planner/lower_bound.h"
#include "properties/lower_bound.h"

namespace memplan {
namespace {

TEST(LiveBytesBoundsAgreeTest, PlannerAndOracleSweepsGiveOnePeak) {
  for (uint64_t seed = 1; seed <= 500; ++seed) {
    std::mt19937_64 rng(seed);
    std::vector<planner::PlanItem> items(rng() % 50);
    std::vector<properties::LiveInterval> intervals;
    for (planner::PlanItem& item : items) {
      item.lifetime.first = static_cast<TimeValue>(rng() % 30);
      // Many lifetimes of one position, and many that meet at one.
      item.lifetime.last =
          item.lifetime.first + static_cast<TimeValue>(rng() % 4);
      item.size = rng() % 3 == 0 ? 0 : rng() % 1000;
      intervals.push_back({item.lifetime.first, item.lifetime.last, item.size});
    }
    ASSERT_TRUE(planner::ValidatePlanItems(items).ok());
    EXPECT_EQ(planner::LiveBytesLowerBound(items),
              properties::MaxLiveBytes(intervals))
        << "seed " << seed << ", " << items.size() << " intervals";
  }
}

TEST(LiveBytesBoundsAgreeTest, BothCountIntervalsThatMeetAtOnePosition) {
  // a [0,2] 3 bytes and b [2,4] 4 bytes are live together at 2: 7. c [5,5]
  // alone: 6.
  const std::vector<planner::PlanItem> items = {
      {3, 1, 0, 2}, {4, 1, 2, 4}, {6, 1, 5, 5}};
  const std::vector<properties::LiveInterval> intervals = {
      {0, 2, 3}, {2, 4, 4}, {5, 5, 6}};
  EXPECT_EQ(planner::LiveBytesLowerBound(items), 7u);
  EXPECT_EQ(properties::MaxLiveBytes(intervals), 7u);
}

}  // namespace
}  // namespace memplan
