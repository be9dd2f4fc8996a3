#include "properties/generators.h"

#include <algorithm>
#include <utility>

#include "planner/graph_format.h"

namespace memplan {
namespace properties {
namespace {

using planner::Dynamism;
using planner::Graph;
using planner::Node;
using planner::ScalarType;
using planner::TensorSpec;
using planner::ValueId;

// One pool per device keeps a custom pool single-device under relabelling.
uint32_t PoolOf(Device device) {
  return device.is_cpu() ? 1 : 2 + static_cast<uint32_t>(device.index);
}

// The graph under construction: specs and nodes as plain data, added to a
// Graph at the end, so a node can still gain inputs after it was made.
class Builder {
 public:
  void Add(const GraphStep& step) {
    switch (step.kind) {
      case SpecKind::kInput:
      case SpecKind::kConstant:
      case SpecKind::kMutableBuffer:
        AddSource(step);
        return;
      case SpecKind::kView:
      case SpecKind::kInPlace:
        if (!aliasable_.empty()) {
          AddAlias(step);
          return;
        }
        break;
      case SpecKind::kScratch:
        AddControlFlow(step);
        return;
      default:
        break;
    }
    AddCompute(step, /*scratch=*/std::nullopt);
  }

  Graph Finish() {
    if (nodes_.empty()) AddCompute(GraphStep{}, std::nullopt);
    // Unread sources are read by the first node, so that no planned
    // tensor is unnamed in the emitted program.
    for (ValueId id : sources_) {
      if (!read_[id] && specs_[id].kind() != SpecKind::kConstant) {
        nodes_.front().inputs.push_back(id);
      }
    }
    Graph graph("g");
    for (TensorSpec& spec : specs_) {
      Result<ValueId> id = graph.AddTensor(std::move(spec));
      if (!id.ok())
        RC_FAIL("generator built a bad tensor: " + id.error().ToString());
    }
    for (Node& node : nodes_) {
      Error error = graph.AddNode(std::move(node));
      if (!error.ok())
        RC_FAIL("generator built a bad node: " + error.ToString());
    }
    return graph;
  }

 private:
  std::string NextName() { return "t" + std::to_string(specs_.size()); }

  ValueId Push(TensorSpec spec, uint64_t bytes) {
    specs_.push_back(std::move(spec));
    bytes_.push_back(bytes);
    read_.push_back(false);
    return static_cast<ValueId>(specs_.size() - 1);
  }

  static uint64_t BytesOf(const GraphStep& step) {
    uint64_t bytes = ScalarTypeSize(step.dtype);
    for (int64_t d : step.shape) bytes *= static_cast<uint64_t>(d);
    return bytes;
  }

  TensorSpec Owning(const GraphStep& step, SpecKind kind, Device device) {
    TensorSpec spec =
        TensorSpec::Owning(NextName(), kind, step.dtype, step.shape, device);
    if (step.alignment_log2 >= 0) spec.alignment = 1u << step.alignment_log2;
    if (step.custom_pool && kind != SpecKind::kConstant) {
      spec.mem_id = PoolOf(device);
    }
    return spec;
  }

  void AddSource(const GraphStep& step) {
    ValueId id = Push(Owning(step, step.kind, step.device), BytesOf(step));
    sources_.push_back(id);
    readable_.push_back(id);
    if (step.kind != SpecKind::kConstant) aliasable_.push_back(id);
  }

  std::vector<ValueId> Reads(const GraphStep& step) {
    std::vector<ValueId> reads;
    if (readable_.empty()) return reads;
    reads.push_back(readable_[step.pick_a % readable_.size()]);
    ValueId second = readable_[step.pick_b % readable_.size()];
    if (step.reads_two && second != reads[0]) reads.push_back(second);
    for (ValueId id : reads) read_[id] = true;
    return reads;
  }

  void AddCompute(const GraphStep& step, std::optional<ValueId> scratch) {
    SpecKind kind =
        step.kind == SpecKind::kOutput ? SpecKind::kOutput : SpecKind::kPlain;
    if (readable_.empty()) {
      // The first compute step needs something to read: an input.
      GraphStep input = step;
      input.kind = SpecKind::kInput;
      input.custom_pool = false;
      AddSource(input);
    }
    Node node;
    node.name = "n" + std::to_string(nodes_.size());
    node.op =
        scratch ? "torch.cond" : "aten::op" + std::to_string(step.pick_a % 4);
    node.inputs = Reads(step);
    TensorSpec spec = Owning(step, kind, step.device);
    spec.dynamism = step.dynamism;
    ValueId out = Push(std::move(spec), BytesOf(step));
    node.outputs.push_back(out);
    if (scratch) node.scratch.push_back(*scratch);
    nodes_.push_back(std::move(node));
    readable_.push_back(out);
    if (step.dynamism != Dynamism::kDynamicUnbound) aliasable_.push_back(out);
  }

  void AddAlias(const GraphStep& step) {
    ValueId base = aliasable_[step.pick_a % aliasable_.size()];
    const TensorSpec& base_spec = specs_[base];
    ScalarType dtype = base_spec.dtype;
    std::vector<int64_t> shape = base_spec.shape;
    uint64_t bytes = bytes_[base];
    if (step.kind == SpecKind::kView) {
      // A byte view no larger than its base.
      dtype = ScalarType::BYTE;
      bytes = 1 + step.pick_b % bytes_[base];
      shape = {static_cast<int64_t>(bytes)};
    }
    ValueId alias = Push(
        TensorSpec::Alias(NextName(), step.kind, dtype, shape, base), bytes);
    Node node;
    node.name = "n" + std::to_string(nodes_.size());
    node.op = step.kind == SpecKind::kView ? "aten::view" : "aten::relu_";
    node.inputs = {base};
    node.outputs = {alias};
    read_[base] = true;
    nodes_.push_back(std::move(node));
    readable_.push_back(alias);
    aliasable_.push_back(alias);
  }

  void AddControlFlow(const GraphStep& step) {
    GraphStep arena = step;
    arena.dtype = ScalarType::BYTE;
    arena.shape = {static_cast<int64_t>(64 * (1 + step.pick_b % 16))};
    arena.alignment_log2 = -1;
    ValueId scratch =
        Push(Owning(arena, SpecKind::kScratch, step.device), BytesOf(arena));
    GraphStep result = step;
    result.kind = SpecKind::kPlain;
    AddCompute(result, scratch);
  }

  std::vector<TensorSpec> specs_;
  std::vector<uint64_t> bytes_;
  std::vector<bool> read_;
  std::vector<Node> nodes_;
  std::vector<ValueId> sources_;
  std::vector<ValueId> readable_;   // Values a later node may read.
  std::vector<ValueId> aliasable_;  // Values a view / in-place may alias.
};

// A copy of `spec` with its device replaced (owning kinds only).
TensorSpec CopySpec(const TensorSpec& spec, Device device) {
  TensorSpec copy = spec.is_alias()
                        ? TensorSpec::Alias(spec.name, spec.kind(), spec.dtype,
                                            spec.shape, *spec.base())
                        : TensorSpec::Owning(spec.name, spec.kind(), spec.dtype,
                                             spec.shape, device);
  copy.dynamism = spec.dynamism;
  copy.alignment = spec.alignment;
  copy.mem_id = spec.mem_id;
  return copy;
}

Graph Rebuild(const Graph& graph, const std::vector<TensorSpec>& specs,
              const std::vector<Node>& nodes) {
  Graph out(graph.name());
  for (const TensorSpec& spec : specs) {
    Result<ValueId> id = out.AddTensor(spec);
    if (!id.ok()) RC_FAIL("rebuild: " + id.error().ToString());
  }
  for (const Node& node : nodes) {
    Error error = out.AddNode(node);
    if (!error.ok()) RC_FAIL("rebuild: " + error.ToString());
  }
  return out;
}

}  // namespace

rc::Gen<Device> GenDevice() {
  return rc::gen::element(Device::Cpu(), Device::Cuda(0), Device::Cuda(1));
}

rc::Gen<SpecKind> GenSpecKind() {
  return rc::gen::element(SpecKind::kPlain, SpecKind::kInput, SpecKind::kOutput,
                          SpecKind::kConstant, SpecKind::kMutableBuffer,
                          SpecKind::kView, SpecKind::kInPlace,
                          SpecKind::kScratch);
}

rc::Gen<ScalarType> GenDtype() {
  return rc::gen::element(ScalarType::FLOAT, ScalarType::HALF, ScalarType::BYTE,
                          ScalarType::CHAR, ScalarType::INT, ScalarType::LONG,
                          ScalarType::BOOL, ScalarType::DOUBLE);
}

rc::Gen<std::vector<int64_t>> GenShape(int64_t max_dim) {
  return rc::gen::mapcat(rc::gen::inRange<size_t>(0, 4),
                         [max_dim](size_t rank) {
                           return rc::gen::container<std::vector<int64_t>>(
                               rank, rc::gen::inRange<int64_t>(1, max_dim + 1));
                         });
}

rc::Gen<Dynamism> GenDynamism() {
  // Mostly static, as in real exports.
  return rc::gen::weightedElement<Dynamism>({{6, Dynamism::kStatic},
                                             {1, Dynamism::kDynamicBound},
                                             {1, Dynamism::kDynamicUnbound}});
}

rc::Gen<GraphStep> GenGraphStep(const GraphGenOptions& options) {
  rc::Gen<SpecKind> kind =
      options.control_flow ? GenSpecKind()
                           : rc::gen::suchThat(GenSpecKind(), [](SpecKind k) {
                               return k != SpecKind::kScratch;
                             });
  rc::Gen<Device> device =
      options.devices ? GenDevice() : rc::gen::just(Device::Cpu());
  rc::Gen<bool> pool =
      options.custom_pools
          ? rc::gen::weightedElement<bool>({{4, false}, {1, true}})
          : rc::gen::just(false);
  return rc::gen::apply(
      [](SpecKind k, ScalarType dtype, std::vector<int64_t> shape, Device d,
         Dynamism dyn, uint32_t a, uint32_t b, int align, bool p, bool two) {
        GraphStep step;
        step.kind = k;
        step.dtype = dtype;
        step.shape = std::move(shape);
        step.device = d;
        step.dynamism = dyn;
        step.pick_a = a;
        step.pick_b = b;
        step.alignment_log2 = align;
        step.custom_pool = p;
        step.reads_two = two;
        return step;
      },
      kind, GenDtype(), GenShape(options.max_dim), device, GenDynamism(),
      rc::gen::inRange<uint32_t>(0, 1000), rc::gen::inRange<uint32_t>(0, 1000),
      options.own_alignment
          ? rc::gen::weightedElement<int>({{6, -1}, {1, 5}, {1, 7}})
          : rc::gen::just(-1),
      pool, rc::gen::arbitrary<bool>());
}

planner::Graph BuildGraph(const std::vector<GraphStep>& steps) {
  Builder builder;
  for (const GraphStep& step : steps) builder.Add(step);
  return builder.Finish();
}

rc::Gen<planner::Graph> GenGraph(const GraphGenOptions& options) {
  return rc::gen::map(
      rc::gen::resize(
          options.max_steps,
          rc::gen::nonEmpty(rc::gen::container<std::vector<GraphStep>>(
              GenGraphStep(options)))),
      [](const std::vector<GraphStep>& steps) { return BuildGraph(steps); });
}

rc::Gen<planner::PlanOptions> GenPlanOptions(
    std::vector<std::string> algorithms) {
  return rc::gen::apply(
      [](std::string algorithm, uint64_t alignment, uint64_t padding,
         bool device_planning, bool plan_inputs, bool plan_outputs) {
        planner::PlanOptions options;
        options.algorithms = {algorithm};
        options.alignment = alignment;
        options.buffer_padding = padding;
        options.device_planning = device_planning;
        options.lifetimes.plan_inputs = plan_inputs;
        options.lifetimes.plan_outputs = plan_outputs;
        // A node budget, not a time one, keeps exact deterministic: small
        // graphs are proven optimal, larger ones keep the best plan found.
        options.algorithm_options.max_nodes = 20'000;
        options.algorithm_options.max_seconds = 10.0;
        return options;
      },
      rc::gen::elementOf(algorithms), rc::gen::element<uint64_t>(1, 4, 16, 64),
      rc::gen::element<uint64_t>(0, 0, 8, 64), rc::gen::arbitrary<bool>(),
      rc::gen::arbitrary<bool>(), rc::gen::arbitrary<bool>());
}

planner::Graph MapDevices(const planner::Graph& graph,
                          const std::function<Device(Device)>& map) {
  std::vector<TensorSpec> specs;
  for (const TensorSpec& spec : graph.tensors()) {
    specs.push_back(
        CopySpec(spec, map(spec.own_device().value_or(Device::Cpu()))));
  }
  return Rebuild(graph, specs, graph.nodes());
}

planner::Graph RelabelDevices(const planner::Graph& graph, Device from,
                              Device to) {
  return MapDevices(graph, [from, to](Device device) {
    if (device == from) return to;
    if (device == to) return from;
    return device;
  });
}

planner::Graph AddCpuTensor(const planner::Graph& graph, uint32_t node_pick,
                            std::vector<int64_t> shape) {
  std::vector<TensorSpec> specs;
  for (const TensorSpec& spec : graph.tensors()) {
    specs.push_back(CopySpec(spec, spec.own_device().value_or(Device::Cpu())));
  }
  std::vector<Node> nodes = graph.nodes();
  if (nodes.empty()) RC_FAIL("AddCpuTensor needs a node");
  specs.push_back(TensorSpec::Owning("extra_cpu", SpecKind::kPlain,
                                     ScalarType::FLOAT, std::move(shape)));
  nodes[node_pick % nodes.size()].outputs.push_back(
      static_cast<ValueId>(specs.size() - 1));
  return Rebuild(graph, specs, nodes);
}

}  // namespace properties

void showValue(Device device, std::ostream& os) { os << device.ToString(); }

namespace planner {

void showValue(const Graph& graph, std::ostream& os) {
  os << "\n" << FormatGraph(graph);
}

void showValue(const PlanOptions& options, std::ostream& os) {
  os << "algorithms=";
  for (const std::string& name : options.algorithms) os << name << ",";
  os << " alignment=" << options.alignment
     << " padding=" << options.buffer_padding
     << " device_planning=" << options.device_planning
     << " plan_inputs=" << options.lifetimes.plan_inputs
     << " plan_outputs=" << options.lifetimes.plan_outputs;
}

}  // namespace planner
}  // namespace memplan
