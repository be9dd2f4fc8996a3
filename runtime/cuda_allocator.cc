#include "runtime/cuda_allocator.h"

#include <string>

#include "runtime/core/checked_math.h"
#include "runtime/live_allocation.h"

#ifdef MEMPLAN_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace memplan {

#ifndef MEMPLAN_HAVE_CUDA

namespace {
Error NoToolkit() {
  return Error(ErrorCode::kUnavailable,
               "memplan was built without the CUDA toolkit");
}
}  // namespace

CudaAllocator::~CudaAllocator() = default;
Result<int> CudaAllocator::DeviceCount() { return NoToolkit(); }
Result<void*> CudaAllocator::allocate(uint64_t, uint64_t, DeviceIndex) {
  return NoToolkit();
}
Error CudaAllocator::deallocate(void*, DeviceIndex) { return NoToolkit(); }
Error CudaAllocator::copy_host_to_device(void*, const void*, uint64_t,
                                         DeviceIndex) {
  return NoToolkit();
}
Error CudaAllocator::copy_device_to_host(void*, const void*, uint64_t,
                                         DeviceIndex) {
  return NoToolkit();
}
size_t CudaAllocator::live_allocations() const { return 0; }
Error CudaAllocator::CheckOwned(const void*, uint64_t, DeviceIndex,
                                const char*) const {
  return NoToolkit();
}

#else  // MEMPLAN_HAVE_CUDA

namespace {

constexpr uint64_t kCudaMallocAlignment = 256;

Error FromCuda(cudaError_t status, const std::string& call) {
  ErrorCode code = ErrorCode::kInternal;
  switch (status) {
    case cudaErrorMemoryAllocation:
      code = ErrorCode::kOutOfMemory;
      break;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorDevicesUnavailable:
    case cudaErrorInitializationError:
    case cudaErrorStubLibrary:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice:
      code = ErrorCode::kUnavailable;
      break;
    case cudaErrorInvalidDevice:
      code = ErrorCode::kNotFound;
      break;
    case cudaErrorInvalidValue:
      code = ErrorCode::kInvalidArgument;
      break;
    default:
      break;
  }
  return Error(code, call + ": " + cudaGetErrorName(status) + ": " +
                         cudaGetErrorString(status));
}

// Checks that `index` names a present device and makes it current.
Error SelectDevice(DeviceIndex index) {
  MEMPLAN_RETURN_IF_ERROR(CheckDeviceIndex(DeviceType::kCuda, index));
  Result<int> count = CudaAllocator::DeviceCount();
  if (!count.ok()) return count.error();
  if (index >= *count) {
    return Error(ErrorCode::kNotFound,
                 "cuda device index = " + std::to_string(index) +
                     ", must be < device count " + std::to_string(*count));
  }
  cudaError_t status = cudaSetDevice(index);
  if (status != cudaSuccess) {
    return FromCuda(status, "cudaSetDevice(" + std::to_string(index) + ")");
  }
  return Error::Ok();
}

}  // namespace

CudaAllocator::~CudaAllocator() {
  for (const auto& [address, allocation] : live_) {
    if (cudaSetDevice(allocation.index) == cudaSuccess) {
      cudaFree(allocation.base);
    }
  }
}

Result<int> CudaAllocator::DeviceCount() {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    Error error = FromCuda(status, "cudaGetDeviceCount");
    // No driver or no device: the toolkit is here, the GPU is not.
    return Error(ErrorCode::kUnavailable,
                 "no usable CUDA device: " + error.message());
  }
  if (count <= 0) {
    return Error(ErrorCode::kUnavailable,
                 "no usable CUDA device: cudaGetDeviceCount reported 0");
  }
  return count;
}

Result<void*> CudaAllocator::allocate(uint64_t nbytes, uint64_t alignment,
                                      DeviceIndex index) {
  MEMPLAN_RETURN_IF_ERROR(CheckAlignment(alignment));
  MEMPLAN_RETURN_IF_ERROR(SelectDevice(index));
  uint64_t request = nbytes == 0 ? 1 : nbytes;
  uint64_t padding = alignment > kCudaMallocAlignment ? alignment - 1 : 0;
  uint64_t total = 0;
  if (!CheckedAdd(request, padding, &total) || total > SIZE_MAX) {
    return Error(ErrorCode::kOutOfMemory,
                 "cuda allocate: nbytes = " + std::to_string(nbytes) +
                     " + alignment padding " + std::to_string(padding) +
                     " overflows");
  }
  void* base = nullptr;
  cudaError_t status = cudaMalloc(&base, static_cast<size_t>(total));
  if (status != cudaSuccess) {
    return FromCuda(status, "cudaMalloc(" + std::to_string(total) +
                                ") on cuda:" + std::to_string(index));
  }
  uint64_t aligned = 0;
  CheckedAlignUp(reinterpret_cast<uintptr_t>(base), alignment, &aligned);
  std::lock_guard<std::mutex> lock(mutex_);
  live_[static_cast<uintptr_t>(aligned)] = Allocation{base, nbytes, index};
  return reinterpret_cast<void*>(static_cast<uintptr_t>(aligned));
}

Error CudaAllocator::deallocate(void* ptr, DeviceIndex index) {
  if (ptr == nullptr) return Error::Ok();
  Allocation allocation{};
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == live_.end()) {
      return Error(ErrorCode::kInvalidArgument,
                   "cuda deallocate: pointer was not allocated here or was "
                   "already freed");
    }
    if (it->second.index != index) {
      return Error(ErrorCode::kInvalidArgument,
                   "cuda deallocate: pointer belongs to cuda:" +
                       std::to_string(it->second.index) +
                       ", not cuda:" + std::to_string(index));
    }
    allocation = it->second;
    live_.erase(it);
  }
  MEMPLAN_RETURN_IF_ERROR(SelectDevice(index));
  cudaError_t status = cudaFree(allocation.base);
  if (status != cudaSuccess) return FromCuda(status, "cudaFree");
  return Error::Ok();
}

Error CudaAllocator::CheckOwned(const void* ptr, uint64_t nbytes,
                                DeviceIndex index, const char* what) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const Allocation* owner = FindLiveAllocation(
      live_, ptr, nbytes, [](const Allocation& a) { return a.nbytes; });
  if (owner != nullptr && owner->index == index) return Error::Ok();
  return Error(ErrorCode::kInvalidArgument,
               std::string("cuda ") + what + ": [ptr, ptr + " +
                   std::to_string(nbytes) +
                   ") does not lie inside one live allocation on cuda:" +
                   std::to_string(index));
}

Error CudaAllocator::copy_host_to_device(void* dst, const void* src,
                                         uint64_t nbytes, DeviceIndex index) {
  MEMPLAN_RETURN_IF_ERROR(CheckDeviceIndex(DeviceType::kCuda, index));
  MEMPLAN_RETURN_IF_ERROR(
      CheckOwned(dst, nbytes, index, "copy_host_to_device dst"));
  if (nbytes == 0) return Error::Ok();
  if (src == nullptr) {
    return Error(ErrorCode::kInvalidArgument,
                 "cuda copy_host_to_device: src is null");
  }
  MEMPLAN_RETURN_IF_ERROR(SelectDevice(index));
  cudaError_t status =
      cudaMemcpy(dst, src, static_cast<size_t>(nbytes), cudaMemcpyHostToDevice);
  if (status != cudaSuccess) return FromCuda(status, "cudaMemcpy(H2D)");
  return Error::Ok();
}

Error CudaAllocator::copy_device_to_host(void* dst, const void* src,
                                         uint64_t nbytes, DeviceIndex index) {
  MEMPLAN_RETURN_IF_ERROR(CheckDeviceIndex(DeviceType::kCuda, index));
  MEMPLAN_RETURN_IF_ERROR(
      CheckOwned(src, nbytes, index, "copy_device_to_host src"));
  if (nbytes == 0) return Error::Ok();
  if (dst == nullptr) {
    return Error(ErrorCode::kInvalidArgument,
                 "cuda copy_device_to_host: dst is null");
  }
  MEMPLAN_RETURN_IF_ERROR(SelectDevice(index));
  cudaError_t status =
      cudaMemcpy(dst, src, static_cast<size_t>(nbytes), cudaMemcpyDeviceToHost);
  if (status != cudaSuccess) return FromCuda(status, "cudaMemcpy(D2H)");
  return Error::Ok();
}

size_t CudaAllocator::live_allocations() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return live_.size();
}

#endif  // MEMPLAN_HAVE_CUDA

}  // namespace memplan
