// Control-flow scratch: a cond/while node's submodule arena is a planned
// item live at that node only, so it never overlaps a tensor still live
// after the node (ExecuTorch issue 21490).
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/memory_planner.h"
#include "planner/plan_test_util.h"

namespace memplan {
namespace planner {
namespace {

using testing::Find;
using testing::MustParse;
using testing::PlanViolations;

// Two consecutive conditionals; y1, moved out of the first branch, is
// still live while the second conditional runs in its own arena.
constexpr char kTwoConds[] = R"(graph two_conds
tensor p  bool [1] input
tensor x  float [256] input
tensor s1 uint8 [4096] scratch
tensor s2 uint8 [4096] scratch
tensor y1 float [256]
tensor y2 float [256]
tensor z  float [256] output
node cond1 torch.cond in=p,x out=y1 scratch=s1
node cond2 torch.cond in=p,x out=y2 scratch=s2
node add aten::add in=y1,y2 out=z
)";

bool BytesOverlap(const TensorAllocation& a, const TensorAllocation& b) {
  return a.mem_id == b.mem_id && a.offset < b.offset + b.size &&
         b.offset < a.offset + a.size;
}

TEST(ControlFlowTest, Issue21490SecondArenaNeverOverwritesFirstOutput) {
  Graph graph = MustParse(kTwoConds);
  for (const std::string& algo : AlgorithmNames()) {
    PlanOptions options;
    options.algorithms = {algo};
    Result<PlanResult> plan = PlanGraph(graph, options);
    ASSERT_TRUE(plan.ok()) << algo << ": " << plan.error().ToString();
    const TensorAllocation& y1 = Find(*plan, "y1");
    const TensorAllocation& s2 = Find(*plan, "s2");
    // y1 lives from cond1 to add, so across cond2.
    EXPECT_EQ(y1.lifetime.first, 0);
    EXPECT_EQ(y1.lifetime.last, 2);
    EXPECT_EQ(s2.lifetime.first, 1);
    EXPECT_EQ(s2.lifetime.last, 1);
    EXPECT_FALSE(BytesOverlap(y1, s2)) << algo;
    // Each arena is disjoint from its own node's outputs and inputs too.
    EXPECT_FALSE(BytesOverlap(Find(*plan, "s1"), y1)) << algo;
    EXPECT_FALSE(BytesOverlap(Find(*plan, "s2"), Find(*plan, "y2"))) << algo;
    EXPECT_FALSE(BytesOverlap(Find(*plan, "s2"), Find(*plan, "x"))) << algo;
    EXPECT_THAT(PlanViolations(*plan), ::testing::IsEmpty()) << algo;
  }
}

TEST(ControlFlowTest, ArenasOfConsecutiveNodesMayShareBytes) {
  // The two arenas are never live together, so a reusing planner shares
  // them: the buffer is smaller than with two disjoint arenas.
  PlanOptions options;
  options.algorithms = {"greedy"};
  Result<PlanResult> plan = PlanGraph(MustParse(kTwoConds), options);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(BytesOverlap(Find(*plan, "s1"), Find(*plan, "s2")));
  EXPECT_LT(plan->buffers[0].size, 2u * 4096 + 4 * 1024 + 16);
}

TEST(ControlFlowTest, ScratchOnADeviceIsPlannedThere) {
  Graph graph = MustParse(
      "tensor x float [64] input device=cuda:0\n"
      "tensor s uint8 [1024] scratch device=cuda:0\n"
      "tensor y float [64] output device=cuda:0\n"
      "node loop torch.while_loop in=x out=y scratch=s\n");
  Result<PlanResult> plan = PlanGraph(graph, PlanOptions{});
  ASSERT_TRUE(plan.ok());
  const TensorAllocation& s = Find(*plan, "s");
  EXPECT_EQ(s.kind, SpecKind::kScratch);
  EXPECT_EQ(plan->buffers[s.mem_id - 1].device, Device::Cuda(0));
  EXPECT_FALSE(BytesOverlap(s, Find(*plan, "y")));
}

}  // namespace
}  // namespace planner
}  // namespace memplan
