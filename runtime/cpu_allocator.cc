#include "runtime/cpu_allocator.h"

#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime/core/checked_math.h"
#include "runtime/live_allocation.h"

namespace memplan {

CpuAllocator::~CpuAllocator() {
  // Memory still owned here would otherwise leak for good.
  for (const auto& [base, nbytes] : live_) {
    std::free(reinterpret_cast<void*>(base));
  }
}

Result<void*> CpuAllocator::allocate(uint64_t nbytes, uint64_t alignment,
                                     DeviceIndex index) {
  MEMPLAN_RETURN_IF_ERROR(CheckAlignment(alignment));
  MEMPLAN_RETURN_IF_ERROR(CheckDeviceIndex(DeviceType::kCpu, index));
  if (nbytes > max_allocation_bytes_ || alignment > max_allocation_bytes_) {
    return Error(
        ErrorCode::kOutOfMemory,
        "cpu allocate: nbytes = " + std::to_string(nbytes) +
            ", alignment = " + std::to_string(alignment) +
            ", each must be <= " + std::to_string(max_allocation_bytes_));
  }
  // posix_memalign wants a multiple of sizeof(void*); a zero-byte request
  // still gets one byte so that its pointer is unique.
  uint64_t align = alignment < sizeof(void*) ? sizeof(void*) : alignment;
  size_t request = nbytes == 0 ? 1 : static_cast<size_t>(nbytes);
  void* ptr = nullptr;
  if (posix_memalign(&ptr, static_cast<size_t>(align), request) != 0 ||
      ptr == nullptr) {
    return Error(ErrorCode::kOutOfMemory,
                 "cpu allocate: posix_memalign failed for nbytes = " +
                     std::to_string(nbytes) +
                     ", alignment = " + std::to_string(alignment));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  live_[reinterpret_cast<uintptr_t>(ptr)] = nbytes;
  live_bytes_ += nbytes;
  return ptr;
}

Error CpuAllocator::deallocate(void* ptr, DeviceIndex index) {
  if (ptr == nullptr) return Error::Ok();
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = live_.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == live_.end()) {
    return Error(ErrorCode::kInvalidArgument,
                 "cpu deallocate: pointer was not allocated here or was "
                 "already freed");
  }
  live_bytes_ -= it->second;
  live_.erase(it);
  std::free(ptr);
  return Error::Ok();
}

Error CpuAllocator::CheckOwned(const void* ptr, uint64_t nbytes,
                               const char* what) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (FindLiveAllocation(live_, ptr, nbytes,
                         [](uint64_t size) { return size; }) != nullptr) {
    return Error::Ok();
  }
  return Error(ErrorCode::kInvalidArgument,
               std::string("cpu ") + what + ": [ptr, ptr + " +
                   std::to_string(nbytes) +
                   ") does not lie inside one live allocation");
}

Error CpuAllocator::copy_host_to_device(void* dst, const void* src,
                                        uint64_t nbytes, DeviceIndex index) {
  MEMPLAN_RETURN_IF_ERROR(CheckDeviceIndex(DeviceType::kCpu, index));
  MEMPLAN_RETURN_IF_ERROR(CheckOwned(dst, nbytes, "copy_host_to_device dst"));
  if (nbytes == 0) return Error::Ok();
  if (src == nullptr) {
    return Error(ErrorCode::kInvalidArgument,
                 "cpu copy_host_to_device: src is null");
  }
  std::memcpy(dst, src, static_cast<size_t>(nbytes));
  return Error::Ok();
}

Error CpuAllocator::copy_device_to_host(void* dst, const void* src,
                                        uint64_t nbytes, DeviceIndex index) {
  MEMPLAN_RETURN_IF_ERROR(CheckDeviceIndex(DeviceType::kCpu, index));
  MEMPLAN_RETURN_IF_ERROR(CheckOwned(src, nbytes, "copy_device_to_host src"));
  if (nbytes == 0) return Error::Ok();
  if (dst == nullptr) {
    return Error(ErrorCode::kInvalidArgument,
                 "cpu copy_device_to_host: dst is null");
  }
  std::memcpy(dst, src, static_cast<size_t>(nbytes));
  return Error::Ok();
}

size_t CpuAllocator::live_allocations() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return live_.size();
}

uint64_t CpuAllocator::live_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return live_bytes_;
}

}  // namespace memplan
