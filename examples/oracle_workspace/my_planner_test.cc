// memplan's oracle from another workspace: a plan with a planted overlap is
// caught with its ids and ranges; a JSON plan reads and checks.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "properties/oracle.h"

namespace oracle = memplan::oracle;

TEST(MyPlannerTest, TheOracleCatchesAnOverlapWithItsFacts) {
  oracle::Problem problem;
  problem.buffers = {{"a", 0, 0, 3, 48, 16}, {"b", 0, 1, 4, 32, 16}};
  oracle::Solution broken;
  broken.offsets = {0, 32};  // b's [32,64) on a's [0,48) at times 1..2.
  broken.height = 64;
  memplan::Result<oracle::Plan> plan = oracle::PlanOfSolution(problem, broken);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  oracle::Report report = oracle::Check(*plan);
  ASSERT_EQ(report.count(oracle::ViolationCode::kOverlap), 1u);
  const oracle::Violation& v = report.violations[0];
  EXPECT_EQ(v.allocation_ids, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(v.bytes->begin, 32);
  EXPECT_EQ(v.bytes->end, 48);
  EXPECT_EQ(v.lifetime->first, 1);
  EXPECT_EQ(v.lifetime->last, 2);
}

TEST(MyPlannerTest, SolvedPlansPassAndJsonReads) {
  oracle::Problem problem;
  problem.buffers = {{"a", 0, 0, 3, 48, 16}, {"b", 0, 1, 4, 32, 16}};
  memplan::Result<oracle::Solution> solution = oracle::Solve(problem, "greedy");
  ASSERT_TRUE(solution.ok()) << solution.error().ToString();
  memplan::Result<oracle::Plan> plan =
      oracle::PlanOfSolution(problem, *solution);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(oracle::Check(*plan).ok());

  memplan::Result<oracle::Verdict> verdict =
      oracle::Verify(oracle::PlanFormat::kJson,
                     R"({"buffers": [{"mem_id": 1, "size": 16}],
          "allocations": [{"id": "t", "mem_id": 1, "offset": 0, "size": 16,
                           "first": 0, "last": 0, "device": "cpu"}]})");
  ASSERT_TRUE(verdict.ok()) << verdict.error().ToString();
  EXPECT_TRUE(verdict->ok());
}
