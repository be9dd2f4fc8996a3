#include "runtime/bundled_program.h"

#include <vector>

#include "flatbuffers/flatbuffers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/core/error_matchers.h"
#include "runtime/testing/program_builder.h"
#include "schema/bundled_program_generated.h"

namespace memplan {
namespace {

using ::memplan::testing::IsError;
using ::testing::HasSubstr;

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
  EXPECT_THAT(ExtractBundledProgram(bundled.data(), bundled.size(), limits),
              IsError(ErrorCode::kInvalidProgram,
                      HasSubstr("flatbuffer verification")));
  EXPECT_THAT(UnwrapProgram(bundled.data(), bundled.size(), limits),
              IsError(ErrorCode::kInvalidProgram,
                      HasSubstr("flatbuffer verification")));
}

TEST(BundledProgramTest, EmptyTruncatedAndForeignFilesAreRefused) {
  // Each is refused by the check meant for it, not by an earlier one.
  std::vector<uint8_t> bundled = Bundle({});
  EXPECT_THAT(ExtractBundledProgram(bundled.data(), bundled.size()),
              IsError(ErrorCode::kInvalidProgram,
                      HasSubstr("bundled_program.program is absent or empty")));
  bundled = Bundle(SomeProgram());
  for (size_t cut : {size_t{8}, bundled.size() / 2, bundled.size() - 1}) {
    std::vector<uint8_t> part(bundled.begin(), bundled.begin() + cut);
    EXPECT_THAT(ExtractBundledProgram(part.data(), part.size()),
                IsError(ErrorCode::kInvalidProgram,
                        HasSubstr("flatbuffer verification")))
        << cut;
  }
  const std::vector<uint8_t> plain = SomeProgram();
  EXPECT_FALSE(IsBundledProgram(plain.data(), plain.size()));
  EXPECT_THAT(ExtractBundledProgram(plain.data(), plain.size()),
              IsError(ErrorCode::kInvalidProgram,
                      HasSubstr("file_identifier at bytes [4, 8) must be "
                                "\"BP08\"")));
  EXPECT_THAT(ExtractBundledProgram(nullptr, 0),
              IsError(ErrorCode::kInvalidProgram,
                      HasSubstr("file_identifier at bytes [4, 8) must be "
                                "\"BP08\" (file size 0)")));
}

}  // namespace
}  // namespace memplan
