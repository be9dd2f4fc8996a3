#include "runtime/load_check.h"

#include <algorithm>
#include <memory>

#include "runtime/cpu_allocator.h"
#include "runtime/cuda_allocator.h"
#include "runtime/device_allocator_registry.h"
#include "runtime/loader.h"
#include "runtime/simulated_device_allocator.h"

namespace memplan {
namespace {

int GpuCount() {
  static const int count = [] {
    Result<int> devices = CudaAllocator::DeviceCount();
    return devices.ok() ? *devices : 0;
  }();
  return count;
}

}  // namespace

Error LoadAndCheckMethod(const Program& program, size_t method_index,
                         const LoadCheckOptions& options, std::string* detail) {
  std::string used;
  if (detail == nullptr) detail = &used;
  Result<MethodMeta> meta = program.method_meta(method_index);
  if (!meta.ok()) return meta.error();
  int max_cuda_index = -1;
  for (const Device& device : meta->memory_planned_buffer_devices()) {
    if (device.type == DeviceType::kCuda) {
      max_cuda_index = std::max<int>(max_cuda_index, device.index);
    }
  }
  DeviceAllocatorRegistry registry;
  MEMPLAN_RETURN_IF_ERROR(registry.Register(std::make_shared<CpuAllocator>()));
  *detail = "cpu";
  std::shared_ptr<SimulatedDeviceAllocator> simulated;
  if (max_cuda_index >= 0) {
    if (options.use_gpu && GpuCount() > max_cuda_index) {
      MEMPLAN_RETURN_IF_ERROR(
          registry.Register(std::make_shared<CudaAllocator>()));
      *detail += " + cuda";
    } else {
      SimulatedDeviceOptions simulated_options;
      simulated_options.num_devices = std::max(2, max_cuda_index + 1);
      simulated_options.capacity_bytes = uint64_t{1} << 36;
      simulated = std::make_shared<SimulatedDeviceAllocator>(simulated_options);
      MEMPLAN_RETURN_IF_ERROR(registry.Register(simulated));
      *detail += " + simulated cuda";
    }
  }
  {
    Result<LoadedMethod> method = LoadMethodAt(program, method_index, registry);
    if (!method.ok()) return method.error();
    MEMPLAN_RETURN_IF_ERROR(method->CheckTensorsInOwnBuffers());
    if (simulated) MEMPLAN_RETURN_IF_ERROR(simulated->CheckCanaries());
  }
  if (simulated) MEMPLAN_RETURN_IF_ERROR(simulated->CheckNoLeaks());
  return Error::Ok();
}

}  // namespace memplan
