// The device-planning cases of ExecuTorch's memory planning tests, and the
// ones it refuses (custom pools together with devices).
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/memory_planner.h"
#include "planner/plan_test_util.h"
#include "runtime/core/error_matchers.h"

namespace memplan {
namespace planner {
namespace {

using ::memplan::testing::IsError;
using testing::Find;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::MustParse;
using testing::PlanViolations;

std::string TwoTensorGraph(const std::string& dev_a, const std::string& dev_b) {
  return "tensor a float [8] input" + dev_a + "\ntensor b float [8] output" +
         dev_b + "\nnode n relu in=a out=b\n";
}

Result<PlanResult> Plan(const Graph& graph, bool device_planning = true) {
  PlanOptions options;
  options.device_planning = device_planning;
  return PlanGraph(graph, options);
}

TEST(DevicePlanningTest, CpuOnlyGraphHasOneCpuBuffer) {
  Result<PlanResult> plan = Plan(MustParse(TwoTensorGraph("", "")));
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->buffers.size(), 1u);
  EXPECT_EQ(plan->buffers[0].device, Device::Cpu());
  EXPECT_EQ(plan->buffers[0].size, 64u);
  EXPECT_EQ(Find(*plan, "a").mem_id, 1u);
  EXPECT_EQ(Find(*plan, "b").mem_id, 1u);
}

TEST(DevicePlanningTest, AllCudaGraphWastesNoCpuSlot) {
  Result<PlanResult> plan =
      Plan(MustParse(TwoTensorGraph(" device=cuda:0", " device=cuda:0")));
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->buffers.size(), 1u);
  EXPECT_EQ(plan->buffers[0].mem_id, 1u);
  EXPECT_EQ(plan->buffers[0].device, Device::Cuda(0));
  EXPECT_EQ(Find(*plan, "a").device, Device::Cuda(0));
}

TEST(DevicePlanningTest, MixedCpuAndCudaUseSeparateBuffers) {
  Result<PlanResult> plan =
      Plan(MustParse(TwoTensorGraph(" device=cuda:0", "")));
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->buffers.size(), 2u);
  EXPECT_EQ(plan->buffers[0].device, Device::Cpu());  // CPU gets mem_id 1.
  EXPECT_EQ(plan->buffers[1].device, Device::Cuda(0));
  EXPECT_EQ(Find(*plan, "b").mem_id, 1u);
  EXPECT_EQ(Find(*plan, "a").mem_id, 2u);
  // Offsets are relative to their own buffer: both start at 0.
  EXPECT_EQ(Find(*plan, "a").offset, 0u);
  EXPECT_EQ(Find(*plan, "b").offset, 0u);
  EXPECT_EQ(plan->buffers[0].size, 32u);
  EXPECT_EQ(plan->buffers[1].size, 32u);
  EXPECT_THAT(PlanViolations(*plan), IsEmpty());
}

TEST(DevicePlanningTest, Cuda0AndCuda1AreSeparate) {
  Result<PlanResult> plan =
      Plan(MustParse(TwoTensorGraph(" device=cuda:1", " device=cuda:0")));
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->buffers.size(), 2u);
  EXPECT_EQ(plan->buffers[0].device, Device::Cuda(0));
  EXPECT_EQ(plan->buffers[1].device, Device::Cuda(1));
  EXPECT_EQ(Find(*plan, "b").mem_id, 1u);
  EXPECT_EQ(Find(*plan, "a").mem_id, 2u);
}

TEST(DevicePlanningTest, DeviceIndexThreeIsPropagated) {
  Result<PlanResult> plan =
      Plan(MustParse(TwoTensorGraph(" device=cuda:3", " device=cuda:3")));
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->buffers.size(), 1u);
  EXPECT_EQ(plan->buffers[0].device, Device::Cuda(3));
  EXPECT_EQ(Find(*plan, "a").device.index, 3);
  EXPECT_EQ(Find(*plan, "b").device.index, 3);
}

TEST(DevicePlanningTest, BuffersAreNumberedCpuFirstThenByDevice) {
  Graph graph = MustParse(
      "tensor a float [4] input device=cuda:2\n"
      "tensor b float [4] device=cuda:0\ntensor c float [4]\n"
      "tensor d float [4] output device=cuda:1\n"
      "node n0 copy in=a out=b\nnode n1 copy in=b out=c\n"
      "node n2 copy in=c out=d\n");
  Result<PlanResult> plan = Plan(graph);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->buffers.size(), 4u);
  EXPECT_EQ(plan->buffers[0].device, Device::Cpu());
  EXPECT_EQ(plan->buffers[1].device, Device::Cuda(0));
  EXPECT_EQ(plan->buffers[2].device, Device::Cuda(1));
  EXPECT_EQ(plan->buffers[3].device, Device::Cuda(2));
  EXPECT_EQ(Find(*plan, "c").mem_id, 1u);
  EXPECT_EQ(Find(*plan, "a").mem_id, 4u);
  EXPECT_THAT(PlanViolations(*plan), IsEmpty());
}

TEST(DevicePlanningTest, LegacyModeFoldsEverythingIntoOneCpuBuffer) {
  Graph graph = MustParse(TwoTensorGraph(" device=cuda:0", " device=cuda:1"));
  Result<PlanResult> plan = Plan(graph, /*device_planning=*/false);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->buffers.size(), 1u);
  EXPECT_EQ(plan->buffers[0].device, Device::Cpu());
  EXPECT_EQ(plan->buffers[0].size, 64u);  // Both live at n: 32 + 32.
  EXPECT_EQ(Find(*plan, "a").device, Device::Cpu());
  EXPECT_EQ(Find(*plan, "b").device, Device::Cpu());
  EXPECT_THAT(PlanViolations(*plan), IsEmpty());
}

TEST(DevicePlanningTest, CustomPoolsCombineWithDevices) {
  // ExecuTorch refuses custom mem_ids with device planning; memplan keeps
  // the pools and numbers device buffers after the highest pool.
  Graph graph = MustParse(
      "tensor a float [4] input device=cuda:0 mem_id=1\n"
      "tensor b float [4] mem_id=3\n"
      "tensor c float [4] device=cuda:0\ntensor d float [4]\n"
      "tensor e float [4] output device=cuda:1\n"
      "node n0 copy in=a out=b\nnode n1 copy in=b out=c\n"
      "node n2 copy in=c out=d\nnode n3 copy in=d out=e\n");
  Result<PlanResult> plan = Plan(graph);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  EXPECT_EQ(Find(*plan, "a").mem_id, 1u);
  EXPECT_EQ(Find(*plan, "b").mem_id, 3u);
  EXPECT_EQ(Find(*plan, "d").mem_id, 4u);  // CPU automatic.
  EXPECT_EQ(Find(*plan, "c").mem_id, 5u);  // cuda:0 automatic.
  EXPECT_EQ(Find(*plan, "e").mem_id, 6u);  // cuda:1 automatic.
  ASSERT_EQ(plan->buffers.size(), 6u);
  EXPECT_EQ(plan->buffers[0].device, Device::Cuda(0));
  EXPECT_EQ(plan->buffers[1].size, 0u);
  EXPECT_EQ(plan->buffers[2].device, Device::Cpu());
  EXPECT_EQ(plan->buffers[4].device, Device::Cuda(0));
  EXPECT_EQ(plan->buffers[5].device, Device::Cuda(1));
  EXPECT_THAT(PlanViolations(*plan), IsEmpty());
}

TEST(DevicePlanningTest, CustomPoolSpanningTwoDevicesIsRefused) {
  Graph graph = MustParse(
      "tensor a float [4] input device=cuda:0 mem_id=2\n"
      "tensor b float [4] output mem_id=2\nnode n copy in=a out=b\n");
  Result<PlanResult> plan = Plan(graph);
  EXPECT_THAT(plan,
              IsError(ErrorCode::kInvalidArgument, HasSubstr("mem_id=2")));
  EXPECT_THAT(plan.error().message(), HasSubstr("cuda:0"));
  // Legacy mode puts both on CPU, so the same pool is fine there.
  EXPECT_TRUE(Plan(graph, /*device_planning=*/false).ok());
}

TEST(DevicePlanningTest, CapacityErrorNamesDeviceNeededAndAvailable) {
  Graph graph = MustParse(TwoTensorGraph(" device=cuda:0", " device=cuda:1"));
  PlanOptions options;
  options.capacity[Device::Cuda(0)] = 32;  // Exactly enough.
  options.capacity[Device::Cuda(1)] = 31;  // One byte short.
  Result<PlanResult> plan = PlanGraph(graph, options);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().code(), ErrorCode::kResourceExhausted);
  EXPECT_THAT(plan.error().message(),
              HasSubstr("device cuda:1 needs 32 bytes, capacity is 31 bytes"));
  options.capacity[Device::Cuda(1)] = 32;
  EXPECT_TRUE(PlanGraph(graph, options).ok());
}

TEST(DevicePlanningTest, CapacitySumsEveryBufferOfADevice) {
  Graph graph = MustParse(
      "tensor a float [4] input device=cuda:0 mem_id=1\n"
      "tensor b float [4] output device=cuda:0\nnode n copy in=a out=b\n");
  PlanOptions options;
  options.capacity[Device::Cuda(0)] = 31;  // 16 + 16 = 32 needed.
  Result<PlanResult> plan = PlanGraph(graph, options);
  EXPECT_THAT(plan, IsError(ErrorCode::kResourceExhausted,
                            HasSubstr("needs 32 bytes")));
}

}  // namespace
}  // namespace planner
}  // namespace memplan
