#include "runtime/device_allocator_registry.h"

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/cpu_allocator.h"
#include "runtime/simulated_device_allocator.h"

namespace memplan {
namespace {

using ::testing::HasSubstr;

std::shared_ptr<SimulatedDeviceAllocator> SimulatedCuda() {
  return std::make_shared<SimulatedDeviceAllocator>();
}

TEST(DeviceAllocatorRegistryTest, LookupReturnsTheRegisteredAllocator) {
  DeviceAllocatorRegistry registry;
  auto cuda = SimulatedCuda();
  ASSERT_TRUE(registry.Register(cuda).ok());
  Result<std::shared_ptr<DeviceAllocator>> found =
      registry.Get(DeviceType::kCuda);
  ASSERT_TRUE(found.ok()) << found.error().ToString();
  EXPECT_EQ(found->get(), cuda.get());
}

TEST(DeviceAllocatorRegistryTest, SecondRegistrationForATypeIsRefused) {
  DeviceAllocatorRegistry registry;
  auto first = SimulatedCuda();
  ASSERT_TRUE(registry.Register(first).ok());
  Error again = registry.Register(SimulatedCuda());
  EXPECT_EQ(again.code(), ErrorCode::kAlreadyExists);
  EXPECT_THAT(again.message(), HasSubstr("cuda"));
  EXPECT_EQ(registry.Get(DeviceType::kCuda)->get(), first.get());
}

TEST(DeviceAllocatorRegistryTest, UnregisteredTypeIsNotFound) {
  DeviceAllocatorRegistry registry;
  ASSERT_TRUE(registry.Register(std::make_shared<CpuAllocator>()).ok());
  Result<std::shared_ptr<DeviceAllocator>> missing =
      registry.Get(DeviceType::kCuda);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code(), ErrorCode::kNotFound);
  EXPECT_THAT(missing.error().message(), HasSubstr("cuda"));
}

TEST(DeviceAllocatorRegistryTest, UnknownTypeAndNullAreRefused) {
  DeviceAllocatorRegistry registry;
  EXPECT_EQ(registry.Get(static_cast<DeviceType>(7)).error().code(),
            ErrorCode::kNotFound);
  EXPECT_EQ(registry.Register(nullptr).code(), ErrorCode::kInvalidArgument);
  SimulatedDeviceOptions options;
  options.device_type = static_cast<DeviceType>(9);
  EXPECT_EQ(
      registry.Register(std::make_shared<SimulatedDeviceAllocator>(options))
          .code(),
      ErrorCode::kInvalidArgument);
}

TEST(DeviceAllocatorRegistryTest, ConcurrentLookupsWhileRegistering) {
  DeviceAllocatorRegistry registry;
  auto cpu = std::make_shared<CpuAllocator>();
  ASSERT_TRUE(registry.Register(cpu).ok());
  auto cuda = SimulatedCuda();
  std::atomic<int> wrong{0};
  std::atomic<int> cuda_seen{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 2000; ++i) {
        auto found = registry.Get(DeviceType::kCpu);
        if (!found.ok() || found->get() != cpu.get()) ++wrong;
        auto maybe = registry.Get(DeviceType::kCuda);
        if (maybe.ok()) {
          if (maybe->get() != cuda.get()) ++wrong;
          ++cuda_seen;
        } else if (maybe.error().code() != ErrorCode::kNotFound) {
          ++wrong;
        }
      }
    });
  }
  ASSERT_TRUE(registry.Register(cuda).ok());
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(registry.Get(DeviceType::kCuda)->get(), cuda.get());
}

TEST(DeviceAllocatorRegistryTest, GlobalHasCpu) {
  auto cpu = DeviceAllocatorRegistry::Global().Get(DeviceType::kCpu);
  ASSERT_TRUE(cpu.ok());
  EXPECT_EQ((*cpu)->device_type(), DeviceType::kCpu);
  EXPECT_EQ(&DeviceAllocatorRegistry::Global(),
            &DeviceAllocatorRegistry::Global());
}

}  // namespace
}  // namespace memplan
