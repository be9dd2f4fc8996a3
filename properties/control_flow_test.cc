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
              ElementsAre(Span{0, 3}));
}

TEST(TrueBranchesTest, TwoCondsInARowAndOneInsideAnother) {
  // Conds at 0..6 and 7..13.
  EXPECT_THAT(
      TrueBranches(
          {{0, 4, false}, {3, 7, true}, {7, 11, false}, {10, 14, true}}),
      ElementsAre(Span{0, 3}, Span{7, 10}));
  // A cond at 1..5 inside the true branch 0..7 of another.
  EXPECT_THAT(
      TrueBranches({{0, 8, false}, {1, 4, false}, {3, 6, true}, {7, 10, true}}),
      ElementsAre(Span{0, 7}, Span{1, 3}));
}

// A skip that may not be taken, and a skip no jump lands just past: no
// true branch.
TEST(TrueBranchesTest, NeedsAnAlwaysTakenJumpThatAnEarlierJumpLandsPast) {
  EXPECT_THAT(TrueBranches({{0, 4, false}, {3, 6, false}}), IsEmpty());
  EXPECT_THAT(TrueBranches({{0, 5, false}, {3, 6, true}}), IsEmpty());
  EXPECT_THAT(TrueBranches({}), IsEmpty());
}

}  // namespace
}  // namespace properties
}  // namespace memplan
