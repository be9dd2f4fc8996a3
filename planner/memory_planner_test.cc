#include "planner/memory_planner.h"

#include <chrono>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/plan_test_util.h"
#include "runtime/core/error_matchers.h"

namespace memplan {
namespace planner {
namespace {

using ::memplan::testing::IsError;
using testing::Find;
using ::testing::HasSubstr;
using testing::MustParse;
using testing::PlanViolations;

// a and b are live together; c reuses a's slot once a is dead.
constexpr char kDiamond[] = R"(graph diamond
tensor x float [10] input
tensor a float [10]
tensor b float [6]
tensor c float [10]
tensor y float [4] output
node n0 relu in=x out=a
node n1 relu in=a out=b
node n2 relu in=b out=c
node n3 add in=c out=y
)";

TEST(MemoryPlannerTest, PlansEveryLiveTensorWithoutOverlap) {
  Graph graph = MustParse(kDiamond);
  for (const std::string& algo : AlgorithmNames()) {
    PlanOptions options;
    options.algorithms = {algo};
    Result<PlanResult> plan = PlanGraph(graph, options);
    ASSERT_TRUE(plan.ok()) << algo << ": " << plan.error().ToString();
    EXPECT_THAT(PlanViolations(*plan), ::testing::IsEmpty()) << algo;
    ASSERT_EQ(plan->buffers.size(), 1u) << algo;
    EXPECT_EQ(plan->buffers[0].mem_id, 1u);
    EXPECT_EQ(plan->algorithm, algo);
    for (const TensorAllocation& t : plan->tensors) {
      EXPECT_TRUE(t.planned) << t.name;
      EXPECT_EQ(t.mem_id, 1u) << t.name;
    }
  }
}

TEST(MemoryPlannerTest, LowerBoundIsTheMostAlignedBytesLiveAtOnce) {
  PlanOptions options;
  Result<PlanResult> plan = PlanGraph(MustParse(kDiamond), options);
  ASSERT_TRUE(plan.ok());
  // Alignment 16 rounds 40 -> 48 and 24 -> 32; peak is x+a (n0) = 96.
  EXPECT_EQ(plan->buffers[0].aligned_lower_bound, 96u);
  EXPECT_GE(plan->buffers[0].size, plan->buffers[0].aligned_lower_bound);
}

TEST(MemoryPlannerTest, GlobalAndPerSpecAlignment) {
  Graph graph = MustParse(
      "tensor x float [3] input\ntensor a float [3] align=256\n"
      "tensor b float [3]\n"
      "node n0 relu in=x out=a\nnode n1 relu in=a,x out=b\nnode n2 relu "
      "in=b,a\n");
  PlanOptions options;
  options.alignment = 64;
  Result<PlanResult> plan = PlanGraph(graph, options);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  EXPECT_THAT(PlanViolations(*plan), ::testing::IsEmpty());
  EXPECT_EQ(Find(*plan, "a").alignment, 256u);
  EXPECT_EQ(Find(*plan, "a").offset % 256, 0u);
  EXPECT_EQ(Find(*plan, "x").alignment, 64u);
  EXPECT_EQ(Find(*plan, "b").offset % 64, 0u);
  options.alignment = 12;
  EXPECT_THAT(PlanGraph(graph, options),
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("alignment 12 is not a power of two")));
}

TEST(MemoryPlannerTest, PaddingIsAddedToEachUsedBuffer) {
  Graph graph = MustParse(kDiamond);
  PlanOptions options;
  Result<PlanResult> plain = PlanGraph(graph, options);
  options.buffer_padding = 100;
  Result<PlanResult> padded = PlanGraph(graph, options);
  ASSERT_TRUE(plain.ok() && padded.ok());
  EXPECT_EQ(padded->buffers[0].size, plain->buffers[0].size + 100);
  EXPECT_EQ(Find(*padded, "c").offset, Find(*plain, "c").offset);
}

TEST(MemoryPlannerTest, SuiteKeepsTheSmallestTotalAndReportsEach) {
  Graph graph = MustParse(kDiamond);
  PlanOptions options;
  options.algorithms = AlgorithmNames();
  const auto start = std::chrono::steady_clock::now();
  Result<PlanResult> suite = PlanGraph(graph, options);
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  ASSERT_TRUE(suite.ok()) << suite.error().ToString();
  ASSERT_EQ(suite->algorithms.size(), options.algorithms.size());
  uint64_t smallest = UINT64_MAX;
  double member_seconds = 0;
  for (size_t i = 0; i < suite->algorithms.size(); ++i) {
    const AlgorithmStats& stats = suite->algorithms[i];
    EXPECT_EQ(stats.name, options.algorithms[i]);
    EXPECT_TRUE(stats.error.empty()) << stats.error;
    // Measured on a steady clock, not left at its default 0.
    EXPECT_GT(stats.seconds, 0.0) << stats.name;
    member_seconds += stats.seconds;
    smallest = std::min(smallest, stats.total_bytes);
    // Each member's total is what that algorithm alone produces.
    PlanOptions alone;
    alone.algorithms = {stats.name};
    EXPECT_EQ(PlanGraph(graph, alone)->total_bytes(), stats.total_bytes);
  }
  EXPECT_EQ(suite->total_bytes(), smallest);
  // Seconds, measured inside the call: together no more than the call.
  EXPECT_LE(member_seconds, elapsed);
  EXPECT_THAT(PlanViolations(*suite), ::testing::IsEmpty());
  // naive never reuses: its total is the sum of aligned sizes.
  EXPECT_EQ(suite->algorithms[0].name, "naive");
  EXPECT_EQ(suite->algorithms[0].total_bytes, 48u + 48 + 32 + 48 + 16);
  EXPECT_LT(suite->total_bytes(), suite->algorithms[0].total_bytes);
}

TEST(MemoryPlannerTest, UnknownAlgorithmIsNamed) {
  PlanOptions options;
  options.algorithms = {"greedy", "magic"};
  Result<PlanResult> plan = PlanGraph(MustParse(kDiamond), options);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().code(), ErrorCode::kNotFound);
  EXPECT_THAT(plan.error().message(), HasSubstr("'magic'"));
}

TEST(MemoryPlannerTest, AliasesShareTheirRootsBytes) {
  Graph graph = MustParse(
      "tensor x float [16] input\ntensor a float [16]\n"
      "tensor av float [4,4] view_of=a\ntensor avv float [2,8] view_of=av\n"
      "tensor ai float [16] in_place_of=avv\ntensor y float [16] output\n"
      "node n0 relu in=x out=a\nnode n1 view in=a out=av\n"
      "node n2 view in=av out=avv\nnode n3 relu_ in=avv out=ai\n"
      "node n4 add in=ai,x out=y\n");
  Result<PlanResult> plan = PlanGraph(graph, PlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  const TensorAllocation& a = Find(*plan, "a");
  for (const char* alias : {"av", "avv", "ai"}) {
    const TensorAllocation& t = Find(*plan, alias);
    EXPECT_TRUE(t.planned) << alias;
    EXPECT_EQ(t.mem_id, a.mem_id) << alias;
    EXPECT_EQ(t.offset, a.offset) << alias;
    EXPECT_EQ(t.alias_of, "a") << alias;
  }
  EXPECT_FALSE(a.alias_of.has_value());
  EXPECT_EQ(a.lifetime.last, 4);  // Covers ai's use at n4.
  EXPECT_THAT(PlanViolations(*plan), ::testing::IsEmpty());
}

TEST(MemoryPlannerTest, UnplannedTensorsHaveNoBuffer) {
  Graph graph = MustParse(
      "tensor x float [4] input\ntensor w float [4] const\n"
      "tensor d float [4] dynamism=dynamic_unbound\ntensor y float [4] "
      "output\nnode n0 mul in=x,w out=d\nnode n1 relu in=d out=y\n");
  PlanOptions options;
  options.lifetimes.plan_inputs = false;
  Result<PlanResult> plan = PlanGraph(graph, options);
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(Find(*plan, "x").planned);
  EXPECT_FALSE(Find(*plan, "w").planned);
  EXPECT_FALSE(Find(*plan, "d").planned);
  EXPECT_TRUE(Find(*plan, "y").planned);
  EXPECT_EQ(Find(*plan, "w").mem_id, 0u);
}

TEST(MemoryPlannerTest, CustomPoolsKeepTheirIdsAndAutomaticBuffersFollow) {
  Graph graph = MustParse(
      "tensor x float [4] input mem_id=2\ntensor a float [4] mem_id=5\n"
      "tensor b float [4]\ntensor y float [4] output\n"
      "node n0 relu in=x out=a\nnode n1 relu in=a out=b\n"
      "node n2 relu in=b out=y\n");
  Result<PlanResult> plan = PlanGraph(graph, PlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  EXPECT_EQ(Find(*plan, "x").mem_id, 2u);
  EXPECT_EQ(Find(*plan, "a").mem_id, 5u);
  EXPECT_EQ(Find(*plan, "b").mem_id, 6u);
  EXPECT_EQ(Find(*plan, "y").mem_id, 6u);
  ASSERT_EQ(plan->buffers.size(), 6u);
  // Ids nobody used are empty CPU buffers, so ids stay positional.
  EXPECT_EQ(plan->buffers[0].size, 0u);
  EXPECT_EQ(plan->buffers[2].size, 0u);
  EXPECT_EQ(plan->buffers[1].size, 16u);
  EXPECT_THAT(PlanViolations(*plan), ::testing::IsEmpty());
}

TEST(MemoryPlannerTest, ParseCapacity) {
  Result<std::pair<Device, uint64_t>> c = ParseCapacity("cuda:1=1048576");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->first, Device::Cuda(1));
  EXPECT_EQ(c->second, 1048576u);
  EXPECT_THAT(
      ParseCapacity("cuda:1"),
      IsError(ErrorCode::kInvalidArgument, HasSubstr("is not DEVICE=BYTES")));
  EXPECT_THAT(
      ParseCapacity("tpu=5"),
      IsError(ErrorCode::kInvalidArgument, HasSubstr("unknown device 'tpu'")));
  EXPECT_THAT(ParseCapacity("cpu=99999999999999999999999"),
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("is not an integer that fits in 64 bits")));
  EXPECT_THAT(ParseCapacity("cpu=12k"),
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("bytes '12k' is not an integer")));
}

TEST(MemoryPlannerTest, PlansThatWouldWrapAroundAreErrors) {
  // Two live tensors aligned to 2^63 need 2^64 bytes: refuse, never wrap.
  // The graph is the caller's mistake, not memplan's: invalid_argument.
  Graph graph = MustParse(
      "tensor x float [4] input align=9223372036854775808\n"
      "tensor z float [4] input align=9223372036854775808\n"
      "node n add in=x,z\n");
  for (const std::string& algo : AlgorithmNames()) {
    PlanOptions options;
    options.algorithms = {algo};
    EXPECT_THAT(
        PlanGraph(graph, options),
        IsError(ErrorCode::kInvalidArgument, HasSubstr("exceeds 2^64 - 1")))
        << algo;
  }
}

}  // namespace
}  // namespace planner
}  // namespace memplan
