#include "planner/emitter.h"

#include <cstdio>
#include <limits>
#include <map>
#include <memory>

#include "schema/program_generated.h"

namespace memplan {
namespace planner {
namespace {

namespace fb = executorch_flatbuffer;

fb::TensorShapeDynamism ToSchema(Dynamism dynamism) {
  switch (dynamism) {
    case Dynamism::kStatic:
      return fb::TensorShapeDynamism::STATIC;
    case Dynamism::kDynamicBound:
      return fb::TensorShapeDynamism::DYNAMIC_BOUND;
    case Dynamism::kDynamicUnbound:
      return fb::TensorShapeDynamism::DYNAMIC_UNBOUND;
  }
  return fb::TensorShapeDynamism::STATIC;
}

Result<std::unique_ptr<fb::EValueT>> MakeTensorValue(
    const TensorSpec& spec, const TensorAllocation& allocation) {
  fb::TensorT tensor;
  tensor.scalar_type = spec.dtype;
  if (spec.shape.size() > std::numeric_limits<uint8_t>::max()) {
    return Error(ErrorCode::kInvalidArgument,
                 "tensor '" + spec.name + "': rank " +
                     std::to_string(spec.shape.size()) +
                     " does not fit dim_order (ubyte)");
  }
  for (size_t d = 0; d < spec.shape.size(); ++d) {
    if (spec.shape[d] > std::numeric_limits<int32_t>::max()) {
      return Error(ErrorCode::kInvalidArgument,
                   "tensor '" + spec.name + "': shape[" + std::to_string(d) +
                       "] = " + std::to_string(spec.shape[d]) +
                       " does not fit Tensor.sizes (int32)");
    }
    tensor.sizes.push_back(static_cast<int32_t>(spec.shape[d]));
    tensor.dim_order.push_back(static_cast<uint8_t>(d));
  }
  tensor.shape_dynamism = ToSchema(spec.dynamism);
  if (allocation.planned) {
    tensor.allocation_info = std::make_unique<fb::AllocationDetailsT>();
    tensor.allocation_info->memory_id = allocation.mem_id;
    tensor.allocation_info->memory_offset_low =
        static_cast<uint32_t>(allocation.offset & 0xffffffffu);
    tensor.allocation_info->memory_offset_high =
        static_cast<uint32_t>(allocation.offset >> 32);
  }
  // Written on every tensor, CPU included, so readers never guess.
  tensor.extra_tensor_info = std::make_unique<fb::ExtraTensorInfoT>();
  tensor.extra_tensor_info->device_type =
      static_cast<fb::DeviceType>(allocation.device.type);
  tensor.extra_tensor_info->device_index = allocation.device.index;
  tensor.extra_tensor_info->fully_qualified_name = spec.name;
  auto value = std::make_unique<fb::EValueT>();
  value->val.Set(std::move(tensor));
  return value;
}

std::vector<int32_t> ValuesOfKind(const Graph& graph, SpecKind kind) {
  std::vector<int32_t> ids;
  for (size_t i = 0; i < graph.tensors().size(); ++i) {
    if (graph.tensors()[i].kind() == kind)
      ids.push_back(static_cast<int32_t>(i));
  }
  return ids;
}

}  // namespace

std::vector<TimeValue> KernelPositions(const Graph& graph) {
  std::vector<TimeValue> positions;
  positions.reserve(graph.nodes().size());
  TimeValue next = 0;
  for (const Node& node : graph.nodes()) {
    for (ValueId out : node.outputs) {
      if (graph.tensors()[out].base()) ++next;
    }
    positions.push_back(next++);
  }
  return positions;
}

Result<std::vector<uint8_t>> EmitProgram(const Graph& graph,
                                         const PlanResult& plan) {
  if (plan.tensors.size() != graph.tensors().size()) {
    return Error(ErrorCode::kInvalidArgument,
                 "plan has " + std::to_string(plan.tensors.size()) +
                     " tensors, graph '" + graph.name() + "' has " +
                     std::to_string(graph.tensors().size()));
  }
  auto method = std::make_unique<fb::ExecutionPlanT>();
  method->name = graph.name().empty() ? "forward" : graph.name();
  for (size_t i = 0; i < graph.tensors().size(); ++i) {
    const TensorAllocation& allocation = plan.tensors[i];
    if (allocation.name != graph.tensors()[i].name) {
      return Error(ErrorCode::kInvalidArgument,
                   "plan tensors[" + std::to_string(i) + "] is '" +
                       allocation.name + "', graph has '" +
                       graph.tensors()[i].name + "'");
    }
    if (allocation.planned &&
        (allocation.mem_id == 0 || allocation.mem_id > plan.buffers.size())) {
      return Error(ErrorCode::kInvalidArgument,
                   "plan tensors[" + std::to_string(i) + "].mem_id = " +
                       std::to_string(allocation.mem_id) + ", must be in [1, " +
                       std::to_string(plan.buffers.size()) + "]");
    }
    Result<std::unique_ptr<fb::EValueT>> value =
        MakeTensorValue(graph.tensors()[i], allocation);
    if (!value.ok()) return value.error();
    method->values.push_back(std::move(*value));
  }
  method->inputs = ValuesOfKind(graph, SpecKind::kInput);
  method->outputs = ValuesOfKind(graph, SpecKind::kOutput);

  std::map<std::string, int32_t> op_index;
  auto chain = std::make_unique<fb::ChainT>();
  chain->inputs = method->inputs;
  chain->outputs = method->outputs;
  auto operator_index = [&](const std::string& name) {
    auto [it, inserted] =
        op_index.emplace(name, static_cast<int32_t>(method->operators.size()));
    if (inserted) {
      auto op = std::make_unique<fb::OperatorT>();
      size_t dot = name.find('.');
      op->name = name.substr(0, dot);
      if (dot != std::string::npos) op->overload = name.substr(dot + 1);
      method->operators.push_back(std::move(op));
    }
    return it->second;
  };
  for (const Node& node : graph.nodes()) {
    // Each alias the node defines is declared first, as ExecuTorch does
    // for memory.view: et_view(base, alias) says the two share storage.
    for (ValueId out : node.outputs) {
      std::optional<ValueId> base = graph.tensors()[out].base();
      if (!base) continue;
      fb::KernelCallT view;
      view.op_index = operator_index(kViewOperator);
      view.args = {static_cast<int32_t>(*base), static_cast<int32_t>(out)};
      auto instruction = std::make_unique<fb::InstructionT>();
      instruction->instr_args.Set(std::move(view));
      chain->instructions.push_back(std::move(instruction));
    }
    fb::KernelCallT call;
    call.op_index = operator_index(node.op);
    for (const auto* ids : {&node.inputs, &node.outputs, &node.scratch}) {
      call.args.insert(call.args.end(), ids->begin(), ids->end());
    }
    auto instruction = std::make_unique<fb::InstructionT>();
    instruction->instr_args.Set(std::move(call));
    chain->instructions.push_back(std::move(instruction));
  }
  method->chains.push_back(std::move(chain));

  method->non_const_buffer_sizes.push_back(0);
  for (size_t b = 0; b < plan.buffers.size(); ++b) {
    const BufferInfo& buffer = plan.buffers[b];
    if (buffer.size >
        static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Error(ErrorCode::kInvalidArgument,
                   "buffers[" + std::to_string(b) + "].size = " +
                       std::to_string(buffer.size) + " exceeds int64");
    }
    method->non_const_buffer_sizes.push_back(static_cast<int64_t>(buffer.size));
    if (!buffer.device.is_cpu()) {
      auto entry = std::make_unique<fb::NonConstBufferDeviceT>();
      entry->buffer_idx = static_cast<int32_t>(b + 1);
      entry->device_type = static_cast<fb::DeviceType>(buffer.device.type);
      entry->device_index = buffer.device.index;
      method->non_const_buffer_device.push_back(std::move(entry));
    }
  }

  fb::ProgramT program;
  program.version = 0;
  program.execution_plan.push_back(std::move(method));
  flatbuffers::FlatBufferBuilder builder;
  fb::FinishProgramBuffer(builder, fb::Program::Pack(builder, &program));
  return std::vector<uint8_t>(builder.GetBufferPointer(),
                              builder.GetBufferPointer() + builder.GetSize());
}

Error WriteFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    return Error(ErrorCode::kIo, "cannot open '" + path + "' for writing");
  }
  size_t written = std::fwrite(bytes.data(), 1, bytes.size(), file);
  bool closed = std::fclose(file) == 0;
  if (written != bytes.size() || !closed) {
    return Error(ErrorCode::kIo, "cannot write " +
                                     std::to_string(bytes.size()) +
                                     " bytes to '" + path + "'");
  }
  return Error::Ok();
}

}  // namespace planner
}  // namespace memplan
