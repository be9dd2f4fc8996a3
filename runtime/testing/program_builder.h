// ProgramBuilder: valid ET12 program bytes for tests, fuzz seeds and
// benchmarks, built with the flatbuffers object API.
//
//   memplan::testing::ProgramBuilder b;
//   b.AddMethod("forward");
//   uint32_t cpu = b.AddBuffer(64);                      // buffer id 1
//   uint32_t gpu = b.AddBuffer(128, Device::Cuda(0));    // buffer id 2
//   int32_t x = b.AddPlannedTensor(ScalarType::FLOAT, {4, 4}, cpu, 0);
//   int32_t y = b.AddPlannedTensor(ScalarType::FLOAT, {4, 4}, gpu, 0,
//                                  Device::Cuda(0));
//   b.AddKernelCall(b.AddOperator("aten::copy"), {x, y});
//   b.SetInputs({x});
//   b.SetOutputs({y});
//   std::vector<uint8_t> bytes = b.Build();
//
// To build a hostile program, mutate program() / method() before Build():
// the builder never validates, so any field can be set to any value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/core/device.h"
#include "runtime/core/result.h"
#include "schema/program_generated.h"

namespace memplan {
namespace testing {

// Everything one tensor value carries; fields left at their defaults are
// omitted from the flatbuffer where the schema allows it.
struct TensorSpec {
  executorch_flatbuffer::ScalarType scalar_type =
      executorch_flatbuffer::ScalarType::FLOAT;
  std::vector<int32_t> sizes;
  // Absent: the contiguous order 0..rank-1 is written.
  std::optional<std::vector<uint8_t>> dim_order;
  // 0: not planned (no allocation_info); >= 1: a planned buffer id.
  uint32_t memory_id = 0;
  uint64_t offset = 0;  // Split into memory_offset_low/high.
  // Absent: no extra_tensor_info (the tensor is CPU:0).
  std::optional<Device> device;
  uint32_t data_buffer_idx = 0;
};

class ProgramBuilder {
 public:
  ProgramBuilder();

  // A builder holding a copy of an existing program (or of the program a
  // bundled program wraps; structure checked by
  // Program::Read; any alignment): its object tree to mutate, and its data
  // segments' payloads, which Build() writes back after the new flatbuffer
  // with the extended header. Used to plant faults in real programs.
  static Result<ProgramBuilder> FromProgram(const uint8_t* data, size_t size);

  // Starts a new execution plan; later calls add to it. A builder without
  // any AddMethod call gets a "forward" method on first use.
  ProgramBuilder& AddMethod(const std::string& name);

  // Appends a planned buffer of `size` bytes on `device` and returns its id
  // (1, 2, ...). The reserved entry 0 is written on the first call; a
  // non-CPU device adds a non_const_buffer_device entry.
  uint32_t AddBuffer(int64_t size, Device device = Device::Cpu());

  // Each Add*Value returns the new value's index in the current method.
  int32_t AddTensor(const TensorSpec& spec);
  // A planned tensor on `device`; device CPU:0 writes no extra_tensor_info.
  int32_t AddPlannedTensor(executorch_flatbuffer::ScalarType scalar_type,
                           std::vector<int32_t> sizes, uint32_t memory_id,
                           uint64_t offset, Device device = Device::Cpu());
  int32_t AddInt(int64_t value);
  int32_t AddBool(bool value);
  int32_t AddNull();
  int32_t AddTensorList(std::vector<int32_t> items);
  int32_t AddOptionalTensorList(std::vector<int32_t> items);

  // Returns the operator's index in the current method.
  int32_t AddOperator(const std::string& name,
                      const std::string& overload = "out");
  // Appends to chain 0 of the current method (created on first use).
  void AddKernelCall(int32_t op_index, std::vector<int32_t> args);
  void AddMove(int32_t from, int32_t to);
  // destination_instruction is an index into chain 0.
  void AddJumpFalse(int32_t cond, int32_t destination);
  void SetInputs(std::vector<int32_t> inputs);
  void SetOutputs(std::vector<int32_t> outputs);

  // Appends a data segment holding `payload`; Build() then writes an
  // extended header and places the payloads after the program (16-aligned).
  // Returns the segment index. Mutating the DataSegment afterwards changes
  // only what the program claims, never where the payload is written.
  uint32_t AddSegment(std::vector<uint8_t> payload);

  // The object tree to mutate freely before Build().
  executorch_flatbuffer::ProgramT& program() { return program_; }
  executorch_flatbuffer::ExecutionPlanT& method();

  // Serializes: file identifier "ET12"; with segments, also the extended
  // header ("eh00", length 32) and the segment payloads.
  std::vector<uint8_t> Build() const;

 private:
  int32_t AddValue(executorch_flatbuffer::KernelTypesUnion value);
  void AddInstruction(executorch_flatbuffer::InstructionArgumentsUnion args);

  executorch_flatbuffer::ProgramT program_;
  std::vector<std::vector<uint8_t>> segment_payloads_;
  // Where each payload goes, kept apart from program_ so that a test that
  // rewrites DataSegment.offset/size does not move the payload bytes.
  std::vector<uint64_t> segment_offsets_;
  uint64_t segment_bytes_ = 0;  // Aligned bytes of the payloads so far.
};

// A small valid program for tests to break: method "forward", one CPU
// buffer of 64 bytes, one cuda:0 buffer of 64, tensors 0 (cpu, [4, 4]) and
// 1 (cuda:0, [4] at 16), an Int at 2 and one kernel call add(0, 2, 1).
ProgramBuilder TwoDeviceProgram();

// A loop over instructions [1, 4] (JumpFalseCall at 4 back to 1) in one
// CPU buffer of 320 bytes: w (value 0) is defined before it and read at
// its head in every iteration, t (value 2, at `t_offset`) lives inside one
// iteration. t_offset 0 puts t on w's bytes, which only loop widening
// shows to be an overlap; 128 is a valid place.
ProgramBuilder LoopProgram(uint64_t t_offset);

// Conds as ExecuTorch emits them, in one CPU buffer of 512 bytes: a
// JumpFalseCall on the predicate (value 0, a bool input) to the false
// branch; the true branch, whose output is moved into the cond's output;
// a JumpFalseCall on a constant false over the false branch; the false
// branch, moved into the same output. Both branches of a cond share one
// region (one of them runs), as ExecuTorch plans them: branch outputs at
// 64 (first cond) and at `second_region` (second cond, if `two`), cond
// outputs y1 at 128 and y2 at 192, x (input) at 0. With `chained`, y1 is
// moved on into w (at 384). The last instruction reads y1 (or w) and y2
// (x with one cond) into z (at 256, the output). A move is a pointer move, so
// y1 (and w) name the first cond's bytes until then: second_region 64 is
// ExecuTorch issue 21490 (the second cond's branches overwrite them), 320 a
// valid place. Values: pred 0, x 1, y1 2, y2 3, z 4, w 5, false 6, the first
// cond's true and false outputs 7 and 8, the second's 9 and 10.
// `first_true_at` (not 0) puts the first cond's true output there instead,
// apart from its false output (128: on y1's own bytes, which nothing
// uses, since both branches move into y1 before it is read).
ProgramBuilder CondsProgram(bool two, uint64_t second_region, bool chained,
                            uint64_t first_true_at = 0);

// ExecuTorch's nested conds (one in another's true branch), one CPU buffer
// of 512 bytes, every tensor 64 bytes. The inner cond's branches move
// their outputs `it` (at 128) and `if` (192) into its output slot s (256);
// at the inner join the outer true branch moves s on into the outer
// output u (320); the outer false branch moves its output `of` (64) into
// u; after the outer join u and t (at t_at) are read into z (384).
// Positions: 0 outer cond, 1 inner cond, 2 it, 3 move it, 4 inner skip,
// 5 if, 6 move if, 7 inner join: move s to u, 8 outer skip, then 9 of,
// 10 move of, 11 t (the outer join), 12 the read. With t_in_outer_false,
// t is written at 9 in the outer false branch instead (of and its move at
// 10 and 11, the join at 12) and z reads u and x. Values: pred 0, x 1,
// of 2, it 3, if 4, s 5, u 6, z 7, t 8, false 9. On the path through both
// true branches u names it's bytes after the outer join: t at 128
// there overwrites them; t at 128 in the outer false branch (which never
// runs with them) or elsewhere (448) meets nothing.
ProgramBuilder NestedCondsProgram(uint64_t t_at, bool t_in_outer_false);

// `depth` conds nested in each other's true branches (one CPU buffer, float
// [4] tensors apart): the innermost true branch writes t and moves it into
// y, each false branch writes its own output and moves it into y, and y is
// read into z last. Values: pred 0, x 1, y 2, z 3, t 4, false 5, then the
// outputs from the outermost false branch in. Positions: the entry jumps
// 0..depth-1 (the outermost first), t at depth, its move at depth + 1,
// then per level from the inside out its skip jump (depth + 2 + 3k), its
// false branch's kernel and move, its join right after; the read at
// 4 depth + 2.
ProgramBuilder DeeplyNestedCondsProgram(int depth);

// `conds` conds in a row, one CPU buffer, float [4] tensors apart: y[0] is
// written first; cond i's true branch moves y[i-1] into y[i], its false
// branch writes f[i] and moves it into y[i]; the last y is read into z at
// the end. y[i] may name any of y[0], f[1], ..., f[i]. Values: pred 0,
// x 1, z 2, false 3, then y[0..conds], then f[0..conds] (f[0] unused).
ProgramBuilder CondChainProgram(int conds);

// Program bytes whose method "forward" has n planned float [4] tensors,
// each in its own 16 bytes of buffer 1, whose extra_tensor_info all name
// one fully_qualified_name string of the file. Built by hand: the object
// API writes a string per tensor.
std::vector<uint8_t> TensorsSharingOneName(int n, const std::string& name);

}  // namespace testing
}  // namespace memplan
