#include "properties/overlap_sweep.h"

#include <algorithm>
#include <limits>
#include <random>
#include <set>
#include <utility>

#include "gtest/gtest.h"
#include "properties/overlap_reference.h"

namespace memplan {
namespace properties {
namespace {

constexpr size_t kUnbounded = static_cast<size_t>(-1);

// A random plan of n items on a small grid, so that collisions are common;
// about one in five items is an alias of an earlier one (same family),
// placed inside its base's bytes and lifetime.
std::vector<OverlapItem> RandomItems(std::mt19937_64& rng, size_t n,
                                     uint64_t height, TimeValue horizon) {
  std::vector<OverlapItem> items;
  for (size_t i = 0; i < n; ++i) {
    OverlapItem item;
    if (i > 0 && rng() % 5 == 0) {
      const OverlapItem& base = items[rng() % items.size()];
      item.begin = base.begin + rng() % (base.end - base.begin);
      item.end = item.begin + 1 + rng() % (base.end - item.begin);
      item.first = base.first + rng() % (base.last - base.first + 1);
      item.last = item.first + rng() % (base.last - item.first + 1);
      item.family = base.family;
    } else {
      item.begin = rng() % height;
      item.end = item.begin + 1 + rng() % 16;
      item.first = rng() % horizon;
      item.last = item.first + rng() % 6;
      item.family = i;
    }
    items.push_back(item);
  }
  return items;
}

// A valid plan: items stacked in disjoint slots, reused across time.
std::vector<OverlapItem> ValidItems(std::mt19937_64& rng, size_t n) {
  std::vector<OverlapItem> items;
  for (size_t i = 0; i < n; ++i) {
    uint64_t slot = i % 8;
    TimeValue round = static_cast<TimeValue>(i / 8) * 4;
    OverlapItem item{slot * 32 + rng() % 8, slot * 32 + 16 + rng() % 16,
                     round + static_cast<TimeValue>(rng() % 2),
                     round + 2 + static_cast<TimeValue>(rng() % 2), i};
    items.push_back(item);
  }
  return items;
}

std::set<std::pair<size_t, size_t>> Normalized(const OverlapFindings& f) {
  std::set<std::pair<size_t, size_t>> pairs;
  for (const OverlapPair& p : f.pairs) {
    pairs.insert({std::min(p.a, p.b), std::max(p.a, p.b)});
  }
  return pairs;
}

TEST(OverlapSweepTest, AgreesWithReferenceOnRandomPlans) {
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    std::mt19937_64 rng(seed);
    size_t n = 1 + rng() % 60;
    std::vector<OverlapItem> items =
        RandomItems(rng, n, 64 + rng() % 512, 1 + rng() % 40);
    OverlapFindings sweep = FindOverlapsSweep(items, kUnbounded);
    OverlapFindings reference = FindOverlapsReference(items, kUnbounded);
    SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(n) +
                 " items");
    // Same verdict; every pair the sweep names is a real conflict.
    EXPECT_EQ(sweep.count == 0, reference.count == 0);
    EXPECT_EQ(sweep.count, sweep.pairs.size());
    EXPECT_LE(sweep.count, reference.count);
    std::set<std::pair<size_t, size_t>> expected = Normalized(reference);
    for (const auto& pair : Normalized(sweep)) {
      EXPECT_TRUE(expected.count(pair))
          << "sweep reported " << pair.first << "," << pair.second;
    }
    if (reference.count == 1) {
      EXPECT_EQ(Normalized(sweep), expected);
    }
  }
}

// More than 512 items live at once: the sweep leaves its sorted vector for
// the balanced tree, and must still agree with the reference.
TEST(OverlapSweepTest, AgreesWithReferenceWhenManyItemsAreLive) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    std::mt19937_64 rng(seed);
    std::vector<OverlapItem> items = RandomItems(rng, 1500, 40000, 3);
    OverlapFindings sweep = FindOverlapsSweep(items, kUnbounded);
    OverlapFindings reference = FindOverlapsReference(items, kUnbounded);
    EXPECT_GT(reference.count, 0u) << seed;
    EXPECT_EQ(sweep.count == 0, reference.count == 0) << seed;
    // The count comes from counting, the pairs from a walk: they agree.
    EXPECT_EQ(sweep.count, sweep.pairs.size()) << seed;
    std::set<std::pair<size_t, size_t>> expected = Normalized(reference);
    for (const auto& pair : Normalized(sweep)) {
      EXPECT_TRUE(expected.count(pair)) << seed;
    }
  }
  // Disjoint bytes, all live together: nothing to find, in either set.
  std::vector<OverlapItem> wide;
  for (size_t i = 0; i < 2000; ++i) {
    wide.push_back({i * 8, i * 8 + 8, static_cast<TimeValue>(i % 7), 10, i});
  }
  EXPECT_EQ(FindOverlapsSweep(wide, kUnbounded).count, 0u);
  wide.push_back({4, 12, 10, 10, 2000});  // Meets items 0 and 1 at time 10.
  OverlapFindings found = FindOverlapsSweep(wide, kUnbounded);
  EXPECT_EQ(found.count, FindOverlapsReference(wide, kUnbounded).count);
  EXPECT_EQ(found.count, 2u);
}

// Times spread over all of int64 and given out of order: the radix order
// must neither overflow nor lose the (first, index) tie order.
TEST(OverlapSweepTest, AgreesWithReferenceAtExtremeTimes) {
  constexpr TimeValue kMin = std::numeric_limits<TimeValue>::min();
  constexpr TimeValue kMax = std::numeric_limits<TimeValue>::max();
  std::vector<OverlapItem> items = {
      {0, 8, kMax, kMax, 0},       {0, 8, kMin, kMin, 1},
      {8, 16, kMin, kMax, 2},      {4, 12, 0, 0, 3},
      {16, 24, kMax - 1, kMax, 4}, {16, 24, kMax, kMax, 5},
  };
  OverlapFindings sweep = FindOverlapsSweep(items, kUnbounded);
  OverlapFindings reference = FindOverlapsReference(items, kUnbounded);
  EXPECT_EQ(Normalized(reference),
            (std::set<std::pair<size_t, size_t>>{{2, 3}, {4, 5}}));
  EXPECT_EQ(Normalized(sweep), Normalized(reference));
  std::mt19937_64 rng(7);
  for (OverlapItem& item : items) {
    item.first = static_cast<TimeValue>(rng());
    item.last = std::max(item.first, static_cast<TimeValue>(rng()));
  }
  EXPECT_EQ(FindOverlapsSweep(items, kUnbounded).count == 0,
            FindOverlapsReference(items, kUnbounded).count == 0);
}

TEST(OverlapSweepTest, ValidPlansHaveNoFindings) {
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    std::mt19937_64 rng(seed);
    std::vector<OverlapItem> items = ValidItems(rng, 500);
    EXPECT_EQ(FindOverlapsReference(items, kUnbounded).count, 0u) << seed;
    EXPECT_EQ(FindOverlapsSweep(items, kUnbounded).count, 0u) << seed;
  }
}

TEST(OverlapSweepTest, FindsAConflictHiddenBehindALongNeighbour) {
  // The conflict is with a, which starts far to the left of b's nearest
  // left neighbour v (a view inside a): the walk must reach past v.
  std::vector<OverlapItem> items = {
      {0, 100, 0, 9, 0},  // a
      {10, 20, 0, 9, 0},  // v, same family as a
      {50, 60, 1, 1, 2},  // b: inside a's bytes, while a lives
  };
  OverlapFindings sweep = FindOverlapsSweep(items, kUnbounded);
  ASSERT_EQ(sweep.count, 1u);
  EXPECT_EQ(sweep.pairs[0].a, 0u);
  EXPECT_EQ(sweep.pairs[0].b, 2u);
}

TEST(OverlapSweepTest, TouchingRangesAndTimesDoNotConflict) {
  std::vector<OverlapItem> items = {
      {0, 64, 0, 3, 0},
      {64, 128, 0, 3, 1},  // Adjacent bytes.
      {0, 64, 4, 5, 2},    // Same bytes, next time.
  };
  EXPECT_EQ(FindOverlapsSweep(items, kUnbounded).count, 0u);
  items[2].first = 3;  // Now meets item 0 at time 3.
  EXPECT_EQ(FindOverlapsSweep(items, kUnbounded).count, 1u);
}

TEST(OverlapSweepTest, KeepsAtMostMaxPairs) {
  std::vector<OverlapItem> items;
  for (size_t i = 0; i < 20; ++i) items.push_back({0, 8, 0, 0, i});
  OverlapFindings sweep = FindOverlapsSweep(items, 3);
  EXPECT_EQ(sweep.pairs.size(), 3u);
  EXPECT_EQ(sweep.count, 19u);
  EXPECT_EQ(FindOverlapsReference(items, 3).count, 190u);
}

// One base and many aliases of it, all live at once and none covering
// another (each outlives the one before): a walk over the family for every
// alias would be quadratic. An intruder at the end meets every live alias.
TEST(OverlapSweepTest, CountsConflictsWithANestedFamilyExactly) {
  constexpr size_t kAliases = 3000;
  std::vector<OverlapItem> items = {{0, kAliases + 1, 0, 1, 7}};
  for (size_t i = 1; i <= kAliases; ++i) {
    items.push_back({i, kAliases + 1, 0, static_cast<TimeValue>(1 + i), 7});
  }
  EXPECT_EQ(FindOverlapsSweep(items, kUnbounded).count, 0u);
  // At time 2001 the aliases i >= 2000 are live; bytes [2500, 2501) lie in
  // those with i <= 2500.
  items.push_back({2500, 2501, 2001, 2001, 8});
  OverlapFindings sweep = FindOverlapsSweep(items, 5);
  EXPECT_EQ(sweep.count, 501u);
  EXPECT_EQ(sweep.pairs.size(), 5u);
  for (const OverlapPair& pair : sweep.pairs) {
    EXPECT_EQ(pair.b, kAliases + 1);
    EXPECT_TRUE(ItemsConflict(items[pair.a], items[pair.b]));
  }
}

// n / 2 disjoint items, then n / 2 of other families over all of them: every
// pair is counted though only max_pairs are kept.
TEST(OverlapSweepTest, CountsEveryPairPastMaxPairs) {
  constexpr size_t kHalf = 1000;
  std::vector<OverlapItem> items;
  for (size_t i = 0; i < kHalf; ++i)
    items.push_back({8 * i, 8 * i + 8, 0, 1, i});
  for (size_t i = 0; i < kHalf; ++i) {
    items.push_back({0, 8 * kHalf, 1, 1, kHalf + i});
  }
  OverlapFindings sweep = FindOverlapsSweep(items, 10);
  EXPECT_EQ(sweep.count, kHalf * kHalf);
  EXPECT_EQ(sweep.pairs.size(), 10u);
  for (const OverlapPair& pair : sweep.pairs) {
    EXPECT_TRUE(ItemsConflict(items[pair.a], items[pair.b]));
  }
}

}  // namespace
}  // namespace properties
}  // namespace memplan
