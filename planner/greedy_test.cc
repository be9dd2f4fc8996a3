#include "planner/greedy.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace memplan {
namespace planner {
namespace {

using ::testing::ElementsAre;

Placement PlaceOrDie(const GreedyAlgorithm& greedy,
                     const std::vector<PlanItem>& items) {
  Result<Placement> placement = greedy.Place(items, {});
  EXPECT_TRUE(placement.ok()) << placement.error().ToString();
  return placement.ok() ? *placement : Placement{};
}

TEST(GreedyTest, MatchesExecuTorchOnSharedObjects) {
  // Items (size, lifetime), alignment 16:
  //   0: 32 [0,1]  1: 64 [1,2]  2: 32 [2,3]  3: 16 [0,3]  4: 64 [3,4]
  // insort by size: 3, 0, 2, 1, 4; reversed: 4, 1, 2, 0, 3.
  //   4 -> new obj0 (64).
  //   1 -> obj0 holds only 4 [3,4], no overlap: obj0 at 0.
  //   2 -> obj0 overlaps (1 and 4); m = 64, 64 + 32 > 64: new obj1 (32).
  //   0 -> obj0 overlaps 1; obj1 holds 2 [2,3], no overlap: obj1 at 0.
  //   3 -> overlaps everything; obj0: m = 64, 80 > 64; obj1: m = 32,
  //        48 > 32: new obj2 (16).
  // Layout: obj0 at 0, obj1 at 64, obj2 at 96; total 112.
  const std::vector<PlanItem> items = {{32, 16, 0, 1},
                                       {64, 16, 1, 2},
                                       {32, 16, 2, 3},
                                       {16, 16, 0, 3},
                                       {64, 16, 3, 4}};
  Placement placement = PlaceOrDie(GreedyAlgorithm(), items);
  EXPECT_THAT(placement.offsets, ElementsAre(64, 0, 64, 96, 0));
  EXPECT_EQ(placement.height, 112u);
}

TEST(GreedyTest, PlacesOnTopOfOverlappingAllocationsInsideAnObject) {
  // 0: 100 [0,1]  1: 60 [2,3]  2: 30 [3,4]  3: 20 [0,4]; order 0, 1, 2, 3.
  //   0 -> new obj0 (100).  1 -> obj0, no overlap with 0: at 0.
  //   2 -> obj0 overlaps 1; m = 60 (0 is dead at [3,4]); 60 + 30 <= 100:
  //        obj0 at 60.
  //   3 -> obj0: m = 100, 120 > 100: new obj1 (20) at 100.
  const std::vector<PlanItem> items = {
      {100, 1, 0, 1}, {60, 1, 2, 3}, {30, 1, 3, 4}, {20, 1, 0, 4}};
  Placement placement = PlaceOrDie(GreedyAlgorithm(), items);
  EXPECT_THAT(placement.offsets, ElementsAre(0, 0, 60, 100));
  EXPECT_EQ(placement.height, 120u);

  // Without overlapping allocations (Vulkan), 2 and 3 get objects of their
  // own: obj1 (30) at 100, obj2 (20) at 130.
  Placement separate = PlaceOrDie(GreedyAlgorithm(false), items);
  EXPECT_THAT(separate.offsets, ElementsAre(0, 0, 100, 130));
  EXPECT_EQ(separate.height, 150u);
}

TEST(GreedyTest, EqualSizesGoInReverseItemOrder) {
  // A: 8 [0,0]  B: 8 [1,1]  C: 8 [0,1]. insort keeps A, B, C; reversed
  // C, B, A. C -> obj0. B overlaps C; obj0 is not larger than B, so no
  // in-object spot: new obj1. A -> obj0 overlaps C; obj1 holds B [1,1]: at 0.
  // (Item order would have given A, B in obj0 and C at 8.)
  Placement placement =
      PlaceOrDie(GreedyAlgorithm(), {{8, 1, 0, 0}, {8, 1, 1, 1}, {8, 1, 0, 1}});
  EXPECT_THAT(placement.offsets, ElementsAre(8, 8, 0));
  EXPECT_EQ(placement.height, 16u);
}

TEST(GreedyTest, RoundsObjectStartsAndSizesToEachItemsAlignment) {
  // A: 10 bytes, align 1; B: 8 bytes, align 8; both live at 0. A -> obj0
  // (10). B: obj0 overlaps; m = 10 rounds to 16 > 10: new obj1 (8), which
  // starts at 10 rounded up to 8 = 16.
  Placement placement =
      PlaceOrDie(GreedyAlgorithm(), {{10, 1, 0, 0}, {8, 8, 0, 0}});
  EXPECT_THAT(placement.offsets, ElementsAre(0, 16));
  EXPECT_EQ(placement.height, 24u);
}

}  // namespace
}  // namespace planner
}  // namespace memplan
