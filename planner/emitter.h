// Writes a planned Graph as an ET12 program (schema/program.fbs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "planner/algorithm.h"
#include "planner/graph.h"
#include "planner/plan_result.h"
#include "runtime/core/result.h"

namespace memplan {
namespace planner {

// ExecuTorch's view operator; the emitter declares every alias with it.
inline constexpr const char* kViewOperator = "executorch_prim::et_view.default";

// One execution plan named after the graph; one EValue per tensor in
// Graph::tensors() order; one KernelCall per node whose args are the
// node's inputs, outputs and scratch (so lifetimes can be re-derived from
// the chain), preceded by one et_view(base, alias) KernelCall per alias
// (view or in-place output) the node defines, so that the oracle knows
// them as aliases from the program's semantics; non_const_buffer_sizes with
// index 0 = 0; and non_const_buffer_device only for non-CPU buffers. Errors: a
// plan that does not match the graph, dims or buffer sizes that do not fit the
// schema's integer types.
Result<std::vector<uint8_t>> EmitProgram(const Graph& graph,
                                         const PlanResult& plan);

// The instruction position of each node's own KernelCall in the emitted
// chain (node i's et_view declarations sit just before it).
std::vector<TimeValue> KernelPositions(const Graph& graph);

// Writes bytes to path; the error names the path.
Error WriteFile(const std::string& path, const std::vector<uint8_t>& bytes);

}  // namespace planner
}  // namespace memplan
