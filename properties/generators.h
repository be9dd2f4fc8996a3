// RapidCheck generators for the planner's domain, one per concept (device,
// spec kind, dtype, shape, dynamism, graph, plan options), composed from
// small ones. A graph is generated as a list of steps and then built, so
// shrinking drops steps; a failing case prints in the graph text format.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "planner/graph.h"
#include "planner/memory_planner.h"
#include "planner/spec.h"
#include "runtime/core/device.h"

namespace memplan {
namespace properties {

// cpu, cuda:0 or cuda:1: the devices the simulated registry serves.
rc::Gen<Device> GenDevice();
// Any of the eight spec kinds.
rc::Gen<SpecKind> GenSpecKind();
rc::Gen<planner::ScalarType> GenDtype();
// Rank 0..3, dims 1..max_dim (no zero dims: every planned tensor has bytes,
// so same-place tensors in one instruction are aliases, never neighbours).
rc::Gen<std::vector<int64_t>> GenShape(int64_t max_dim = 8);
rc::Gen<planner::Dynamism> GenDynamism();

struct GraphGenOptions {
  int max_steps = 16;         // Each step adds one tensor (and most a node).
  bool devices = true;        // false: every tensor on CPU.
  bool custom_pools = true;   // Pre-assigned mem_ids, one pool per device.
  bool control_flow = true;   // Nodes with their own scratch arena.
  bool own_alignment = true;  // Tensors with align= above the global one.
  int64_t max_dim = 8;
};

// One step of a graph recipe: the kind of tensor it adds and the choices
// that step makes; the builder turns a list of steps into a valid Graph.
struct GraphStep {
  SpecKind kind = SpecKind::kPlain;
  planner::ScalarType dtype = planner::ScalarType::FLOAT;
  std::vector<int64_t> shape;
  Device device;
  planner::Dynamism dynamism = planner::Dynamism::kStatic;
  uint32_t pick_a = 0;      // Which available value a node reads (mod).
  uint32_t pick_b = 0;      // A second one, or a view's byte count (mod).
  int alignment_log2 = -1;  // < 0: the planner's global alignment.
  bool custom_pool = false;
  bool reads_two = false;
};

// Builds the graph of a recipe: always valid, at least one input and one
// node; every input and mutable buffer is read by some node; views and
// in-place outputs are defined by a node that reads their base.
planner::Graph BuildGraph(const std::vector<GraphStep>& steps);

rc::Gen<GraphStep> GenGraphStep(const GraphGenOptions& options);
// DAGs with views, views of views, in-place chains, mutable buffers,
// inputs/outputs, control-flow scratch, several devices and custom pools.
rc::Gen<planner::Graph> GenGraph(const GraphGenOptions& options = {});

// Device planning on/off, inputs/outputs planned or not, alignment,
// padding, over the given algorithms (exact gets a small budget).
rc::Gen<planner::PlanOptions> GenPlanOptions(
    std::vector<std::string> algorithms);

// A copy of the graph with every owning tensor's device mapped.
planner::Graph MapDevices(const planner::Graph& graph,
                          const std::function<Device(Device)>& map);

// Every tensor on device `from` moves to `to` and back (a swap).
planner::Graph RelabelDevices(const planner::Graph& graph, Device from,
                              Device to);

// Copies a graph with one more CPU tensor: an extra output of node
// `node_pick` (mod), read by no one, so that no position shifts.
planner::Graph AddCpuTensor(const planner::Graph& graph, uint32_t node_pick,
                            std::vector<int64_t> shape);

}  // namespace properties

void showValue(Device device, std::ostream& os);

namespace planner {
// RapidCheck prints counterexamples through these (found by ADL).
void showValue(const Graph& graph, std::ostream& os);
void showValue(const PlanOptions& options, std::ostream& os);
}  // namespace planner
}  // namespace memplan

namespace rc {
template <>
struct Arbitrary<memplan::planner::Graph> {
  static Gen<memplan::planner::Graph> arbitrary() {
    return memplan::properties::GenGraph();
  }
};
template <>
struct Arbitrary<memplan::Device> {
  static Gen<memplan::Device> arbitrary() {
    return memplan::properties::GenDevice();
  }
};
template <>
struct Arbitrary<memplan::planner::PlanOptions> {
  static Gen<memplan::planner::PlanOptions> arbitrary() {
    return memplan::properties::GenPlanOptions({"greedy"});
  }
};
}  // namespace rc
