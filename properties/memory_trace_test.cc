#include "properties/memory_trace.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "properties/check.h"

namespace memplan {
namespace properties {
namespace {

using ::testing::HasSubstr;

// What generate_memory_trace(..., enable_memory_offsets=True) writes for
// a 3-step program: x [0,1] at 0, y [1,2] at 64 (both 64 bytes), and y's
// getitem twin "y_1" with y's spec; pid is the mem_id, tid the step.
std::string Event(const std::string& name, int offset, int bytes, int tid) {
  return "{\"name\": \"" + name +
         "\", \"cat\": \"memory_allocation\", \"ph\": \"X\", \"ts\": " +
         std::to_string(offset) + ", \"dur\": " + std::to_string(bytes) +
         ", \"pid\": 1, \"tid\": " + std::to_string(tid) +
         ", \"args\": {\"op_name\": \"aten.add.out\", \"Memory ID\": 1, "
         "\"fqn\": \"\", \"source\": \"None\", \"bytes\": " +
         std::to_string(bytes) + "}}";
}

std::string Trace(const std::string& events) {
  return "{\"traceEvents\": [" + events + "]}";
}

TEST(MemoryTraceTest, RebuildsLifetimesOffsetsAndBuffers) {
  std::string text =
      Trace(Event("x", 0, 64, 0) + "," + Event("x", 0, 64, 1) + "," +
            Event("y", 64, 64, 1) + "," + Event("y_1", 64, 64, 1) + "," +
            Event("y", 64, 64, 2) + "," + Event("y_1", 64, 64, 2));
  ASSERT_TRUE(IsMemoryTrace(text));
  Result<Plan> plan = PlanFromMemoryTrace(text);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  ASSERT_EQ(plan->allocations.size(), 3u);
  const Allocation& x = plan->allocations[0];
  EXPECT_EQ(x.id, "x");
  EXPECT_EQ(x.lifetime.first, 0);
  EXPECT_EQ(x.lifetime.last, 1);
  const Allocation& twin = plan->allocations[2];
  EXPECT_EQ(twin.id, "y_1");
  EXPECT_EQ(twin.alias_of, std::optional<std::string>("y"));
  ASSERT_EQ(plan->buffers.size(), 1u);
  EXPECT_EQ(plan->buffers[0].size, 128);  // As far as y reaches.
  EXPECT_EQ(plan->end_time, 2);
  EXPECT_TRUE(Check(*plan).ok()) << FormatText(Check(*plan));
}

TEST(MemoryTraceTest, AGapStartsAnotherAllocationAndOverlapsAreFound) {
  // z is live at steps 0 and 2, not 1; w sits on z's bytes at step 2.
  std::string text = Trace(Event("z", 0, 32, 0) + "," + Event("z", 0, 32, 2) +
                           "," + Event("w", 16, 32, 2));
  Result<Plan> plan = PlanFromMemoryTrace(text);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  ASSERT_EQ(plan->allocations.size(), 3u);
  EXPECT_EQ(plan->allocations[1].id, "z#2");
  Report report = Check(*plan);
  ASSERT_EQ(report.count(ViolationCode::kOverlap), 1u) << FormatText(report);
  EXPECT_EQ(report.violations[0].allocation_ids,
            (std::vector<std::string>{"z#2", "w"}));
}

TEST(MemoryTraceTest, RefusesWhatIsNotATrace) {
  EXPECT_FALSE(IsMemoryTrace("{\"format\": \"memplan.plan.v1\"}"));
  Result<Plan> empty = PlanFromMemoryTrace(Trace(""));
  ASSERT_FALSE(empty.ok());
  EXPECT_THAT(empty.error().message(), HasSubstr("no memory_allocation"));
  Result<Plan> mistyped = PlanFromMemoryTrace(
      Trace("{\"name\": \"x\", \"cat\": \"memory_allocation\", \"ph\": \"X\", "
            "\"ts\": 0.5, \"dur\": 4, \"pid\": 1, \"tid\": 0}"));
  ASSERT_FALSE(mistyped.ok());
  EXPECT_THAT(mistyped.error().message(), HasSubstr("memory trace json 1:"));
  EXPECT_THAT(mistyped.error().message(), HasSubstr("traceEvents[0].ts"));
}

}  // namespace
}  // namespace properties
}  // namespace memplan
