// Plans from serialized ET12 programs: one plan per method (execution
// plan). Works on a Program from Program::Read (structure checked, plan
// not), so every plan fault the loader would refuse reaches the oracle and
// is named by its code; Program::Load's programs work the same.
//
// Lifetimes are re-derived from the instruction chains, not trusted: the
// instructions of all chains are numbered 0..N-1 in order, and a tensor
// lives from the first to the last instruction naming it (KernelCall and
// DelegateCall args, MoveCall from/to, FreeCall, JumpFalseCall's condition;
// TensorList and OptionalTensorList items expanded), widened over every
// loop it is live across (control_flow.h). A MoveCall is a pointer move
// (ExecuTorch's runtime assigns the source's tensor to the destination's
// value slot, for good), so the planned tensor whose bytes the source
// names then (moves chain) lives on through the destination's lifetime,
// wherever the two are planned: ExecuTorch plans a cond's output apart
// from its branches' outputs and moves those into it (issue 21490 is a
// later cond's branch reusing such bytes). A move inside a cond's true
// branch (between the jump on the predicate and the jump on a constant
// false over the false branch) whose destination is named past the join
// is not carried over the false branch, which runs instead of it: the
// output is live again from the join (Allocation::resumed; nested, after
// a hole over each false branch passed), and may share bytes there with
// the false branch's output (ResumedPart::with). A slot into
// which every path moves a tensor before any other naming (both branches
// of a cond move into its output) never uses its own planned tensor:
// Allocation::accessed is false, its bytes meet nothing. Method inputs
// start at 0, method outputs last until N-1, and mutable state lives over
// [0, N-1].
// State is what the file shows to outlive a run, in a storage group with
// no method input or output: a planned tensor with initial data
// (data_buffer_idx > 0); one whose bytes are first accessed (views aside)
// as the self of an in-place op that reads it (index_put_ on a KV cache:
// it reads what the last run left); one last written by aten::copy_ (the
// write-back ExecuTorch adds for a mutated buffer) after a first access
// that is not certainly a write. A buffer only ever read, or updated in
// place only after this run wrote it, is not state in the file. A planned
// tensor that nothing names is taken as live throughout: the oracle
// cannot prove it dead.
//
// These rules deliberately copy the planner's (planner/lifetimes.h) rather
// than call them: an oracle that shared the planner's logic would share its
// bugs. lifetime_rules_agree_test and bounds_alignment_property_test compare
// the two on the same programs.
//
// Aliases come from semantics only (alias_ops.h):
// - a KernelCall of a view operator or an in-place ATen operator: its
//   output (the last argument, or that list's items) is an alias of its
//   first tensor argument, wherever the planner put it (elsewhere is an
//   `alias` violation);
// - an out argument that is the very value of an input is one allocation.
// Any other pair at the same place (a move's two ends included) is two
// allocations, so one instruction writing its output over its own live
// input is an `overlap`.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "properties/plan.h"
#include "runtime/core/result.h"
#include "runtime/program.h"

namespace memplan {
namespace properties {

struct ProgramPlanOptions {
  // Alignment asked of every tensor, on top of its scalar type's size.
  Offset min_alignment = 1;
  // A backend's own view operators, on top of KnownViewOps().
  std::vector<std::string> alias_ops;
};

Result<Plan> PlanFromProgram(const Program& program, size_t method_index,
                             const ProgramPlanOptions& options = {});

// Allocation ids are "v<value index>", e.g. "v12".
std::string ProgramAllocationId(uint32_t value_index);

}  // namespace properties
}  // namespace memplan
