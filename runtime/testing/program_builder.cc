#include "runtime/testing/program_builder.h"

#include <cstring>
#include <memory>
#include <numeric>
#include <utility>

#include "flatbuffers/flatbuffers.h"
#include "runtime/bundled_program.h"
#include "runtime/program.h"
#include "runtime/program_writer.h"

namespace memplan {
namespace testing {
namespace {

namespace fb = executorch_flatbuffer;

constexpr size_t kSegmentAlignment = 16;

uint64_t AlignUp(uint64_t value) {
  return (value + kSegmentAlignment - 1) / kSegmentAlignment *
         kSegmentAlignment;
}

std::unique_ptr<fb::ExtraTensorInfoT> DeviceInfo(Device device) {
  auto extra = std::make_unique<fb::ExtraTensorInfoT>();
  extra->device_type = static_cast<fb::DeviceType>(device.type);
  extra->device_index = device.index;
  return extra;
}

}  // namespace

ProgramBuilder::ProgramBuilder() = default;

Result<ProgramBuilder> ProgramBuilder::FromProgram(const uint8_t* data,
                                                   size_t size) {
  Result<ProgramBytes> bytes = UnwrapProgram(data, size);
  if (!bytes.ok()) return bytes.error();
  Result<Program> program = Program::Read(bytes->data(), bytes->size);
  if (!program.ok()) return program.error();
  ProgramBuilder builder;
  program->flatbuffer()->UnPackTo(&builder.program_);
  const size_t num_segments = builder.program_.segments.size();
  builder.program_.segments.clear();
  for (size_t i = 0; i < num_segments; ++i) {
    Result<std::pair<const uint8_t*, uint64_t>> segment = program->segment(i);
    if (!segment.ok()) return segment.error();
    builder.AddSegment(
        std::vector<uint8_t>(segment->first, segment->first + segment->second));
  }
  return builder;
}

ProgramBuilder& ProgramBuilder::AddMethod(const std::string& name) {
  auto plan = std::make_unique<fb::ExecutionPlanT>();
  plan->name = name;
  program_.execution_plan.push_back(std::move(plan));
  return *this;
}

fb::ExecutionPlanT& ProgramBuilder::method() {
  if (program_.execution_plan.empty()) AddMethod("forward");
  return *program_.execution_plan.back();
}

uint32_t ProgramBuilder::AddBuffer(int64_t size, Device device) {
  fb::ExecutionPlanT& plan = method();
  if (plan.non_const_buffer_sizes.empty()) {
    plan.non_const_buffer_sizes.push_back(0);
  }
  plan.non_const_buffer_sizes.push_back(size);
  uint32_t id = static_cast<uint32_t>(plan.non_const_buffer_sizes.size() - 1);
  if (!device.is_cpu() || device.index != 0) {
    auto entry = std::make_unique<fb::NonConstBufferDeviceT>();
    entry->buffer_idx = static_cast<int32_t>(id);
    entry->device_type = static_cast<fb::DeviceType>(device.type);
    entry->device_index = device.index;
    plan.non_const_buffer_device.push_back(std::move(entry));
  }
  return id;
}

namespace {

// One EValue's payload, as the object API holds it.
template <typename T>
fb::KernelTypesUnion Union(T value) {
  fb::KernelTypesUnion u;
  u.Set(std::move(value));
  return u;
}

}  // namespace

int32_t ProgramBuilder::AddValue(fb::KernelTypesUnion value) {
  fb::ExecutionPlanT& plan = method();
  auto evalue = std::make_unique<fb::EValueT>();
  evalue->val = std::move(value);
  plan.values.push_back(std::move(evalue));
  return static_cast<int32_t>(plan.values.size() - 1);
}

int32_t ProgramBuilder::AddTensor(const TensorSpec& spec) {
  fb::TensorT tensor;
  tensor.scalar_type = spec.scalar_type;
  tensor.sizes = spec.sizes;
  if (spec.dim_order.has_value()) {
    tensor.dim_order = *spec.dim_order;
  } else {
    tensor.dim_order.resize(spec.sizes.size());
    std::iota(tensor.dim_order.begin(), tensor.dim_order.end(), 0);
  }
  tensor.data_buffer_idx = spec.data_buffer_idx;
  if (spec.memory_id != 0) {
    tensor.allocation_info = std::make_unique<fb::AllocationDetailsT>();
    tensor.allocation_info->memory_id = spec.memory_id;
    tensor.allocation_info->memory_offset_low =
        static_cast<uint32_t>(spec.offset);
    tensor.allocation_info->memory_offset_high =
        static_cast<uint32_t>(spec.offset >> 32);
  }
  if (spec.device.has_value())
    tensor.extra_tensor_info = DeviceInfo(*spec.device);
  return AddValue(Union(std::move(tensor)));
}

int32_t ProgramBuilder::AddPlannedTensor(fb::ScalarType scalar_type,
                                         std::vector<int32_t> sizes,
                                         uint32_t memory_id, uint64_t offset,
                                         Device device) {
  TensorSpec spec;
  spec.scalar_type = scalar_type;
  spec.sizes = std::move(sizes);
  spec.memory_id = memory_id;
  spec.offset = offset;
  if (device != Device::Cpu()) spec.device = device;
  return AddTensor(spec);
}

int32_t ProgramBuilder::AddInt(int64_t int_val) {
  fb::IntT value;
  value.int_val = int_val;
  return AddValue(Union(std::move(value)));
}

int32_t ProgramBuilder::AddBool(bool bool_val) {
  fb::BoolT value;
  value.bool_val = bool_val;
  return AddValue(Union(std::move(value)));
}

int32_t ProgramBuilder::AddNull() { return AddValue(Union(fb::NullT())); }

int32_t ProgramBuilder::AddTensorList(std::vector<int32_t> items) {
  fb::TensorListT list;
  list.items = std::move(items);
  return AddValue(Union(std::move(list)));
}

int32_t ProgramBuilder::AddOptionalTensorList(std::vector<int32_t> items) {
  fb::OptionalTensorListT list;
  list.items = std::move(items);
  return AddValue(Union(std::move(list)));
}

int32_t ProgramBuilder::AddOperator(const std::string& name,
                                    const std::string& overload) {
  fb::ExecutionPlanT& plan = method();
  auto op = std::make_unique<fb::OperatorT>();
  op->name = name;
  op->overload = overload;
  plan.operators.push_back(std::move(op));
  return static_cast<int32_t>(plan.operators.size() - 1);
}

void ProgramBuilder::AddInstruction(
    executorch_flatbuffer::InstructionArgumentsUnion args) {
  fb::ExecutionPlanT& plan = method();
  if (plan.chains.empty()) {
    plan.chains.push_back(std::make_unique<fb::ChainT>());
  }
  auto instruction = std::make_unique<fb::InstructionT>();
  instruction->instr_args = std::move(args);
  plan.chains.front()->instructions.push_back(std::move(instruction));
}

void ProgramBuilder::AddMove(int32_t from, int32_t to) {
  fb::MoveCallT move;
  move.move_from = from;
  move.move_to = to;
  fb::InstructionArgumentsUnion args;
  args.Set(std::move(move));
  AddInstruction(std::move(args));
}

void ProgramBuilder::AddJumpFalse(int32_t cond, int32_t destination) {
  fb::JumpFalseCallT jump;
  jump.cond_value_index = cond;
  jump.destination_instruction = destination;
  fb::InstructionArgumentsUnion args;
  args.Set(std::move(jump));
  AddInstruction(std::move(args));
}

void ProgramBuilder::AddKernelCall(int32_t op_index,
                                   std::vector<int32_t> args) {
  fb::KernelCallT call;
  call.op_index = op_index;
  call.args = std::move(args);
  fb::InstructionArgumentsUnion instruction;
  instruction.Set(std::move(call));
  AddInstruction(std::move(instruction));
}

void ProgramBuilder::SetInputs(std::vector<int32_t> inputs) {
  method().inputs = std::move(inputs);
}

void ProgramBuilder::SetOutputs(std::vector<int32_t> outputs) {
  method().outputs = std::move(outputs);
}

uint32_t ProgramBuilder::AddSegment(std::vector<uint8_t> payload) {
  auto segment = std::make_unique<fb::DataSegmentT>();
  segment->offset = segment_bytes_;
  segment->size = payload.size();
  segment_offsets_.push_back(segment_bytes_);
  segment_bytes_ += AlignUp(payload.size());
  program_.segments.push_back(std::move(segment));
  segment_payloads_.push_back(std::move(payload));
  return static_cast<uint32_t>(program_.segments.size() - 1);
}

std::vector<uint8_t> ProgramBuilder::Build() const {
  std::vector<uint8_t> segment_data(segment_bytes_, 0);
  for (size_t i = 0; i < segment_payloads_.size(); ++i) {
    std::copy(segment_payloads_[i].begin(), segment_payloads_[i].end(),
              segment_data.begin() + segment_offsets_[i]);
  }
  // Pack() takes the tree by reference (it clears empty unions); the
  // builder's own tree stays as the test set it.
  fb::ProgramT program = program_;
  Result<std::vector<uint8_t>> bytes = WriteProgramFile(
      program, {segment_data.data(), segment_data.size(), kSegmentAlignment});
  return bytes.ok() ? std::move(*bytes) : std::vector<uint8_t>();
}

ProgramBuilder TwoDeviceProgram() {
  ProgramBuilder b;
  b.AddMethod("forward");
  b.AddBuffer(64);
  b.AddBuffer(64, Device::Cuda(0));
  b.AddPlannedTensor(fb::ScalarType::FLOAT, {4, 4}, 1, 0);
  b.AddPlannedTensor(fb::ScalarType::FLOAT, {4}, 2, 16, Device::Cuda(0));
  b.AddInt(3);
  b.AddKernelCall(b.AddOperator("aten::add"), {0, 2, 1});
  b.SetInputs({0});
  b.SetOutputs({1});
  return b;
}

ProgramBuilder LoopProgram(uint64_t t_offset) {
  constexpr auto kFloat = fb::ScalarType::FLOAT;
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(320);
  int32_t w = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  int32_t t = b.AddPlannedTensor(kFloat, {4, 4}, cpu, t_offset);
  int32_t u = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 192);
  int32_t cond = b.AddPlannedTensor(fb::ScalarType::BOOL, {}, cpu, 256);
  int32_t op = b.AddOperator("aten::mul");
  b.AddKernelCall(op, {x, x, w});     // 0: w defined.
  b.AddKernelCall(op, {w, x, u});     // 1: loop head reads w.
  b.AddKernelCall(op, {u, u, t});     // 2
  b.AddKernelCall(op, {t, t, cond});  // 3
  b.AddJumpFalse(cond, 1);            // 4: back to 1.
  b.AddKernelCall(op, {x, x, u});     // 5
  b.SetInputs({x});
  b.SetOutputs({u});
  return b;
}

ProgramBuilder CondsProgram(bool two, uint64_t second_region, bool chained,
                            uint64_t first_true_at) {
  constexpr auto kFloat = fb::ScalarType::FLOAT;
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(512);
  int32_t pred = b.AddPlannedTensor(fb::ScalarType::BOOL, {}, cpu, 480);
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t y1 = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 128);
  int32_t y2 = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 192);
  int32_t z = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 256);
  int32_t w = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 384);
  int32_t always = b.AddBool(false);
  int32_t relu = b.AddOperator("aten::relu", "out");
  int32_t neg = b.AddOperator("aten::neg", "out");
  int32_t next = 0;  // The next instruction's index.
  auto cond = [&](uint64_t region, int32_t out, uint64_t true_at) {
    int32_t on_true = b.AddPlannedTensor(kFloat, {4, 4}, cpu,
                                         true_at != 0 ? true_at : region);
    int32_t on_false = b.AddPlannedTensor(kFloat, {4, 4}, cpu, region);
    const int32_t entry = next;
    b.AddJumpFalse(pred, entry + 4);  // To the false branch.
    b.AddKernelCall(relu, {x, on_true});
    b.AddMove(on_true, out);
    b.AddJumpFalse(always, entry + 6);  // Over the false branch.
    b.AddKernelCall(neg, {x, on_false});
    b.AddMove(on_false, out);
    next += 6;
  };
  cond(64, y1, first_true_at);
  if (chained) {
    b.AddMove(y1, w);
    ++next;
  }
  if (two) cond(second_region, y2, 0);
  b.AddKernelCall(b.AddOperator("aten::add", "out"),
                  {chained ? w : y1, two ? y2 : x, z});
  b.SetInputs({pred, x});
  b.SetOutputs({z});
  return b;
}

ProgramBuilder NestedCondsProgram(uint64_t t_at, bool t_in_outer_false) {
  constexpr auto kFloat = fb::ScalarType::FLOAT;
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(512);
  int32_t pred = b.AddPlannedTensor(fb::ScalarType::BOOL, {}, cpu, 480);
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t of = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  int32_t it = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 128);
  int32_t inner_false = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 192);
  int32_t s = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 256);
  int32_t u = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 320);
  int32_t z = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 384);
  int32_t t = b.AddPlannedTensor(kFloat, {4, 4}, cpu, t_at);
  int32_t always = b.AddBool(false);
  int32_t relu = b.AddOperator("aten::relu", "out");
  int32_t neg = b.AddOperator("aten::neg", "out");
  const int32_t join = t_in_outer_false ? 12 : 11;
  b.AddJumpFalse(pred, 9);  // 0: the outer cond.
  b.AddJumpFalse(pred, 5);  // 1: the inner cond.
  b.AddKernelCall(relu, {x, it});
  b.AddMove(it, s);
  b.AddJumpFalse(always, 7);  // 4: over the inner false branch.
  b.AddKernelCall(neg, {x, inner_false});
  b.AddMove(inner_false, s);
  b.AddMove(s, u);               // 7: the inner join.
  b.AddJumpFalse(always, join);  // 8: over the outer false branch.
  if (t_in_outer_false) b.AddKernelCall(relu, {x, t});
  b.AddKernelCall(neg, {x, of});
  b.AddMove(of, u);
  if (!t_in_outer_false) b.AddKernelCall(relu, {x, t});  // 11: the join.
  b.AddKernelCall(b.AddOperator("aten::add", "out"),
                  {u, t_in_outer_false ? x : t, z});
  b.SetInputs({pred, x});
  b.SetOutputs({z});
  return b;
}

ProgramBuilder DeeplyNestedCondsProgram(int depth) {
  constexpr auto kFloat = fb::ScalarType::FLOAT;
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(80 + uint64_t{16} * static_cast<uint64_t>(depth));
  int32_t pred = b.AddPlannedTensor(fb::ScalarType::BOOL, {}, cpu, 0);
  int32_t x = b.AddPlannedTensor(kFloat, {4}, cpu, 16);
  int32_t y = b.AddPlannedTensor(kFloat, {4}, cpu, 32);
  int32_t z = b.AddPlannedTensor(kFloat, {4}, cpu, 48);
  int32_t t = b.AddPlannedTensor(kFloat, {4}, cpu, 64);
  int32_t always = b.AddBool(false);
  std::vector<int32_t> outputs;
  for (int i = 0; i < depth; ++i) {
    outputs.push_back(
        b.AddPlannedTensor(kFloat, {4}, cpu, 80 + uint64_t{16} * i));
  }
  int32_t relu = b.AddOperator("aten::relu", "out");
  int32_t neg = b.AddOperator("aten::neg", "out");
  // Level i (from the outside) has k = depth - 1 - i levels inside it.
  for (int i = 0; i < depth; ++i) {
    b.AddJumpFalse(pred, depth + 3 + 3 * (depth - 1 - i));
  }
  b.AddKernelCall(relu, {x, t});
  b.AddMove(t, y);
  for (int k = 0; k < depth; ++k) {
    b.AddJumpFalse(always, depth + 5 + 3 * k);
    b.AddKernelCall(neg, {x, outputs[depth - 1 - k]});
    b.AddMove(outputs[depth - 1 - k], y);
  }
  b.AddKernelCall(b.AddOperator("aten::add", "out"), {y, x, z});
  b.SetInputs({pred, x});
  b.SetOutputs({z});
  return b;
}

ProgramBuilder CondChainProgram(int conds) {
  constexpr auto kFloat = fb::ScalarType::FLOAT;
  ProgramBuilder b;
  const uint64_t n = static_cast<uint64_t>(conds) + 1;
  uint32_t cpu = b.AddBuffer(48 + 32 * n);
  int32_t pred = b.AddPlannedTensor(fb::ScalarType::BOOL, {}, cpu, 0);
  int32_t x = b.AddPlannedTensor(kFloat, {4}, cpu, 16);
  int32_t z = b.AddPlannedTensor(kFloat, {4}, cpu, 32);
  int32_t always = b.AddBool(false);
  std::vector<int32_t> y, f;
  for (uint64_t i = 0; i < n; ++i) {
    y.push_back(b.AddPlannedTensor(kFloat, {4}, cpu, 48 + 32 * i));
  }
  for (uint64_t i = 0; i < n; ++i) {
    f.push_back(b.AddPlannedTensor(kFloat, {4}, cpu, 64 + 32 * i));
  }
  int32_t neg = b.AddOperator("aten::neg", "out");
  b.AddKernelCall(neg, {x, y[0]});
  int32_t at = 1;  // The next instruction's index.
  for (int i = 1; i <= conds; ++i) {
    b.AddJumpFalse(pred, at + 3);  // To the false branch.
    b.AddMove(y[i - 1], y[i]);
    b.AddJumpFalse(always, at + 5);  // Over the false branch.
    b.AddKernelCall(neg, {x, f[i]});
    b.AddMove(f[i], y[i]);
    at += 5;
  }
  b.AddKernelCall(b.AddOperator("aten::add", "out"), {y[conds], x, z});
  b.SetInputs({pred, x});
  b.SetOutputs({z});
  return b;
}

std::vector<uint8_t> TensorsSharingOneName(int n, const std::string& name) {
  flatbuffers::FlatBufferBuilder b;
  const auto shared = b.CreateString(name);
  std::vector<flatbuffers::Offset<fb::EValue>> values;
  for (int i = 0; i < n; ++i) {
    const auto sizes = b.CreateVector(std::vector<int32_t>{4});
    const auto order = b.CreateVector(std::vector<uint8_t>{0});
    const auto where =
        fb::CreateAllocationDetails(b, 1, static_cast<uint32_t>(16 * i));
    const auto extra = fb::CreateExtraTensorInfo(b, 0, shared);
    const auto tensor =
        fb::CreateTensor(b, fb::ScalarType::FLOAT, 0, sizes, order, false, 0,
                         where, 0, fb::TensorShapeDynamism::STATIC, extra);
    values.push_back(
        fb::CreateEValue(b, fb::KernelTypes::Tensor, tensor.Union()));
  }
  const auto method = fb::CreateExecutionPlan(
      b, b.CreateString("forward"), 0, b.CreateVector(values),
      b.CreateVector(std::vector<int32_t>{}),
      b.CreateVector(std::vector<int32_t>{}),
      b.CreateVector(std::vector<flatbuffers::Offset<fb::Chain>>{}),
      b.CreateVector(std::vector<flatbuffers::Offset<fb::Operator>>{}),
      b.CreateVector(std::vector<flatbuffers::Offset<fb::BackendDelegate>>{}),
      b.CreateVector(std::vector<int64_t>{0, int64_t{16} * n}));
  b.Finish(fb::CreateProgram(b, 0, b.CreateVector(std::vector{method})),
           "ET12");
  return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

}  // namespace testing
}  // namespace memplan
