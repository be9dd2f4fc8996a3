#include "runtime/hierarchical_allocator.h"

#include <cstdint>
#include <limits>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace memplan {
namespace {

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
  Result<void*> ptr = allocator_.get_offset_address(0, 0, 1);
  ASSERT_FALSE(ptr.ok());
  EXPECT_THAT(ptr.error().message(), HasSubstr("reserved"));
  EXPECT_FALSE(allocator_.device(0).ok());
}

TEST_F(HierarchicalAllocatorTest, MemoryIdOutOfRange) {
  Result<void*> ptr = allocator_.get_offset_address(3, 0, 1);
  ASSERT_FALSE(ptr.ok());
  EXPECT_EQ(ptr.error().code(), ErrorCode::kInvalidArgument);
  EXPECT_THAT(ptr.error().message(), HasSubstr("memory_id = 3"));
  EXPECT_THAT(ptr.error().message(), HasSubstr("2"));
  EXPECT_FALSE(allocator_.device(std::numeric_limits<uint32_t>::max()).ok());
}

TEST_F(HierarchicalAllocatorTest, RangePastTheEndIsRefused) {
  Result<void*> ptr = allocator_.get_offset_address(1, 1, 64);
  ASSERT_FALSE(ptr.ok());
  EXPECT_THAT(ptr.error().message(),
              HasSubstr("offset 1 + nbytes 64 exceeds buffer size 64"));
  EXPECT_FALSE(allocator_.get_offset_address(1, 65, 0).ok());
}

TEST_F(HierarchicalAllocatorTest, OffsetPlusNbytesOverflowIsRefused) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  EXPECT_FALSE(allocator_.get_offset_address(2, kMax, 2).ok());
  EXPECT_FALSE(allocator_.get_offset_address(2, 2, kMax).ok());
  EXPECT_FALSE(allocator_.get_offset_address(2, kMax, kMax).ok());
}

}  // namespace
}  // namespace memplan
