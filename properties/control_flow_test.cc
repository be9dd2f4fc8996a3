#include "properties/control_flow.h"

#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace memplan {
namespace properties {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using Span = std::pair<TimeValue, TimeValue>;
using Branch = TrueBranch;

// The header's worked example: loop [2,5].
TEST(LoopsTest, WidensWhatOverlapsALoopWithoutLyingInIt) {
  const Loops loops({{2, 5}}, 8);
  auto widen = [&](TimeValue first, TimeValue last) {
    const Lifetime widened = loops.Widen({first, last});
    return Span{widened.first, widened.last};
  };
  EXPECT_EQ(widen(0, 3), (Span{0, 5}));
  EXPECT_EQ(widen(3, 4), (Span{3, 4}));
  EXPECT_EQ(widen(4, 7), (Span{2, 7}));
  EXPECT_EQ(widen(6, 7), (Span{6, 7}));
}

// One cond as the emitter lays it out: 0 jumps on the predicate to 4, the
// true branch is 1..3 and ends with 3, always taken, to 6 past the false
// branch 4..5.
TEST(TrueBranchesTest, FindsACondsTrueBranch) {
  EXPECT_THAT(TrueBranches({{0, 4, false}, {3, 6, true}}),
              ElementsAre(Branch{0, 3, 6}));
}

TEST(TrueBranchesTest, TwoCondsInARowAndOneInsideAnother) {
  // Conds at 0..6 and 7..13.
  EXPECT_THAT(
      TrueBranches(
          {{0, 4, false}, {3, 7, true}, {7, 11, false}, {10, 14, true}}),
      ElementsAre(Branch{0, 3, 7}, Branch{7, 10, 14}));
  // A cond at 1..5 inside the true branch 0..7 of another.
  EXPECT_THAT(
      TrueBranches({{0, 8, false}, {1, 4, false}, {3, 6, true}, {7, 10, true}}),
      ElementsAre(Branch{0, 7, 10}, Branch{1, 3, 6}));
}

// A skip that may not be taken, and a skip no jump lands just past: no
// true branch.
TEST(TrueBranchesTest, NeedsAnAlwaysTakenJumpThatAnEarlierJumpLandsPast) {
  EXPECT_THAT(TrueBranches({{0, 4, false}, {3, 6, false}}), IsEmpty());
  EXPECT_THAT(TrueBranches({{0, 5, false}, {3, 6, true}}), IsEmpty());
  EXPECT_THAT(TrueBranches({}), IsEmpty());
}

// A cond as the emitter lays it out (0 jumps to 4; 3 always jumps to 6):
// both branches move into the slot (2 and 5), so the read at 6 follows a
// move on every path; a read at 3, inside the true branch, does too; a
// read at 4, where the false branch starts, does not.
TEST(MovedInBeforeEveryNamingTest, BothBranchesOfACondMoveIn) {
  const std::vector<Jump> jumps = {{0, 4, false}, {3, 6, true}};
  EXPECT_THAT(MovedInBeforeEveryNaming(7, jumps,
                                       {{{2, 5}, {6}},
                                        {{2, 5}, {3}},
                                        {{2, 5}, {4}},
                                        {{5}, {6}},
                                        {{2, 5}, {}}}),
              ElementsAre(true, true, false, false, true));
  // Without the always-taken jump the true branch falls into the false one:
  // still a move on every path to 6 (5 runs last on both).
  EXPECT_THAT(MovedInBeforeEveryNaming(7, {{0, 4, false}, {3, 6, false}},
                                       {{{2}, {6}}, {{2, 5}, {6}}}),
              ElementsAre(false, true));
}

// Loop [1, 3] (3 jumps back to 1): a naming at 1 runs before the move at 2
// in the first iteration; one at 3 always follows it.
TEST(MovedInBeforeEveryNamingTest, ALoopsFirstIterationCounts) {
  const std::vector<Jump> jumps = {{3, 1, false}};
  EXPECT_THAT(
      MovedInBeforeEveryNaming(5, jumps, {{{2}, {1}}, {{2}, {3}}, {{2}, {4}}}),
      ElementsAre(false, true, true));
}

// Past kMaxMovedSlots slots the rest are not judged: false, the cautious
// answer; positions and jumps out of range are ignored.
TEST(MovedInBeforeEveryNamingTest, BoundedAndRobust) {
  std::vector<SlotNamings> slots(kMaxMovedSlots + 3, SlotNamings{{0}, {1}});
  const std::vector<bool> moved = MovedInBeforeEveryNaming(2, {}, slots);
  ASSERT_EQ(moved.size(), slots.size());
  EXPECT_TRUE(moved[kMaxMovedSlots - 1]);
  EXPECT_FALSE(moved[kMaxMovedSlots]);
  EXPECT_THAT(MovedInBeforeEveryNaming(3, {{-1, 7, false}, {1, 9, true}},
                                       {{{0}, {1}}, {{0}, {5}}, {{9}, {2}}}),
              ElementsAre(true, false, true));
  EXPECT_THAT(MovedInBeforeEveryNaming(0, {}, {{{0}, {0}}}),
              ElementsAre(false));
}

}  // namespace
}  // namespace properties
}  // namespace memplan
