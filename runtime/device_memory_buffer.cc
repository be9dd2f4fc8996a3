#include "runtime/device_memory_buffer.h"

#include <string>
#include <utility>

#include "runtime/core/checked_math.h"

namespace memplan {

Result<DeviceMemoryBuffer> DeviceMemoryBuffer::Create(
    uint64_t size, uint64_t alignment, Device device,
    DeviceAllocatorRegistry& registry) {
  Result<std::shared_ptr<DeviceAllocator>> allocator =
      registry.Get(device.type);
  if (!allocator.ok()) return allocator.error();
  Result<void*> data = (*allocator)->allocate(size, alignment, device.index);
  if (!data.ok()) {
    return Error(data.error().code(), "allocating " + std::to_string(size) +
                                          " bytes on " + device.ToString() +
                                          ": " + data.error().message());
  }
  if (*data == nullptr) {
    return Error(ErrorCode::kInternal, "allocator for " + device.ToString() +
                                           " returned null without an error");
  }
  return DeviceMemoryBuffer(*data, size, device, std::move(*allocator));
}

// A destructor cannot report the allocator's error; owners who care call
// Release() first.
DeviceMemoryBuffer::~DeviceMemoryBuffer() { static_cast<void>(Release()); }

DeviceMemoryBuffer::DeviceMemoryBuffer(DeviceMemoryBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      device_(other.device_),
      allocator_(std::move(other.allocator_)) {}

DeviceMemoryBuffer& DeviceMemoryBuffer::operator=(
    DeviceMemoryBuffer&& other) noexcept {
  if (this != &other) {
    static_cast<void>(Release());  // As the destructor.
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    device_ = other.device_;
    allocator_ = std::move(other.allocator_);
  }
  return *this;
}

Error DeviceMemoryBuffer::Release() {
  if (data_ == nullptr) return Error::Ok();
  void* data = std::exchange(data_, nullptr);
  size_ = 0;
  std::shared_ptr<DeviceAllocator> allocator = std::move(allocator_);
  allocator_ = nullptr;
  return allocator->deallocate(data, device_.index);
}

Error DeviceMemoryBuffer::CheckRange(uint64_t offset, uint64_t nbytes,
                                     const char* what) const {
  uint64_t end = 0;
  if (data_ == nullptr) {
    return Error(ErrorCode::kInvalidArgument,
                 std::string(what) + ": buffer is empty");
  }
  if (!CheckedAdd(offset, nbytes, &end) || end > size_) {
    return Error(ErrorCode::kInvalidArgument,
                 std::string(what) + ": offset " + std::to_string(offset) +
                     " + nbytes " + std::to_string(nbytes) +
                     " exceeds buffer size " + std::to_string(size_) + " on " +
                     device_.ToString());
  }
  return Error::Ok();
}

Error DeviceMemoryBuffer::CopyFromHost(uint64_t offset, const void* src,
                                       uint64_t nbytes) {
  MEMPLAN_RETURN_IF_ERROR(CheckRange(offset, nbytes, "CopyFromHost"));
  return allocator_->copy_host_to_device(static_cast<char*>(data_) + offset,
                                         src, nbytes, device_.index);
}

Error DeviceMemoryBuffer::CopyToHost(uint64_t offset, void* dst,
                                     uint64_t nbytes) const {
  MEMPLAN_RETURN_IF_ERROR(CheckRange(offset, nbytes, "CopyToHost"));
  return allocator_->copy_device_to_host(
      dst, static_cast<const char*>(data_) + offset, nbytes, device_.index);
}

}  // namespace memplan
