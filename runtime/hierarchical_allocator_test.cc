#include "runtime/hierarchical_allocator.h"

#include <cstdint>
#include <limits>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/core/error_matchers.h"

namespace memplan {
namespace {

using ::memplan::testing::IsError;
using ::testing::HasSubstr;

class HierarchicalAllocatorTest : public ::testing::Test {
 protected:
  char cpu_[64] = {};
  char cuda_[128] = {};
  HierarchicalAllocator allocator_{{{cpu_, sizeof(cpu_), Device::Cpu()},
                                    {cuda_, sizeof(cuda_), Device::Cuda(1)}}};
};

TEST_F(HierarchicalAllocatorTest, ResolvesOffsetsInsideTheRightBuffer) {
  EXPECT_EQ(*allocator_.get_offset_address(1, 0, 64), cpu_);
  EXPECT_EQ(*allocator_.get_offset_address(2, 100, 28), cuda_ + 100);
  EXPECT_EQ(*allocator_.get_offset_address(2, 128, 0), cuda_ + 128);
  EXPECT_EQ(*allocator_.device(1), Device::Cpu());
  EXPECT_EQ(*allocator_.device(2), Device::Cuda(1));
}

TEST_F(HierarchicalAllocatorTest, MemoryIdZeroIsReserved) {
  EXPECT_THAT(allocator_.get_offset_address(0, 0, 1),
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("memory_id = 0 is reserved for constants")));
  EXPECT_THAT(allocator_.device(0),
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("memory_id = 0 is reserved for constants")));
}

TEST_F(HierarchicalAllocatorTest, MemoryIdOutOfRange) {
  EXPECT_THAT(
      allocator_.get_offset_address(3, 0, 1),
      IsError(ErrorCode::kInvalidArgument,
              HasSubstr("memory_id = 3, must be <= num planned buffers 2")));
  EXPECT_THAT(allocator_.device(std::numeric_limits<uint32_t>::max()),
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("memory_id = 4294967295, must be <= num "
                                "planned buffers 2")));
}

TEST_F(HierarchicalAllocatorTest, RangePastTheEndIsRefused) {
  EXPECT_THAT(allocator_.get_offset_address(1, 1, 64),
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("memory_id 1: offset 1 + nbytes 64 exceeds "
                                "buffer size 64")));
  EXPECT_THAT(
      allocator_.get_offset_address(1, 65, 0),
      IsError(ErrorCode::kInvalidArgument,
              HasSubstr("offset 65 + nbytes 0 exceeds buffer size 64")));
}

TEST_F(HierarchicalAllocatorTest, OffsetPlusNbytesOverflowIsRefused) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  // Refused as past the end, not wrapped around to a small address.
  const auto past_the_end = IsError(ErrorCode::kInvalidArgument,
                                    HasSubstr("exceeds buffer size 128"));
  EXPECT_THAT(allocator_.get_offset_address(2, kMax, 2), past_the_end);
  EXPECT_THAT(allocator_.get_offset_address(2, 2, kMax), past_the_end);
  EXPECT_THAT(allocator_.get_offset_address(2, kMax, kMax), past_the_end);
}

}  // namespace
}  // namespace memplan
