#include "fuzz/program_checks.h"

#include <map>
#include <set>
#include <string>

#include "runtime/core/checked_math.h"
#include "runtime/core/device.h"

namespace memplan {
namespace fuzz {
namespace {

namespace fb = executorch_flatbuffer;

std::string Where(size_t method, const std::string& what) {
  return "execution_plan[" + std::to_string(method) + "]." + what;
}

}  // namespace

std::string CheckAcceptedMethod(const Program& program, size_t index) {
  const fb::Program* root = program.flatbuffer();
  if (root == nullptr || root->execution_plan() == nullptr ||
      index >= root->execution_plan()->size()) {
    return "method index " + std::to_string(index) + " not in the program";
  }
  const fb::ExecutionPlan* plan = root->execution_plan()->Get(index);
  Result<MethodMeta> meta = program.method_meta(index);
  // A clean error is allowed; a wrong answer is not.
  if (!meta.ok()) return "";

  // Buffers: index 0 is reserved, so planned buffer i is sizes[i + 1].
  const auto* sizes = plan->non_const_buffer_sizes();
  size_t raw_count = sizes == nullptr ? 0 : sizes->size();
  size_t expected_buffers = raw_count == 0 ? 0 : raw_count - 1;
  if (meta->num_memory_planned_buffers() != expected_buffers) {
    return Where(index, "num_memory_planned_buffers = " +
                            std::to_string(meta->num_memory_planned_buffers()) +
                            ", flatbuffer has " +
                            std::to_string(expected_buffers));
  }
  std::map<uint32_t, Device> buffer_device;  // mem_id -> device.
  for (uint32_t id = 1; id <= expected_buffers; ++id) {
    buffer_device[id] = Device::Cpu();
  }
  if (const auto* devices = plan->non_const_buffer_device()) {
    std::set<int32_t> seen;
    for (size_t i = 0; i < devices->size(); ++i) {
      const fb::NonConstBufferDevice* entry = devices->Get(i);
      int32_t idx = entry == nullptr ? -1 : entry->buffer_idx();
      std::string at = "non_const_buffer_device[" + std::to_string(i) + "]";
      if (idx < 1 || static_cast<size_t>(idx) >= raw_count) {
        return Where(index, at + ".buffer_idx = " + std::to_string(idx) +
                                " accepted, must be in [1, " +
                                std::to_string(raw_count) + ")");
      }
      if (!seen.insert(idx).second) {
        return Where(index, at + ".buffer_idx = " + std::to_string(idx) +
                                " accepted twice");
      }
      if (!IsKnownDeviceType(static_cast<int>(entry->device_type())) ||
          entry->device_index() < 0) {
        return Where(index, at + " accepted with unknown device");
      }
      buffer_device[static_cast<uint32_t>(idx)] = Device{
          static_cast<DeviceType>(entry->device_type()), entry->device_index()};
    }
  }
  for (size_t i = 0; i < expected_buffers; ++i) {
    int64_t raw = sizes->Get(static_cast<flatbuffers::uoffset_t>(i + 1));
    Result<uint64_t> size = meta->memory_planned_buffer_size(i);
    if (raw < 0 || !size.ok() || *size != static_cast<uint64_t>(raw)) {
      return Where(index, "non_const_buffer_sizes[" + std::to_string(i + 1) +
                              "] = " + std::to_string(raw) +
                              " accepted or misreported");
    }
    Result<Device> device = meta->memory_planned_buffer_device(i);
    if (!device.ok() ||
        *device != buffer_device[static_cast<uint32_t>(i + 1)]) {
      return Where(index,
                   "buffer " + std::to_string(i + 1) + " device misreported");
    }
  }

  // Tensors: recount from the values and recheck each against its buffer.
  const auto* values = plan->values();
  size_t planned_in_values = 0;
  if (values != nullptr) {
    for (size_t v = 0; v < values->size(); ++v) {
      const fb::EValue* value = values->Get(v);
      const fb::Tensor* tensor =
          value == nullptr ? nullptr : value->val_as_Tensor();
      if (tensor != nullptr && tensor->allocation_info() != nullptr) {
        ++planned_in_values;
      }
    }
  }
  std::vector<PlannedTensor> planned = meta->planned_tensors();
  if (planned.size() != planned_in_values) {
    return Where(index, "planned_tensors() has " +
                            std::to_string(planned.size()) +
                            " tensors, values hold " +
                            std::to_string(planned_in_values));
  }
  for (const PlannedTensor& t : planned) {
    std::string at = "values[" + std::to_string(t.value_index) + "]";
    if (values == nullptr || t.value_index >= values->size()) {
      return Where(index, at + " out of range");
    }
    const fb::Tensor* tensor = values->Get(t.value_index)->val_as_Tensor();
    if (tensor == nullptr || tensor->allocation_info() == nullptr) {
      return Where(index, at + " is not a planned tensor");
    }
    const fb::AllocationDetails* alloc = tensor->allocation_info();
    uint64_t offset = uint64_t{alloc->memory_offset_low()} |
                      (uint64_t{alloc->memory_offset_high()} << 32);
    if (t.memory_id != alloc->memory_id() || t.offset != offset) {
      return Where(index, at + " allocation misreported");
    }
    if (t.memory_id < 1 || t.memory_id > expected_buffers) {
      return Where(index, at + ".memory_id = " + std::to_string(t.memory_id) +
                              " accepted, must be in [1, " +
                              std::to_string(expected_buffers) + "]");
    }
    uint64_t nbytes = ScalarTypeSize(tensor->scalar_type());
    if (nbytes == 0) {
      return Where(index, at + " accepted with unknown scalar type");
    }
    if (const auto* dims = tensor->sizes()) {
      for (size_t d = 0; d < dims->size(); ++d) {
        int32_t dim = dims->Get(static_cast<flatbuffers::uoffset_t>(d));
        if (dim < 0 ||
            !CheckedMul(nbytes, static_cast<uint64_t>(dim), &nbytes)) {
          return Where(index, at + ".sizes[" + std::to_string(d) +
                                  "] = " + std::to_string(dim) + " accepted");
        }
      }
    }
    if (t.nbytes != nbytes) {
      return Where(index, at + " nbytes = " + std::to_string(t.nbytes) +
                              ", recomputed " + std::to_string(nbytes));
    }
    uint64_t end = 0;
    uint64_t buffer_size = static_cast<uint64_t>(sizes->Get(t.memory_id));
    if (!CheckedAdd(offset, nbytes, &end) || end > buffer_size) {
      return Where(index, at + " offset " + std::to_string(offset) + " + " +
                              std::to_string(nbytes) + " exceeds buffer " +
                              std::to_string(t.memory_id) + " size " +
                              std::to_string(buffer_size));
    }
    if (t.device != buffer_device[t.memory_id]) {
      return Where(index, at + " on " + t.device.ToString() + " in buffer " +
                              std::to_string(t.memory_id) + " on " +
                              buffer_device[t.memory_id].ToString());
    }
  }
  return "";
}

std::string CheckAcceptedProgram(const Program& program) {
  for (size_t i = 0; i < program.num_methods(); ++i) {
    std::string violation = CheckAcceptedMethod(program, i);
    if (!violation.empty()) return violation;
  }
  return "";
}

}  // namespace fuzz
}  // namespace memplan
