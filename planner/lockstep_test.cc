#include "planner/lockstep.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace memplan {
namespace planner {
namespace {

constexpr uint64_t kNever = UINT64_MAX;

// One member: ends epochs until the race is over for it or it decides
// (after `decide_at` epochs) or gives up (after `give_up_at`); sleeps `nap`
// at the start of each epoch, so that the members' speeds differ. Returns
// how many epochs it ended.
uint64_t Race(Lockstep* race, size_t member, uint64_t decide_at,
              uint64_t give_up_at, std::chrono::microseconds nap) {
  uint64_t ended = 0;
  while (true) {
    std::this_thread::sleep_for(nap);
    if (ended == decide_at) {
      race->Leave(member, true);
      return ended;
    }
    if (ended == give_up_at) break;
    ++ended;
    if (!race->EndEpoch(member)) break;
  }
  race->Leave(member, false);
  return ended;
}

TEST(LockstepTest, TheFirstEpochToDecideWinsNotTheFastestThread) {
  // Member 2 decides at its 3rd epoch but is slow; member 0 is fast and
  // decides at its 5th: in time member 0 is first, in epochs member 2.
  for (int round = 0; round < 5; ++round) {
    Lockstep race(3);
    std::vector<uint64_t> ended(3);
    std::thread slow([&] {
      ended[2] = Race(&race, 2, 3, kNever, std::chrono::milliseconds(20));
    });
    std::thread other([&] {
      ended[1] = Race(&race, 1, kNever, kNever, std::chrono::microseconds(0));
    });
    ended[0] = Race(&race, 0, 5, kNever, std::chrono::microseconds(0));
    slow.join();
    other.join();
    EXPECT_EQ(race.winner(), 2u);
    // The race was over at the end of the epoch member 2 decided in: the
    // others ended that one and no more, and member 0 never decided.
    EXPECT_EQ(ended[0], 4u);
    EXPECT_EQ(ended[1], 4u);
  }
}

TEST(LockstepTest, InOneEpochTheLowestNumberedDeciderWins) {
  // Members 1 and 3 decide in the same epoch; member 3 gets there first in
  // time (member 1 naps), yet member 1 wins. Member 2, numbered above the
  // decided member 1, is beaten and stops.
  for (int round = 0; round < 5; ++round) {
    Lockstep race(4);
    std::thread first(
        [&] { Race(&race, 1, 2, kNever, std::chrono::milliseconds(10)); });
    std::thread second(
        [&] { Race(&race, 3, 2, kNever, std::chrono::microseconds(0)); });
    std::thread third(
        [&] { Race(&race, 2, kNever, kNever, std::chrono::microseconds(0)); });
    Race(&race, 0, kNever, kNever, std::chrono::microseconds(0));
    first.join();
    second.join();
    third.join();
    EXPECT_EQ(race.winner(), 1u);
    EXPECT_TRUE(race.Beaten(2));
    EXPECT_TRUE(race.Beaten(3));
    EXPECT_FALSE(race.Beaten(1));
    EXPECT_FALSE(race.Beaten(0));
  }
}

TEST(LockstepTest, NoMemberRunsAheadOfAnotherStillRacing) {
  constexpr size_t kMembers = 5;
  Lockstep race(kMembers);
  std::vector<std::atomic<uint64_t>> ended(kMembers);
  std::vector<std::atomic<bool>> left(kMembers);
  std::atomic<int> ahead{0};
  auto member = [&](size_t i) {
    // Member i gives up after 10 + 5 i epochs; nobody decides.
    const uint64_t give_up = 10 + 5 * i;
    uint64_t e = 0;
    while (e < give_up) {
      std::this_thread::sleep_for(std::chrono::microseconds(50 * (i + 1)));
      ended[i] = ++e;
      if (!race.EndEpoch(i)) break;
      // Past the barrier: every member still racing has ended epoch e.
      for (size_t j = 0; j < kMembers; ++j) {
        if (!left[j] && ended[j] < e) ++ahead;
      }
    }
    left[i] = true;
    race.Leave(i, false);
  };
  std::vector<std::thread> threads;
  for (size_t i = 1; i < kMembers; ++i) threads.emplace_back(member, i);
  member(0);
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(ahead, 0);
  EXPECT_EQ(race.winner(), kMembers);  // Nobody decided.
  for (size_t i = 0; i < kMembers; ++i) EXPECT_EQ(ended[i], 10 + 5 * i);
}

// The hook of OnEpochEnd runs on its member's thread after each epoch the
// member goes on from, and, once that member has left, while AwaitLeft
// waits for the others; AwaitLeft returns once they have left.
TEST(LockstepTest, TheHookRunsOnItsMembersThreadWhileItWaits) {
  Lockstep race(2);
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<uint64_t> calls{0};
  std::atomic<bool> elsewhere{false};
  race.OnEpochEnd(0, [&] {
    ++calls;
    if (std::this_thread::get_id() != caller) elsewhere = true;
  });
  std::thread other(
      [&] { Race(&race, 1, kNever, 20, std::chrono::milliseconds(2)); });
  // Member 0 gives up after 3 epochs: 3 calls so far, then more while
  // member 1 runs its other 17 (2 ms each).
  EXPECT_EQ(Race(&race, 0, kNever, 3, std::chrono::microseconds(0)), 3u);
  EXPECT_EQ(calls.load(), 3u);
  race.AwaitLeft(1, 2);
  // Member 1 needed 34 ms more at least; the hook ran meanwhile.
  EXPECT_GT(calls.load(), 3u);
  other.join();
  EXPECT_FALSE(elsewhere.load());
  // Without a hook it returns at once.
  Lockstep plain(2);
  plain.AwaitLeft(0, 2);
}

}  // namespace
}  // namespace planner
}  // namespace memplan
