#include "properties/memory_trace.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "properties/check.h"
#include "runtime/core/error_matchers.h"

namespace memplan {
namespace properties {
namespace {

using ::memplan::testing::IsError;
using ::testing::AllOf;
using ::testing::HasSubstr;

// One event as generate_memory_trace(..., enable_memory_offsets=True)
// writes it: pid is the mem_id, tid the step.
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
  // A 3-step program: x [0,1] at 0, y [1,2] at 64, both 64 bytes.
  std::string text =
      Trace(Event("x", 0, 64, 0) + "," + Event("x", 0, 64, 1) + "," +
            Event("y", 64, 64, 1) + "," + Event("y", 64, 64, 2));
  ASSERT_TRUE(IsMemoryTrace(text));
  Result<Plan> plan = PlanFromMemoryTrace(text);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  ASSERT_EQ(plan->allocations.size(), 2u);
  const Allocation& x = plan->allocations[0];
  EXPECT_EQ(x.id, "x");
  EXPECT_EQ(x.offset, 0);
  EXPECT_EQ(x.size, 64);
  EXPECT_EQ(x.lifetime.first, 0);
  EXPECT_EQ(x.lifetime.last, 1);
  const Allocation& y = plan->allocations[1];
  EXPECT_EQ(y.id, "y");
  EXPECT_EQ(y.offset, 64);
  EXPECT_EQ(y.lifetime.first, 1);
  EXPECT_EQ(y.lifetime.last, 2);
  ASSERT_EQ(plan->buffers.size(), 1u);
  EXPECT_EQ(plan->buffers[0].size, 128);  // As far as y reaches.
  EXPECT_EQ(plan->end_time, 2);
  EXPECT_TRUE(Check(*plan).ok()) << FormatText(Check(*plan));
}

TEST(MemoryTraceTest, TensorsPlacedAlikeAreNeverReadAsAliases) {
  // a and b: same pid, offset, size and steps. The trace cannot say
  // whether b is a's getitem twin or a second tensor planned on a's
  // bytes, so both are plain allocations and the clash is an overlap.
  std::string same_steps =
      Trace(Event("a", 0, 32, 0) + "," + Event("b", 0, 32, 0) + "," +
            Event("a", 0, 32, 1) + "," + Event("b", 0, 32, 1));
  Result<Plan> plan = PlanFromMemoryTrace(same_steps);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  ASSERT_EQ(plan->allocations.size(), 2u);
  for (const Allocation& a : plan->allocations) {
    EXPECT_EQ(a.kind, SpecKind::kPlain) << a.id;
    EXPECT_EQ(a.alias_of, std::nullopt) << a.id;
  }
  Report report = Check(*plan);
  ASSERT_EQ(report.count(ViolationCode::kOverlap), 1u) << FormatText(report);
  EXPECT_EQ(report.violations[0].allocation_ids,
            (std::vector<std::string>{"a", "b"}));

  // c at step 0, d on c's bytes at step 1: reuse after c died, valid.
  std::string disjoint =
      Trace(Event("c", 0, 32, 0) + "," + Event("d", 0, 32, 1));
  plan = PlanFromMemoryTrace(disjoint);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  ASSERT_EQ(plan->allocations.size(), 2u);
  EXPECT_EQ(plan->allocations[1].id, "d");
  EXPECT_EQ(plan->allocations[1].alias_of, std::nullopt);
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
  EXPECT_THAT(PlanFromMemoryTrace(Trace("")),
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("no memory_allocation events")));
  EXPECT_THAT(
      PlanFromMemoryTrace(Trace(
          "{\"name\": \"x\", \"cat\": \"memory_allocation\", \"ph\": \"X\", "
          "\"ts\": 0.5, \"dur\": 4, \"pid\": 1, \"tid\": 0}")),
      IsError(ErrorCode::kInvalidArgument,
              AllOf(HasSubstr("memory trace json 1:"),
                    HasSubstr("traceEvents[0].ts"))));
}

}  // namespace
}  // namespace properties
}  // namespace memplan
