// ExecuTorch's _ViewSpec lost device_index and broke every export. Here a
// view cannot hold a device of its own: it reads its base's.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/graph_format.h"
#include "planner/memory_planner.h"
#include "planner/plan_test_util.h"
#include "runtime/core/error_matchers.h"

namespace memplan {
namespace planner {
namespace {

using ::memplan::testing::IsError;
using testing::Find;
using ::testing::HasSubstr;
using testing::MustParse;

constexpr char kViewOnCuda1[] = R"(graph views
tensor x  float [4,8] input device=cuda:1
tensor h  float [4,8] device=cuda:1
tensor hv float [32] view_of=h
tensor hvv float [2,16] view_of=hv
tensor hi float [2,16] in_place_of=hvv
tensor c  float [4,8]
tensor y  float [4,8] output
node n0 relu in=x out=h
node n1 view in=h out=hv
node n2 view in=hv out=hvv
node n3 relu_ in=hvv out=hi
node n4 to_cpu in=hi out=c
node n5 relu in=c out=y
)";

TEST(ViewDeviceTest, ViewsReportTheirBasesDeviceThroughChains) {
  Graph graph = MustParse(kViewOnCuda1);
  for (const char* name : {"hv", "hvv", "hi"}) {
    ValueId id = *graph.Find(name);
    EXPECT_EQ(graph.DeviceOf(id), Device::Cuda(1)) << name;
    EXPECT_FALSE(graph.tensor(id).own_device().has_value()) << name;
    EXPECT_EQ(graph.RootOf(id), *graph.Find("h")) << name;
  }
}

TEST(ViewDeviceTest, ViewsArePlannedIntoTheirBasesDeviceBuffer) {
  Result<PlanResult> plan = PlanGraph(MustParse(kViewOnCuda1), PlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  const TensorAllocation& h = Find(*plan, "h");
  ASSERT_TRUE(h.planned);
  EXPECT_EQ(plan->buffers[h.mem_id - 1].device, Device::Cuda(1));
  for (const char* name : {"hv", "hvv", "hi"}) {
    const TensorAllocation& view = Find(*plan, name);
    EXPECT_EQ(view.device, Device::Cuda(1)) << name;
    EXPECT_EQ(view.mem_id, h.mem_id) << name;
    EXPECT_EQ(plan->buffers[view.mem_id - 1].device, Device::Cuda(1)) << name;
  }
  // The CPU tensors did not land in the cuda:1 buffer.
  EXPECT_EQ(plan->buffers[Find(*plan, "c").mem_id - 1].device, Device::Cpu());
  EXPECT_THAT(testing::PlanViolations(*plan), ::testing::IsEmpty());
}

TEST(ViewDeviceTest, FormatRefusesADeviceOnAView) {
  // Even a device equal to the base's is refused: one source of truth.
  for (const char* device : {"cuda:1", "cpu", "cuda:0"}) {
    Result<Graph> graph =
        ParseGraph(std::string("tensor h float [4] device=cuda:1\n"
                               "tensor v float [4] view_of=h device=") +
                   device + "\n");
    EXPECT_THAT(graph, IsError(ErrorCode::kInvalidArgument,
                               HasSubstr("line 2: field 'device'")))
        << device;
  }
  Result<Graph> in_place = ParseGraph(
      "tensor h float [4] device=cuda:1\n"
      "tensor v float [4] in_place_of=h device=cuda:1\n");
  EXPECT_THAT(in_place, IsError(ErrorCode::kInvalidArgument,
                                HasSubstr("line 2: field 'device': a view / "
                                          "in-place tensor takes its base's "
                                          "device")));
}

TEST(ViewDeviceTest, TheIrCannotGiveAnAliasADevice) {
  Graph graph("g");
  Result<ValueId> base = graph.AddTensor(TensorSpec::Owning(
      "b", SpecKind::kPlain, ScalarType::FLOAT, {4}, Device::Cuda(1)));
  ASSERT_TRUE(base.ok());
  Result<ValueId> view = graph.AddTensor(
      TensorSpec::Alias("v", SpecKind::kView, ScalarType::FLOAT, {4}, *base));
  ASSERT_TRUE(view.ok());
  EXPECT_EQ(graph.DeviceOf(*view), Device::Cuda(1));
  // An owning kind built through Alias(), or an alias through Owning(), is
  // refused, so kind and storage always agree.
  EXPECT_THAT(graph.AddTensor(TensorSpec::Alias("p", SpecKind::kPlain,
                                                ScalarType::FLOAT, {4}, *base)),
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("tensor 'p': kind plain cannot have a base")));
  EXPECT_THAT(
      graph.AddTensor(TensorSpec::Owning(
          "q", SpecKind::kView, ScalarType::FLOAT, {4}, Device::Cuda(0))),
      IsError(ErrorCode::kInvalidArgument,
              HasSubstr("tensor 'q': kind view needs a base")));
  // A base that does not exist yet is refused: no alias cycles in the IR.
  EXPECT_THAT(graph.AddTensor(TensorSpec::Alias("r", SpecKind::kView,
                                                ScalarType::FLOAT, {4}, 7)),
              IsError(ErrorCode::kNotFound,
                      HasSubstr("tensor 'r': base id 7 is not a tensor added "
                                "before it")));
}

TEST(ViewDeviceTest, LegacyModePlansViewsOnCpuWithTheirBase) {
  PlanOptions options;
  options.device_planning = false;
  Result<PlanResult> plan = PlanGraph(MustParse(kViewOnCuda1), options);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(Find(*plan, "hv").device, Device::Cpu());
  EXPECT_EQ(Find(*plan, "hv").mem_id, Find(*plan, "h").mem_id);
}

}  // namespace
}  // namespace planner
}  // namespace memplan
