// Hostile programs: each gets its named error (code and the field in the
// message), never a crash; run under ASan/UBSan with --config=asan.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/error_matchers.h"
#include "runtime/program.h"
#include "runtime/testing/program_builder.h"

namespace memplan {
namespace {

namespace fb = ::executorch_flatbuffer;
using ::memplan::testing::IsError;
using ::memplan::testing::ProgramBuilder;
using ::memplan::testing::TensorSpec;
using ::testing::HasSubstr;

// testing::TwoDeviceProgram(): one CPU buffer of 64 bytes, one CUDA buffer
// of 64, tensors 0 (cpu) and 1 (cuda:0), an Int at 2, one kernel call.
ProgramBuilder ValidBuilder() { return testing::TwoDeviceProgram(); }

fb::TensorT& TensorAt(ProgramBuilder& b, int value) {
  return *b.method().values[value]->val.AsTensor();
}

Error LoadError(const std::vector<uint8_t>& bytes,
                const ProgramLimits& limits = {}) {
  Result<Program> program = Program::Load(bytes.data(), bytes.size(), limits);
  return program.ok() ? Error::Ok() : program.error();
}

// Builds ValidBuilder(), applies `mutate`, loads, returns the error.
Error MutatedError(const std::function<void(ProgramBuilder&)>& mutate,
                   const ProgramLimits& limits = {}) {
  ProgramBuilder b = ValidBuilder();
  mutate(b);
  return LoadError(b.Build(), limits);
}

void ExpectInvalid(const Error& error, const std::string& field) {
  EXPECT_EQ(error.code(), ErrorCode::kInvalidProgram) << error.ToString();
  EXPECT_THAT(error.message(), HasSubstr(field));
}

TEST(ProgramHostileTest, TheBaselineIsValid) {
  EXPECT_TRUE(LoadError(ValidBuilder().Build()).ok());
}

TEST(ProgramHostileTest, EveryTruncationIsRefused) {
  ProgramBuilder b = ValidBuilder();
  // 16 bytes: no padding after the segment, so every prefix cuts something.
  b.AddSegment(std::vector<uint8_t>(16, 0xAB));
  std::vector<uint8_t> bytes = b.Build();
  ASSERT_TRUE(LoadError(bytes).ok());
  for (size_t len = 0; len < bytes.size(); ++len) {
    // A fresh, exactly sized allocation so ASan sees any read past the end.
    std::unique_ptr<uint8_t[]> prefix(new uint8_t[len == 0 ? 1 : len]);
    std::memcpy(prefix.get(), bytes.data(), len);
    Result<Program> program = Program::Load(prefix.get(), len);
    EXPECT_THAT(program, IsError(ErrorCode::kInvalidProgram))
        << "prefix of " << len << " bytes";
  }
}

TEST(ProgramHostileTest, BadIdentifier) {
  std::vector<uint8_t> bytes = ValidBuilder().Build();
  std::memcpy(bytes.data() + 4, "ET\x01\x31", 4);
  ExpectInvalid(LoadError(bytes), "file_identifier = \"ET\\x011\"");
}

TEST(ProgramHostileTest, TinyFile) {
  std::vector<uint8_t> bytes = {0, 0, 0, 0, 'E', 'T'};
  ExpectInvalid(LoadError(bytes), "file size = 6");
}

TEST(ProgramHostileTest, OffsetHighBitsOverflow) {
  ExpectInvalid(
      MutatedError([](ProgramBuilder& b) {
        TensorAt(b, 0).allocation_info->memory_offset_high = 0xFFFFFFFF;
        TensorAt(b, 0).allocation_info->memory_offset_low = 0xFFFFFFF0;
      }),
      "values[0].tensor.allocation_info: offset 18446744073709551600"
      " + nbytes 64 must be <= 64");
}

TEST(ProgramHostileTest, MemoryIdZeroIsReserved) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  TensorAt(b, 0).allocation_info->memory_id = 0;
                }),
                "execution_plan[0].values[0].tensor.allocation_info.memory_id "
                "= 0, must be in [1, 3)");
}

TEST(ProgramHostileTest, MemoryIdOutOfRange) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  TensorAt(b, 1).allocation_info->memory_id = 7;
                }),
                "values[1].tensor.allocation_info.memory_id = 7, must be in "
                "[1, 3) (len(non_const_buffer_sizes)");
}

TEST(ProgramHostileTest, TensorPastItsBufferEnd) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  TensorAt(b, 1).allocation_info->memory_offset_low = 56;
                }),
                "offset 56 + nbytes 16 must be <= 64 (non_const_buffer_sizes"
                "[2])");
}

TEST(ProgramHostileTest, NegativeTensorSize) {
  ExpectInvalid(
      MutatedError([](ProgramBuilder& b) { TensorAt(b, 0).sizes[1] = -2; }),
      "values[0].tensor.sizes[1] = -2, must be >= 0");
}

TEST(ProgramHostileTest, TensorByteSizeOverflow) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  TensorAt(b, 0).sizes = {1 << 30, 1 << 30, 1 << 30};
                  TensorAt(b, 0).dim_order = {0, 1, 2};
                }),
                "values[0].tensor.sizes: element size * product of sizes "
                "overflows");
}

TEST(ProgramHostileTest, NegativeBufferSize) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  b.method().non_const_buffer_sizes[1] = -64;
                }),
                "non_const_buffer_sizes[1] = -64, must be >= 0");
}

TEST(ProgramHostileTest, DeviceEntryIndexOutOfRange) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  b.method().non_const_buffer_device[0]->buffer_idx = 3;
                }),
                "non_const_buffer_device[0].buffer_idx = 3, must be in [1, 3)");
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  b.method().non_const_buffer_device[0]->buffer_idx = 0;
                }),
                "non_const_buffer_device[0].buffer_idx = 0");
}

TEST(ProgramHostileTest, DeviceEntryDuplicated) {
  ExpectInvalid(
      MutatedError([](ProgramBuilder& b) {
        auto dup = std::make_unique<fb::NonConstBufferDeviceT>(
            *b.method().non_const_buffer_device[0]);
        b.method().non_const_buffer_device.push_back(std::move(dup));
      }),
      "non_const_buffer_device[1].buffer_idx = 2 duplicates an earlier entry");
}

TEST(ProgramHostileTest, DeviceEntryUnknownType) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  b.method().non_const_buffer_device[0]->device_type =
                      static_cast<fb::DeviceType>(9);
                }),
                "non_const_buffer_device[0].device_type = 9, must be a known "
                "device type");
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  b.method().non_const_buffer_device[0]->device_index = -1;
                }),
                "non_const_buffer_device[0].device_index = -1, must be >= 0");
}

TEST(ProgramHostileTest, CpuTensorInsideCudaBuffer) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  TensorAt(b, 1).extra_tensor_info.reset();
                }),
                "values[1].tensor.allocation_info: tensor device cpu != "
                "device cuda:0 of non_const_buffer_sizes[2]");
}

TEST(ProgramHostileTest, CudaTensorOnOtherIndexInsideCudaBuffer) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  TensorAt(b, 1).extra_tensor_info->device_index = 1;
                }),
                "tensor device cuda:1 != device cuda:0");
}

TEST(ProgramHostileTest, PlannedTensorWithoutPlannedBuffers) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  b.method().non_const_buffer_sizes = {0};
                  b.method().non_const_buffer_device.clear();
                }),
                "values[0].tensor.allocation_info: planned tensor, but the "
                "plan has no planned buffers");
}

TEST(ProgramHostileTest, BufferTotalOverBudget) {
  ProgramLimits limits;
  limits.max_planned_bytes = 100;  // The program plans 128 bytes.
  Error error = LoadError(ValidBuilder().Build(), limits);
  EXPECT_EQ(error.code(), ErrorCode::kResourceExhausted);
  EXPECT_THAT(error.message(), HasSubstr("ProgramLimits.max_planned_bytes"));
  // Sums that wrap around uint64 are caught too, with the default limits.
  error = MutatedError([](ProgramBuilder& b) {
    b.method().non_const_buffer_sizes = {0, INT64_MAX, INT64_MAX, INT64_MAX};
  });
  EXPECT_EQ(error.code(), ErrorCode::kResourceExhausted) << error.ToString();
}

TEST(ProgramHostileTest, BadDimOrder) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  TensorAt(b, 0).dim_order = {1, 1};
                }),
                "values[0].tensor.dim_order[1] = 1, must be a permutation of "
                "[0, 2)");
  ExpectInvalid(
      MutatedError([](ProgramBuilder& b) { TensorAt(b, 0).dim_order = {0}; }),
      "values[0].tensor.dim_order: length = 1, must be 2");
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  TensorAt(b, 0).dim_order = {0, 5};
                }),
                "values[0].tensor.dim_order[1] = 5");
}

TEST(ProgramHostileTest, RankAboveLimit) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  TensorAt(b, 0).sizes.assign(17, 1);
                  TensorAt(b, 0).dim_order.clear();
                }),
                "values[0].tensor.sizes: rank = 17, must be <= 16");
}

TEST(ProgramHostileTest, UnknownScalarType) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  TensorAt(b, 0).scalar_type = static_cast<fb::ScalarType>(99);
                }),
                "values[0].tensor.scalar_type = 99, must be a known "
                "ScalarType");
}

TEST(ProgramHostileTest, NoneValueIsRefused) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  b.method().values[2]->val.Reset();
                }),
                "values[2].val_type = 0, must be a known KernelTypes kind");
}

TEST(ProgramHostileTest, ArgIndexOutOfRange) {
  ExpectInvalid(
      MutatedError([](ProgramBuilder& b) {
        b.method()
            .chains[0]
            ->instructions[0]
            ->instr_args.AsKernelCall()
            ->args[1] = 3;
      }),
      "chains[0].instructions[0].kernel_call.args[1] = 3, must be in [0, 3) "
      "(len(values))");
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  b.method()
                      .chains[0]
                      ->instructions[0]
                      ->instr_args.AsKernelCall()
                      ->args[0] = -1;
                }),
                "kernel_call.args[0] = -1");
}

TEST(ProgramHostileTest, OperatorIndexOutOfRange) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  b.method()
                      .chains[0]
                      ->instructions[0]
                      ->instr_args.AsKernelCall()
                      ->op_index = 1;
                }),
                "kernel_call.op_index = 1, must be in [0, 1) (len(operators))");
}

TEST(ProgramHostileTest, PlanInputsAndOutputsInRange) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  b.SetInputs({0, 9});
                }),
                "execution_plan[0].inputs[1] = 9, must be in [0, 3)");
  ExpectInvalid(MutatedError([](ProgramBuilder& b) { b.SetOutputs({-4}); }),
                "execution_plan[0].outputs[0] = -4");
}

TEST(ProgramHostileTest, TensorListNamingANonTensor) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  b.AddTensorList({0, 2});
                }),
                "values[3].tensor_list.items[1] = 2 names a Int value, must "
                "name a Tensor");
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  b.AddOptionalTensorList({-1, 40});
                }),
                "values[3].optional_tensor_list.items[1] = 40, must be in "
                "[0, 4)");
}

TEST(ProgramHostileTest, OtherInstructionIndices) {
  ExpectInvalid(
      MutatedError([](ProgramBuilder& b) {
        fb::FreeCallT free_call;
        free_call.value_index = 2;  // The Int.
        auto instr = std::make_unique<fb::InstructionT>();
        instr->instr_args.Set(std::move(free_call));
        b.method().chains[0]->instructions.push_back(std::move(instr));
      }),
      "instructions[1].free_call.value_index = 2 names a Int value");
  ExpectInvalid(
      MutatedError([](ProgramBuilder& b) {
        fb::JumpFalseCallT jump;
        jump.cond_value_index = 2;
        jump.destination_instruction = 2;
        auto instr = std::make_unique<fb::InstructionT>();
        instr->instr_args.Set(std::move(jump));
        b.method().chains[0]->instructions.push_back(std::move(instr));
      }),
      "jump_false_call.destination_instruction = 2, must be in "
      "[0, 2)");
  ExpectInvalid(
      MutatedError([](ProgramBuilder& b) {
        fb::MoveCallT move;
        move.move_from = 0;
        move.move_to = 5;
        auto instr = std::make_unique<fb::InstructionT>();
        instr->instr_args.Set(std::move(move));
        b.method().chains[0]->instructions.push_back(std::move(instr));
      }),
      "move_call.move_to = 5");
  ExpectInvalid(
      MutatedError([](ProgramBuilder& b) {
        fb::DelegateCallT call;
        call.delegate_index = 0;
        auto instr = std::make_unique<fb::InstructionT>();
        instr->instr_args.Set(std::move(call));
        b.method().chains[0]->instructions.push_back(std::move(instr));
      }),
      "delegate_call.delegate_index = 0, must be in [0, 0) "
      "(len(delegates))");
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  b.method().chains[0]->inputs = {3};
                }),
                "chains[0].inputs[0] = 3");
}

TEST(ProgramHostileTest, SegmentOutsideTheFile) {
  ProgramBuilder b = ValidBuilder();
  b.AddSegment({1, 2, 3, 4});
  b.program().segments[0]->size = 1 << 20;
  ExpectInvalid(LoadError(b.Build()), "segments[0]: segment_base_offset");
  // offset + size wrapping around uint64 must not pass.
  b.program().segments[0]->offset = UINT64_MAX - 2;
  b.program().segments[0]->size = 4;
  ExpectInvalid(LoadError(b.Build()), "segments[0]");
}

TEST(ProgramHostileTest, ConstantSegmentIndexOutOfRange) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  b.program().constant_segment =
                      std::make_unique<fb::SubsegmentOffsetsT>();
                  b.program().constant_segment->segment_index = 0;
                  b.program().constant_segment->offsets = {0};
                }),
                "constant_segment.segment_index = 0, must be in [0, 0) "
                "(len(segments))");
}

TEST(ProgramHostileTest, DataBufferIndexOutOfRange) {
  ExpectInvalid(MutatedError([](ProgramBuilder& b) {
                  TensorSpec constant;
                  constant.sizes = {2};
                  constant.data_buffer_idx = 4;
                  b.AddTensor(constant);
                }),
                "values[3].tensor.data_buffer_idx = 4, must be in [0, 0) "
                "(len(constant_buffer))");
}

TEST(ProgramHostileTest, ExtendedHeaderLies) {
  ProgramBuilder b = ValidBuilder();
  b.AddSegment({1, 2, 3, 4});
  std::vector<uint8_t> bytes = b.Build();
  std::vector<uint8_t> big = bytes;
  big[16 + 7] = 0x7F;  // program_size far past the file.
  ExpectInvalid(LoadError(big), "extended_header.program_size");
  std::vector<uint8_t> below = bytes;
  std::memset(below.data() + 24, 0, 8);  // segment base 0 < program_size.
  ExpectInvalid(LoadError(below), "extended_header.segment_base_offset = 0");
  std::vector<uint8_t> length = bytes;
  length[12] = 8;
  ExpectInvalid(LoadError(length), "extended_header.length = 8");
}

TEST(ProgramHostileTest, VerifierLimitsApply) {
  ProgramLimits limits;
  limits.max_verifier_tables = 4;
  ExpectInvalid(LoadError(ValidBuilder().Build(), limits),
                "flatbuffer verification failed");
}

TEST(ProgramHostileTest, SingleByteFlipsNeverCrash) {
  std::vector<uint8_t> bytes = ValidBuilder().Build();
  int loaded = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t flip : {0x01, 0x80, 0xFF}) {
      std::vector<uint8_t> mutated = bytes;
      mutated[i] ^= flip;
      Result<Program> program = Program::Load(mutated.data(), mutated.size());
      if (!program.ok()) continue;
      ++loaded;
      // Whatever loaded must be readable end to end.
      for (size_t m = 0; m < program->num_methods(); ++m) {
        Result<MethodMeta> meta = program->method_meta(m);
        ASSERT_TRUE(meta.ok());
        for (const PlannedTensor& t : meta->planned_tensors()) {
          Result<uint64_t> size =
              meta->memory_planned_buffer_size(t.memory_id - 1);
          ASSERT_TRUE(size.ok());
          EXPECT_LE(t.offset + t.nbytes, *size);
        }
      }
    }
  }
  // Many flips land in padding, names or values; some must still load.
  EXPECT_GT(loaded, 0);
}

// Plan faults are the oracle's to judge: Program::Read accepts each one
// that Program::Load refuses, and the loader still refuses to load it.
TEST(ProgramHostileTest, ReadKeepsPlanFaultsForTheOracle) {
  struct Fault {
    const char* name;
    ErrorCode code;       // What Program::Load says,
    const char* refusal;  // naming what it refused.
    std::function<void(ProgramBuilder&)> plant;
  };
  const std::vector<Fault> faults = {
      {"offset high bits", ErrorCode::kInvalidProgram,
       "offset 18446744069414584320 + nbytes 64 must be <= 64",
       [](ProgramBuilder& b) {
         TensorAt(b, 0).allocation_info->memory_offset_high = 0xFFFFFFFF;
       }},
      {"memory_id 0", ErrorCode::kInvalidProgram,
       "allocation_info.memory_id = 0, must be in [1, 3)",
       [](ProgramBuilder& b) {
         TensorAt(b, 0).allocation_info->memory_id = 0;
       }},
      {"memory_id out of range", ErrorCode::kInvalidProgram,
       "allocation_info.memory_id = 7, must be in [1, 3)",
       [](ProgramBuilder& b) {
         TensorAt(b, 1).allocation_info->memory_id = 7;
       }},
      {"past the end", ErrorCode::kInvalidProgram,
       "offset 56 + nbytes 16 must be <= 64",
       [](ProgramBuilder& b) {
         TensorAt(b, 1).allocation_info->memory_offset_low = 56;
       }},
      {"negative buffer size", ErrorCode::kInvalidProgram,
       "non_const_buffer_sizes[1] = -64, must be >= 0",
       [](ProgramBuilder& b) { b.method().non_const_buffer_sizes[1] = -64; }},
      {"huge buffer", ErrorCode::kResourceExhausted,
       "planned bytes exceed 1099511627776 (ProgramLimits.max_planned_bytes)",
       [](ProgramBuilder& b) {
         b.method().non_const_buffer_sizes[1] = INT64_MAX;
       }},
      {"device entry out of range", ErrorCode::kInvalidProgram,
       "non_const_buffer_device[0].buffer_idx = 3, must be in [1, 3)",
       [](ProgramBuilder& b) {
         b.method().non_const_buffer_device[0]->buffer_idx = 3;
       }},
      {"device entry for index 0", ErrorCode::kInvalidProgram,
       "non_const_buffer_device[0].buffer_idx = 0, must be in [1, 3)",
       [](ProgramBuilder& b) {
         b.method().non_const_buffer_device[0]->buffer_idx = 0;
       }},
      {"device entry duplicated", ErrorCode::kInvalidProgram,
       "non_const_buffer_device[1].buffer_idx = 2 duplicates an earlier entry",
       [](ProgramBuilder& b) {
         auto dup = std::make_unique<fb::NonConstBufferDeviceT>(
             *b.method().non_const_buffer_device[0]);
         b.method().non_const_buffer_device.push_back(std::move(dup));
       }},
      {"device entry of unknown type", ErrorCode::kInvalidProgram,
       "non_const_buffer_device[0].device_type = 9, must be a known device "
       "type",
       [](ProgramBuilder& b) {
         b.method().non_const_buffer_device[0]->device_type =
             static_cast<fb::DeviceType>(9);
       }},
      {"cpu tensor in a cuda buffer", ErrorCode::kInvalidProgram,
       "tensor device cpu != device cuda:0",
       [](ProgramBuilder& b) { TensorAt(b, 1).extra_tensor_info.reset(); }},
      {"cuda:1 tensor in a cuda:0 buffer", ErrorCode::kInvalidProgram,
       "tensor device cuda:1 != device cuda:0",
       [](ProgramBuilder& b) {
         TensorAt(b, 1).extra_tensor_info->device_index = 1;
       }},
      {"tensor of unknown device type", ErrorCode::kInvalidProgram,
       "extra_tensor_info.device_type = 7, must be a known device type",
       [](ProgramBuilder& b) {
         TensorAt(b, 1).extra_tensor_info->device_type =
             static_cast<fb::DeviceType>(7);
       }},
  };
  for (const Fault& fault : faults) {
    SCOPED_TRACE(fault.name);
    ProgramBuilder b = ValidBuilder();
    fault.plant(b);
    std::vector<uint8_t> bytes = b.Build();
    EXPECT_THAT(LoadError(bytes),
                IsError(fault.code, HasSubstr(fault.refusal)));
    Result<Program> read = Program::Read(bytes.data(), bytes.size());
    ASSERT_TRUE(read.ok()) << read.error().ToString();
    EXPECT_FALSE(read->plan_validated());
  }
  // Structure is still refused by Read: an argument naming no value.
  ProgramBuilder b = ValidBuilder();
  b.method().chains[0]->instructions[0]->instr_args.AsKernelCall()->args[0] =
      99;
  std::vector<uint8_t> bytes = b.Build();
  Result<Program> read = Program::Read(bytes.data(), bytes.size());
  EXPECT_THAT(read, IsError(ErrorCode::kInvalidProgram,
                            HasSubstr("kernel_call.args[0] = 99")));
}

}  // namespace
}  // namespace memplan
