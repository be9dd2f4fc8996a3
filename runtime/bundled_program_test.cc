#include "runtime/bundled_program.h"

#include <vector>

#include "flatbuffers/flatbuffers.h"
#include "gtest/gtest.h"
#include "runtime/testing/program_builder.h"
#include "schema/bundled_program_generated.h"

namespace memplan {
namespace {

// A BP08 file around `program`, written with the schema's own builder.
std::vector<uint8_t> Bundle(const std::vector<uint8_t>& program) {
  flatbuffers::FlatBufferBuilder fbb;
  memplan_bundled::FinishBundledProgramBuffer(
      fbb, memplan_bundled::CreateBundledProgramDirect(fbb, &program));
  return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

std::vector<uint8_t> SomeProgram() {
  testing::ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(64);
  b.AddPlannedTensor(executorch_flatbuffer::ScalarType::FLOAT, {4, 4}, cpu, 0);
  return b.Build();
}

TEST(BundledProgramTest, TheWrappedProgramComesBackVerbatim) {
  const std::vector<uint8_t> program = SomeProgram();
  const std::vector<uint8_t> bundled = Bundle(program);
  ASSERT_TRUE(IsBundledProgram(bundled.data(), bundled.size()));
  auto inner = ExtractBundledProgram(bundled.data(), bundled.size());
  ASSERT_TRUE(inner.ok()) << inner.error().ToString();
  EXPECT_EQ(std::vector<uint8_t>(inner->first, inner->first + inner->second),
            program);
  Result<ProgramBytes> unwrapped =
      UnwrapProgram(bundled.data(), bundled.size());
  ASSERT_TRUE(unwrapped.ok());
  EXPECT_EQ(unwrapped->size, program.size());
}

TEST(BundledProgramTest, TheProgramsVerifierLimitsApply) {
  const std::vector<uint8_t> bundled = Bundle(SomeProgram());
  ProgramLimits limits;
  limits.max_verifier_tables = 0;  // Not even the root table.
  auto refused = ExtractBundledProgram(bundled.data(), bundled.size(), limits);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code(), ErrorCode::kInvalidProgram);
  EXPECT_FALSE(UnwrapProgram(bundled.data(), bundled.size(), limits).ok());
}

TEST(BundledProgramTest, EmptyTruncatedAndForeignFilesAreRefused) {
  std::vector<uint8_t> bundled = Bundle({});
  EXPECT_FALSE(ExtractBundledProgram(bundled.data(), bundled.size()).ok());
  bundled = Bundle(SomeProgram());
  for (size_t cut : {size_t{8}, bundled.size() / 2, bundled.size() - 1}) {
    std::vector<uint8_t> part(bundled.begin(), bundled.begin() + cut);
    EXPECT_FALSE(ExtractBundledProgram(part.data(), part.size()).ok()) << cut;
  }
  const std::vector<uint8_t> plain = SomeProgram();
  EXPECT_FALSE(IsBundledProgram(plain.data(), plain.size()));
  EXPECT_FALSE(ExtractBundledProgram(plain.data(), plain.size()).ok());
  EXPECT_FALSE(ExtractBundledProgram(nullptr, 0).ok());
}

}  // namespace
}  // namespace memplan
