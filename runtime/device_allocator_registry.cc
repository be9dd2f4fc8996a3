#include "runtime/device_allocator_registry.h"

#include <mutex>
#include <string>
#include <utility>

#include "runtime/cpu_allocator.h"

namespace memplan {

Error DeviceAllocatorRegistry::Register(
    std::shared_ptr<DeviceAllocator> allocator) {
  if (allocator == nullptr) {
    return Error(ErrorCode::kInvalidArgument, "allocator is null");
  }
  DeviceType type = allocator->device_type();
  int raw = static_cast<int>(type);
  if (!IsKnownDeviceType(raw)) {
    return Error(ErrorCode::kInvalidArgument,
                 "allocator device_type = " + std::to_string(raw) +
                     ", must be < " + std::to_string(kNumDeviceTypes));
  }
  std::unique_lock<std::shared_mutex> lock(mutex_);
  if (allocators_[raw] != nullptr) {
    return Error(ErrorCode::kAlreadyExists,
                 std::string("an allocator for device type ") +
                     DeviceTypeName(type) + " is already registered");
  }
  allocators_[raw] = std::move(allocator);
  return Error::Ok();
}

Result<std::shared_ptr<DeviceAllocator>> DeviceAllocatorRegistry::Get(
    DeviceType type) const {
  int raw = static_cast<int>(type);
  if (!IsKnownDeviceType(raw)) {
    return Error(ErrorCode::kNotFound, "device_type = " + std::to_string(raw) +
                                           " is unknown, must be < " +
                                           std::to_string(kNumDeviceTypes));
  }
  std::shared_lock<std::shared_mutex> lock(mutex_);
  if (allocators_[raw] == nullptr) {
    return Error(ErrorCode::kNotFound,
                 std::string("no allocator registered for device type ") +
                     DeviceTypeName(type));
  }
  return allocators_[raw];
}

DeviceAllocatorRegistry& DeviceAllocatorRegistry::Global() {
  // Leaked on purpose: buffers freed during static destruction still find
  // their allocator.
  static DeviceAllocatorRegistry* registry = [] {
    auto* r = new DeviceAllocatorRegistry();
    // Installed directly: Register could only fail on a second CPU one.
    r->allocators_[static_cast<int>(DeviceType::kCpu)] =
        std::make_shared<CpuAllocator>();
    return r;
  }();
  return *registry;
}

}  // namespace memplan
