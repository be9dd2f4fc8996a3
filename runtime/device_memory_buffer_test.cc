#include "runtime/device_memory_buffer.h"

#include <memory>
#include <utility>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/core/error_matchers.h"
#include "runtime/cpu_allocator.h"
#include "runtime/simulated_device_allocator.h"

namespace memplan {
namespace {

using ::memplan::testing::IsError;
using ::testing::HasSubstr;

class DeviceMemoryBufferTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(registry_.Register(cpu_).ok());
    ASSERT_TRUE(registry_.Register(cuda_).ok());
  }

  DeviceAllocatorRegistry registry_;
  std::shared_ptr<CpuAllocator> cpu_ = std::make_shared<CpuAllocator>();
  std::shared_ptr<SimulatedDeviceAllocator> cuda_ =
      std::make_shared<SimulatedDeviceAllocator>();
};

TEST_F(DeviceMemoryBufferTest, CreateAllocatesOnTheRequestedDevice) {
  Result<DeviceMemoryBuffer> buffer =
      DeviceMemoryBuffer::Create(256, 128, Device::Cuda(1), registry_);
  ASSERT_TRUE(buffer.ok()) << buffer.error().ToString();
  EXPECT_EQ(buffer->size(), 256u);
  EXPECT_EQ(buffer->device(), Device::Cuda(1));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer->data()) % 128, 0u);
  EXPECT_EQ(cuda_->live_bytes(1), 256u);
  EXPECT_EQ(cpu_->live_allocations(), 0u);
}

TEST_F(DeviceMemoryBufferTest, DestructionFreesThroughTheSameAllocator) {
  {
    Result<DeviceMemoryBuffer> buffer =
        DeviceMemoryBuffer::Create(64, 64, Device::Cuda(0), registry_);
    ASSERT_TRUE(buffer.ok());
    EXPECT_THAT(cuda_->CheckNoLeaks(),
                IsError(ErrorCode::kInternal,
                        HasSubstr("1 allocation(s), 64 bytes still live")));
  }
  EXPECT_TRUE(cuda_->CheckNoLeaks().ok());
  EXPECT_EQ(cuda_->stats().deallocate_calls, 1u);
}

TEST_F(DeviceMemoryBufferTest, MoveTransfersOwnershipExactlyOnce) {
  Result<DeviceMemoryBuffer> created =
      DeviceMemoryBuffer::Create(64, 64, Device::Cuda(0), registry_);
  ASSERT_TRUE(created.ok());
  DeviceMemoryBuffer a = std::move(*created);
  void* data = a.data();
  DeviceMemoryBuffer b(std::move(a));
  EXPECT_TRUE(a.empty());  // NOLINT: checking the moved-from state.
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(b.data(), data);
  EXPECT_EQ(b.size(), 64u);

  Result<DeviceMemoryBuffer> other =
      DeviceMemoryBuffer::Create(32, 64, Device::Cuda(0), registry_);
  ASSERT_TRUE(other.ok());
  b = std::move(*other);  // Frees the 64-byte buffer b held.
  EXPECT_EQ(b.size(), 32u);
  EXPECT_EQ(cuda_->stats().live_allocations, 1u);
  EXPECT_EQ(cuda_->stats().deallocate_calls, 1u);
  b = DeviceMemoryBuffer();
  EXPECT_TRUE(cuda_->CheckNoLeaks().ok());
  // No double free anywhere: every deallocate succeeded exactly once.
  EXPECT_EQ(cuda_->stats().deallocate_calls, 2u);
}

TEST_F(DeviceMemoryBufferTest, ReleaseReportsAndEmpties) {
  Result<DeviceMemoryBuffer> buffer =
      DeviceMemoryBuffer::Create(16, 16, Device::Cuda(0), registry_);
  ASSERT_TRUE(buffer.ok());
  static_cast<unsigned char*>(buffer->data())[16] = 0;  // Overrun.
  Error released = buffer->Release();
  EXPECT_THAT(released.message(), ::testing::HasSubstr("back canary"));
  EXPECT_TRUE(buffer->empty());
  EXPECT_TRUE(buffer->Release().ok());
  EXPECT_TRUE(cuda_->CheckNoLeaks().ok());
}

TEST_F(DeviceMemoryBufferTest, CopiesAreBoundsChecked) {
  Result<DeviceMemoryBuffer> buffer =
      DeviceMemoryBuffer::Create(8, 8, Device::Cuda(0), registry_);
  ASSERT_TRUE(buffer.ok());
  const char in[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  ASSERT_TRUE(buffer->CopyFromHost(4, in, 4).ok());
  char out[4] = {};
  ASSERT_TRUE(buffer->CopyToHost(4, out, 4).ok());
  EXPECT_EQ(out[3], 4);
  EXPECT_EQ(buffer->CopyFromHost(5, in, 4).code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(buffer->CopyFromHost(UINT64_MAX, in, 2).code(),
            ErrorCode::kInvalidArgument);
}

TEST_F(DeviceMemoryBufferTest, ErrorsNameTheDevice) {
  DeviceAllocatorRegistry cpu_only;
  ASSERT_TRUE(cpu_only.Register(std::make_shared<CpuAllocator>()).ok());
  Result<DeviceMemoryBuffer> missing =
      DeviceMemoryBuffer::Create(8, 8, Device::Cuda(0), cpu_only);
  EXPECT_EQ(missing.error().code(), ErrorCode::kNotFound);
  Result<DeviceMemoryBuffer> too_big = DeviceMemoryBuffer::Create(
      uint64_t{1} << 31, 8, Device::Cuda(1), registry_);
  EXPECT_EQ(too_big.error().code(), ErrorCode::kOutOfMemory);
  EXPECT_THAT(too_big.error().message(), ::testing::HasSubstr("cuda:1"));
  EXPECT_EQ(
      DeviceMemoryBuffer::Create(8, 3, Device::Cpu(), registry_).error().code(),
      ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace memplan
