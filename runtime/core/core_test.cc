#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>

#include "runtime/core/checked_math.h"
#include "runtime/core/device.h"
#include "runtime/core/error_matchers.h"
#include "runtime/core/result.h"
#include "runtime/core/spec_kind.h"

namespace memplan {
namespace {

TEST(DeviceTest, ParsesAndPrints) {
  EXPECT_EQ(ParseDevice("cpu"), Device::Cpu());
  EXPECT_EQ(ParseDevice("cuda:3"), Device::Cuda(3));
  EXPECT_EQ(ParseDevice("cuda"), Device::Cuda(0));
  EXPECT_EQ(ParseDevice("tpu:0"), std::nullopt);
  EXPECT_EQ(ParseDevice("cuda:"), std::nullopt);
  EXPECT_EQ(ParseDevice("cuda:128"), std::nullopt);
  EXPECT_EQ(ParseDevice("cuda:1x"), std::nullopt);
  EXPECT_EQ(Device::Cuda(1).ToString(), "cuda:1");
  EXPECT_EQ(Device::Cpu().ToString(), "cpu");
}

TEST(DeviceTest, CpuSortsFirst) {
  EXPECT_LT(Device::Cpu(), Device::Cuda(0));
  EXPECT_LT(Device::Cuda(0), Device::Cuda(1));
  EXPECT_FALSE(IsKnownDeviceType(2));
  EXPECT_FALSE(IsKnownDeviceType(-1));
}

TEST(ResultTest, CarriesValueOrError) {
  Result<int> good = 7;
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 7);
  Result<int> bad = Error(ErrorCode::kInvalidProgram, "values[2] out of range");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().ToString(), "invalid_program: values[2] out of range");
}

TEST(ErrorMatchersTest, MatchOnlyTheNamedCodeAndMessage) {
  using ::testing::HasSubstr;
  using testing::IsError;
  using ::testing::Not;
  const Error error(ErrorCode::kNotFound, "no method named 'fwd'");
  EXPECT_THAT(error, IsError(ErrorCode::kNotFound));
  EXPECT_THAT(error, Not(IsError(ErrorCode::kInvalidArgument)));
  EXPECT_THAT(error, IsError(ErrorCode::kNotFound, HasSubstr("'fwd'")));
  EXPECT_THAT(error, Not(IsError(ErrorCode::kNotFound, HasSubstr("'bwd'"))));
  EXPECT_THAT(error, Not(IsError(ErrorCode::kIo, HasSubstr("'fwd'"))));
  const Result<int> failed = error;
  EXPECT_THAT(failed, IsError(ErrorCode::kNotFound, HasSubstr("fwd")));
  // A success matches no failure code.
  EXPECT_THAT(Result<int>(3), Not(IsError(ErrorCode::kNotFound)));
  EXPECT_THAT(Error::Ok(), Not(IsError(ErrorCode::kInternal)));
  EXPECT_EQ(::testing::DescribeMatcher<Error>(IsError(ErrorCode::kIo)),
            "is an error with code io");
}

TEST(ResultDeathTest, ReadingTheValueOfAnErrorStopsWithTheError) {
  Result<int> bad = Error(ErrorCode::kNotFound, "no method named 'fwd'");
  EXPECT_DEATH(static_cast<void>(*bad),
               "value of a failed Result read: not_found: no method named");
  EXPECT_DEATH(static_cast<void>(bad.value()), "failed Result");
  Result<std::string> text = Error(ErrorCode::kIo, "cannot read x");
  EXPECT_DEATH(static_cast<void>(text->size()), "io: cannot read x");
}

// The keywords are a file format (graph text, JSON plans, reports): each
// names exactly one kind, and the order is the enum's.
TEST(SpecKindTest, KeywordsNameEachKindOnce) {
  const char* const expected[] = {"plain",   "input", "output",   "constant",
                                  "mutable", "view",  "in_place", "scratch"};
  for (size_t i = 0; i < std::size(expected); ++i) {
    const SpecKind kind = static_cast<SpecKind>(i);
    EXPECT_STREQ(SpecKindName(kind), expected[i]);
    EXPECT_EQ(ParseSpecKind(expected[i]), kind) << expected[i];
  }
  EXPECT_STREQ(SpecKindName(static_cast<SpecKind>(8)), "unknown");
  EXPECT_EQ(ParseSpecKind("mutable_buffer"), std::nullopt);
  EXPECT_EQ(ParseSpecKind("View"), std::nullopt);
  EXPECT_TRUE(IsAlias(SpecKind::kView));
  EXPECT_TRUE(IsAlias(SpecKind::kInPlace));
  EXPECT_FALSE(IsAlias(SpecKind::kMutableBuffer));
}

TEST(CheckedMathTest, DetectsOverflow) {
  uint64_t out = 0;
  EXPECT_FALSE(
      CheckedAdd(std::numeric_limits<uint64_t>::max(), uint64_t{1}, &out));
  EXPECT_FALSE(CheckedMul(uint64_t{1} << 40, uint64_t{1} << 30, &out));
  EXPECT_TRUE(CheckedAlignUp(17, 16, &out));
  EXPECT_EQ(out, 32u);
  EXPECT_FALSE(CheckedAlignUp(std::numeric_limits<uint64_t>::max(), 16, &out));
}

}  // namespace
}  // namespace memplan
