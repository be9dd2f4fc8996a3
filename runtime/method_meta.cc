#include <string>

#include "runtime/program.h"
#include "runtime/program_validator.h"

namespace memplan {
namespace {

Error BufferIndexError(size_t index, size_t num) {
  return Error(ErrorCode::kInvalidArgument,
               "memory-planned buffer index " + std::to_string(index) +
                   ", must be < " + std::to_string(num) +
                   " (len(non_const_buffer_sizes) - 1)");
}

}  // namespace

size_t MethodMeta::num_memory_planned_buffers() const {
  const auto* sizes = plan_->non_const_buffer_sizes();
  return sizes == nullptr || sizes->size() == 0 ? 0 : sizes->size() - 1;
}

Result<uint64_t> MethodMeta::memory_planned_buffer_size(size_t index) const {
  size_t num = num_memory_planned_buffers();
  if (index >= num) return BufferIndexError(index, num);
  int64_t size =
      plan_->non_const_buffer_sizes()->Get(static_cast<uint32_t>(index + 1));
  // Program::Load refused negative sizes; this guards a MethodMeta built
  // over an unvalidated plan.
  if (size < 0) {
    return Error(ErrorCode::kInvalidProgram,
                 "non_const_buffer_sizes[" + std::to_string(index + 1) +
                     "] = " + std::to_string(size) + ", must be >= 0");
  }
  return static_cast<uint64_t>(size);
}

Result<Device> MethodMeta::memory_planned_buffer_device(size_t index) const {
  size_t num = num_memory_planned_buffers();
  if (index >= num) return BufferIndexError(index, num);
  const auto* entries = plan_->non_const_buffer_device();
  if (entries == nullptr) return Device::Cpu();
  // The map is sparse: a buffer without an entry is CPU:0.
  for (const executorch_flatbuffer::NonConstBufferDevice* entry : *entries) {
    if (entry->buffer_idx() == static_cast<int64_t>(index + 1)) {
      return Device{static_cast<DeviceType>(entry->device_type()),
                    entry->device_index()};
    }
  }
  return Device::Cpu();
}

std::vector<Device> MethodMeta::memory_planned_buffer_devices() const {
  std::vector<Device> devices(num_memory_planned_buffers(), Device::Cpu());
  const auto* entries = plan_->non_const_buffer_device();
  if (entries == nullptr) return devices;
  // The first entry for a buffer wins, as in memory_planned_buffer_device
  // (Program::Load refuses duplicates and out-of-range indices anyway).
  std::vector<bool> seen(devices.size(), false);
  for (const executorch_flatbuffer::NonConstBufferDevice* entry : *entries) {
    int64_t buffer_idx = entry->buffer_idx();
    if (buffer_idx < 1 || static_cast<uint64_t>(buffer_idx) > devices.size() ||
        seen[buffer_idx - 1]) {
      continue;
    }
    seen[buffer_idx - 1] = true;
    devices[buffer_idx - 1] = Device{
        static_cast<DeviceType>(entry->device_type()), entry->device_index()};
  }
  return devices;
}

uint64_t MethodMeta::total_planned_bytes() const {
  uint64_t total = 0;
  for (size_t i = 0; i < num_memory_planned_buffers(); ++i) {
    Result<uint64_t> size = memory_planned_buffer_size(i);
    // Load bounded the sum by max_planned_bytes, so this cannot overflow.
    if (size.ok()) total += *size;
  }
  return total;
}

std::vector<PlannedTensor> MethodMeta::planned_tensors() const {
  std::vector<PlannedTensor> out;
  const auto* values = plan_->values();
  if (values == nullptr) return out;
  for (uint32_t i = 0; i < values->size(); ++i) {
    const executorch_flatbuffer::Tensor* tensor =
        values->Get(i)->val_as_Tensor();
    if (tensor == nullptr || tensor->allocation_info() == nullptr) continue;
    Result<uint64_t> nbytes = TensorNbytes(*tensor);
    const executorch_flatbuffer::AllocationDetails* alloc =
        tensor->allocation_info();
    PlannedTensor planned;
    planned.value_index = i;
    planned.memory_id = alloc->memory_id();
    planned.offset = uint64_t{alloc->memory_offset_low()} |
                     uint64_t{alloc->memory_offset_high()} << 32;
    planned.nbytes = nbytes.ok() ? *nbytes : 0;
    planned.device = TensorDevice(*tensor);
    planned.data_buffer_idx = tensor->data_buffer_idx();
    out.push_back(planned);
  }
  return out;
}

}  // namespace memplan
