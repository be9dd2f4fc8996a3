// Lifetimes of tensor values: which are planned and from when to when.
#pragma once

#include <vector>

#include "planner/algorithm.h"
#include "planner/graph.h"
#include "runtime/core/lifetime.h"

namespace memplan {
namespace planner {

// Which kinds the planner allocates, as ExecuTorch's memory planning pass
// options (alloc_graph_input, alloc_graph_output, alloc_mutable_buffers).
struct LifetimeOptions {
  bool plan_inputs = true;
  bool plan_outputs = true;
  bool plan_mutable_buffers = true;
};

// A value's [first, last] in node indices (runtime/core/lifetime.h) and
// whether the planner allocates it at all.
struct ValueLifetime : Lifetime {
  bool planned = false;  // false: constants, unbound, unused, not asked for.
};

// One ValueLifetime per tensor value, in Graph::tensors() order. Rules: first
// to last node that uses or defines the value; inputs start at 0; outputs end
// at the last node; mutable buffers span the program; scratch lives at its
// node; a root's lifetime covers every alias of it, and an alias reports
// its own uses (its root's lifetime when it has none) and its root's
// planned flag. Constants and dynamic_unbound values are never planned.
// The oracle re-derives lifetimes from the emitted file with its own rules,
// a deliberate copy (properties/program_plan.h); the two are compared in
// properties/lifetime_rules_agree_test and bounds_alignment_property_test.
std::vector<ValueLifetime> ComputeLifetimes(
    const Graph& graph, const LifetimeOptions& options = {});

}  // namespace planner
}  // namespace memplan
