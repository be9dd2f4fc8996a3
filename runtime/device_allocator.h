// DeviceAllocator: the interface the loader uses to get memory for planned
// buffers on one kind of device (CPU, CUDA, a simulated device), in the
// manner of ExecuTorch's runtime/core/device_allocator.h.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/core/checked_math.h"
#include "runtime/core/device.h"
#include "runtime/core/error.h"
#include "runtime/core/result.h"

namespace memplan {

class DeviceAllocator {
 public:
  virtual ~DeviceAllocator() = default;

  // Returns memory for nbytes on device `index`, aligned to `alignment`
  // (a power of two, else kInvalidArgument). nbytes 0 yields a unique,
  // non-null pointer that must be deallocated and never dereferenced.
  // Requests the device cannot satisfy return kOutOfMemory.
  virtual Result<void*> allocate(uint64_t nbytes, uint64_t alignment,
                                 DeviceIndex index) = 0;
  // Frees a pointer returned by allocate() on the same index. nullptr is a
  // no-op; an unknown or already freed pointer is an error, never UB.
  virtual Error deallocate(void* ptr, DeviceIndex index) = 0;
  // dst (device) and src (host) must not overlap; dst must lie inside one
  // live allocation of this allocator.
  virtual Error copy_host_to_device(void* dst, const void* src, uint64_t nbytes,
                                    DeviceIndex index) = 0;
  virtual Error copy_device_to_host(void* dst, const void* src, uint64_t nbytes,
                                    DeviceIndex index) = 0;
  virtual DeviceType device_type() const = 0;
};

// The checks every allocator applies to its arguments first.
inline Error CheckAlignment(uint64_t alignment) {
  if (IsPowerOfTwo(alignment)) return Error::Ok();
  return Error(
      ErrorCode::kInvalidArgument,
      "alignment = " + std::to_string(alignment) + ", must be a power of two");
}

inline Error CheckDeviceIndex(DeviceType type, DeviceIndex index) {
  if (index >= 0) return Error::Ok();
  return Error(ErrorCode::kInvalidArgument,
               std::string(DeviceTypeName(type)) + " device index = " +
                   std::to_string(index) + ", must be >= 0");
}

}  // namespace memplan
