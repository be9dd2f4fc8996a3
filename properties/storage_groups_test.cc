#include "properties/storage_groups.h"

#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace memplan {
namespace properties {
namespace {

using ::testing::ElementsAre;

Allocation Alloc(const std::string& id, Offset offset, Offset size,
                 TimeValue first, TimeValue last,
                 std::optional<std::string> alias_of = std::nullopt) {
  Allocation a;
  a.id = id;
  a.offset = offset;
  a.size = size;
  a.lifetime = {first, last};
  a.alias_of = std::move(alias_of);
  return a;
}

std::vector<size_t> MemberIndices(const StorageGroup& group) {
  std::vector<size_t> indices;
  for (const StorageGroup::Member& m : group.members) {
    indices.push_back(m.allocation);
  }
  return indices;
}

TEST(StorageGroupsTest, AnAliasChainIsOneItemOverTheUnionOfLifetimes) {
  Plan plan;
  plan.allocations = {
      Alloc("view2", 64, 32, 6, 9, "view1"),  // 0: alias of an alias.
      Alloc("base", 0, 128, 0, 2),            // 1
      Alloc("view1", 64, 64, 3, 5, "base"),   // 2
      Alloc("other", 0, 16, 0, 1),            // 3
  };
  plan.allocations[0].alignment = 32;
  StorageGroups storage = GroupStorage(plan);
  EXPECT_TRUE(storage.unplaceable.empty());
  ASSERT_EQ(storage.groups.size(), 2u);
  const StorageGroup& group = storage.groups[0];
  EXPECT_THAT(MemberIndices(group), ElementsAre(1, 0, 2));  // Base first.
  EXPECT_EQ(group.members[1].delta, 64u);
  EXPECT_EQ(group.members[2].delta, 64u);
  EXPECT_EQ(group.item.size, 128u);
  EXPECT_EQ(group.item.alignment, 32u);
  // The base dies at 2, but its views keep its bytes until 9.
  EXPECT_EQ(group.item.lifetime.first, 0);
  EXPECT_EQ(group.item.lifetime.last, 9);
  EXPECT_THAT(MemberIndices(storage.groups[1]), ElementsAre(3));
}

// A lifetime with holes (Allocation::resumed) is planned over its hull.
TEST(StorageGroupsTest, AResumedLifetimeIsPlannedOverItsHull) {
  Plan plan;
  plan.allocations = {Alloc("true_out", 0, 64, 1, 3), Alloc("x", 64, 64, 0, 9)};
  plan.allocations[0].resumed = {{{6, 8}, std::nullopt},
                                 {{10, 12}, std::nullopt}};
  StorageGroups storage = GroupStorage(plan);
  ASSERT_EQ(storage.groups.size(), 2u);
  EXPECT_EQ(storage.groups[0].item.lifetime.first, 1);
  EXPECT_EQ(storage.groups[0].item.lifetime.last, 12);
}

TEST(StorageGroupsTest, AMemberOutsideItsBaseGetsDeltaZero) {
  Plan plan;
  plan.allocations = {
      Alloc("base", 100, 64, 0, 2),
      Alloc("past_end", 140, 32, 1, 1, "base"),    // Sticks out.
      Alloc("below", 50, 16, 1, 1, "base"),        // Below the base.
      Alloc("misaligned", 104, 16, 1, 1, "base"),  // 4 off its 8.
      Alloc("other_buffer", 100, 16, 1, 1, "base"),
  };
  plan.allocations[3].alignment = 8;
  plan.allocations[4].mem_id = 2;
  StorageGroups storage = GroupStorage(plan);
  ASSERT_EQ(storage.groups.size(), 1u);
  for (const StorageGroup::Member& m : storage.groups[0].members) {
    EXPECT_EQ(m.delta, 0u) << plan.allocations[m.allocation].id;
  }
  EXPECT_EQ(storage.groups[0].item.size, 64u);
}

TEST(StorageGroupsTest, BrokenChainsAndAllocationsAreLeftToTheOracle) {
  Plan plan;
  plan.allocations = {
      Alloc("a", 0, 16, 0, 1, "b"),         // 0: a <-> b, a cycle.
      Alloc("b", 0, 16, 0, 1, "a"),         // 1
      Alloc("dangling", 0, 16, 0, 1, "x"),  // 2
      Alloc("on_cycle", 0, 8, 0, 1, "a"),   // 3: its chain ends in one.
      Alloc("negative", 0, -4, 0, 1),       // 4
      Alloc("of_negative", 0, 4, 0, 1, "negative"),  // 5
      Alloc("backwards", 0, 4, 3, 1),                // 6
      Alloc("fine", 0, 4, 0, 1),                     // 7
  };
  StorageGroups storage = GroupStorage(plan);
  EXPECT_THAT(storage.unplaceable, ElementsAre(0, 1, 2, 3, 4, 5, 6));
  ASSERT_EQ(storage.groups.size(), 1u);
  EXPECT_THAT(MemberIndices(storage.groups[0]), ElementsAre(7));
}

TEST(StorageGroupsTest, NamesAreCollectedSorted) {
  Plan plan;
  plan.allocations = {Alloc("base", 0, 64, 0, 1),
                      Alloc("view", 32, 32, 0, 1, "base")};
  plan.allocations[0].shared_name =
      std::make_shared<const std::string>("z_state");
  plan.allocations[1].shared_name =
      std::make_shared<const std::string>("a_view");
  StorageGroups storage = GroupStorage(plan);
  ASSERT_EQ(storage.groups.size(), 1u);
  EXPECT_THAT(storage.groups[0].names,
              ElementsAre(std::make_pair(std::string_view("a_view"), 32u),
                          std::make_pair(std::string_view("z_state"), 0u)));
}

}  // namespace
}  // namespace properties
}  // namespace memplan
