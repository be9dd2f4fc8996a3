// Semantic validation of a verified ET12 program: every index in range,
// every planned tensor inside its buffer and on its buffer's device, every
// size overflow-checked. Runs after the flatbuffers Verifier, so every
// pointer it reads is in bounds; absent optional fields are treated as absent.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/device.h"
#include "runtime/core/error.h"
#include "runtime/core/result.h"
#include "runtime/program.h"
#include "schema/program_generated.h"

namespace memplan {

// What ValidateProgram checks. kStructure: what any reader needs before it
// can derive a plan (every index in range, sizes readable, segments inside
// the file). kStructureAndPlan adds the plan rules of runtime/core/
// plan_rules.h (buffer sizes and budget, the device map, each planned
// tensor inside its buffer and on its buffer's device, tensor devices):
// the loader refuses a program that breaks them; the oracle reads with
// kStructure and names each break by its code.
enum class ValidationScope : uint8_t { kStructure, kStructureAndPlan };

// Checks `program` (already verified) against the rules listed in
// program.h. `file_size` bounds the data segments. Returns the first
// violation as kInvalidProgram (kResourceExhausted for the planned-bytes
// budget), with a message naming the field path, the index and the bound.
Error ValidateProgram(
    const executorch_flatbuffer::Program& program, const ExtendedHeader& header,
    uint64_t file_size, const ProgramLimits& limits,
    ValidationScope scope = ValidationScope::kStructureAndPlan);

// ScalarTypeSize(type) * prod(sizes), overflow-checked; sizes must be >= 0
// and the scalar type known. `path` prefixes error messages.
Result<uint64_t> TensorNbytes(const executorch_flatbuffer::Tensor& tensor,
                              const char* path = "tensor");

// The device a tensor's memory lives on: extra_tensor_info's device, CPU:0
// when absent. Not range-checked (the validator does that).
Device TensorDevice(const executorch_flatbuffer::Tensor& tensor);

}  // namespace memplan
