// The public API as a planner outside memplan would use it: only
// properties/oracle.h (plus the test builder to make program bytes).
#include "properties/oracle.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/core/error_matchers.h"
#include "runtime/testing/program_builder.h"

namespace memplan {
namespace {

namespace fs = std::filesystem;
using ::memplan::testing::IsError;
using ::testing::HasSubstr;

oracle::Allocation Alloc(std::string id, oracle::Offset offset,
                         oracle::Offset size, oracle::TimeValue first,
                         oracle::TimeValue last) {
  oracle::Allocation a;
  a.id = std::move(id);
  a.mem_id = 1;
  a.offset = offset;
  a.size = size;
  a.lifetime = {first, last};
  a.device = Device::Cpu();
  return a;
}

std::string Bytes(const std::vector<uint8_t>& bytes) {
  return std::string(bytes.begin(), bytes.end());
}

TEST(OracleTest, ABuiltPlanIsCheckedWithStructuredViolations) {
  oracle::Plan plan;
  plan.buffers = {{1, 96, Device::Cpu()}};
  // b [1,2] at [32,96) shares [32,64) with a [0,1] at time 1.
  plan.allocations = {Alloc("a", 0, 64, 0, 1), Alloc("b", 32, 64, 1, 2)};
  oracle::Report report = oracle::Check(plan);
  ASSERT_EQ(report.total_violations(), 1u) << oracle::FormatText(report);
  const oracle::Violation& v = report.violations[0];
  EXPECT_EQ(v.code, oracle::ViolationCode::kOverlap);
  EXPECT_STREQ(oracle::ViolationCodeName(v.code), "overlap");
  EXPECT_EQ(v.allocation_ids, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(v.mem_id, oracle::MemId{1});
  EXPECT_EQ(v.bytes->begin, 32);
  EXPECT_EQ(v.bytes->end, 64);
  EXPECT_EQ(v.lifetime->first, 1);
  EXPECT_EQ(v.lifetime->last, 1);
  ASSERT_EQ(report.buffers.size(), 1u);
  EXPECT_EQ(report.buffers[0].live_bytes_lower_bound,
            128u);  // Both live at time 1.

  plan.allocations[1].offset = 64;
  plan.buffers[0].size = 128;
  EXPECT_TRUE(oracle::Check(plan).ok());
}

TEST(OracleTest, ReadsEveryFormatByNameAndContents) {
  EXPECT_EQ(oracle::DetectFormat("m.pte", ""), oracle::PlanFormat::kProgram);
  EXPECT_EQ(oracle::DetectFormat("m.bpte", ""), oracle::PlanFormat::kProgram);
  EXPECT_EQ(oracle::DetectFormat("p.csv", ""), oracle::PlanFormat::kCsv);
  EXPECT_EQ(oracle::DetectFormat("p.json", "{\"buffers\": []}"),
            oracle::PlanFormat::kJson);
  EXPECT_EQ(oracle::DetectFormat("t.json", "{\"traceEvents\": []}"),
            oracle::PlanFormat::kMemoryTrace);
  EXPECT_EQ(oracle::DetectFormat("x.txt", ""), std::nullopt);

  Result<oracle::Verdict> csv =
      oracle::Verify(oracle::PlanFormat::kCsv,
                     "id,lower,upper,size,offset\nx,0,2,8,0\n"
                     "y,1,3,8,4\n");
  ASSERT_TRUE(csv.ok()) << csv.error().ToString();
  ASSERT_EQ(csv->reports.size(), 1u);
  EXPECT_FALSE(csv->ok());
  EXPECT_EQ(csv->reports[0].count(oracle::ViolationCode::kOverlap), 1u);

  Result<oracle::Verdict> json = oracle::Verify(
      oracle::PlanFormat::kJson,
      R"({"buffers": [{"mem_id": 1, "size": 64, "device": "cuda:0"}],
          "allocations": [{"id": "t", "mem_id": 1, "offset": 0, "size": 64,
                           "first": 0, "last": 1, "device": "cpu"}]})");
  ASSERT_TRUE(json.ok()) << json.error().ToString();
  EXPECT_EQ(json->reports[0].count(oracle::ViolationCode::kCrossDevice), 1u);
  EXPECT_EQ(json->reports[0].violations[0].allocation_ids,
            (std::vector<std::string>{"t"}));

  // --align through ReadOptions: offset 4 is not a multiple of 16.
  oracle::ReadOptions aligned;
  aligned.alignment = 16;
  Result<oracle::Verdict> csv16 =
      oracle::Verify(oracle::PlanFormat::kCsv,
                     "id,lower,upper,size,offset\nx,0,1,8,4\n", aligned);
  ASSERT_TRUE(csv16.ok());
  EXPECT_EQ(csv16->reports[0].count(oracle::ViolationCode::kAlignment), 1u);

  Result<oracle::Verdict> trace = oracle::Verify(
      oracle::PlanFormat::kMemoryTrace,
      R"({"traceEvents": [{"name": "x", "cat": "memory_allocation",
          "ph": "X", "ts": 0, "dur": 16, "pid": 1, "tid": 0}]})");
  ASSERT_TRUE(trace.ok()) << trace.error().ToString();
  EXPECT_TRUE(trace->ok());
}

TEST(OracleTest, UnreadableInputIsAnErrorThatNamesWhere) {
  Result<oracle::Verdict> program =
      oracle::Verify(oracle::PlanFormat::kProgram, "not a program");
  EXPECT_THAT(
      program,
      IsError(
          ErrorCode::kInvalidProgram,
          HasSubstr(
              "file_identifier = \"a pr\" at bytes [4, 8), must be \"ET12\"")));
  Result<oracle::Verdict> json =
      oracle::Verify(oracle::PlanFormat::kJson, "{\"buffers\": [}");
  EXPECT_THAT(json, IsError(ErrorCode::kInvalidArgument, HasSubstr("json 1:")));
  Result<oracle::Verdict> problem = oracle::Verify(
      oracle::PlanFormat::kCsv, "id,lower,upper,size\nx,0,1,8\n");
  EXPECT_THAT(problem,
              IsError(ErrorCode::kInvalidArgument, HasSubstr("no offsets")));
}

// A cpu tensor and a cuda:0 tensor in their own buffers; `clash` puts a
// second cpu tensor on the first one's bytes while both are live.
std::vector<uint8_t> TwoDeviceProgram(bool clash) {
  using executorch_flatbuffer::ScalarType;
  testing::ProgramBuilder b;
  b.AddMethod("forward");
  uint32_t cpu = b.AddBuffer(128);
  uint32_t gpu = b.AddBuffer(64, Device::Cuda(0));
  int32_t x = b.AddPlannedTensor(ScalarType::FLOAT, {4, 4}, cpu, 0);
  int32_t y =
      b.AddPlannedTensor(ScalarType::FLOAT, {4, 4}, gpu, 0, Device::Cuda(0));
  int32_t z =
      b.AddPlannedTensor(ScalarType::FLOAT, {4, 4}, cpu, clash ? 32 : 64);
  int32_t op = b.AddOperator("aten::add");
  b.AddKernelCall(op, {x, y, z});
  b.SetInputs({x});
  b.SetOutputs({z});
  return b.Build();
}

TEST(OracleTest, ProgramsAreJudgedAndLoaded) {
  std::string good = Bytes(TwoDeviceProgram(false));
  Result<oracle::Verdict> verdict =
      oracle::Verify(oracle::PlanFormat::kProgram, good);
  ASSERT_TRUE(verdict.ok()) << verdict.error().ToString();
  ASSERT_EQ(verdict->plans.size(), 1u);
  EXPECT_EQ(verdict->plans[0].name, "forward");
  EXPECT_TRUE(verdict->ok()) << oracle::FormatText(verdict->reports[0]);

  oracle::LoadOptions simulated;
  simulated.use_gpu = false;
  Result<std::vector<oracle::MethodLoad>> loads =
      oracle::LoadAndCheck(good, simulated);
  ASSERT_TRUE(loads.ok()) << loads.error().ToString();
  ASSERT_EQ(loads->size(), 1u);
  EXPECT_TRUE((*loads)[0].ok()) << (*loads)[0].error.ToString();
  EXPECT_EQ((*loads)[0].allocators, "cpu + simulated cuda");

  Result<oracle::Verdict> bad = oracle::Verify(oracle::PlanFormat::kProgram,
                                               Bytes(TwoDeviceProgram(true)));
  ASSERT_TRUE(bad.ok()) << bad.error().ToString();
  const oracle::Report& report = bad->reports[0];
  ASSERT_EQ(report.count(oracle::ViolationCode::kOverlap), 1u)
      << oracle::FormatText(report);
  EXPECT_EQ(report.violations[0].allocation_ids.size(), 2u);
  EXPECT_EQ(report.violations[0].mem_id, oracle::MemId{1});

  EXPECT_THAT(oracle::LoadAndCheck("garbage"),
              IsError(ErrorCode::kInvalidProgram,
                      HasSubstr("file size = 7, must be >= 8")));
}

TEST(OracleTest, EveryAlgorithmSolvesAProblemTheOracleAccepts) {
  Result<oracle::Problem> problem = oracle::ReadProblemCsv(
      "id,lower,upper,size,alignment\n"
      "a,0,3,48,16\nb,1,4,32,16\nc,3,6,64,64\nd,4,6,16,16\n");
  ASSERT_TRUE(problem.ok()) << problem.error().ToString();
  for (const std::string& algorithm : oracle::AlgorithmNames()) {
    Result<oracle::Solution> solution = oracle::Solve(*problem, algorithm);
    ASSERT_TRUE(solution.ok())
        << algorithm << ": " << solution.error().ToString();
    ASSERT_EQ(solution->offsets.size(), 4u);
    Result<oracle::Plan> plan = oracle::PlanOfSolution(*problem, *solution);
    ASSERT_TRUE(plan.ok()) << plan.error().ToString();
    oracle::Report report = oracle::Check(*plan);
    EXPECT_TRUE(report.ok()) << algorithm << "\n" << oracle::FormatText(report);
    // a and b are live together at 1..2: at least 48 + 32 bytes.
    EXPECT_GE(solution->height, 80u) << algorithm;
    EXPECT_EQ(report.buffers[0].size, oracle::Offset(solution->height));
  }
  Result<oracle::Solution> exact = oracle::Solve(*problem, "exact");
  ASSERT_TRUE(exact.ok());
  EXPECT_TRUE(exact->proven_optimal);

  EXPECT_THAT(
      oracle::Solve(*problem, "no_such_algorithm"),
      IsError(
          ErrorCode::kNotFound,
          HasSubstr("names[0] = \"no_such_algorithm\" is not an algorithm")));
  oracle::Problem reversed = *problem;
  reversed.buffers[1].lower = 5;
  Result<oracle::Solution> refused = oracle::Solve(reversed);
  EXPECT_THAT(refused, IsError(ErrorCode::kInvalidArgument,
                               HasSubstr("buffers[1] ('b')")));
}

std::vector<fs::path> SharedPrograms() {
  std::vector<fs::path> files;
  const char* srcdir = std::getenv("TEST_SRCDIR");
  if (srcdir == nullptr) return files;
  fs::path dir = fs::path(srcdir) / "shared_data" / "data" / "pte";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(OracleTest, RealProgramsAreValidAndLoad) {
  std::vector<fs::path> files = SharedPrograms();
  if (files.empty()) GTEST_SKIP() << "no ../shared/data/pte here";
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::string bytes{std::istreambuf_iterator<char>(in),
                      std::istreambuf_iterator<char>()};
    std::optional<oracle::PlanFormat> format =
        oracle::DetectFormat(file.string(), bytes);
    ASSERT_EQ(format, oracle::PlanFormat::kProgram) << file;
    Result<oracle::Verdict> verdict = oracle::Verify(*format, bytes);
    ASSERT_TRUE(verdict.ok()) << file << ": " << verdict.error().ToString();
    EXPECT_TRUE(verdict->ok()) << file;
    Result<std::vector<oracle::MethodLoad>> loads = oracle::LoadAndCheck(bytes);
    ASSERT_TRUE(loads.ok()) << file << ": " << loads.error().ToString();
    for (const oracle::MethodLoad& load : *loads) {
      EXPECT_TRUE(load.ok())
          << file << ":" << load.method << ": " << load.error.ToString();
    }
  }
}

}  // namespace
}  // namespace memplan
