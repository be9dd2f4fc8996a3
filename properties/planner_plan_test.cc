#include "properties/planner_plan.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/graph_format.h"
#include "planner/memory_planner.h"
#include "properties/check.h"
#include "runtime/core/error_matchers.h"

namespace memplan {
namespace properties {
namespace {

using ::memplan::testing::IsError;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::Optional;

constexpr char kGraph[] = R"(
graph adapter
tensor x  float [4,4] input
tensor w  float [4,4] const
tensor h  float [4,4] device=cuda:1
tensor hv float [16] view_of=h
tensor y  float [4,4] output
node mm   aten::mm   in=x,w out=h
node flat aten::view in=h out=hv
node cpy  aten::copy in=hv out=y
)";

planner::PlanResult PlanOf(const char* text) {
  Result<planner::Graph> graph = planner::ParseGraph(text);
  EXPECT_TRUE(graph.ok()) << graph.error().ToString();
  planner::PlanOptions options;
  options.alignment = 32;
  Result<planner::PlanResult> plan = planner::PlanGraph(*graph, options);
  EXPECT_TRUE(plan.ok()) << plan.error().ToString();
  return *plan;
}

const Allocation* FindAllocation(const Plan& plan, const std::string& id) {
  for (const Allocation& a : plan.allocations) {
    if (a.id == id) return &a;
  }
  return nullptr;
}

TEST(PlannerPlanTest, CarriesBuffersAndPlannedTensorsOnly) {
  planner::PlanResult result = PlanOf(kGraph);
  Result<Plan> plan = PlanFromPlannerResult(result, {false, 2});
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  // CPU buffer first, then cuda:1; the constant is not planned.
  EXPECT_THAT(plan->buffers, ElementsAre(Field(&Buffer::mem_id, 1),
                                         Field(&Buffer::mem_id, 2)));
  EXPECT_EQ(plan->buffers[0].device, Device::Cpu());
  EXPECT_EQ(plan->buffers[1].device, Device::Cuda(1));
  EXPECT_EQ(plan->allocations.size(), 4u);
  EXPECT_EQ(FindAllocation(*plan, "w"), nullptr);
  EXPECT_THAT(plan->end_time, Optional(2));

  const Allocation* hv = FindAllocation(*plan, "hv");
  ASSERT_NE(hv, nullptr);
  EXPECT_EQ(hv->kind, SpecKind::kView);
  EXPECT_THAT(hv->alias_of, Optional(std::string("h")));
  EXPECT_THAT(hv->device, Optional(Device::Cuda(1)));
  EXPECT_EQ(hv->mem_id, 2);
  EXPECT_EQ(hv->size, 64);
  EXPECT_EQ(hv->alignment, 32);
  const Allocation* h = FindAllocation(*plan, "h");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(hv->offset, h->offset);

  Report report = Check(*plan);
  EXPECT_TRUE(report.ok()) << FormatText(report);
}

TEST(PlannerPlanTest, ValueIdsMatchTheProgramAdapter) {
  planner::PlanResult result = PlanOf(kGraph);
  Result<Plan> plan = PlanFromPlannerResult(result, {true, std::nullopt});
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  const Allocation* hv = FindAllocation(*plan, "v3");
  ASSERT_NE(hv, nullptr);
  EXPECT_THAT(hv->alias_of, Optional(std::string("v2")));
}

TEST(PlannerPlanTest, OracleSeesAnOverlapPlantedInTheResult) {
  planner::PlanResult result = PlanOf(kGraph);
  // x lives [0,0] and y [2,2]; stretch y back to 0 on x's bytes.
  const planner::TensorAllocation& x = result.tensors[0];
  planner::TensorAllocation& y = result.tensors[4];
  ASSERT_EQ(y.name, "y");
  ASSERT_EQ(x.mem_id, y.mem_id);
  y.lifetime.first = 0;
  y.offset = x.offset;
  Result<Plan> plan = PlanFromPlannerResult(result);
  ASSERT_TRUE(plan.ok());
  Report report = Check(*plan);
  EXPECT_EQ(report.count(ViolationCode::kOverlap), 1u) << FormatText(report);
  EXPECT_EQ(report.total_violations(), 1u) << FormatText(report);
}

TEST(PlannerPlanTest, RefusesSizesAboveInt64Max) {
  planner::PlanResult result = PlanOf(kGraph);
  result.buffers[0].size = uint64_t{1} << 63;
  Result<Plan> plan = PlanFromPlannerResult(result);
  EXPECT_THAT(
      plan,
      IsError(ErrorCode::kInvalidArgument,
              ::testing::HasSubstr("buffers[0].size = 9223372036854775808")));
}

TEST(PlannerPlanTest, RefusesAnAliasOfAnUnknownRoot) {
  planner::PlanResult result = PlanOf(kGraph);
  result.tensors[3].alias_of = "nope";
  Result<Plan> plan = PlanFromPlannerResult(result);
  EXPECT_THAT(
      plan, IsError(ErrorCode::kInvalidArgument,
                    ::testing::HasSubstr("tensors[3] 'hv'.alias_of = 'nope'")));
}

}  // namespace
}  // namespace properties
}  // namespace memplan
