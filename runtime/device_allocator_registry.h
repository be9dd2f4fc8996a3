// DeviceAllocatorRegistry: which DeviceAllocator serves each DeviceType.
// Instances are independent (tests and fuzzers build their own); Global()
// is a process-wide instance for tools that want one.
#pragma once

#include <array>
#include <memory>
#include <shared_mutex>

#include "runtime/core/device.h"
#include "runtime/core/error.h"
#include "runtime/core/result.h"
#include "runtime/device_allocator.h"

namespace memplan {

class DeviceAllocatorRegistry {
 public:
  DeviceAllocatorRegistry() = default;
  DeviceAllocatorRegistry(const DeviceAllocatorRegistry&) = delete;
  DeviceAllocatorRegistry& operator=(const DeviceAllocatorRegistry&) = delete;

  // Registers `allocator` for allocator->device_type(); a second allocator
  // for the same type is kAlreadyExists, nullptr is kInvalidArgument.
  Error Register(std::shared_ptr<DeviceAllocator> allocator);
  // kNotFound when nothing is registered for `type`. Safe to call from
  // many threads, also while another thread registers.
  Result<std::shared_ptr<DeviceAllocator>> Get(DeviceType type) const;

  // Process-wide registry with a CpuAllocator registered; CUDA (or any
  // other device) is registered by the caller, so binaries that never
  // touch a GPU do not link the CUDA runtime.
  static DeviceAllocatorRegistry& Global();

 private:
  mutable std::shared_mutex mutex_;
  std::array<std::shared_ptr<DeviceAllocator>, kNumDeviceTypes> allocators_;
};

}  // namespace memplan
