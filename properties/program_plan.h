// Plans from serialized ET12 programs, read through the hardened loader
// (runtime/program.h): one plan per method (execution plan).
//
// Lifetimes are re-derived from the instruction chains, not trusted: the
// instructions of all chains are numbered 0..N-1 in order, and a tensor
// lives from the first to the last instruction naming it (KernelCall and
// DelegateCall args, MoveCall from/to, FreeCall; TensorList and
// OptionalTensorList items expanded). Method inputs start at 0, method
// outputs and mutable state (planned tensors with initial data) last until
// N-1. A planned tensor that nothing names is taken as live throughout:
// the oracle cannot prove it dead.
//
// Aliases: two planned tensors at the same (memory_id, offset) are one
// storage when a MoveCall moves one into the other (the moved-to one is a
// view) or one instruction names both (in-place output or view kernel).
// The largest of such a group is the base (ties: earliest, then lowest
// value index); the others are alias_of it. Same-offset tensors that no
// instruction relates stay separate, so a planner that stacks them while
// both are live is caught by the overlap check.
#pragma once

#include <cstddef>
#include <string>

#include "properties/plan.h"
#include "runtime/core/result.h"
#include "runtime/program.h"

namespace memplan {
namespace properties {

struct ProgramPlanOptions {
  // Alignment asked of every tensor, on top of its scalar type's size.
  Offset min_alignment = 1;
};

Result<Plan> PlanFromProgram(const Program& program, size_t method_index,
                             const ProgramPlanOptions& options = {});

// Allocation ids are "v<value index>", e.g. "v12".
std::string ProgramAllocationId(uint32_t value_index);

}  // namespace properties
}  // namespace memplan
