#include "runtime/program.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "runtime/testing/program_builder.h"

namespace memplan {
namespace {

using ::executorch_flatbuffer::ScalarType;
using ::memplan::testing::ProgramBuilder;
using ::memplan::testing::TensorSpec;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Two methods; "forward" has a CPU buffer and a CUDA buffer.
ProgramBuilder TwoMethodBuilder() {
  ProgramBuilder b;
  b.AddMethod("forward");
  uint32_t cpu = b.AddBuffer(64);
  uint32_t gpu = b.AddBuffer(256, Device::Cuda(1));
  int32_t x = b.AddPlannedTensor(ScalarType::FLOAT, {4, 4}, cpu, 0);
  int32_t y =
      b.AddPlannedTensor(ScalarType::HALF, {8, 8}, gpu, 128, Device::Cuda(1));
  int32_t alpha = b.AddInt(1);
  b.AddKernelCall(b.AddOperator("aten::add"), {x, alpha, y});
  b.SetInputs({x});
  b.SetOutputs({y});
  b.AddMethod("init");
  b.AddBuffer(8);
  b.AddPlannedTensor(ScalarType::LONG, {1}, 1, 0);
  return b;
}

TEST(ProgramTest, LoadsValidProgramAndReadsMethodMeta) {
  std::vector<uint8_t> bytes = TwoMethodBuilder().Build();
  Result<Program> program = Program::Load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok()) << program.error().ToString();
  EXPECT_FALSE(program->extended_header().present);
  ASSERT_EQ(program->num_methods(), 2u);
  EXPECT_EQ(program->method_name(0), "forward");
  EXPECT_EQ(program->method_name(1), "init");

  Result<MethodMeta> meta = program->method_meta("forward");
  ASSERT_TRUE(meta.ok()) << meta.error().ToString();
  ASSERT_EQ(meta->num_memory_planned_buffers(), 2u);
  EXPECT_EQ(*meta->memory_planned_buffer_size(0), 64u);
  EXPECT_EQ(*meta->memory_planned_buffer_size(1), 256u);
  EXPECT_EQ(*meta->memory_planned_buffer_device(0), Device::Cpu());
  EXPECT_EQ(*meta->memory_planned_buffer_device(1), Device::Cuda(1));
  EXPECT_THAT(meta->memory_planned_buffer_devices(),
              ::testing::ElementsAre(Device::Cpu(), Device::Cuda(1)));
  EXPECT_EQ(meta->total_planned_bytes(), 320u);
  EXPECT_EQ(meta->memory_planned_buffer_size(2).error().code(),
            ErrorCode::kInvalidArgument);

  std::vector<PlannedTensor> tensors = meta->planned_tensors();
  ASSERT_EQ(tensors.size(), 2u);
  EXPECT_EQ(tensors[0].value_index, 0u);
  EXPECT_EQ(tensors[0].memory_id, 1u);
  EXPECT_EQ(tensors[0].offset, 0u);
  EXPECT_EQ(tensors[0].nbytes, 64u);
  EXPECT_EQ(tensors[0].device, Device::Cpu());
  EXPECT_EQ(tensors[1].value_index, 1u);
  EXPECT_EQ(tensors[1].memory_id, 2u);
  EXPECT_EQ(tensors[1].offset, 128u);
  EXPECT_EQ(tensors[1].nbytes, 128u);  // 8 * 8 halves.
  EXPECT_EQ(tensors[1].device, Device::Cuda(1));

  Result<MethodMeta> init = program->method_meta(1);
  ASSERT_TRUE(init.ok());
  EXPECT_EQ(init->name(), "init");
  EXPECT_EQ(init->total_planned_bytes(), 8u);
}

TEST(ProgramTest, UnknownMethodIsNotFound) {
  std::vector<uint8_t> bytes = TwoMethodBuilder().Build();
  Result<Program> program = Program::Load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok());
  EXPECT_EQ(program->method_meta("backward").error().code(),
            ErrorCode::kNotFound);
  EXPECT_EQ(program->method_meta(2).error().code(), ErrorCode::kNotFound);
}

TEST(ProgramTest, SixtyFourBitOffsetIsReassembled) {
  ProgramBuilder b;
  uint64_t big = (uint64_t{1} << 32) + 64;
  b.AddBuffer(static_cast<int64_t>(big + 16));
  b.AddPlannedTensor(ScalarType::FLOAT, {4}, 1, big);
  std::vector<uint8_t> bytes = b.Build();
  Result<Program> program = Program::Load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok()) << program.error().ToString();
  std::vector<PlannedTensor> tensors =
      program->method_meta(0)->planned_tensors();
  ASSERT_EQ(tensors.size(), 1u);
  EXPECT_EQ(tensors[0].offset, big);
}

TEST(ProgramTest, ExtendedHeaderAndSegmentsRoundTrip) {
  ProgramBuilder b = TwoMethodBuilder();
  b.AddSegment({1, 2, 3});
  b.AddSegment({9, 8, 7, 6, 5});
  std::vector<uint8_t> bytes = b.Build();
  Result<Program> program = Program::Load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok()) << program.error().ToString();
  const ExtendedHeader& header = program->extended_header();
  EXPECT_TRUE(header.present);
  EXPECT_GE(header.segment_base_offset, header.program_size);
  EXPECT_EQ(header.segment_base_offset % 16, 0u);
  auto second = program->segment(1);
  ASSERT_TRUE(second.ok());
  ASSERT_EQ(second->second, 5u);
  EXPECT_THAT(std::vector<uint8_t>(second->first, second->first + 5),
              ElementsAre(9, 8, 7, 6, 5));
  EXPECT_EQ(program->segment(2).error().code(), ErrorCode::kNotFound);
  // The methods still read through the shifted root.
  EXPECT_EQ(program->method_meta("forward")->total_planned_bytes(), 320u);
}

TEST(ProgramTest, ParseExtendedHeaderAcceptsLongerNewerHeaders) {
  std::vector<uint8_t> bytes(128, 0);
  std::memcpy(bytes.data() + 8, "eh00", 4);
  bytes[12] = 40;   // length 40 > 24: a newer header with more fields.
  bytes[16] = 100;  // program_size
  bytes[24] = 112;  // segment_base_offset
  Result<ExtendedHeader> header = ParseExtendedHeader(bytes.data(), 128);
  ASSERT_TRUE(header.ok()) << header.error().ToString();
  EXPECT_TRUE(header->present);
  EXPECT_EQ(header->program_size, 100u);
  EXPECT_EQ(header->segment_base_offset, 112u);

  bytes[12] = 16;  // Too short for the two sizes.
  EXPECT_THAT(ParseExtendedHeader(bytes.data(), 128).error().message(),
              HasSubstr("extended_header.length = 16"));
  bytes[12] = 24;
  bytes[16] = 200;  // Program larger than the file.
  EXPECT_THAT(ParseExtendedHeader(bytes.data(), 128).error().message(),
              HasSubstr("extended_header.program_size = 200"));
  std::memcpy(bytes.data() + 8, "xx00", 4);
  EXPECT_FALSE(ParseExtendedHeader(bytes.data(), 128)->present);
}

TEST(ProgramTest, ScalarTypeSizes) {
  EXPECT_EQ(ScalarTypeSize(ScalarType::BYTE), 1u);
  EXPECT_EQ(ScalarTypeSize(ScalarType::HALF), 2u);
  EXPECT_EQ(ScalarTypeSize(ScalarType::FLOAT), 4u);
  EXPECT_EQ(ScalarTypeSize(ScalarType::DOUBLE), 8u);
  EXPECT_EQ(ScalarTypeSize(ScalarType::UINT64), 8u);
  EXPECT_EQ(ScalarTypeSize(static_cast<ScalarType>(8)), 0u);  // Complex.
  EXPECT_EQ(ScalarTypeSize(static_cast<ScalarType>(99)), 0u);
}

TEST(ProgramTest, AcceptsWhatExecuTorchAllows) {
  ProgramBuilder b;
  b.AddBuffer(16);
  // A redundant CPU:0 device entry, a scalar with absent dim_order, a None
  // in an optional tensor list, a constant with initial data.
  auto cpu_entry =
      std::make_unique<executorch_flatbuffer::NonConstBufferDeviceT>();
  cpu_entry->buffer_idx = 1;
  b.method().non_const_buffer_device.push_back(std::move(cpu_entry));
  TensorSpec scalar;
  scalar.sizes = {};
  scalar.memory_id = 1;
  scalar.dim_order = std::vector<uint8_t>{};
  int32_t s = b.AddTensor(scalar);
  b.method().values[s]->val.AsTensor()->dim_order.clear();
  b.AddOptionalTensorList({-1, s});
  b.program().constant_buffer.push_back(
      std::make_unique<executorch_flatbuffer::BufferT>());
  b.program().constant_buffer.push_back(
      std::make_unique<executorch_flatbuffer::BufferT>());
  TensorSpec constant;
  constant.sizes = {2};
  constant.data_buffer_idx = 1;
  b.AddTensor(constant);
  b.AddTensorList({s});
  std::vector<uint8_t> bytes = b.Build();
  Result<Program> program = Program::Load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok()) << program.error().ToString();
  EXPECT_EQ(*program->method_meta(0)->memory_planned_buffer_device(0),
            Device::Cpu());
}

TEST(ProgramTest, ZeroSizedTensorAtBufferEndFits) {
  ProgramBuilder b;
  b.AddBuffer(16);
  b.AddPlannedTensor(ScalarType::FLOAT, {0, 3}, 1, 16);
  b.AddPlannedTensor(ScalarType::FLOAT, {4}, 1, 0);  // Exactly fills it.
  std::vector<uint8_t> bytes = b.Build();
  EXPECT_TRUE(Program::Load(bytes.data(), bytes.size()).ok());
}

}  // namespace
}  // namespace memplan
