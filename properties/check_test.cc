#include "properties/check.h"

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "properties/lower_bound.h"

namespace memplan {
namespace properties {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::Not;

Allocation Alloc(std::string id, MemId mem_id, Offset offset, Offset size,
                 TimeValue first, TimeValue last,
                 Device device = Device::Cpu()) {
  Allocation a;
  a.id = std::move(id);
  a.mem_id = mem_id;
  a.offset = offset;
  a.size = size;
  a.lifetime = {first, last};
  a.device = device;
  return a;
}

// Two buffers (cpu, cuda:0), reuse in time, a view inside its base.
Plan ValidPlan() {
  Plan plan;
  plan.buffers = {{1, 256, Device::Cpu()}, {2, 128, Device::Cuda(0)}};
  plan.allocations = {
      Alloc("t0", 1, 0, 64, 0, 2),
      Alloc("t1", 1, 64, 64, 1, 3),
      Alloc("t2", 1, 0, 64, 3, 5),  // Reuses t0's bytes after t0 died.
      Alloc("t3", 2, 0, 128, 0, 5, Device::Cuda(0)),
      Alloc("v3", 2, 32, 32, 2, 4, Device::Cuda(0)),
  };
  plan.allocations[4].kind = SpecKind::kView;
  plan.allocations[4].alias_of = "t3";
  plan.allocations[1].alignment = 64;
  plan.end_time = 5;
  return plan;
}

auto HasCode(ViolationCode code, const std::string& text) {
  return Contains(AllOf(Field(&Violation::code, code),
                        Field(&Violation::message, HasSubstr(text))));
}

TEST(CheckTest, ValidPlanHasNoViolationsAndReportsQuality) {
  Report report = Check(ValidPlan());
  EXPECT_TRUE(report.ok()) << FormatText(report);
  ASSERT_EQ(report.buffers.size(), 2u);
  // Buffer 1: t0 and t1 live together at times 1..2 -> 128 bytes.
  EXPECT_EQ(report.buffers[0].live_bytes_lower_bound, 128u);
  EXPECT_EQ(report.buffers[0].high_water, 128u);
  EXPECT_DOUBLE_EQ(*report.buffers[0].ratio(), 2.0);
  // Buffer 2: the view owns no bytes.
  EXPECT_EQ(report.buffers[1].live_bytes_lower_bound, 128u);
}

TEST(CheckTest, Overlap) {
  Plan plan = ValidPlan();
  plan.allocations[2].lifetime.first = 2;  // t2 now meets t0 at time 2.
  Report report = Check(plan);
  EXPECT_EQ(report.count(ViolationCode::kOverlap), 1u);
  EXPECT_THAT(report.violations,
              HasCode(ViolationCode::kOverlap,
                      "overlap: t0 [0,2] bytes [0,64) and t2 [2,5] bytes "
                      "[0,64) in buffer 1 (cpu)"));
}

TEST(CheckTest, OverlapCarriesIdsBufferAndTheSharedRanges) {
  Plan plan = ValidPlan();
  plan.allocations[2].offset = 32;  // t2 [1,5] bytes [32,96) meets t0, t1.
  plan.allocations[2].lifetime.first = 1;
  Report report = Check(plan);
  ASSERT_EQ(report.count(ViolationCode::kOverlap), 2u) << FormatText(report);
  // The sweep's order is its own: find each pair by its first id.
  auto pair_with = [&](const std::string& id) -> const Violation& {
    for (const Violation& v : report.violations) {
      if (v.allocation_ids.front() == id) return v;
    }
    ADD_FAILURE() << "no overlap names " << id << " first";
    return report.violations[0];
  };
  const Violation& v = pair_with("t0");
  EXPECT_EQ(v.allocation_ids, (std::vector<std::string>{"t0", "t2"}));
  EXPECT_EQ(v.mem_id, MemId{1});
  // t0 holds [0,64) over [0,2]: both hold [32,64) over [1,2].
  ASSERT_TRUE(v.bytes && v.lifetime);
  EXPECT_EQ(v.bytes->begin, 32);
  EXPECT_EQ(v.bytes->end, 64);
  EXPECT_EQ(v.lifetime->first, 1);
  EXPECT_EQ(v.lifetime->last, 2);
  const Violation& w = pair_with("t1");
  EXPECT_EQ(w.allocation_ids, (std::vector<std::string>{"t1", "t2"}));
  EXPECT_EQ(w.bytes->begin, 64);
  EXPECT_EQ(w.bytes->end, 96);
  EXPECT_EQ(w.lifetime->first, 1);
  EXPECT_EQ(w.lifetime->last, 3);
  EXPECT_THAT(FormatJson(report),
              HasSubstr("\"allocations\":[\"t0\",\"t2\"],\"mem_id\":1,"
                        "\"bytes\":[32,64],\"lifetime\":[1,2]}"));
}

TEST(CheckTest, AliasAndBufferViolationsCarryTheirFacts) {
  Plan plan = ValidPlan();
  plan.allocations[4].offset = 112;  // v3 [112,144) sticks out of t3.
  plan.buffers[1].mem_id = 0;        // And the cuda buffer's id is reserved.
  Report report = Check(plan);
  bool saw_alias = false, saw_buffer_map = false;
  for (const Violation& v : report.violations) {
    if (v.code == ViolationCode::kBufferMap) {
      saw_buffer_map = true;
      EXPECT_TRUE(v.allocation_ids.empty());
      EXPECT_EQ(v.mem_id, MemId{0});
    }
    if (v.code == ViolationCode::kAlias) {
      saw_alias = true;
      EXPECT_EQ(v.allocation_ids, (std::vector<std::string>{"v3", "t3"}));
      EXPECT_EQ(v.bytes->begin, 112);
      EXPECT_EQ(v.bytes->end, 144);
    }
  }
  EXPECT_TRUE(saw_alias && saw_buffer_map) << FormatText(report);
}

TEST(CheckTest, AliasOfAnAliasDoesNotOverlapItsFamily) {
  Plan plan = ValidPlan();
  Allocation w = Alloc("w3", 2, 40, 8, 3, 4, Device::Cuda(0));
  w.kind = SpecKind::kView;
  w.alias_of = "v3";
  plan.allocations.push_back(w);
  EXPECT_TRUE(Check(plan).ok());
  // A stranger on the same bytes is an overlap with the base.
  plan.allocations.push_back(Alloc("x", 2, 40, 8, 3, 3, Device::Cuda(0)));
  EXPECT_EQ(Check(plan).count(ViolationCode::kOverlap), 1u);
}

TEST(CheckTest, CrossDevice) {
  Plan plan = ValidPlan();
  plan.allocations[0].device = Device::Cuda(1);
  Report report = Check(plan);
  EXPECT_THAT(report.violations, HasCode(ViolationCode::kCrossDevice,
                                         "t0 on cuda:1 in buffer 1 (cpu)"));
}

TEST(CheckTest, DeviceInfo) {
  Plan plan = ValidPlan();
  plan.allocations[0].device.reset();
  plan.allocations[1].device = Device{static_cast<DeviceType>(9), 0};
  plan.allocations[4].device = Device::Cpu();  // The view leaves its base.
  Report report = Check(plan);
  EXPECT_EQ(report.count(ViolationCode::kDeviceInfo), 3u);
  EXPECT_THAT(report.violations, HasCode(ViolationCode::kDeviceInfo,
                                         "t0 (plain) carries no device"));
  EXPECT_THAT(report.violations,
              HasCode(ViolationCode::kDeviceInfo, "t1 has unknown device"));
  EXPECT_THAT(report.violations,
              HasCode(ViolationCode::kDeviceInfo,
                      "view v3 on cpu, its base t3 on cuda:0"));
}

TEST(CheckTest, Bounds) {
  Plan plan = ValidPlan();
  plan.allocations[1].offset = 256;  // [256, 320) in a 256-byte buffer.
  plan.allocations[0].mem_id = 7;
  // offset + size overflows int64; as unsigned (the rule of
  // runtime/core/plan_rules.h) it ends past the buffer.
  plan.allocations[2].offset = INT64_MAX - 8;
  plan.allocations[2].alignment = 1;
  Report report = Check(plan);
  EXPECT_EQ(report.count(ViolationCode::kBounds), 3u);
  EXPECT_THAT(
      report.violations,
      HasCode(ViolationCode::kBounds, "ends past buffer 1 (cpu) of size 256"));
  EXPECT_THAT(
      report.violations,
      HasCode(ViolationCode::kBounds, "names buffer 7, which does not exist"));
  EXPECT_THAT(report.violations,
              HasCode(ViolationCode::kBounds,
                      "bytes [9223372036854775799,9223372036854775799+"));
}

TEST(CheckTest, NegativeOffsetIsABoundsViolation) {
  Plan plan = ValidPlan();
  plan.allocations[0].offset = -64;
  EXPECT_THAT(Check(plan).violations,
              HasCode(ViolationCode::kBounds, "negative offset or size"));
}

TEST(CheckTest, Alignment) {
  Plan plan = ValidPlan();
  plan.allocations[1].offset = 96;
  plan.allocations[1].size = 32;
  plan.allocations[0].alignment = 3;
  Report report = Check(plan);
  EXPECT_EQ(report.count(ViolationCode::kAlignment), 2u);
  EXPECT_THAT(report.violations, HasCode(ViolationCode::kAlignment,
                                         "offset 96 is not a multiple of 64"));
  EXPECT_THAT(report.violations, HasCode(ViolationCode::kAlignment,
                                         "alignment 3 is not a power of two"));
}

TEST(CheckTest, BufferMap) {
  Plan plan = ValidPlan();
  plan.buffers.push_back({0, 16, Device::Cpu()});
  plan.buffers.push_back({2, 16, Device::Cuda(0)});
  plan.buffers.push_back({3, 16, Device{static_cast<DeviceType>(5), 0}});
  plan.device_map = {{2, 1, 0}, {2, 1, 0}, {9, 1, 0}, {0, 1, 0}, {3, 4, 0}};
  Report report = Check(plan);
  EXPECT_THAT(report.violations,
              HasCode(ViolationCode::kBufferMap, "mem_id = 0"));
  EXPECT_THAT(report.violations, HasCode(ViolationCode::kBufferMap,
                                         "buffers[3] duplicates mem_id 2"));
  EXPECT_THAT(report.violations,
              HasCode(ViolationCode::kBufferMap, "unknown device type 5"));
  EXPECT_THAT(report.violations,
              HasCode(ViolationCode::kBufferMap,
                      "non_const_buffer_device[1] duplicates buffer_idx 2"));
  EXPECT_THAT(report.violations, HasCode(ViolationCode::kBufferMap,
                                         "buffer_idx = 9, must be in [1, 5]"));
  EXPECT_THAT(report.violations, HasCode(ViolationCode::kBufferMap,
                                         "buffer_idx = 0, the reserved"));
  EXPECT_THAT(report.violations, HasCode(ViolationCode::kBufferMap,
                                         "device_type = 4, must be < 2"));
  EXPECT_EQ(report.count(ViolationCode::kBufferMap), 7u);
}

TEST(CheckTest, Lifetime) {
  Plan plan = ValidPlan();
  plan.allocations[0].lifetime = {2, 1};
  plan.allocations[1].lifetime = {1, 6};  // end_time is 5.
  Report report = Check(plan);
  EXPECT_EQ(report.count(ViolationCode::kLifetime), 2u);
  EXPECT_THAT(report.violations, HasCode(ViolationCode::kLifetime,
                                         "t0 [2,1] bytes [0,64) starts after"));
  EXPECT_THAT(report.violations,
              HasCode(ViolationCode::kLifetime, "outside the program [0,5]"));
}

TEST(CheckTest, Alias) {
  Plan plan = ValidPlan();
  plan.allocations[4].offset = 112;  // [112, 144) leaves t3's [0, 128).
  Allocation missing = Alloc("m", 1, 128, 8, 0, 0);
  missing.alias_of = "nobody";
  Allocation a = Alloc("a", 1, 200, 8, 0, 0), b = Alloc("b", 1, 200, 8, 0, 0);
  a.alias_of = "b";
  b.alias_of = "a";
  Allocation other = Alloc("o", 1, 136, 8, 4, 4);
  other.alias_of = "t3";  // t3 lives in buffer 2.
  plan.allocations.insert(plan.allocations.end(), {missing, a, b, other});
  Report report = Check(plan);
  EXPECT_THAT(
      report.violations,
      HasCode(ViolationCode::kAlias, "v3 [2,4] bytes [112,144) lies outside"));
  EXPECT_THAT(report.violations,
              HasCode(ViolationCode::kAlias,
                      "m is an alias of nobody, which does not"));
  EXPECT_THAT(report.violations,
              HasCode(ViolationCode::kAlias, "cycle a -> b -> a"));
  EXPECT_THAT(
      report.violations,
      HasCode(ViolationCode::kAlias, "o in buffer 1 aliases t3 in buffer 2"));
  EXPECT_EQ(report.count(ViolationCode::kAlias), 4u);
  // The cycle's members are unrelated for the overlap check.
  EXPECT_EQ(report.count(ViolationCode::kOverlap), 1u);
}

TEST(CheckTest, ViolationsAreCappedPerCodeButCounted) {
  Plan plan;
  plan.buffers = {{1, 8, Device::Cpu()}};
  for (int i = 0; i < 50; ++i) {
    plan.allocations.push_back(Alloc("t" + std::to_string(i), 1, 0, 8, 0, 0));
  }
  CheckOptions options;
  options.max_violations_per_code = 5;
  Report report = Check(plan, options);
  EXPECT_EQ(report.count(ViolationCode::kOverlap), 49u);
  EXPECT_EQ(report.violations.size(), 5u);
  EXPECT_THAT(FormatText(report), HasSubstr("... and 44 more overlap"));
}

TEST(CheckTest, ReportsInBothFormats) {
  Plan plan = ValidPlan();
  plan.allocations[0].alignment = 3;
  Report report = Check(plan);
  std::string text = FormatText(report);
  EXPECT_THAT(text, HasSubstr("INVALID: 1 violation(s)"));
  EXPECT_LT(text.find("alignment:"), text.find("buffers:"));
  std::string json = FormatJson(report);
  EXPECT_THAT(json, HasSubstr("\"valid\":false"));
  EXPECT_THAT(json, HasSubstr("\"alignment\":1"));
  EXPECT_THAT(json, HasSubstr("\"device\":\"cuda:0\""));
  EXPECT_THAT(json, Not(HasSubstr("\"overlap\":1")));
}

// The peak against a count at every position, on random intervals given
// in and out of time order.
TEST(MaxLiveBytesTest, EqualsThePeakOfPerPositionSums) {
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    std::mt19937_64 rng(seed);
    std::vector<LiveInterval> intervals(1 + rng() % 40);
    for (LiveInterval& interval : intervals) {
      interval.first = static_cast<TimeValue>(rng() % 30);
      interval.last = interval.first + static_cast<TimeValue>(rng() % 6);
      interval.size = rng() % 100;
    }
    if (seed % 2 == 0) {
      std::sort(intervals.begin(), intervals.end(),
                [](const LiveInterval& a, const LiveInterval& b) {
                  return a.first < b.first;
                });
    }
    uint64_t expected = 0;
    for (TimeValue t = 0; t < 40; ++t) {
      uint64_t sum = 0;
      for (const LiveInterval& interval : intervals) {
        if (interval.first <= t && t <= interval.last) sum += interval.size;
      }
      expected = std::max(expected, sum);
    }
    EXPECT_EQ(MaxLiveBytes(intervals), expected) << "seed " << seed;
  }
}

TEST(MaxLiveBytesTest, EndAndStartAtOneTimeAreBothLive) {
  EXPECT_EQ(MaxLiveBytes({{0, 3, 10}, {3, 5, 20}}), 30u);
  EXPECT_EQ(MaxLiveBytes({{0, 2, 10}, {3, 5, 20}}), 20u);
  EXPECT_EQ(MaxLiveBytes({}), 0u);
}

TEST(MaxLiveBytesTest, SaturatesInsteadOfWrapping) {
  EXPECT_EQ(MaxLiveBytes({{0, 1, UINT64_MAX}, {1, 2, 2}, {2, 3, 5}}),
            UINT64_MAX);
  // Large sizes live at different times do not add up.
  EXPECT_EQ(MaxLiveBytes({{0, 0, UINT64_MAX / 2 + 1}, {1, 1, 7}}),
            UINT64_MAX / 2 + 1);
}

}  // namespace
}  // namespace properties
}  // namespace memplan

namespace memplan {
namespace properties {
namespace {

// r at bytes [0,64) over [1,2] and then over `parts`; o at [32,96) over
// [first,last]; positions up to end_time.
Plan PlanWithHoles(std::vector<ResumedPart> parts, TimeValue end_time,
                   TimeValue first, TimeValue last) {
  Plan plan;
  plan.buffers = {{1, 256, Device::Cpu()}};
  plan.allocations = {Alloc("r", 1, 0, 64, 1, 2),
                      Alloc("o", 1, 32, 64, first, last)};
  plan.allocations[0].resumed = std::move(parts);
  plan.end_time = end_time;
  return plan;
}

// A lifetime with a hole: r is live over [1,2] and again over [6,8]. A
// tensor in the hole may take its bytes; one in either part may not, and
// one over both parts is one report. The resumed part may share bytes with
// the allocation it is resumed with; a resumed part that starts before the
// first part ends is a lifetime fault.
TEST(CheckTest, AResumedLifetimeIsLiveInBothPartsOnly) {
  auto plan_with = [](TimeValue first, TimeValue last) {
    return PlanWithHoles({{{6, 8}, std::nullopt}}, 9, first, last);
  };
  EXPECT_TRUE(Check(plan_with(3, 5)).ok())
      << FormatText(Check(plan_with(3, 5)));
  for (const auto& [first, last] :
       {std::pair<TimeValue, TimeValue>{2, 4}, {5, 7}, {1, 9}, {0, 9}}) {
    Report report = Check(plan_with(first, last));
    EXPECT_EQ(report.count(ViolationCode::kOverlap), 1u) << FormatText(report);
    EXPECT_THAT(report.violations,
                HasCode(ViolationCode::kOverlap, "r [1,2]+[6,8] bytes [0,64)"));
  }
  Plan twin = plan_with(5, 9);
  twin.allocations[0].resumed[0].with = "o";
  EXPECT_TRUE(Check(twin).ok()) << FormatText(Check(twin));
  EXPECT_EQ(Check(twin).buffers[0].live_bytes_lower_bound, 128u);
  for (TimeValue first : {2, 3}) {  // Overlapping, or touching: no hole.
    Plan early = plan_with(4, 5);
    early.allocations[0].resumed = {{{first, 8}, std::nullopt}};
    EXPECT_THAT(Check(early).violations,
                HasCode(ViolationCode::kLifetime, "resumes before"));
  }
  Plan huge = plan_with(4, 5);
  huge.end_time.reset();
  huge.allocations[0].lifetime = {INT64_MAX - 1, INT64_MAX};
  huge.allocations[0].resumed = {{{INT64_MAX, INT64_MAX}, std::nullopt}};
  EXPECT_THAT(Check(huge).violations,
              HasCode(ViolationCode::kLifetime, "resumes before"));
}

// Holes over two false branches (nested conds): r is live over [1,2], [5,6]
// and [9,10]. Each part after a hole may share bytes only with the
// allocation that part names; a tensor in either hole meets nothing; parts
// out of order, or one touching the part before it, are lifetime faults.
TEST(CheckTest, EachPartAfterAHoleIsLiveAndSharesOnItsOwn) {
  auto plan_with = [](TimeValue first, TimeValue last) {
    return PlanWithHoles({{{5, 6}, std::nullopt}, {{9, 10}, std::nullopt}}, 11,
                         first, last);
  };
  for (const auto& [first, last] :
       {std::pair<TimeValue, TimeValue>{3, 4}, {7, 8}, {11, 11}}) {
    EXPECT_TRUE(Check(plan_with(first, last)).ok())
        << FormatText(Check(plan_with(first, last)));
  }
  for (const auto& [first, last] :
       {std::pair<TimeValue, TimeValue>{6, 6}, {10, 11}, {0, 11}}) {
    Report report = Check(plan_with(first, last));
    EXPECT_EQ(report.count(ViolationCode::kOverlap), 1u) << FormatText(report);
    EXPECT_THAT(
        report.violations,
        HasCode(ViolationCode::kOverlap, "r [1,2]+[5,6]+[9,10] bytes [0,64)"));
  }
  // o shares with the second part only: live over it, it is fine; live
  // over the first part too, it is not.
  Plan shares = plan_with(9, 11);
  shares.allocations[0].resumed[1].with = "o";
  EXPECT_TRUE(Check(shares).ok()) << FormatText(Check(shares));
  Plan both = plan_with(5, 11);
  both.allocations[0].resumed[1].with = "o";
  EXPECT_EQ(Check(both).count(ViolationCode::kOverlap), 1u)
      << FormatText(Check(both));
  for (const auto& [first, last] :
       {std::pair<TimeValue, TimeValue>{4, 8}, {7, 10}, {6, 8}}) {
    Plan disordered = plan_with(3, 3);
    disordered.allocations[0].resumed[1].lifetime = {first, last};
    EXPECT_THAT(Check(disordered).violations,
                HasCode(ViolationCode::kLifetime, "resumes before"));
  }
}

}  // namespace
}  // namespace properties
}  // namespace memplan
