// DeviceMemoryBuffer: one allocation on one device, owned (RAII, move-only)
// and freed through the allocator that made it.
#pragma once

#include <cstdint>
#include <memory>

#include "runtime/core/device.h"
#include "runtime/core/error.h"
#include "runtime/core/result.h"
#include "runtime/device_allocator.h"
#include "runtime/device_allocator_registry.h"

namespace memplan {

class DeviceMemoryBuffer {
 public:
  // Allocates through the registry's allocator for device.type.
  static Result<DeviceMemoryBuffer> Create(uint64_t size, uint64_t alignment,
                                           Device device,
                                           DeviceAllocatorRegistry& registry);

  DeviceMemoryBuffer() = default;  // Empty: owns nothing.
  ~DeviceMemoryBuffer();
  DeviceMemoryBuffer(DeviceMemoryBuffer&& other) noexcept;
  DeviceMemoryBuffer& operator=(DeviceMemoryBuffer&& other) noexcept;
  DeviceMemoryBuffer(const DeviceMemoryBuffer&) = delete;
  DeviceMemoryBuffer& operator=(const DeviceMemoryBuffer&) = delete;

  void* data() const { return data_; }
  uint64_t size() const { return size_; }
  Device device() const { return device_; }
  bool empty() const { return data_ == nullptr; }
  const std::shared_ptr<DeviceAllocator>& allocator() const {
    return allocator_;
  }

  // Frees now and reports what the allocator said (the destructor cannot);
  // the buffer is empty afterwards either way.
  Error Release();

  // Copies into / out of [offset, offset + nbytes) of this buffer, bounds
  // checked without overflow.
  Error CopyFromHost(uint64_t offset, const void* src, uint64_t nbytes);
  Error CopyToHost(uint64_t offset, void* dst, uint64_t nbytes) const;

 private:
  DeviceMemoryBuffer(void* data, uint64_t size, Device device,
                     std::shared_ptr<DeviceAllocator> allocator)
      : data_(data),
        size_(size),
        device_(device),
        allocator_(std::move(allocator)) {}
  Error CheckRange(uint64_t offset, uint64_t nbytes, const char* what) const;

  void* data_ = nullptr;
  uint64_t size_ = 0;
  Device device_;
  std::shared_ptr<DeviceAllocator> allocator_;
};

}  // namespace memplan
