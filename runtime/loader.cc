#include "runtime/loader.h"

#include <string>
#include <utility>

#include "runtime/core/checked_math.h"
#include "runtime/device_allocator.h"

namespace memplan {
namespace {

namespace fb = executorch_flatbuffer;

std::string ValuePath(uint32_t value_index) {
  return "values[" + std::to_string(value_index) + "]";
}

Error WithContext(const Error& error, const std::string& context) {
  return Error(error.code(), context + ": " + error.message());
}

// Where the initial state of a planned tensor lies in the program: ET12
// keeps it in mutable_data_segments[group].offsets[data_buffer_idx], group
// being extra_tensor_info.mutable_data_segments_idx (0 when absent).
Result<const uint8_t*> LocateInitialData(const Program& program,
                                         const fb::Tensor* tensor,
                                         const PlannedTensor& planned) {
  std::string path =
      ValuePath(planned.value_index) +
      ".tensor.data_buffer_idx = " + std::to_string(planned.data_buffer_idx);
  const fb::ExtraTensorInfo* extra =
      tensor == nullptr ? nullptr : tensor->extra_tensor_info();
  if (extra != nullptr &&
      extra->location() == fb::TensorDataLocation::EXTERNAL) {
    return Error(ErrorCode::kUnavailable,
                 path +
                     ": the initial data is external (a .ptd named data "
                     "map), which this loader does not read");
  }
  uint64_t group = extra == nullptr ? 0 : extra->mutable_data_segments_idx();
  const auto* groups = program.flatbuffer()->mutable_data_segments();
  uint64_t num_groups = groups == nullptr ? 0 : groups->size();
  if (group >= num_groups) {
    return Error(ErrorCode::kInvalidProgram,
                 path + ": initial data needs mutable_data_segments[" +
                     std::to_string(group) + "], must be < " +
                     std::to_string(num_groups) +
                     " (len(mutable_data_segments))");
  }
  const fb::SubsegmentOffsets* subsegments =
      groups->Get(static_cast<uint32_t>(group));
  const auto* offsets = subsegments->offsets();
  uint64_t num_offsets = offsets == nullptr ? 0 : offsets->size();
  if (planned.data_buffer_idx >= num_offsets) {
    return Error(ErrorCode::kInvalidProgram,
                 path + ", must be < " + std::to_string(num_offsets) +
                     " (len(mutable_data_segments[" + std::to_string(group) +
                     "].offsets))");
  }
  Result<std::pair<const uint8_t*, uint64_t>> segment =
      program.segment(subsegments->segment_index());
  if (!segment.ok()) return WithContext(segment.error(), path);
  uint64_t offset = offsets->Get(planned.data_buffer_idx);
  uint64_t end = 0;
  if (!CheckedAdd(offset, planned.nbytes, &end) || end > segment->second) {
    return Error(ErrorCode::kInvalidProgram,
                 path + ": initial data [" + std::to_string(offset) + ", +" +
                     std::to_string(planned.nbytes) +
                     ") exceeds segment size " +
                     std::to_string(segment->second) + " (segments[" +
                     std::to_string(subsegments->segment_index()) + "])");
  }
  return segment->first + offset;
}

const fb::Tensor* FlatbufferTensor(const MethodMeta& meta,
                                   uint32_t value_index) {
  const auto* values = meta.plan()->values();
  if (values == nullptr || value_index >= values->size()) return nullptr;
  const fb::EValue* value = values->Get(value_index);
  return value == nullptr ? nullptr : value->val_as_Tensor();
}

}  // namespace

Result<LoadedMethod> LoadMethod(const Program& program,
                                const std::string& method,
                                DeviceAllocatorRegistry& registry,
                                const LoaderOptions& options) {
  Result<size_t> index = program.method_index(method);
  if (!index.ok()) return index.error();
  return LoadMethodAt(program, *index, registry, options);
}

Result<LoadedMethod> LoadMethodAt(const Program& program, size_t method_index,
                                  DeviceAllocatorRegistry& registry,
                                  const LoaderOptions& options) {
  Error alignment = CheckAlignment(options.alignment);
  if (!alignment.ok()) return WithContext(alignment, "LoaderOptions");
  if (!program.plan_validated()) {
    return Error(ErrorCode::kInvalidArgument,
                 "the program was read for judging (Program::Read), not "
                 "validated for loading (Program::Load)");
  }
  Result<MethodMeta> meta = program.method_meta(method_index);
  if (!meta.ok()) return meta.error();
  const std::string method = program.method_name(method_index);
  std::string context = "method '" + method + "'";

  // Sizes, devices and the budget first: a refused method allocates nothing.
  size_t num_buffers = meta->num_memory_planned_buffers();
  std::vector<PlannedBufferSpan> spans(num_buffers);
  const std::vector<Device> devices = meta->memory_planned_buffer_devices();
  uint64_t total = 0;
  for (size_t i = 0; i < num_buffers; ++i) {
    Result<uint64_t> size = meta->memory_planned_buffer_size(i);
    if (!size.ok()) return WithContext(size.error(), context);
    spans[i].size = *size;
    spans[i].device = devices[i];
    if (!CheckedAdd(total, *size, &total)) {
      return Error(ErrorCode::kResourceExhausted,
                   context +
                       ": sum of non_const_buffer_sizes overflows "
                       "64 bits at index " +
                       std::to_string(i + 1));
    }
  }
  if (total > options.max_planned_bytes) {
    return Error(ErrorCode::kResourceExhausted,
                 context + ": planned buffers need " + std::to_string(total) +
                     " bytes, must be <= max_planned_bytes " +
                     std::to_string(options.max_planned_bytes));
  }

  // From here on `loaded` owns every buffer: any early return frees them.
  LoadedMethod loaded;
  loaded.name_ = method;
  loaded.buffers_.reserve(num_buffers);
  for (size_t i = 0; i < num_buffers; ++i) {
    Result<DeviceMemoryBuffer> buffer = DeviceMemoryBuffer::Create(
        spans[i].size, options.alignment, spans[i].device, registry);
    if (!buffer.ok()) {
      return WithContext(
          buffer.error(),
          context + ": planned buffer memory_id " + std::to_string(i + 1));
    }
    spans[i].data = buffer->data();
    loaded.buffers_.push_back(std::move(*buffer));
  }
  loaded.allocator_ = HierarchicalAllocator(std::move(spans));

  for (const PlannedTensor& planned : meta->planned_tensors()) {
    std::string path = context + ": " + ValuePath(planned.value_index);
    Result<void*> data = loaded.allocator_.get_offset_address(
        planned.memory_id, planned.offset, planned.nbytes);
    if (!data.ok()) return WithContext(data.error(), path);
    Device buffer_device = *loaded.allocator_.device(planned.memory_id);
    if (planned.device != buffer_device) {
      return Error(ErrorCode::kInvalidProgram,
                   path + ": tensor device " + planned.device.ToString() +
                       " != device " + buffer_device.ToString() +
                       " of its buffer memory_id " +
                       std::to_string(planned.memory_id));
    }
    LoadedTensor tensor;
    tensor.value_index = planned.value_index;
    tensor.memory_id = planned.memory_id;
    tensor.offset = planned.offset;
    tensor.nbytes = planned.nbytes;
    tensor.device = planned.device;
    tensor.data = *data;
    if (planned.data_buffer_idx > 0 && options.load_initial_data) {
      Result<const uint8_t*> source = LocateInitialData(
          program, FlatbufferTensor(*meta, planned.value_index), planned);
      if (!source.ok()) return WithContext(source.error(), context);
      DeviceMemoryBuffer& buffer = loaded.buffers_[planned.memory_id - 1];
      Error copied =
          buffer.CopyFromHost(planned.offset, *source, planned.nbytes);
      if (!copied.ok()) {
        return WithContext(copied, path + ": copying initial data to " +
                                       buffer_device.ToString());
      }
      tensor.initialized = true;
    }
    loaded.tensors_.push_back(tensor);
  }
  return Result<LoadedMethod>(std::move(loaded));
}

Error LoadedMethod::CheckTensorsInOwnBuffers() const {
  for (const LoadedTensor& tensor : tensors_) {
    std::string path = ValuePath(tensor.value_index);
    if (tensor.memory_id == 0 || tensor.memory_id > buffers_.size()) {
      return Error(ErrorCode::kInternal,
                   path + ": memory_id = " + std::to_string(tensor.memory_id) +
                       ", must be in [1, " + std::to_string(buffers_.size()) +
                       "]");
    }
    const DeviceMemoryBuffer& buffer = buffers_[tensor.memory_id - 1];
    if (tensor.device != buffer.device()) {
      return Error(ErrorCode::kInternal,
                   path + ": on " + tensor.device.ToString() +
                       " but its buffer memory_id " +
                       std::to_string(tensor.memory_id) + " is on " +
                       buffer.device().ToString());
    }
    uintptr_t base = reinterpret_cast<uintptr_t>(buffer.data());
    uintptr_t begin = reinterpret_cast<uintptr_t>(tensor.data);
    uint64_t end = 0;
    if (buffer.data() == nullptr || begin < base ||
        !CheckedAdd(uint64_t{begin}, tensor.nbytes, &end) ||
        end > uint64_t{base} + buffer.size()) {
      return Error(ErrorCode::kInternal,
                   path + ": [data, data + " + std::to_string(tensor.nbytes) +
                       ") is not inside buffer memory_id " +
                       std::to_string(tensor.memory_id) + " (size " +
                       std::to_string(buffer.size()) + ")");
    }
  }
  return Error::Ok();
}

}  // namespace memplan
