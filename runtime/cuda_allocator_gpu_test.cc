// CudaAllocator against a real GPU. Linked statically (cudart included) so
// the binary can be copied to a GPU machine and run there; it skips where
// cudaGetDeviceCount reports no device.
#include <cstdint>
#include <cstring>
#include <iostream>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/cuda_allocator.h"

namespace memplan {
namespace {

class CudaAllocatorGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<int> count = CudaAllocator::DeviceCount();
    if (!count.ok()) {
      GTEST_SKIP() << "no CUDA device here: " << count.error().message();
    }
    device_count_ = *count;
  }
  int device_count_ = 0;
};

TEST_F(CudaAllocatorGpuTest, AlignmentsFrom1To1MiB) {
  CudaAllocator allocator;
  std::vector<void*> ptrs;
  for (uint64_t alignment = 1; alignment <= (uint64_t{1} << 20);
       alignment *= 2) {
    Result<void*> ptr = allocator.allocate(1000, alignment, 0);
    ASSERT_TRUE(ptr.ok()) << ptr.error().ToString();
    EXPECT_EQ(reinterpret_cast<uintptr_t>(*ptr) % alignment, 0u) << alignment;
    ptrs.push_back(*ptr);
  }
  EXPECT_EQ(allocator.live_allocations(), ptrs.size());
  for (void* ptr : ptrs) EXPECT_TRUE(allocator.deallocate(ptr, 0).ok());
  EXPECT_EQ(allocator.live_allocations(), 0u);
}

TEST_F(CudaAllocatorGpuTest, RoundTripThroughDeviceMemory) {
  CudaAllocator allocator;
  constexpr uint64_t kBytes = 1 << 20;
  Result<void*> ptr = allocator.allocate(kBytes, 4096, 0);
  ASSERT_TRUE(ptr.ok()) << ptr.error().ToString();
  std::vector<uint8_t> in(kBytes), out(kBytes, 0);
  for (uint64_t i = 0; i < kBytes; ++i) in[i] = static_cast<uint8_t>(i * 7);
  ASSERT_TRUE(allocator.copy_host_to_device(*ptr, in.data(), kBytes, 0).ok());
  ASSERT_TRUE(allocator.copy_device_to_host(out.data(), *ptr, kBytes, 0).ok());
  EXPECT_EQ(in, out);
  // A copy that runs past the allocation is refused, not executed.
  EXPECT_EQ(
      allocator.copy_host_to_device(*ptr, in.data(), kBytes + 1, 0).code(),
      ErrorCode::kInvalidArgument);
  EXPECT_TRUE(allocator.deallocate(*ptr, 0).ok());
  EXPECT_EQ(allocator.deallocate(*ptr, 0).code(), ErrorCode::kInvalidArgument);
}

TEST_F(CudaAllocatorGpuTest, ZeroBytesAndMissingDevice) {
  CudaAllocator allocator;
  Result<void*> a = allocator.allocate(0, 256, 0);
  Result<void*> b = allocator.allocate(0, 256, 0);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(*a, *b);
  EXPECT_TRUE(allocator.deallocate(*a, 0).ok());
  EXPECT_TRUE(allocator.deallocate(*b, 0).ok());
  Result<void*> missing =
      allocator.allocate(16, 256, static_cast<DeviceIndex>(device_count_));
  EXPECT_EQ(missing.error().code(), ErrorCode::kNotFound);
}

TEST_F(CudaAllocatorGpuTest, ImpossibleSizeIsOutOfMemory) {
  CudaAllocator allocator;
  Result<void*> huge = allocator.allocate(uint64_t{1} << 50, 256, 0);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.error().code(), ErrorCode::kOutOfMemory)
      << huge.error().ToString();
  EXPECT_EQ(allocator.allocate(UINT64_MAX, 1024, 0).error().code(),
            ErrorCode::kOutOfMemory);
}

TEST_F(CudaAllocatorGpuTest, EveryDeviceIndexWorks) {
  CudaAllocator allocator;
  for (int index = 0; index < device_count_; ++index) {
    Result<void*> ptr =
        allocator.allocate(4096, 512, static_cast<DeviceIndex>(index));
    ASSERT_TRUE(ptr.ok()) << index << ": " << ptr.error().ToString();
    if (device_count_ > 1) {
      // Freeing with another index is refused and leaves it live.
      DeviceIndex wrong = static_cast<DeviceIndex>((index + 1) % device_count_);
      EXPECT_FALSE(allocator.deallocate(*ptr, wrong).ok());
    }
    EXPECT_TRUE(
        allocator.deallocate(*ptr, static_cast<DeviceIndex>(index)).ok());
  }
}

}  // namespace
}  // namespace memplan
