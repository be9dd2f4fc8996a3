#include "runtime/cpu_allocator.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace memplan {
namespace {

TEST(CpuAllocatorTest, HonoursEveryPowerOfTwoAlignmentUpTo4096) {
  CpuAllocator allocator;
  for (uint64_t alignment = 1; alignment <= 4096; alignment *= 2) {
    for (uint64_t nbytes :
         {uint64_t{1}, uint64_t{3}, uint64_t{100}, uint64_t{4097}}) {
      Result<void*> ptr = allocator.allocate(nbytes, alignment, 0);
      ASSERT_TRUE(ptr.ok()) << ptr.error().ToString();
      EXPECT_EQ(reinterpret_cast<uintptr_t>(*ptr) % alignment, 0u)
          << "alignment " << alignment << " nbytes " << nbytes;
      std::memset(*ptr, 0x5A, nbytes);  // ASan catches a short allocation.
      EXPECT_TRUE(allocator.deallocate(*ptr, 0).ok());
    }
  }
  EXPECT_EQ(allocator.live_allocations(), 0u);
}

TEST(CpuAllocatorTest, RefusesAlignmentsThatAreNotPowersOfTwo) {
  CpuAllocator allocator;
  for (uint64_t alignment : {0, 3, 6, 12, 100, 4095}) {
    Result<void*> ptr = allocator.allocate(16, alignment, 0);
    ASSERT_FALSE(ptr.ok()) << alignment;
    EXPECT_EQ(ptr.error().code(), ErrorCode::kInvalidArgument);
    EXPECT_THAT(ptr.error().message(),
                ::testing::HasSubstr(std::to_string(alignment)));
  }
}

TEST(CpuAllocatorTest, ZeroBytesGivesUniquePointers) {
  CpuAllocator allocator;
  std::set<void*> seen;
  std::vector<void*> ptrs;
  for (int i = 0; i < 16; ++i) {
    Result<void*> ptr = allocator.allocate(0, 64, 0);
    ASSERT_TRUE(ptr.ok());
    EXPECT_NE(*ptr, nullptr);
    EXPECT_TRUE(seen.insert(*ptr).second);
    ptrs.push_back(*ptr);
  }
  for (void* ptr : ptrs) EXPECT_TRUE(allocator.deallocate(ptr, 0).ok());
}

TEST(CpuAllocatorTest, HugeRequestsAreOutOfMemory) {
  CpuAllocator allocator;
  for (uint64_t nbytes : {std::numeric_limits<uint64_t>::max(),
                          uint64_t{1} << 62, uint64_t{1} << 39}) {
    Result<void*> ptr = allocator.allocate(nbytes, 64, 0);
    ASSERT_FALSE(ptr.ok());
    EXPECT_EQ(ptr.error().code(), ErrorCode::kOutOfMemory);
  }
  EXPECT_EQ(allocator.allocate(8, uint64_t{1} << 63, 0).error().code(),
            ErrorCode::kOutOfMemory);
}

TEST(CpuAllocatorTest, UnknownAndDoubleFreesAreErrors) {
  CpuAllocator allocator;
  int on_stack = 0;
  EXPECT_EQ(allocator.deallocate(&on_stack, 0).code(),
            ErrorCode::kInvalidArgument);
  Result<void*> ptr = allocator.allocate(32, 16, 0);
  ASSERT_TRUE(ptr.ok());
  EXPECT_EQ(allocator.deallocate(static_cast<char*>(*ptr) + 1, 0).code(),
            ErrorCode::kInvalidArgument);
  EXPECT_TRUE(allocator.deallocate(*ptr, 0).ok());
  EXPECT_EQ(allocator.deallocate(*ptr, 0).code(), ErrorCode::kInvalidArgument);
  EXPECT_TRUE(allocator.deallocate(nullptr, 0).ok());
}

TEST(CpuAllocatorTest, CopiesStayInsideOneLiveAllocation) {
  CpuAllocator allocator;
  Result<void*> ptr = allocator.allocate(64, 64, 0);
  ASSERT_TRUE(ptr.ok());
  std::vector<unsigned char> host(64);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<uint8_t>(i);
  char* base = static_cast<char*>(*ptr);
  ASSERT_TRUE(allocator.copy_host_to_device(base, host.data(), 64, 0).ok());
  std::vector<unsigned char> back(64, 0);
  ASSERT_TRUE(allocator.copy_device_to_host(back.data(), base + 8, 56, 0).ok());
  EXPECT_EQ(back[0], 8);
  EXPECT_EQ(back[55], 63);
  EXPECT_EQ(allocator.copy_host_to_device(base + 8, host.data(), 57, 0).code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(
      allocator.copy_device_to_host(back.data(), host.data(), 4, 0).code(),
      ErrorCode::kInvalidArgument);
  EXPECT_EQ(allocator
                .copy_host_to_device(base, host.data(),
                                     std::numeric_limits<uint64_t>::max(), 0)
                .code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(allocator.live_bytes(), 64u);
  EXPECT_TRUE(allocator.deallocate(*ptr, 0).ok());
  EXPECT_EQ(allocator.live_bytes(), 0u);
}

TEST(CpuAllocatorTest, NegativeIndexIsRefused) {
  CpuAllocator allocator;
  EXPECT_EQ(allocator.allocate(8, 8, -1).error().code(),
            ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace memplan
