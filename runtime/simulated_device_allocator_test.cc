#include "runtime/simulated_device_allocator.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/core/error_matchers.h"

namespace memplan {
namespace {

using ::memplan::testing::IsError;
using ::testing::HasSubstr;

SimulatedDeviceOptions Options(uint64_t capacity) {
  SimulatedDeviceOptions options;
  options.capacity_bytes = capacity;
  return options;
}

TEST(SimulatedDeviceAllocatorTest, ReportsTheConfiguredDeviceType) {
  SimulatedDeviceOptions options;
  options.device_type = DeviceType::kCpu;
  EXPECT_EQ(SimulatedDeviceAllocator(options).device_type(), DeviceType::kCpu);
  EXPECT_EQ(SimulatedDeviceAllocator().device_type(), DeviceType::kCuda);
}

TEST(SimulatedDeviceAllocatorTest, CapacityIsPerIndex) {
  SimulatedDeviceAllocator allocator(Options(1000));
  Result<void*> a = allocator.allocate(600, 64, 0);
  ASSERT_TRUE(a.ok());
  Result<void*> over = allocator.allocate(401, 64, 0);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().code(), ErrorCode::kOutOfMemory);
  EXPECT_THAT(over.error().message(), HasSubstr("capacity 1000"));
  // The exact remainder fits, and index 1 has its own 1000 bytes.
  Result<void*> rest = allocator.allocate(400, 64, 0);
  ASSERT_TRUE(rest.ok());
  Result<void*> other = allocator.allocate(1000, 64, 1);
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(allocator.live_bytes(0), 1000u);
  EXPECT_EQ(allocator.live_bytes(1), 1000u);
  ASSERT_TRUE(allocator.deallocate(*a, 0).ok());
  // Freed bytes return to the index.
  EXPECT_TRUE(allocator.allocate(600, 64, 0).ok());
  EXPECT_EQ(allocator.allocate(uint64_t{1} << 63, 8, 1).error().code(),
            ErrorCode::kOutOfMemory);
  EXPECT_EQ(allocator.allocate(8, 8, 2).error().code(), ErrorCode::kNotFound);
}

TEST(SimulatedDeviceAllocatorTest, AlignmentAndZeroBytes) {
  SimulatedDeviceAllocator allocator;
  for (uint64_t alignment = 1; alignment <= 4096; alignment *= 2) {
    Result<void*> ptr = allocator.allocate(alignment % 7, alignment, 0);
    ASSERT_TRUE(ptr.ok());
    EXPECT_EQ(reinterpret_cast<uintptr_t>(*ptr) % alignment, 0u);
    ASSERT_TRUE(allocator.deallocate(*ptr, 0).ok());
  }
  EXPECT_EQ(allocator.allocate(8, 24, 0).error().code(),
            ErrorCode::kInvalidArgument);
  Result<void*> a = allocator.allocate(0, 8, 0);
  Result<void*> b = allocator.allocate(0, 8, 0);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(*a, *b);
  EXPECT_TRUE(allocator.deallocate(*a, 0).ok());
  EXPECT_TRUE(allocator.deallocate(*b, 0).ok());
}

TEST(SimulatedDeviceAllocatorTest, BackCanaryCorruptionIsDetected) {
  SimulatedDeviceAllocator allocator;
  Result<void*> ptr = allocator.allocate(32, 16, 0);
  ASSERT_TRUE(ptr.ok());
  EXPECT_TRUE(allocator.CheckCanaries().ok());
  static_cast<unsigned char*>(*ptr)[32] = 0;  // One byte past the end.
  Error canaries = allocator.CheckCanaries();
  EXPECT_EQ(canaries.code(), ErrorCode::kInternal);
  EXPECT_THAT(canaries.message(), HasSubstr("back canary"));
  EXPECT_THAT(canaries.message(), HasSubstr("nbytes + 0"));
  Error freed = allocator.deallocate(*ptr, 0);
  EXPECT_THAT(freed.message(), HasSubstr("back canary"));
  // Freed anyway, so nothing leaks.
  EXPECT_TRUE(allocator.CheckNoLeaks().ok());
}

TEST(SimulatedDeviceAllocatorTest, FrontCanaryCorruptionIsDetected) {
  SimulatedDeviceAllocator allocator;
  Result<void*> ptr = allocator.allocate(32, 64, 0);
  ASSERT_TRUE(ptr.ok());
  static_cast<unsigned char*>(*ptr)[-1] = 0;
  EXPECT_THAT(allocator.CheckCanaries(),
              IsError(ErrorCode::kInternal, HasSubstr("front canary")));
  EXPECT_THAT(allocator.deallocate(*ptr, 0),
              IsError(ErrorCode::kInternal, HasSubstr("front canary")));
}

TEST(SimulatedDeviceAllocatorTest, WriteAfterFreeIsDetected) {
  SimulatedDeviceAllocator allocator;
  Result<void*> ptr = allocator.allocate(32, 16, 0);
  ASSERT_TRUE(ptr.ok());
  ASSERT_TRUE(allocator.deallocate(*ptr, 0).ok());
  EXPECT_TRUE(allocator.CheckCanaries().ok());
  static_cast<unsigned char*>(*ptr)[5] = 1;  // Quarantined, still mapped.
  EXPECT_THAT(allocator.CheckCanaries().message(),
              HasSubstr("written after free at byte 5"));
}

TEST(SimulatedDeviceAllocatorTest, FailsEveryNthFallibleCall) {
  SimulatedDeviceOptions options;
  options.fail_every_nth = 3;
  SimulatedDeviceAllocator allocator(options);
  std::vector<void*> live;
  std::vector<bool> failed;
  for (int call = 1; call <= 9; ++call) {
    Result<void*> ptr = allocator.allocate(16, 16, 0);
    failed.push_back(!ptr.ok());
    if (ptr.ok()) {
      live.push_back(*ptr);
    } else {
      EXPECT_EQ(ptr.error().code(), ErrorCode::kOutOfMemory);
      EXPECT_THAT(ptr.error().message(),
                  HasSubstr("injected fault at call " + std::to_string(call)));
    }
  }
  EXPECT_THAT(failed, ::testing::ElementsAre(false, false, true, false, false,
                                             true, false, false, true));
  EXPECT_EQ(allocator.stats().injected_faults, 3u);
  EXPECT_EQ(allocator.stats().failed_allocations, 3u);
  // Copies count too: call 10, 11 pass, 12 fails.
  char host[16] = {};
  EXPECT_TRUE(allocator.copy_host_to_device(live[0], host, 16, 0).ok());
  EXPECT_TRUE(allocator.copy_device_to_host(host, live[0], 16, 0).ok());
  EXPECT_EQ(allocator.copy_host_to_device(live[0], host, 16, 0).code(),
            ErrorCode::kUnavailable);
  for (void* ptr : live) EXPECT_TRUE(allocator.deallocate(ptr, 0).ok());
  EXPECT_TRUE(allocator.CheckNoLeaks().ok());
}

TEST(SimulatedDeviceAllocatorTest, FailsAtTheKthCallOnly) {
  SimulatedDeviceOptions options;
  options.fail_at_call = 2;
  SimulatedDeviceAllocator allocator(options);
  Result<void*> a = allocator.allocate(8, 8, 0);
  Result<void*> b = allocator.allocate(8, 8, 0);
  Result<void*> c = allocator.allocate(8, 8, 0);
  EXPECT_TRUE(a.ok());
  EXPECT_THAT(b, IsError(ErrorCode::kOutOfMemory,
                         HasSubstr("injected fault at call 2")));
  EXPECT_TRUE(c.ok());
  EXPECT_EQ(allocator.fallible_calls(), 3u);
  EXPECT_TRUE(allocator.deallocate(*a, 0).ok());
  EXPECT_TRUE(allocator.deallocate(*c, 0).ok());
}

TEST(SimulatedDeviceAllocatorTest, LeaksAreReported) {
  SimulatedDeviceAllocator allocator;
  Result<void*> a = allocator.allocate(100, 8, 0);
  Result<void*> b = allocator.allocate(28, 8, 1);
  ASSERT_TRUE(a.ok() && b.ok());
  Error leaks = allocator.CheckNoLeaks();
  EXPECT_EQ(leaks.code(), ErrorCode::kInternal);
  EXPECT_THAT(leaks.message(), HasSubstr("2 allocation(s), 128 bytes"));
  EXPECT_EQ(allocator.stats().live_allocations, 2u);
  ASSERT_TRUE(allocator.deallocate(*a, 0).ok());
  ASSERT_TRUE(allocator.deallocate(*b, 1).ok());
  EXPECT_TRUE(allocator.CheckNoLeaks().ok());
  EXPECT_EQ(allocator.stats().peak_live_bytes, 128u);
}

TEST(SimulatedDeviceAllocatorTest, DoubleFreeAndUnknownPointerAreErrors) {
  SimulatedDeviceAllocator allocator;
  Result<void*> a = allocator.allocate(64, 8, 0);
  ASSERT_TRUE(a.ok());
  EXPECT_THAT(allocator.deallocate(*a, 1).message(), HasSubstr("index 0"));
  ASSERT_TRUE(allocator.deallocate(*a, 0).ok());
  // Later allocations cannot reuse a quarantined address.
  std::vector<void*> later;
  for (int i = 0; i < 8; ++i) later.push_back(*allocator.allocate(64, 8, 0));
  Error twice = allocator.deallocate(*a, 0);
  EXPECT_EQ(twice.code(), ErrorCode::kInvalidArgument);
  EXPECT_THAT(twice.message(), HasSubstr("double free"));
  int local = 0;
  EXPECT_THAT(allocator.deallocate(&local, 0).message(),
              HasSubstr("never allocated"));
  for (void* ptr : later) EXPECT_TRUE(allocator.deallocate(ptr, 0).ok());
  EXPECT_EQ(allocator.stats().deallocate_calls, 12u);
  EXPECT_EQ(allocator.stats().rejected_deallocations, 3u);
}

TEST(SimulatedDeviceAllocatorTest, CopiesMustLieInsideOneLiveAllocation) {
  SimulatedDeviceAllocator allocator;
  Result<void*> a = allocator.allocate(16, 16, 0);
  ASSERT_TRUE(a.ok());
  unsigned char host[32];
  for (int i = 0; i < 32; ++i) host[i] = static_cast<unsigned char>(i + 1);
  char* base = static_cast<char*>(*a);
  ASSERT_TRUE(allocator.copy_host_to_device(base, host, 16, 0).ok());
  unsigned char back[16] = {};
  ASSERT_TRUE(allocator.copy_device_to_host(back, base, 16, 0).ok());
  EXPECT_EQ(std::memcmp(back, host, 16), 0);
  const auto outside_on = [](int index) {
    return IsError(ErrorCode::kInvalidArgument,
                   HasSubstr("does not lie inside one live allocation on "
                             "index " +
                             std::to_string(index)));
  };
  EXPECT_THAT(allocator.copy_host_to_device(base, host, 17, 0), outside_on(0));
  EXPECT_THAT(allocator.copy_host_to_device(base + 1, host, 16, 0),
              outside_on(0));
  EXPECT_THAT(allocator.copy_host_to_device(base, host, 16, 1), outside_on(1));
  EXPECT_THAT(allocator.copy_host_to_device(
                  base, host, std::numeric_limits<uint64_t>::max(), 0),
              outside_on(0));
  EXPECT_TRUE(allocator.CheckCanaries().ok());
  ASSERT_TRUE(allocator.deallocate(*a, 0).ok());
  EXPECT_THAT(allocator.copy_device_to_host(back, base, 1, 0), outside_on(0));
}

}  // namespace
}  // namespace memplan
