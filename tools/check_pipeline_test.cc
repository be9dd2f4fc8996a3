#include "tools/check_pipeline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "tools/check_table.h"
#include "tools/default_corpus.h"
#include "tools/html_report.h"

namespace memplan {
namespace cli {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::SizeIs;

// Two buffers; `stray` is a CPU tensor placed in the CUDA buffer.
constexpr char kCrossDevicePlan[] = R"({
  "end_time": 3,
  "buffers": [{"mem_id": 1, "size": 128, "device": "cpu"},
              {"mem_id": 2, "size": 256, "device": "cuda:0"}],
  "allocations": [
    {"id": "x", "mem_id": 1, "offset": 0, "size": 64, "first": 0, "last": 1,
     "device": "cpu"},
    {"id": "h", "mem_id": 2, "offset": 0, "size": 128, "first": 1, "last": 2,
     "device": "cuda:0"},
    {"id": "stray", "mem_id": 2, "offset": 128, "size": 128, "first": 1,
     "last": 3, "device": "cpu"}]})";

// x and y are both live at time 1 and share bytes [32, 64).
constexpr char kOverlapPlan[] = R"({
  "buffers": [{"mem_id": 1, "size": 160}],
  "allocations": [
    {"id": "x", "mem_id": 1, "offset": 0, "size": 64, "first": 0, "last": 1,
     "device": "cpu"},
    {"id": "y", "mem_id": 1, "offset": 32, "size": 64, "first": 1, "last": 4,
     "device": "cpu"}]})";

// Valid but wasteful: a and b never live together, yet sit side by side.
constexpr char kWastefulPlan[] = R"({
  "buffers": [{"mem_id": 1, "size": 200}],
  "allocations": [
    {"id": "a", "mem_id": 1, "offset": 0, "size": 100, "first": 0, "last": 1,
     "device": "cpu"},
    {"id": "b", "mem_id": 1, "offset": 100, "size": 100, "first": 2,
     "last": 3, "device": "cpu"}]})";

PipelineOptions FastOptions() {
  PipelineOptions options;
  options.exact_seconds = 0.5;
  options.use_gpu = false;
  return options;
}

InputReport RunOne(const std::string& name, const std::string& text) {
  std::vector<InputReport> reports = RunInput({name, "", text}, FastOptions());
  EXPECT_THAT(reports, SizeIs(1));
  return reports.empty() ? InputReport{} : reports.front();
}

bool HasViolation(const InputReport& report, properties::ViolationCode code) {
  for (const CheckedPlan& checked : report.plans) {
    if (checked.report.count(code) > 0) return true;
  }
  return false;
}

TEST(CheckPipelineTest, EveryDefaultGraphPlansJudgesEmitsAndLoads) {
  ASSERT_THAT(DefaultCorpus(), SizeIs(testing::Ge(5u)));
  std::vector<std::string> algorithms = AlgorithmsOf(FastOptions());
  for (const EmbeddedGraph& graph : DefaultCorpus()) {
    SCOPED_TRACE(std::string(graph.name));
    InputReport report =
        RunOne(std::string(graph.name), std::string(graph.text));
    EXPECT_TRUE(report.readable) << report.error;
    EXPECT_EQ(report.oracle, Verdict::kOk);
    EXPECT_EQ(report.load, Verdict::kOk);
    EXPECT_THAT(report.findings, IsEmpty());
    EXPECT_TRUE(report.ok());
    EXPECT_GT(report.num_tensors, 0u);
    EXPECT_GT(report.live_bytes_lower_bound, 0u);
    ASSERT_THAT(report.algorithms, SizeIs(algorithms.size()));
    for (const AlgorithmOutcome& outcome : report.algorithms) {
      ASSERT_TRUE(outcome.total_bytes) << outcome.name << ": " << outcome.error;
      // No valid plan beats the most bytes live at one time.
      EXPECT_GE(*outcome.total_bytes, report.live_bytes_lower_bound)
          << outcome.name;
    }
    // Each algorithm's plan, and the plan re-read from its emitted bytes.
    EXPECT_THAT(report.plans, SizeIs(2 * algorithms.size()));
  }
}

TEST(CheckPipelineTest, MultiDeviceGraphKeepsEveryDeviceApart) {
  for (const EmbeddedGraph& graph : DefaultCorpus()) {
    if (graph.name != "multi_device.graph") continue;
    InputReport report =
        RunOne(std::string(graph.name), std::string(graph.text));
    EXPECT_THAT(report.devices,
                ElementsAre(Device::Cpu(), Device::Cuda(0), Device::Cuda(1)));
    EXPECT_THAT(report.load_detail, HasSubstr("simulated cuda"));
    EXPECT_TRUE(report.ok());
    return;
  }
  FAIL() << "multi_device.graph is not in the default corpus";
}

TEST(CheckPipelineTest, PlantedOverlapIsReportedAsOverlap) {
  InputReport report = RunOne("overlap.json", kOverlapPlan);
  EXPECT_EQ(report.oracle, Verdict::kFailed);
  EXPECT_TRUE(HasViolation(report, properties::ViolationCode::kOverlap));
  EXPECT_THAT(report.findings, Contains(HasSubstr("given: 1 overlap")));
  EXPECT_EQ(ExitCode({report}), 1);
  // Our algorithms re-place the same lifetimes without the overlap.
  for (const CheckedPlan& checked : report.plans) {
    if (checked.label != "given") {
      EXPECT_TRUE(checked.report.ok()) << checked.label;
    }
  }
}

TEST(CheckPipelineTest, CpuTensorInCudaBufferIsCrossDevice) {
  InputReport report = RunOne("cross.json", kCrossDevicePlan);
  EXPECT_EQ(report.oracle, Verdict::kFailed);
  EXPECT_TRUE(HasViolation(report, properties::ViolationCode::kCrossDevice));
  EXPECT_THAT(report.findings, Contains(HasSubstr("cross_device")));
  EXPECT_EQ(ExitCode({report}), 1);
  // The HTML report names the code and draws the stray tensor in red.
  std::string html = RenderHtmlReport({report}, AlgorithmsOf(FastOptions()));
  EXPECT_THAT(html, AllOf(HasSubstr("cross_device: stray"),
                          HasSubstr("fill=\"#d62728\""),
                          HasSubstr("<title>stray (plain)")));
}

TEST(CheckPipelineTest, ReplanningAWastefulPlanShowsTheSaving) {
  InputReport report = RunOne("wasteful.json", kWastefulPlan);
  EXPECT_TRUE(report.ok());
  ASSERT_TRUE(report.given_bytes);
  EXPECT_EQ(*report.given_bytes, 200u);
  EXPECT_EQ(report.live_bytes_lower_bound, 100u);
  for (const AlgorithmOutcome& outcome : report.algorithms) {
    ASSERT_TRUE(outcome.total_bytes) << outcome.name;
    if (outcome.name != "naive") {
      EXPECT_EQ(*outcome.total_bytes, 100u) << outcome.name;
    }
  }
  EXPECT_THAT(SavingsText(report), HasSubstr("greedy saves 100 B (50.0%)"));
}

TEST(CheckPipelineTest, ExactNodesIsExactsNodeBudget) {
  // Only 6 bytes are ever live here and no plan is under 7 (exact_test's
  // kGap); proving that takes exact's sweep, which 0 nodes rules out.
  const std::string gap =
      "id,lower,upper,size\n"
      "a,0,3,1\nb,1,4,1\nc,2,5,1\n"
      "s0,0,1,5\ns1,1,2,4\ns2,2,3,3\ns3,3,4,4\ns4,4,5,5\n";
  PipelineOptions options = FastOptions();
  options.algorithms = {"exact"};
  options.exact_seconds = 60;
  for (uint64_t nodes : {PipelineOptions().exact_nodes, uint64_t{0}}) {
    SCOPED_TRACE(nodes);
    options.exact_nodes = nodes;
    std::vector<InputReport> reports = RunInput({"gap.csv", "", gap}, options);
    ASSERT_THAT(reports, SizeIs(1));
    ASSERT_THAT(reports[0].algorithms, SizeIs(1));
    const AlgorithmOutcome& exact = reports[0].algorithms[0];
    ASSERT_TRUE(exact.total_bytes);
    EXPECT_EQ(reports[0].live_bytes_lower_bound, 6u);
    EXPECT_GE(*exact.total_bytes, 7u);
    EXPECT_EQ(exact.proven_optimal, nodes > 0);
  }
}

TEST(CheckPipelineTest, MinimallocProblemIsPlacedByEveryAlgorithm) {
  // b3 and b5 live throughout; b1/b2/b4 follow one another.
  InputReport report = RunOne("problem.csv",
                              "id,lower,upper,size\n"
                              "b1,0,3,4\nb2,3,9,4\nb3,0,9,4\n"
                              "b4,9,21,4\nb5,0,21,4\n");
  EXPECT_TRUE(report.ok()) << testing::PrintToString(report.findings);
  EXPECT_FALSE(report.given_bytes);
  EXPECT_EQ(report.num_tensors, 5u);
  EXPECT_EQ(report.live_bytes_lower_bound, 12u);
  for (const AlgorithmOutcome& outcome : report.algorithms) {
    if (outcome.name == "exact") {
      ASSERT_TRUE(outcome.total_bytes);
      EXPECT_EQ(*outcome.total_bytes, 12u);
    }
  }
}

TEST(CheckPipelineTest, AMiniMallocProblemsAlignmentIsHonoured) {
  InputReport report = RunOne("aligned.csv",
                              "id,lower,upper,size,alignment\n"
                              "a,0,3,3,1\nc,1,3,2,8\n");
  EXPECT_TRUE(report.ok()) << testing::PrintToString(report.findings);
  for (const AlgorithmOutcome& outcome : report.algorithms) {
    ASSERT_TRUE(outcome.total_bytes) << outcome.name;
    // c at 0 and a above it: 5 bytes; a at 0 pushes c to 8.
    EXPECT_GE(*outcome.total_bytes, 5u) << outcome.name;
    if (outcome.name == "exact") {
      EXPECT_EQ(*outcome.total_bytes, 5u);
    }
  }
}

// The view lives until 4, its base only until 1: `late` (from 3) must not
// take their bytes in any re-plan, and the view is judged with the rest.
TEST(CheckPipelineTest, AnAliasOutlivingItsBaseKeepsItsBytesInEveryReplan) {
  InputReport report = RunOne("alias.json", R"({
  "buffers": [{"mem_id": 1, "size": 128}],
  "allocations": [
    {"id": "base", "mem_id": 1, "offset": 0, "size": 64, "first": 0,
     "last": 1, "device": "cpu"},
    {"id": "view", "kind": "view", "alias_of": "base", "mem_id": 1,
     "offset": 0, "size": 64, "first": 0, "last": 4, "device": "cpu"},
    {"id": "late", "mem_id": 1, "offset": 64, "size": 64, "first": 3,
     "last": 4, "device": "cpu"}]})");
  EXPECT_TRUE(report.ok()) << testing::PrintToString(report.findings);
  for (const AlgorithmOutcome& outcome : report.algorithms) {
    ASSERT_TRUE(outcome.total_bytes) << outcome.name;
    EXPECT_EQ(*outcome.total_bytes, 128u) << outcome.name;
  }
  for (const CheckedPlan& checked : report.plans) {
    EXPECT_EQ(checked.plan.allocations.size(), 3u) << checked.label;
  }
}

TEST(CheckPipelineTest, UnreadableInputsGiveExitCodeTwo) {
  std::vector<InputReport> missing =
      RunInput({"nope.graph", "/nonexistent/nope.graph", {}}, FastOptions());
  ASSERT_THAT(missing, SizeIs(1));
  EXPECT_FALSE(missing[0].readable);
  EXPECT_THAT(missing[0].error, HasSubstr("/nonexistent/nope.graph"));
  EXPECT_EQ(ExitCode(missing), 2);

  InputReport bad_json = RunOne("bad.json", "{\"buffers\": [");
  EXPECT_FALSE(bad_json.readable);
  InputReport garbage = RunOne("garbage.pte", "not a program at all");
  EXPECT_FALSE(garbage.readable);
  EXPECT_EQ(ExitCode({bad_json, garbage}), 2);
}

TEST(CheckPipelineTest, TableShowsRatiosAgainstTheLowerBound) {
  InputReport report = RunOne("wasteful.json", kWastefulPlan);
  std::vector<std::string> algorithms = {"greedy"};
  std::vector<std::string> row = TableRow(report, algorithms, false);
  std::vector<std::string> header = TableHeader(algorithms, false);
  ASSERT_EQ(row.size(), header.size());
  EXPECT_EQ(row[0], "wasteful.json");
  EXPECT_EQ(row[4], "100 B");
  EXPECT_EQ(row[5], "2.00x");  // given: 200 B over a bound of 100 B.
  EXPECT_EQ(RatioText(112, 100), "1.12x");
  EXPECT_EQ(RatioText(0, 0), "1.00x");
}

TEST(CheckPipelineTest, JsonWithoutTimesIsDeterministic) {
  std::vector<std::string> algorithms = AlgorithmsOf(FastOptions());
  InputReport first = RunOne("wasteful.json", kWastefulPlan);
  InputReport second = RunOne("wasteful.json", kWastefulPlan);
  EXPECT_EQ(FormatReportsJson({first}, algorithms, false),
            FormatReportsJson({second}, algorithms, false));
  EXPECT_THAT(FormatReportsJson({first}, algorithms, false),
              Not(HasSubstr("seconds")));
}

TEST(CheckPipelineTest, FoldersExpandToKnownInputsOnly) {
  std::vector<CheckInput> inputs = ExpandPaths({"examples/graphs"});
  ASSERT_THAT(inputs, SizeIs(DefaultCorpus().size()));
  for (const CheckInput& input : inputs) {
    EXPECT_EQ(InputKindOf(input.name), InputKind::kGraph) << input.name;
  }
}

TEST(CheckPipelineTest, RealProgramsFromSharedDataHoldAndLoad) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  if (!srcdir) GTEST_SKIP() << "TEST_SRCDIR is not set";
  std::string data = std::string(srcdir) + "/shared_data/data";
  std::vector<CheckInput> inputs = DefaultInputs(data);
  ASSERT_GE(inputs.size(), DefaultCorpus().size());
  inputs.erase(inputs.begin(), inputs.begin() + DefaultCorpus().size());
  if (inputs.empty()) GTEST_SKIP() << "no ../shared/data here";
  size_t bundled = 0;
  for (const CheckInput& input : inputs) {
    bundled += input.name.size() > 5 &&
               input.name.compare(input.name.size() - 5, 5, ".bpte") == 0;
    for (const InputReport& report : RunInput(input, FastOptions())) {
      SCOPED_TRACE(report.name);
      EXPECT_TRUE(report.readable) << report.error;
      EXPECT_TRUE(report.ok()) << testing::PrintToString(report.findings);
      if (report.kind == InputKind::kProgram) {
        EXPECT_EQ(report.load, Verdict::kOk);
        ASSERT_TRUE(report.given_bytes);
        // Re-planning never needs more than the plan ExecuTorch made,
        // except naive, which never reuses bytes.
        for (const AlgorithmOutcome& outcome : report.algorithms) {
          if (outcome.name == "naive") continue;
          ASSERT_TRUE(outcome.total_bytes) << outcome.name;
          EXPECT_LE(*outcome.total_bytes, *report.given_bytes) << outcome.name;
        }
      }
    }
  }
  EXPECT_GE(bundled, 1u) << "the shared data holds a bundled program";
}

}  // namespace
}  // namespace cli
}  // namespace memplan
