// Graphs the planner fuzzer found where the planner and the oracle once
// disagreed (corpus/planner_fuzzer/regressions/); each now plans, emits and
// verifies cleanly through every check the property suite runs.
#include <gtest/gtest.h>

#include <string>

#include "planner/algorithm.h"
#include "planner/graph_format.h"
#include "planner/memory_planner.h"
#include "properties/plan_checks.h"

namespace memplan {
namespace properties {
namespace {

void ExpectPlansCleanly(const std::string& text, uint64_t alignment) {
  Result<planner::Graph> graph = planner::ParseGraph(text);
  ASSERT_TRUE(graph.ok()) << graph.error().ToString();
  for (const std::string& algorithm : planner::AlgorithmNames()) {
    planner::PlanOptions options;
    options.algorithms = {algorithm};
    options.alignment = alignment;
    Result<planner::PlanResult> result = planner::PlanGraph(*graph, options);
    ASSERT_TRUE(result.ok()) << algorithm << ": " << result.error().ToString();
    PlannedGraphVerdict verdict = CheckPlannedGraph(*graph, *result, options);
    EXPECT_TRUE(verdict.ok()) << algorithm << ":\n" << verdict.Describe();
  }
}

// t2 is an input no node reads: the planner lets it die at 0, so its bytes
// are reused at position 1. The program adapter once kept tensors that no
// instruction names live for the whole program and reported an overlap.
TEST(FuzzFindingsTest, UnreadInputDiesAtTheStartInTheFileToo) {
  ExpectPlansCleanly(R"(graph unread_input_overlap
tensor t0 int32 [6,4] input device=cuda:0
tensor t1 int64 [8] input device=cuda:0 mem_id=3
tensor t2 int64 [2,1,9] input device=cuda:0
tensor t3 int64 [5] mutable device=cuda:0
tensor t4 uint8 [7,8,10] device=cuda:0
tensor t5 double [5] device=cuda:0
tensor t6 half [6,12,9] output device=cuda:0
tensor t7 bool [] device=cuda:1
tensor t8 float [] in_place_of=t0
node n0 aten::op0 in=t3 out=t4,t5
node n1 aten::op1 in=t3,t4,t3 out=t6
node n2 aten::op2 in=t0,t3,t3 out=t7,t8
)",
                     16);
}

// A double view of an int16 root: the root was aligned for its own 2-byte
// element only, so the view could land at offset 18.
TEST(FuzzFindingsTest, WideViewAlignsItsRoot) {
  const std::string text = R"(graph wide_view
tensor a int8 [3] input
tensor b int8 [3]
tensor r int16 [8]
tensor v double [2] view_of=r
tensor o float [4] output
node n0 aten::op0 in=a out=b
node n1 aten::op1 in=b out=r
node n2 aten::view in=r out=v
node n3 aten::op3 in=v,a out=o
)";
  ExpectPlansCleanly(text, 1);
  Result<planner::Graph> graph = planner::ParseGraph(text);
  ASSERT_TRUE(graph.ok());
  planner::PlanOptions options;
  options.algorithms = {"naive"};
  options.alignment = 1;
  Result<planner::PlanResult> result = planner::PlanGraph(*graph, options);
  ASSERT_TRUE(result.ok());
  for (const planner::TensorAllocation& t : result->tensors) {
    if (t.name == "r" || t.name == "v") {
      EXPECT_EQ(t.offset % 8, 0u) << t.name << " at " << t.offset;
      EXPECT_EQ(t.alignment, 8u) << t.name;
    }
  }
}

}  // namespace
}  // namespace properties
}  // namespace memplan
