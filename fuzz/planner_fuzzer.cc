// The whole planning path from fuzzer-chosen graphs: bytes -> planner::Graph
// (several devices, views, in-place outputs, mutable buffers, scratch,
// custom pools, own alignments) -> PlanGraph with every algorithm -> the
// oracle on the planner's result -> EmitProgram -> Program::Load and the
// independent program checks -> the oracle on the plan read back from the
// program -> LoadMethod on simulated CPU and CUDA devices, every tensor in
// its own buffer, nothing leaked. Differential: a proven exact total is <=
// best_fit's, greedy's and naive's; greedy <= naive when every root has the
// global alignment.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fuzz/program_checks.h"
#include "planner/algorithm.h"
#include "planner/emitter.h"
#include "planner/graph.h"
#include "planner/graph_format.h"
#include "planner/memory_planner.h"
#include "properties/check.h"
#include "properties/planner_plan.h"
#include "properties/program_plan.h"
#include "properties/report.h"
#include "runtime/device_allocator_registry.h"
#include "runtime/loader.h"
#include "runtime/program.h"
#include "runtime/simulated_device_allocator.h"

namespace {

using memplan::Device;
using memplan::SpecKind;
using memplan::planner::Graph;
using memplan::planner::Node;
using memplan::planner::PlanResult;
using memplan::planner::ScalarType;
using memplan::planner::TensorSpec;
using memplan::planner::ValueId;

// The graph of the current input, printed with a failure so that a crash
// file can be read (and turned into a unit test) without a debugger.
const Graph* current_graph = nullptr;

[[noreturn]] void Fail(const std::string& algorithm, const std::string& what) {
  std::fprintf(stderr, "planner_fuzzer: %s: %s\n", algorithm.c_str(),
               what.c_str());
  if (current_graph != nullptr) {
    std::fprintf(stderr, "graph:\n%s\n",
                 memplan::planner::FormatGraph(*current_graph).c_str());
  }
  __builtin_trap();
}

struct FuzzGraph {
  Graph graph;
  uint64_t global_alignment = 16;
  uint64_t buffer_padding = 0;
};

ScalarType ConsumeDtype(FuzzedDataProvider& in) {
  return in.PickValueInArray({ScalarType::FLOAT, ScalarType::HALF,
                              ScalarType::BYTE, ScalarType::BOOL,
                              ScalarType::LONG, ScalarType::DOUBLE,
                              ScalarType::SHORT, ScalarType::INT});
}

std::vector<int64_t> ConsumeShape(FuzzedDataProvider& in) {
  std::vector<int64_t> shape(in.ConsumeIntegralInRange(0, 3));
  for (int64_t& dim : shape) dim = in.ConsumeIntegralInRange(0, 12);
  return shape;
}

// An owning spec; the graph may refuse it (e.g. a pool id 0 never comes,
// but sizes are always small), in which case nothing is added.
std::optional<ValueId> AddOwning(FuzzedDataProvider& in, Graph& graph,
                                 SpecKind kind) {
  static const Device kDevices[] = {Device::Cpu(), Device::Cuda(0),
                                    Device::Cuda(1)};
  Device device = kDevices[in.ConsumeIntegralInRange(0, 2)];
  TensorSpec spec =
      TensorSpec::Owning("t" + std::to_string(graph.tensors().size()), kind,
                         ConsumeDtype(in), ConsumeShape(in), device);
  if (in.ConsumeIntegralInRange(0, 7) == 0) {
    spec.alignment = uint64_t{1} << in.ConsumeIntegralInRange(0, 8);
  }
  // Custom pools: a pool that ends up holding two devices is a planner
  // error the fuzzer accepts (checked below), so keep them rare.
  if (in.ConsumeIntegralInRange(0, 15) == 0) {
    spec.mem_id = in.ConsumeIntegralInRange<uint32_t>(1, 3);
  }
  if (in.ConsumeIntegralInRange(0, 15) == 0) {
    spec.dynamism = memplan::planner::Dynamism::kDynamicBound;
  }
  memplan::Result<ValueId> id = graph.AddTensor(std::move(spec));
  if (!id.ok()) return std::nullopt;
  return *id;
}

FuzzGraph ConsumeGraph(FuzzedDataProvider& in) {
  FuzzGraph fuzz;
  fuzz.global_alignment = uint64_t{1} << in.ConsumeIntegralInRange(0, 6);
  fuzz.buffer_padding = in.ConsumeBool() ? 0 : in.ConsumeIntegralInRange(0, 64);
  Graph& graph = fuzz.graph;
  std::vector<ValueId> available;  // Values a node may read.
  const int sources = in.ConsumeIntegralInRange(1, 4);
  for (int i = 0; i < sources; ++i) {
    SpecKind kind =
        in.PickValueInArray({SpecKind::kInput, SpecKind::kInput,
                             SpecKind::kMutableBuffer, SpecKind::kConstant});
    if (std::optional<ValueId> id = AddOwning(in, graph, kind)) {
      available.push_back(*id);
    }
  }
  const int num_nodes = in.ConsumeIntegralInRange(1, 10);
  for (int n = 0; n < num_nodes && !available.empty(); ++n) {
    Node node;
    node.name = "n" + std::to_string(n);
    node.op = "aten::op" + std::to_string(n % 3);
    const int num_inputs = in.ConsumeIntegralInRange(1, 3);
    for (int i = 0; i < num_inputs; ++i) {
      node.inputs.push_back(available[in.ConsumeIntegralInRange<size_t>(
          0, available.size() - 1)]);
    }
    const int num_outputs = in.ConsumeIntegralInRange(1, 2);
    for (int o = 0; o < num_outputs; ++o) {
      SpecKind kind = in.PickValueInArray(
          {SpecKind::kPlain, SpecKind::kPlain, SpecKind::kPlain,
           SpecKind::kOutput, SpecKind::kView, SpecKind::kInPlace});
      std::optional<ValueId> id;
      if (memplan::IsAlias(kind)) {
        // As ExecuTorch's view_copy / out= kernels: the node that defines
        // the alias reads its base, so the program shows them related.
        // Usually its base's dtype, as aten views; sometimes another one,
        // which the planner must still align for (regressions/
        // wide_view_misaligned: a double view of an int16 root).
        ValueId base = node.inputs[in.ConsumeIntegralInRange<size_t>(
            0, node.inputs.size() - 1)];
        ScalarType dtype =
            in.ConsumeBool() ? ConsumeDtype(in) : graph.tensor(base).dtype;
        memplan::Result<ValueId> alias = graph.AddTensor(
            TensorSpec::Alias("t" + std::to_string(graph.tensors().size()),
                              kind, dtype, ConsumeShape(in), base));
        if (alias.ok()) id = *alias;
      } else {
        id = AddOwning(in, graph, kind);
      }
      if (id) node.outputs.push_back(*id);
    }
    if (in.ConsumeIntegralInRange(0, 5) == 0) {
      if (std::optional<ValueId> s = AddOwning(in, graph, SpecKind::kScratch)) {
        node.scratch.push_back(*s);
      }
    }
    if (!graph.AddNode(node).ok()) continue;
    for (ValueId out : node.outputs) available.push_back(out);
  }
  // Sometimes a last node reads every input and mutable buffer that nothing
  // read; without it, unread inputs stay unnamed in the program, which the
  // program adapter must time like the planner (regressions/
  // unread_input_overlap).
  if (in.ConsumeBool()) return fuzz;
  Node sink{"sink", "aten::sink", {}, {}, {}};
  std::vector<bool> read(graph.tensors().size(), false);
  for (const Node& node : graph.nodes()) {
    for (ValueId id : node.inputs) read[id] = true;
  }
  for (size_t id = 0; id < graph.tensors().size(); ++id) {
    SpecKind kind = graph.tensors()[id].kind();
    if (!read[id] &&
        (kind == SpecKind::kInput || kind == SpecKind::kMutableBuffer)) {
      sink.inputs.push_back(static_cast<ValueId>(id));
    }
  }
  if (!sink.inputs.empty() && !graph.AddNode(sink).ok()) {
    Fail("graph", "sink node refused");
  }
  return fuzz;
}

// Every planned root's alignment is the global one: no own alignment above
// it, no element (of the root or an alias of it) wider than it.
bool UniformAlignment(const FuzzGraph& fuzz) {
  const Graph& graph = fuzz.graph;
  for (size_t i = 0; i < graph.tensors().size(); ++i) {
    const TensorSpec& spec = graph.tensors()[i];
    // An alias's element size raises its root's alignment too.
    if (memplan::ScalarTypeSize(spec.dtype) > fuzz.global_alignment) {
      return false;
    }
    if (!spec.is_alias() && spec.alignment > fuzz.global_alignment) {
      return false;
    }
  }
  return true;
}

std::shared_ptr<memplan::SimulatedDeviceAllocator> MakeDevice(
    memplan::DeviceType type, int num_devices) {
  memplan::SimulatedDeviceOptions options;
  options.device_type = type;
  options.num_devices = num_devices;
  options.capacity_bytes = uint64_t{16} << 20;
  options.quarantine_bytes = 1 << 16;
  return std::make_shared<memplan::SimulatedDeviceAllocator>(options);
}

void CheckReport(const std::string& name, const char* what,
                 const memplan::properties::Report& report) {
  if (!report.ok()) {
    Fail(name,
         std::string(what) + ": " + memplan::properties::FormatText(report));
  }
}

// Planner result -> oracle -> program -> oracle -> loader.
void CheckPipeline(const std::string& name, const Graph& graph,
                   const PlanResult& result) {
  namespace props = memplan::properties;
  props::PlannerPlanOptions plan_options;
  plan_options.value_ids = true;
  if (!graph.nodes().empty()) {
    plan_options.end_time =
        static_cast<memplan::TimeValue>(graph.nodes().size()) - 1;
  }
  memplan::Result<props::Plan> planned =
      props::PlanFromPlannerResult(result, plan_options);
  if (!planned.ok()) Fail(name, "adapter: " + planned.error().ToString());
  CheckReport(name, "oracle on the planner's result", props::Check(*planned));

  memplan::Result<std::vector<uint8_t>> bytes =
      memplan::planner::EmitProgram(graph, result);
  if (!bytes.ok()) Fail(name, "EmitProgram: " + bytes.error().ToString());
  memplan::Result<memplan::Program> program =
      memplan::Program::Load(bytes->data(), bytes->size());
  if (!program.ok()) {
    Fail(name, "emitted program refused: " + program.error().ToString());
  }
  std::string violation = memplan::fuzz::CheckAcceptedProgram(*program);
  if (!violation.empty()) Fail(name, "emitted program: " + violation);
  memplan::Result<props::Plan> read_back = props::PlanFromProgram(*program, 0);
  if (!read_back.ok()) {
    Fail(name, "PlanFromProgram: " + read_back.error().ToString());
  }
  CheckReport(name, "oracle on the emitted program", props::Check(*read_back));

  auto cpu = MakeDevice(memplan::DeviceType::kCpu, 1);
  auto cuda = MakeDevice(memplan::DeviceType::kCuda, 2);
  {
    memplan::DeviceAllocatorRegistry registry;
    if (!registry.Register(cpu).ok() || !registry.Register(cuda).ok()) {
      Fail(name, "registering simulated devices");
    }
    memplan::Result<memplan::LoadedMethod> method =
        memplan::LoadMethod(*program, graph.name(), registry);
    if (!method.ok()) Fail(name, "LoadMethod: " + method.error().ToString());
    memplan::Error own = method->CheckTensorsInOwnBuffers();
    if (!own.ok()) Fail(name, own.ToString());
    if (method->buffers().size() != result.buffers.size()) {
      Fail(name, "loaded " + std::to_string(method->buffers().size()) +
                     " buffers, planned " +
                     std::to_string(result.buffers.size()));
    }
    for (size_t b = 0; b < result.buffers.size(); ++b) {
      const memplan::DeviceMemoryBuffer& buffer = method->buffers()[b];
      if (buffer.size() != result.buffers[b].size ||
          (buffer.size() > 0 && buffer.device() != result.buffers[b].device)) {
        Fail(name, "buffer " + std::to_string(b + 1) + ": loaded " +
                       std::to_string(buffer.size()) + " bytes on " +
                       buffer.device().ToString() + ", planned " +
                       std::to_string(result.buffers[b].size) + " on " +
                       result.buffers[b].device.ToString());
      }
    }
  }
  for (const auto& device : {cpu, cuda}) {
    memplan::Error leaks = device->CheckNoLeaks();
    if (!leaks.ok()) Fail(name, leaks.ToString());
    memplan::Error canaries = device->CheckCanaries();
    if (!canaries.ok()) Fail(name, canaries.ToString());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  FuzzGraph fuzz = ConsumeGraph(in);
  current_graph = &fuzz.graph;
  std::map<std::string, PlanResult> results;
  std::string refused;  // Partitioning errors refuse every algorithm alike.
  for (const std::string& name : memplan::planner::AlgorithmNames()) {
    memplan::planner::PlanOptions options;
    options.algorithms = {name};
    options.alignment = fuzz.global_alignment;
    options.buffer_padding = fuzz.buffer_padding;
    // A small budget keeps an execution fast; only proven totals compare.
    options.algorithm_options.max_nodes = 2'000;
    options.algorithm_options.max_seconds = 0.02;
    memplan::Result<PlanResult> result = PlanGraph(fuzz.graph, options);
    if (!result.ok()) {
      if (result.error().message().empty()) Fail(name, "error, no message");
      if (!results.empty()) {
        Fail(name, "refused what others planned: " + result.error().ToString());
      }
      refused = result.error().ToString();
      continue;
    }
    if (!refused.empty()) Fail(name, "planned what others refused: " + refused);
    CheckPipeline(name, fuzz.graph, *result);
    results.emplace(name, std::move(*result));
  }
  if (results.empty()) return 0;
  auto total = [&](const char* name) { return results.at(name).total_bytes(); };
  const PlanResult& exact = results.at("exact");
  if (!exact.algorithms.empty() && exact.algorithms[0].proven_optimal) {
    for (const char* other : {"best_fit", "greedy", "naive"}) {
      if (total("exact") > total(other)) {
        Fail("exact", "proven total " + std::to_string(total("exact")) + " > " +
                          other + " " + std::to_string(total(other)));
      }
    }
  }
  if (UniformAlignment(fuzz) && total("greedy") > total("naive")) {
    Fail("greedy", "total " + std::to_string(total("greedy")) + " > naive " +
                       std::to_string(total("naive")));
  }
  return 0;
}
