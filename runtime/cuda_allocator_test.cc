// Runs here, where the build may have the CUDA toolkit but no GPU: every
// operation must say kUnavailable, never crash. cuda_allocator_gpu_test
// covers a machine with a GPU.
#include "runtime/cuda_allocator.h"

#include <iostream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/core/error_matchers.h"

namespace memplan {
namespace {

using ::memplan::testing::IsError;
using ::testing::HasSubstr;

TEST(CudaAllocatorTest, WithoutAGpuEveryCallIsUnavailable) {
  Result<int> count = CudaAllocator::DeviceCount();
  if (count.ok()) {
    GTEST_SKIP() << "a CUDA device is present (" << *count
                 << "); see cuda_allocator_gpu_test";
  }
  EXPECT_EQ(count.error().code(), ErrorCode::kUnavailable);
  std::cerr << "CUDA says: " << count.error().message() << "\n";
  CudaAllocator allocator;
  EXPECT_EQ(allocator.device_type(), DeviceType::kCuda);
  Result<void*> ptr = allocator.allocate(1024, 256, 0);
  ASSERT_FALSE(ptr.ok());
  EXPECT_EQ(ptr.error().code(), ErrorCode::kUnavailable);
  EXPECT_FALSE(ptr.error().message().empty());
  // A pointer it never allocated is a bad argument, refused before the
  // driver is asked (as BadArgumentsAreRefusedBeforeTheDriver says).
  char host[4] = {};
  EXPECT_THAT(allocator.copy_host_to_device(host, host, 4, 0),
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("copy_host_to_device dst: [ptr, ptr + 4) does "
                                "not lie inside one live allocation")));
  EXPECT_THAT(allocator.copy_device_to_host(host, host, 4, 0),
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("copy_device_to_host src: [ptr, ptr + 4) does "
                                "not lie inside one live allocation")));
  EXPECT_THAT(allocator.deallocate(host, 0),
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("deallocate: pointer was not allocated here")));
  EXPECT_EQ(allocator.live_allocations(), 0u);
}

TEST(CudaAllocatorTest, BadArgumentsAreRefusedBeforeTheDriver) {
#ifdef MEMPLAN_HAVE_CUDA
  CudaAllocator allocator;
  EXPECT_EQ(allocator.allocate(16, 3, 0).error().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(allocator.allocate(16, 256, -1).error().code(),
            ErrorCode::kInvalidArgument);
#else
  GTEST_SKIP() << "memplan was built without the CUDA toolkit";
#endif
}

}  // namespace
}  // namespace memplan
