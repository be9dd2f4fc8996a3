#include "properties/json_plan.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "properties/check.h"
#include "runtime/core/error_matchers.h"

namespace memplan {
namespace properties {
namespace {

using ::memplan::testing::IsError;
using ::testing::HasSubstr;

// The worked example of PLAN_FORMAT.md.
constexpr const char* kExample = R"({
  "format": "memplan.plan.v1",
  "end_time": 4,
  "buffers": [
    {"mem_id": 1, "size": 128, "device": "cpu"},
    {"mem_id": 2, "size": 256, "device": "cuda:0"}
  ],
  "allocations": [
    {"id": "x", "kind": "input", "mem_id": 1, "offset": 0, "size": 64,
     "first": 0, "last": 1, "device": "cpu", "alignment": 16},
    {"id": "y", "kind": "output", "mem_id": 1, "offset": 64, "size": 64,
     "first": 1, "last": 4, "device": "cpu", "alignment": 16},
    {"id": "h", "mem_id": 2, "offset": 0, "size": 256,
     "first": 1, "last": 3, "device": "cuda:0", "alignment": 256},
    {"id": "h_view", "kind": "view", "mem_id": 2, "offset": 128, "size": 128,
     "first": 2, "last": 3, "device": "cuda:0", "alias_of": "h"}
  ]
})";

TEST(JsonPlanTest, ReadsTheWorkedExample) {
  Result<Plan> plan = PlanFromJson(kExample);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  ASSERT_EQ(plan->buffers.size(), 2u);
  EXPECT_EQ(plan->buffers[1].device, Device::Cuda(0));
  ASSERT_EQ(plan->allocations.size(), 4u);
  const Allocation& view = plan->allocations[3];
  EXPECT_EQ(view.kind, SpecKind::kView);
  EXPECT_EQ(view.alias_of, "h");
  EXPECT_EQ(view.alignment, 1);                            // Default.
  EXPECT_EQ(plan->allocations[2].kind, SpecKind::kPlain);  // Default.
  EXPECT_EQ(plan->end_time, 4);
  Report report = Check(*plan);
  EXPECT_TRUE(report.ok()) << FormatText(report);
  EXPECT_EQ(report.buffers[0].live_bytes_lower_bound, 128u);
  EXPECT_EQ(report.buffers[1].live_bytes_lower_bound, 256u);
}

TEST(JsonPlanTest, RoundTripsThroughPlanToJson) {
  Result<Plan> plan = PlanFromJson(kExample);
  ASSERT_TRUE(plan.ok());
  plan->allocations[0].device.reset();
  plan->buffers[0].device = Device{static_cast<DeviceType>(7), 2};
  std::string text = PlanToJson(*plan);
  Result<Plan> again = PlanFromJson(text);
  ASSERT_TRUE(again.ok()) << again.error().ToString() << "\n" << text;
  EXPECT_EQ(PlanToJson(*again), text);
  EXPECT_FALSE(again->allocations[0].device.has_value());
  EXPECT_EQ(static_cast<int>(again->buffers[0].device.type), 7);
  Report report = Check(*again);
  EXPECT_EQ(report.count(ViolationCode::kDeviceInfo), 1u);
  EXPECT_EQ(report.count(ViolationCode::kBufferMap), 1u);
}

TEST(JsonPlanTest, WellFormedButBrokenValuesReachTheOracle) {
  Result<Plan> plan = PlanFromJson(R"({"buffers": [{"mem_id": 1, "size": 8}],
    "allocations": [{"id": "a", "mem_id": 1, "offset": -8, "size": 8,
                     "first": 3, "last": 1, "device": "cpu"}]})");
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  Report report = Check(*plan);
  EXPECT_EQ(report.count(ViolationCode::kBounds), 1u);
  EXPECT_EQ(report.count(ViolationCode::kLifetime), 1u);
}

TEST(JsonPlanTest, MalformedPlansNameTheField) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {
           Case{R"({"buffers": [], "allocations": [], "extra": 1})",
                "json 1:45: plan has unknown member \"extra\""},
           Case{R"({"buffers": []})", "plan lacks \"allocations\""},
           Case{R"({"buffers": [{"mem_id": 1}], "allocations": []})",
                "buffers[0] lacks \"size\""},
           Case{R"({"buffers": [], "allocations": [{"id": "a", "mem_id": 1,
                "offset": 0, "size": 1.5, "first": 0, "last": 0}]})",
                "allocations[0].size must be an integer"},
           Case{R"({"buffers": [], "allocations": [{"id": "a", "mem_id": 1,
                "offset": 0, "size": 1, "first": 0, "last": 0,
                "device": "tpu"}]})",
                "allocations[0].device = \"tpu\""},
           Case{R"({"buffers": [], "allocations": [{"id": "a", "kind": "weird",
                "mem_id": 1, "offset": 0, "size": 1, "first": 0, "last": 0}]})",
                "allocations[0].kind = \"weird\" is unknown"},
           Case{R"({"format": "other", "buffers": [], "allocations": []})",
                "format must be \"memplan.plan.v1\""},
           Case{R"({"buffers": {}, "allocations": []})",
                "buffers must be an array"},
           Case{R"({"buffers": [], "allocations": [
  {"id": "a", "mem_id": 1, "offset": 0, "size": 1, "first": 0, "last": 0},
  {"id": "b", "mem_id": 1, "offset": 1, "size": 1, "first": 0, "last": 0},
  {"mem_id": 1, "id": "a", "offset": 2, "size": 1, "first": 0, "last": 0}]})",
                "json 4:23: allocations[2].id = \"a\" duplicates "
                "allocations[0].id"},
       }) {
    Result<Plan> plan = PlanFromJson(c.text);
    EXPECT_THAT(plan,
                IsError(ErrorCode::kInvalidArgument, HasSubstr(c.message)))
        << c.text;
  }
}

}  // namespace
}  // namespace properties
}  // namespace memplan
