// The oracle on the real ExecuTorch programs and MiniMalloc inputs in
// ../shared/data (skipped where that folder is absent).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "properties/check.h"
#include "properties/csv_plan.h"
#include "properties/program_plan.h"
#include "runtime/core/error_matchers.h"

namespace memplan {
namespace properties {
namespace {

namespace fs = std::filesystem;
using ::memplan::testing::IsError;
using ::testing::HasSubstr;

fs::path DataDir(const std::string& sub) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  if (srcdir == nullptr) return {};
  return fs::path(srcdir) / "shared_data" / "data" / sub;
}

std::vector<fs::path> FilesWithExtension(const fs::path& dir,
                                         const std::string& extension) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() == extension) files.push_back(entry.path());
  }
  return files;
}

std::vector<uint8_t> ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(RealProgramsVerifyTest, ExecuTorchPlansAreValid) {
  std::vector<fs::path> files = FilesWithExtension(DataDir("pte"), ".pte");
  if (files.empty()) GTEST_SKIP() << "no ../shared/data/pte/*.pte here";
  size_t planned_tensors = 0;
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    std::vector<uint8_t> bytes = ReadFile(path);
    Result<Program> program = Program::Load(bytes.data(), bytes.size());
    ASSERT_TRUE(program.ok()) << program.error().ToString();
    ASSERT_GE(program->num_methods(), 1u);
    for (size_t m = 0; m < program->num_methods(); ++m) {
      Result<Plan> plan = PlanFromProgram(*program, m);
      ASSERT_TRUE(plan.ok()) << plan.error().ToString();
      Report report = Check(*plan);
      EXPECT_TRUE(report.ok()) << FormatText(report);
      planned_tensors += plan->allocations.size();
      // A valid plan never beats its lower bound.
      for (const BufferQuality& q : report.buffers) {
        EXPECT_GE(static_cast<uint64_t>(q.size), q.live_bytes_lower_bound);
        EXPECT_LE(q.high_water, static_cast<uint64_t>(q.size));
      }
    }
  }
  EXPECT_GT(planned_tensors, 0u);
}

TEST(RealProgramsVerifyTest, MiniMallocProblemWithoutOffsetsIsRefusedCleanly) {
  fs::path csv = DataDir("minimalloc") / "input.12.csv";
  if (!fs::exists(csv)) GTEST_SKIP() << "no ../shared/data/minimalloc here";
  std::vector<uint8_t> bytes = ReadFile(csv);
  Result<Plan> plan = PlanFromCsv(std::string(bytes.begin(), bytes.end()));
  EXPECT_THAT(plan,
              IsError(ErrorCode::kInvalidArgument, HasSubstr("no offsets")));
}

}  // namespace
}  // namespace properties
}  // namespace memplan
