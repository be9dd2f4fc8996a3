// make_seed_corpus ROOT [GRAPHS_DIR]: writes small, varied seed inputs for
// every fuzz target into ROOT/<target>/ (ROOT is normally the repository's
// corpus/). Program seeds come from the program builder and from the example
// graphs planned and emitted by the planner (GRAPHS_DIR, default
// examples/graphs under `bazel run`), so they are valid ET12 files that
// reach the deep checks; byte seeds are deterministic pseudo-random.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "planner/emitter.h"
#include "planner/graph.h"
#include "planner/graph_format.h"
#include "planner/memory_planner.h"
#include "runtime/core/device.h"
#include "runtime/testing/program_builder.h"

namespace {

namespace fb = executorch_flatbuffer;
using memplan::Device;
using memplan::testing::ProgramBuilder;

using Seed = std::pair<std::string, std::vector<uint8_t>>;

std::vector<uint8_t> EmptyPlan() {
  ProgramBuilder b;
  b.AddMethod("forward");
  return b.Build();
}

// Two activations reusing one CPU buffer, as a greedy plan would.
std::vector<uint8_t> SingleCpuBuffer() {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(128);
  int32_t x = b.AddPlannedTensor(fb::ScalarType::FLOAT, {4, 4}, cpu, 0);
  int32_t y = b.AddPlannedTensor(fb::ScalarType::FLOAT, {4, 4}, cpu, 64);
  int32_t z = b.AddPlannedTensor(fb::ScalarType::FLOAT, {4, 4}, cpu, 0);
  int32_t add = b.AddOperator("aten::add");
  b.AddKernelCall(add, {x, x, y});
  b.AddKernelCall(add, {y, y, z});
  b.SetInputs({x});
  b.SetOutputs({z});
  return b.Build();
}

// CPU, cuda:0 and cuda:1 buffers with copies between them.
std::vector<uint8_t> MultiDevice() {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(64);
  uint32_t gpu0 = b.AddBuffer(256, Device::Cuda(0));
  uint32_t gpu1 = b.AddBuffer(96, Device::Cuda(1));
  int32_t x = b.AddPlannedTensor(fb::ScalarType::FLOAT, {16}, cpu, 0);
  int32_t y =
      b.AddPlannedTensor(fb::ScalarType::FLOAT, {16}, gpu0, 0, Device::Cuda(0));
  int32_t w = b.AddPlannedTensor(fb::ScalarType::HALF, {8, 8}, gpu0, 128,
                                 Device::Cuda(0));
  int32_t z =
      b.AddPlannedTensor(fb::ScalarType::LONG, {12}, gpu1, 0, Device::Cuda(1));
  int32_t copy = b.AddOperator("aten::_to_copy");
  b.AddKernelCall(copy, {x, y});
  b.AddKernelCall(b.AddOperator("aten::mm"), {y, w, y});
  b.AddKernelCall(copy, {y, z});
  b.SetInputs({x});
  b.SetOutputs({z});
  return b.Build();
}

// A view: a second tensor over the same bytes with its own shape.
std::vector<uint8_t> View() {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(96);
  int32_t base = b.AddPlannedTensor(fb::ScalarType::INT, {4, 6}, cpu, 0);
  memplan::testing::TensorSpec view;
  view.scalar_type = fb::ScalarType::INT;
  view.sizes = {6, 4};
  view.dim_order = std::vector<uint8_t>{1, 0};
  view.memory_id = cpu;
  view.offset = 0;
  int32_t v = b.AddTensor(view);
  b.AddKernelCall(b.AddOperator("aten::view_copy"), {base, v});
  b.SetInputs({base});
  b.SetOutputs({v});
  return b.Build();
}

// In-place: the output is the input's own storage, on a device.
std::vector<uint8_t> InPlace() {
  ProgramBuilder b;
  uint32_t gpu = b.AddBuffer(64, Device::Cuda(0));
  int32_t x =
      b.AddPlannedTensor(fb::ScalarType::DOUBLE, {8}, gpu, 0, Device::Cuda(0));
  int32_t alpha = b.AddInt(2);
  b.AddKernelCall(b.AddOperator("aten::mul_", "Scalar"), {x, alpha, x});
  b.SetInputs({x});
  b.SetOutputs({x});
  return b.Build();
}

// A mutable buffer: planned, with initial state in a data segment.
std::vector<uint8_t> MutableBuffer() {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(48);
  b.AddSegment(std::vector<uint8_t>(32, 0x5a));
  memplan::testing::TensorSpec state;
  state.scalar_type = fb::ScalarType::FLOAT;
  state.sizes = {8};
  state.memory_id = cpu;
  state.offset = 16;
  state.data_buffer_idx = 1;
  int32_t s = b.AddTensor(state);
  int32_t x = b.AddPlannedTensor(fb::ScalarType::BYTE, {16}, cpu, 0);
  b.AddKernelCall(b.AddOperator("aten::add_"), {s, x, s});
  b.SetInputs({x});
  b.SetOutputs({s});
  return b.Build();
}

// Two methods, lists, nulls and zero-element tensors.
std::vector<uint8_t> TwoMethodsAndLists() {
  ProgramBuilder b;
  b.AddMethod("forward");
  uint32_t cpu = b.AddBuffer(40);
  int32_t a = b.AddPlannedTensor(fb::ScalarType::BOOL, {0, 3}, cpu, 0);
  int32_t c = b.AddPlannedTensor(fb::ScalarType::SHORT, {2, 10}, cpu, 0);
  int32_t list = b.AddTensorList({a, c});
  int32_t none = b.AddNull();
  int32_t opt = b.AddOptionalTensorList({a, -1});
  b.AddKernelCall(b.AddOperator("aten::cat"), {list, none, opt, c});
  b.SetInputs({a});
  b.SetOutputs({c});
  b.AddMethod("backward");
  uint32_t g = b.AddBuffer(1024, Device::Cuda(0));
  int32_t d = b.AddPlannedTensor(fb::ScalarType::BFLOAT16, {512}, g, 0,
                                 Device::Cuda(0));
  b.SetInputs({d});
  b.SetOutputs({d});
  return b.Build();
}

// Offsets above 4 GiB use memory_offset_high.
std::vector<uint8_t> HighOffset() {
  ProgramBuilder b;
  uint32_t big = b.AddBuffer((int64_t{1} << 32) + 4096);
  int32_t x = b.AddPlannedTensor(fb::ScalarType::FLOAT, {256}, big,
                                 (uint64_t{1} << 32) + 1024);
  b.SetInputs({x});
  b.SetOutputs({x});
  return b.Build();
}

// Every other value kind, instruction kind and data location a valid
// program may hold (lists of 8-byte scalars, moves, jumps, frees, a
// delegate call, constants in a segment and in constant_buffer, a mutable
// buffer's initial state in mutable_data_segments).
std::vector<uint8_t> EveryKind() {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(64);
  int32_t x = b.AddPlannedTensor(fb::ScalarType::FLOAT, {4}, cpu, 0);
  int32_t y = b.AddPlannedTensor(fb::ScalarType::FLOAT, {4}, cpu, 16);
  auto add_value = [&](fb::KernelTypesUnion val) {
    auto value = std::make_unique<fb::EValueT>();
    value->val = std::move(val);
    b.method().values.push_back(std::move(value));
    return static_cast<int32_t>(b.method().values.size() - 1);
  };
  fb::KernelTypesUnion u;
  fb::IntListT ints;
  ints.items = {1, -2, 3};
  u.Set(std::move(ints));
  int32_t int_list = add_value(std::move(u));
  fb::DoubleListT doubles;
  doubles.items = {0.5, -1.0};
  u.Set(std::move(doubles));
  add_value(std::move(u));
  fb::BoolListT bools;
  bools.items = {true, false};
  u.Set(std::move(bools));
  add_value(std::move(u));
  fb::DoubleT d;
  d.double_val = 2.5;
  u.Set(std::move(d));
  add_value(std::move(u));
  fb::BoolT flag;
  flag.bool_val = true;
  u.Set(std::move(flag));
  int32_t cond = add_value(std::move(u));
  fb::StringT str;
  str.string_val = "mean";
  u.Set(std::move(str));
  add_value(std::move(u));
  // A constant in the constant segment (index 1; 0 is reserved).
  uint32_t seg = b.AddSegment(std::vector<uint8_t>(32, 0x11));
  b.program().constant_segment = std::make_unique<fb::SubsegmentOffsetsT>();
  b.program().constant_segment->segment_index = seg;
  b.program().constant_segment->offsets = {0, 16};
  memplan::testing::TensorSpec constant;
  constant.sizes = {4};
  constant.data_buffer_idx = 1;
  int32_t w = b.AddTensor(constant);
  // A mutable buffer's state: mutable_data_segments[0].offsets[1].
  uint32_t state_seg = b.AddSegment(std::vector<uint8_t>(16, 0x22));
  auto sub = std::make_unique<fb::SubsegmentOffsetsT>();
  sub->segment_index = state_seg;
  sub->offsets = {0, 0};
  b.program().mutable_data_segments.push_back(std::move(sub));
  memplan::testing::TensorSpec state;
  state.sizes = {4};
  state.memory_id = cpu;
  state.offset = 32;
  state.data_buffer_idx = 1;
  state.device = Device::Cpu();
  int32_t s = b.AddTensor(state);
  // A delegate whose blob is inline.
  auto blob = std::make_unique<fb::BackendDelegateInlineDataT>();
  blob->data = {1, 2, 3, 4};
  b.program().backend_delegate_data.push_back(std::move(blob));
  auto delegate = std::make_unique<fb::BackendDelegateT>();
  delegate->id = "backend";
  delegate->processed = std::make_unique<fb::BackendDelegateDataReferenceT>();
  delegate->processed->location = fb::DataLocation::INLINE;
  delegate->processed->index = 0;
  b.method().delegates.push_back(std::move(delegate));
  auto instruction = [&](fb::InstructionArgumentsUnion args) {
    auto instr = std::make_unique<fb::InstructionT>();
    instr->instr_args = std::move(args);
    b.method().chains[0]->instructions.push_back(std::move(instr));
  };
  b.AddKernelCall(b.AddOperator("aten::add"), {x, w, int_list, y});
  fb::InstructionArgumentsUnion args;
  fb::DelegateCallT call;
  call.delegate_index = 0;
  call.args = {y, s};
  args.Set(std::move(call));
  instruction(std::move(args));
  b.AddMove(y, x);
  b.AddJumpFalse(cond, 0);
  fb::FreeCallT free_call;
  free_call.value_index = x;
  args.Set(std::move(free_call));
  instruction(std::move(args));
  b.SetInputs({x});
  b.SetOutputs({s});
  return b.Build();
}

// The base the hostile programs break (runtime/program_hostile_test.cc's
// too): two devices, three values, one kernel call.
ProgramBuilder HostileBase() { return memplan::testing::TwoDeviceProgram(); }

// A program whose only value (or instruction) has a union type that is out
// of the schema's range or has no table: the object API cannot write these.
std::vector<uint8_t> RawUnionProgram(bool instruction, uint8_t type) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::EValue>> values;
  std::vector<flatbuffers::Offset<fb::Chain>> chains;
  if (instruction) {
    std::vector<flatbuffers::Offset<fb::Instruction>> instrs = {
        fb::CreateInstruction(fbb,
                              static_cast<fb::InstructionArguments>(type))};
    chains.push_back(fb::CreateChain(fbb, 0, 0, fbb.CreateVector(instrs)));
  } else {
    values.push_back(fb::CreateEValue(fbb, static_cast<fb::KernelTypes>(type)));
  }
  auto plan = fb::CreateExecutionPlan(fbb, fbb.CreateString("forward"), 0,
                                      fbb.CreateVector(values), 0, 0,
                                      fbb.CreateVector(chains));
  std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans = {plan};
  fb::FinishProgramBuffer(fbb,
                          fb::CreateProgram(fbb, 0, fbb.CreateVector(plans)));
  return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

// Programs that each break one rule of Program::Load, one error path each
// (as runtime/program_hostile_test.cc does), so that the parser's fuzzing
// starts from every refusal instead of finding each one by mutation.
std::vector<Seed> HostilePrograms() {
  std::vector<Seed> seeds;
  auto tensor = [](ProgramBuilder& b, int value) -> fb::TensorT& {
    return *b.method().values[value]->val.AsTensor();
  };
  auto add = [&](const std::string& name,
                 const std::function<void(ProgramBuilder&)>& mutate) {
    ProgramBuilder b = HostileBase();
    mutate(b);
    seeds.push_back({"invalid_" + name + ".pte", b.Build()});
  };
  auto append = [](ProgramBuilder& b, fb::InstructionArgumentsUnion args) {
    auto instr = std::make_unique<fb::InstructionT>();
    instr->instr_args = std::move(args);
    b.method().chains[0]->instructions.push_back(std::move(instr));
  };
  auto kernel = [](ProgramBuilder& b) -> fb::KernelCallT& {
    return *b.method().chains[0]->instructions[0]->instr_args.AsKernelCall();
  };

  // File framing: identifier, size, extended header, verifier.
  std::vector<uint8_t> base = HostileBase().Build();
  std::vector<uint8_t> bytes = base;
  std::memcpy(bytes.data() + 4, "ET\x01\x31", 4);
  seeds.push_back({"invalid_identifier.pte", bytes});
  seeds.push_back({"invalid_tiny_file.pte", {0, 0, 0, 0, 'E', 'T'}});
  seeds.push_back({"invalid_header_cut.pte",
                   {0, 0, 0, 0, 'E', 'T', '1', '2', 'e', 'h', '0', '0', 24}});
  bytes = base;
  bytes[0] = 0xF0;  // Root offset past the end.
  seeds.push_back({"invalid_verifier.pte", bytes});
  ProgramBuilder with_segment = HostileBase();
  with_segment.AddSegment({1, 2, 3, 4});
  std::vector<uint8_t> segmented = with_segment.Build();
  bytes = segmented;
  bytes[16 + 7] = 0x7F;  // program_size far past the file.
  seeds.push_back({"invalid_header_program_size.pte", bytes});
  bytes = segmented;
  bytes[16] = 16;  // program_size 16: inside the header.
  bytes[17] = bytes[18] = bytes[19] = 0;
  seeds.push_back({"invalid_header_program_size_small.pte", bytes});
  bytes = segmented;
  std::memset(bytes.data() + 24, 0, 8);  // segment_base_offset 0.
  seeds.push_back({"invalid_header_segment_base.pte", bytes});
  bytes = segmented;
  bytes[12] = 8;
  seeds.push_back({"invalid_header_length.pte", bytes});

  // Segments.
  add("segment_past_end", [](ProgramBuilder& b) {
    b.AddSegment({1, 2, 3, 4});
    b.program().segments[0]->size = 1 << 20;
  });
  add("constant_segment_index", [](ProgramBuilder& b) {
    b.program().constant_segment = std::make_unique<fb::SubsegmentOffsetsT>();
    b.program().constant_segment->offsets = {0};
  });
  add("constant_segment_offset", [](ProgramBuilder& b) {
    b.AddSegment({1, 2, 3, 4});
    b.program().constant_segment = std::make_unique<fb::SubsegmentOffsetsT>();
    b.program().constant_segment->offsets = {0, 5};
  });
  add("mutable_segment_index", [](ProgramBuilder& b) {
    auto sub = std::make_unique<fb::SubsegmentOffsetsT>();
    sub->segment_index = 3;
    b.program().mutable_data_segments.push_back(std::move(sub));
  });

  // Buffers and the device map.
  add("buffer_size_negative",
      [](ProgramBuilder& b) { b.method().non_const_buffer_sizes[1] = -64; });
  add("buffer_total_overflow", [](ProgramBuilder& b) {
    b.method().non_const_buffer_sizes = {0, INT64_MAX, INT64_MAX, INT64_MAX};
  });
  add("device_map_index", [](ProgramBuilder& b) {
    b.method().non_const_buffer_device[0]->buffer_idx = 3;
  });
  add("device_map_reserved", [](ProgramBuilder& b) {
    b.method().non_const_buffer_device[0]->buffer_idx = 0;
  });
  add("device_map_duplicate", [](ProgramBuilder& b) {
    b.method().non_const_buffer_device.push_back(
        std::make_unique<fb::NonConstBufferDeviceT>(
            *b.method().non_const_buffer_device[0]));
  });
  add("device_map_type", [](ProgramBuilder& b) {
    b.method().non_const_buffer_device[0]->device_type =
        static_cast<fb::DeviceType>(9);
  });
  add("device_map_negative_index", [](ProgramBuilder& b) {
    b.method().non_const_buffer_device[0]->device_index = -1;
  });

  // Tensors.
  add("rank", [&](ProgramBuilder& b) {
    tensor(b, 0).sizes.assign(17, 1);
    tensor(b, 0).dim_order.clear();
  });
  add("dim_order_length",
      [&](ProgramBuilder& b) { tensor(b, 0).dim_order = {0}; });
  add("dim_order_repeat", [&](ProgramBuilder& b) {
    tensor(b, 0).dim_order = {1, 1};
  });
  add("scalar_type", [&](ProgramBuilder& b) {
    tensor(b, 0).scalar_type = static_cast<fb::ScalarType>(99);
  });
  add("dim_negative", [&](ProgramBuilder& b) { tensor(b, 0).sizes[1] = -2; });
  add("nbytes_overflow", [&](ProgramBuilder& b) {
    tensor(b, 0).sizes = {1 << 30, 1 << 30, 1 << 30};
    tensor(b, 0).dim_order = {0, 1, 2};
  });
  add("tensor_device_type", [&](ProgramBuilder& b) {
    tensor(b, 1).extra_tensor_info->device_type =
        static_cast<fb::DeviceType>(7);
  });
  add("tensor_device_negative_index", [&](ProgramBuilder& b) {
    tensor(b, 1).extra_tensor_info->device_index = -3;
  });
  add("no_planned_buffers", [](ProgramBuilder& b) {
    b.method().non_const_buffer_sizes = {0};
    b.method().non_const_buffer_device.clear();
  });
  add("memory_id_zero",
      [&](ProgramBuilder& b) { tensor(b, 0).allocation_info->memory_id = 0; });
  add("memory_id_range",
      [&](ProgramBuilder& b) { tensor(b, 1).allocation_info->memory_id = 7; });
  add("offset_wraps", [&](ProgramBuilder& b) {
    tensor(b, 0).allocation_info->memory_offset_high = 0xFFFFFFFF;
    tensor(b, 0).allocation_info->memory_offset_low = 0xFFFFFFF0;
  });
  add("tensor_past_buffer", [&](ProgramBuilder& b) {
    tensor(b, 1).allocation_info->memory_offset_low = 56;
  });
  add("tensor_device_mismatch",
      [&](ProgramBuilder& b) { tensor(b, 1).extra_tensor_info.reset(); });
  add("constant_buffer_index", [](ProgramBuilder& b) {
    memplan::testing::TensorSpec constant;
    constant.sizes = {2};
    constant.data_buffer_idx = 4;
    b.AddTensor(constant);
  });
  add("mutable_state_segment", [&](ProgramBuilder& b) {
    b.program().mutable_data_segments.push_back(
        std::make_unique<fb::SubsegmentOffsetsT>());
    b.AddSegment({1, 2, 3, 4});
    tensor(b, 0).data_buffer_idx = 1;
    tensor(b, 0).extra_tensor_info = std::make_unique<fb::ExtraTensorInfoT>();
    tensor(b, 0).extra_tensor_info->mutable_data_segments_idx = 2;
  });
  add("mutable_state_offset", [&](ProgramBuilder& b) {
    b.program().mutable_data_segments.push_back(
        std::make_unique<fb::SubsegmentOffsetsT>());
    b.AddSegment({1, 2, 3, 4});
    tensor(b, 0).data_buffer_idx = 1;
    tensor(b, 0).extra_tensor_info = std::make_unique<fb::ExtraTensorInfoT>();
  });

  // Values naming values.
  add("tensor_list_item", [](ProgramBuilder& b) { b.AddTensorList({0, 2}); });
  add("tensor_list_range", [](ProgramBuilder& b) { b.AddTensorList({0, 9}); });
  add("optional_tensor_list_item", [](ProgramBuilder& b) {
    b.AddOptionalTensorList({-1, 2});
  });
  add("value_none",
      [](ProgramBuilder& b) { b.method().values[2]->val.Reset(); });
  seeds.push_back({"invalid_value_type.pte", RawUnionProgram(false, 200)});
  seeds.push_back({"invalid_value_absent.pte", RawUnionProgram(false, 2)});
  add("inputs", [](ProgramBuilder& b) { b.SetInputs({0, 9}); });
  add("outputs", [](ProgramBuilder& b) { b.SetOutputs({-4}); });
  add("chain_inputs",
      [](ProgramBuilder& b) { b.method().chains[0]->inputs = {3}; });
  add("chain_outputs", [](ProgramBuilder& b) {
    b.method().chains[0]->outputs = {0, 3};
  });

  // Instructions.
  seeds.push_back({"invalid_instruction_type.pte", RawUnionProgram(true, 200)});
  seeds.push_back({"invalid_instruction_absent.pte", RawUnionProgram(true, 1)});
  add("kernel_op_index", [&](ProgramBuilder& b) { kernel(b).op_index = 1; });
  add("kernel_arg", [&](ProgramBuilder& b) { kernel(b).args[1] = 3; });
  add("move_from", [](ProgramBuilder& b) { b.AddMove(-1, 0); });
  add("move_to", [](ProgramBuilder& b) { b.AddMove(0, 5); });
  add("jump_cond", [](ProgramBuilder& b) { b.AddJumpFalse(3, 0); });
  add("jump_destination", [](ProgramBuilder& b) { b.AddJumpFalse(2, 2); });
  add("free_not_tensor", [&](ProgramBuilder& b) {
    fb::FreeCallT free_call;
    free_call.value_index = 2;
    fb::InstructionArgumentsUnion args;
    args.Set(std::move(free_call));
    append(b, std::move(args));
  });
  add("delegate_index", [&](ProgramBuilder& b) {
    fb::DelegateCallT call;
    fb::InstructionArgumentsUnion args;
    args.Set(std::move(call));
    append(b, std::move(args));
  });
  auto delegate = [&](ProgramBuilder& b, fb::DataLocation location,
                      uint32_t index, std::vector<int32_t> call_args) {
    auto d = std::make_unique<fb::BackendDelegateT>();
    d->processed = std::make_unique<fb::BackendDelegateDataReferenceT>();
    d->processed->location = location;
    d->processed->index = index;
    b.method().delegates.push_back(std::move(d));
    fb::DelegateCallT call;
    call.args = std::move(call_args);
    fb::InstructionArgumentsUnion args;
    args.Set(std::move(call));
    append(b, std::move(args));
  };
  add("delegate_arg", [&](ProgramBuilder& b) {
    b.program().backend_delegate_data.push_back(
        std::make_unique<fb::BackendDelegateInlineDataT>());
    delegate(b, fb::DataLocation::INLINE, 0, {0, 4});
  });
  add("delegate_inline_index", [&](ProgramBuilder& b) {
    delegate(b, fb::DataLocation::INLINE, 1, {0});
  });
  add("delegate_segment_index", [&](ProgramBuilder& b) {
    delegate(b, fb::DataLocation::SEGMENT, 0, {0});
  });
  add("delegate_location", [&](ProgramBuilder& b) {
    delegate(b, static_cast<fb::DataLocation>(5), 0, {0});
  });
  return seeds;
}

// Deterministic bytes for the FuzzedDataProvider targets.
std::vector<uint8_t> PseudoRandom(uint64_t seed, size_t size) {
  std::vector<uint8_t> out(size);
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  for (uint8_t& byte : out) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    byte = static_cast<uint8_t>(state >> 24);
  }
  return out;
}

// The graph with every dim clamped to max_dim, so that loading it allocates
// kilobytes, not megabytes, each fuzz run; the original when a clamped view
// would outgrow its base.
memplan::planner::Graph ShrinkGraph(const memplan::planner::Graph& graph,
                                    int64_t max_dim) {
  memplan::planner::Graph small(graph.name());
  for (memplan::planner::TensorSpec spec : graph.tensors()) {
    for (int64_t& dim : spec.shape) dim = std::min(dim, max_dim);
    if (!small.AddTensor(std::move(spec)).ok()) return graph;
  }
  for (const memplan::planner::Node& node : graph.nodes()) {
    if (!small.AddNode(node).ok()) return graph;
  }
  return small;
}

// Plans (greedy, 16-byte alignment) and emits one example graph.
memplan::Result<std::vector<uint8_t>> EmitGraph(
    const memplan::planner::Graph& graph) {
  memplan::planner::PlanOptions options;
  memplan::Result<memplan::planner::PlanResult> plan =
      memplan::planner::PlanGraph(graph, options);
  if (!plan.ok()) return plan.error();
  return memplan::planner::EmitProgram(graph, *plan);
}

bool WriteSeed(const std::filesystem::path& dir, const Seed& seed) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::ofstream out(dir / seed.first, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(seed.second.data()),
            static_cast<std::streamsize>(seed.second.size()));
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: %s CORPUS_ROOT [GRAPHS_DIR]\n", argv[0]);
    return 2;
  }
  const std::filesystem::path root = argv[1];
  const std::filesystem::path graphs = argc == 3 ? argv[2] : "examples/graphs";
  std::vector<Seed> programs = {
      {"empty_plan.pte", EmptyPlan()},
      {"single_cpu_buffer.pte", SingleCpuBuffer()},
      {"multi_device.pte", MultiDevice()},
      {"view.pte", View()},
      {"in_place.pte", InPlace()},
      {"mutable_buffer.pte", MutableBuffer()},
      {"two_methods_lists.pte", TwoMethodsAndLists()},
      {"high_offset.pte", HighOffset()},
      {"every_kind.pte", EveryKind()},
      // Two conds on one region (ExecuTorch issue 21490), the first's output
      // moved on.
      {"conds.pte", memplan::testing::CondsProgram(true, 64, true).Build()},
      // Valid: the first cond's true output apart from its false one, on its
      // output's own bytes (which nothing uses: both branches move into it).
      {"conds_apart.pte",
       memplan::testing::CondsProgram(true, 320, false, 128).Build()},
      // Nested conds, the inner true output overwritten at the outer join
      // while the outer output names it; and the same valid, t apart.
      {"nested_conds.pte",
       memplan::testing::NestedCondsProgram(128, false).Build()},
      {"nested_conds_apart.pte",
       memplan::testing::NestedCondsProgram(448, false).Build()},
  };
  std::vector<Seed> bytes;
  for (uint64_t i = 0; i < 8; ++i) {
    bytes.push_back(
        {"random_" + std::to_string(i) + ".bin", PseudoRandom(i, 32 + 48 * i)});
  }
  size_t written = 0;
  for (const char* target : {"program_parser_fuzzer", "program_loader_fuzzer",
                             "program_oracle_fuzzer"}) {
    for (const Seed& seed : programs) {
      if (!WriteSeed(root / target, seed)) return 1;
      ++written;
    }
  }
  // Refusals: the parser's, once each (the loader refuses them the same way
  // before it allocates anything).
  for (const Seed& seed : HostilePrograms()) {
    if (!WriteSeed(root / "program_parser_fuzzer", seed)) return 1;
    ++written;
  }
  for (const char* name : {"control_flow", "multi_device", "small_cnn",
                           "transformer_block", "views_inplace"}) {
    const std::string path = (graphs / (std::string(name) + ".graph")).string();
    memplan::Result<memplan::planner::Graph> graph =
        memplan::planner::ReadGraphFile(path);
    if (!graph.ok()) {
      std::fprintf(stderr, "%s\n", graph.error().ToString().c_str());
      return 1;
    }
    // Parser: the graph as written; loader: dims clamped, so that every run
    // allocates little (the parser never allocates buffers).
    for (const auto& [target, max_dim] :
         {std::pair<const char*, int64_t>{"program_parser_fuzzer", INT64_MAX},
          {"program_loader_fuzzer", 4},
          {"program_oracle_fuzzer", INT64_MAX}}) {
      memplan::Result<std::vector<uint8_t>> bytes =
          EmitGraph(ShrinkGraph(*graph, max_dim));
      if (!bytes.ok()) {
        std::fprintf(stderr, "%s: %s\n", path.c_str(),
                     bytes.error().ToString().c_str());
        return 1;
      }
      if (!WriteSeed(root / target,
                     {std::string("graph_") + name + ".pte", *bytes})) {
        return 1;
      }
      ++written;
    }
  }
  for (const char* target :
       {"cuda_allocation_fuzzer", "planner_fuzzer", "planner_items_fuzzer"}) {
    for (const Seed& seed : bytes) {
      if (!WriteSeed(root / target, seed)) return 1;
      ++written;
    }
  }
  std::printf("wrote %zu seeds under %s\n", written, root.c_str());
  return 0;
}
