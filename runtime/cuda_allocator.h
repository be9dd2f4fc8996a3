// CudaAllocator: device memory through the CUDA runtime API. Built without
// the toolkit (MEMPLAN_HAVE_CUDA unset) every call returns kUnavailable;
// built with it but run without a GPU or driver, calls return kUnavailable
// with the CUDA runtime's own explanation.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>

#include "runtime/device_allocator.h"

namespace memplan {

class CudaAllocator : public DeviceAllocator {
 public:
  CudaAllocator() = default;
  ~CudaAllocator() override;

  // cudaMalloc aligns to 256 bytes; larger alignments over-allocate and
  // remember the base that cudaFree needs.
  Result<void*> allocate(uint64_t nbytes, uint64_t alignment,
                         DeviceIndex index) override;
  Error deallocate(void* ptr, DeviceIndex index) override;
  Error copy_host_to_device(void* dst, const void* src, uint64_t nbytes,
                            DeviceIndex index) override;
  Error copy_device_to_host(void* dst, const void* src, uint64_t nbytes,
                            DeviceIndex index) override;
  DeviceType device_type() const override { return DeviceType::kCuda; }

  // Number of visible devices, or kUnavailable (no toolkit, no driver, no
  // device) with the reason.
  static Result<int> DeviceCount();
  size_t live_allocations() const;

 private:
  struct Allocation {
    void* base;  // What cudaMalloc returned.
    uint64_t nbytes;
    DeviceIndex index;
  };
  Error CheckOwned(const void* ptr, uint64_t nbytes, DeviceIndex index,
                   const char* what) const;

  mutable std::mutex mutex_;
  std::map<uintptr_t, Allocation> live_;  // Aligned address -> allocation.
};

}  // namespace memplan
