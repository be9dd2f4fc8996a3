// CpuAllocator: aligned host memory. It remembers every live allocation so
// that freeing or copying into memory it does not own is an error, not UB.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>

#include "runtime/device_allocator.h"

namespace memplan {

class CpuAllocator : public DeviceAllocator {
 public:
  // Requests above this are kOutOfMemory without asking the C library
  // (sanitizers abort on absurd sizes instead of returning null).
  static constexpr uint64_t kDefaultMaxAllocationBytes = uint64_t{1} << 38;

  explicit CpuAllocator(
      uint64_t max_allocation_bytes = kDefaultMaxAllocationBytes)
      : max_allocation_bytes_(max_allocation_bytes) {}
  ~CpuAllocator() override;

  // Any index >= 0 means host memory.
  Result<void*> allocate(uint64_t nbytes, uint64_t alignment,
                         DeviceIndex index) override;
  Error deallocate(void* ptr, DeviceIndex index) override;
  Error copy_host_to_device(void* dst, const void* src, uint64_t nbytes,
                            DeviceIndex index) override;
  Error copy_device_to_host(void* dst, const void* src, uint64_t nbytes,
                            DeviceIndex index) override;
  DeviceType device_type() const override { return DeviceType::kCpu; }

  size_t live_allocations() const;
  uint64_t live_bytes() const;

 private:
  // Checks that [ptr, ptr + nbytes) lies inside one live allocation.
  Error CheckOwned(const void* ptr, uint64_t nbytes, const char* what) const;

  const uint64_t max_allocation_bytes_;
  mutable std::mutex mutex_;
  std::map<uintptr_t, uint64_t> live_;  // Base address -> requested bytes.
  uint64_t live_bytes_ = 0;
};

}  // namespace memplan
