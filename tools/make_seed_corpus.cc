// make_seed_corpus ROOT [GRAPHS_DIR]: writes small, varied seed inputs for
// every fuzz target into ROOT/<target>/ (ROOT is normally the repository's
// corpus/). Program seeds come from the program builder and from the example
// graphs planned and emitted by the planner (GRAPHS_DIR, default
// examples/graphs under `bazel run`), so they are valid ET12 files that
// reach the deep checks; byte seeds are deterministic pseudo-random.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "planner/emitter.h"
#include "planner/graph.h"
#include "planner/graph_format.h"
#include "planner/memory_planner.h"
#include "runtime/core/device.h"
#include "runtime/testing/program_builder.h"

namespace {

namespace fb = executorch_flatbuffer;
using memplan::Device;
using memplan::testing::ProgramBuilder;

using Seed = std::pair<std::string, std::vector<uint8_t>>;

std::vector<uint8_t> EmptyPlan() {
  ProgramBuilder b;
  b.AddMethod("forward");
  return b.Build();
}

// Two activations reusing one CPU buffer, as a greedy plan would.
std::vector<uint8_t> SingleCpuBuffer() {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(128);
  int32_t x = b.AddPlannedTensor(fb::ScalarType::FLOAT, {4, 4}, cpu, 0);
  int32_t y = b.AddPlannedTensor(fb::ScalarType::FLOAT, {4, 4}, cpu, 64);
  int32_t z = b.AddPlannedTensor(fb::ScalarType::FLOAT, {4, 4}, cpu, 0);
  int32_t add = b.AddOperator("aten::add");
  b.AddKernelCall(add, {x, x, y});
  b.AddKernelCall(add, {y, y, z});
  b.SetInputs({x});
  b.SetOutputs({z});
  return b.Build();
}

// CPU, cuda:0 and cuda:1 buffers with copies between them.
std::vector<uint8_t> MultiDevice() {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(64);
  uint32_t gpu0 = b.AddBuffer(256, Device::Cuda(0));
  uint32_t gpu1 = b.AddBuffer(96, Device::Cuda(1));
  int32_t x = b.AddPlannedTensor(fb::ScalarType::FLOAT, {16}, cpu, 0);
  int32_t y =
      b.AddPlannedTensor(fb::ScalarType::FLOAT, {16}, gpu0, 0, Device::Cuda(0));
  int32_t w = b.AddPlannedTensor(fb::ScalarType::HALF, {8, 8}, gpu0, 128,
                                 Device::Cuda(0));
  int32_t z =
      b.AddPlannedTensor(fb::ScalarType::LONG, {12}, gpu1, 0, Device::Cuda(1));
  int32_t copy = b.AddOperator("aten::_to_copy");
  b.AddKernelCall(copy, {x, y});
  b.AddKernelCall(b.AddOperator("aten::mm"), {y, w, y});
  b.AddKernelCall(copy, {y, z});
  b.SetInputs({x});
  b.SetOutputs({z});
  return b.Build();
}

// A view: a second tensor over the same bytes with its own shape.
std::vector<uint8_t> View() {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(96);
  int32_t base = b.AddPlannedTensor(fb::ScalarType::INT, {4, 6}, cpu, 0);
  memplan::testing::TensorSpec view;
  view.scalar_type = fb::ScalarType::INT;
  view.sizes = {6, 4};
  view.dim_order = std::vector<uint8_t>{1, 0};
  view.memory_id = cpu;
  view.offset = 0;
  int32_t v = b.AddTensor(view);
  b.AddKernelCall(b.AddOperator("aten::view_copy"), {base, v});
  b.SetInputs({base});
  b.SetOutputs({v});
  return b.Build();
}

// In-place: the output is the input's own storage, on a device.
std::vector<uint8_t> InPlace() {
  ProgramBuilder b;
  uint32_t gpu = b.AddBuffer(64, Device::Cuda(0));
  int32_t x =
      b.AddPlannedTensor(fb::ScalarType::DOUBLE, {8}, gpu, 0, Device::Cuda(0));
  int32_t alpha = b.AddInt(2);
  b.AddKernelCall(b.AddOperator("aten::mul_", "Scalar"), {x, alpha, x});
  b.SetInputs({x});
  b.SetOutputs({x});
  return b.Build();
}

// A mutable buffer: planned, with initial state in a data segment.
std::vector<uint8_t> MutableBuffer() {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(48);
  b.AddSegment(std::vector<uint8_t>(32, 0x5a));
  memplan::testing::TensorSpec state;
  state.scalar_type = fb::ScalarType::FLOAT;
  state.sizes = {8};
  state.memory_id = cpu;
  state.offset = 16;
  state.data_buffer_idx = 1;
  int32_t s = b.AddTensor(state);
  int32_t x = b.AddPlannedTensor(fb::ScalarType::BYTE, {16}, cpu, 0);
  b.AddKernelCall(b.AddOperator("aten::add_"), {s, x, s});
  b.SetInputs({x});
  b.SetOutputs({s});
  return b.Build();
}

// Two methods, lists, nulls and zero-element tensors.
std::vector<uint8_t> TwoMethodsAndLists() {
  ProgramBuilder b;
  b.AddMethod("forward");
  uint32_t cpu = b.AddBuffer(40);
  int32_t a = b.AddPlannedTensor(fb::ScalarType::BOOL, {0, 3}, cpu, 0);
  int32_t c = b.AddPlannedTensor(fb::ScalarType::SHORT, {2, 10}, cpu, 0);
  int32_t list = b.AddTensorList({a, c});
  int32_t none = b.AddNull();
  int32_t opt = b.AddOptionalTensorList({a, -1});
  b.AddKernelCall(b.AddOperator("aten::cat"), {list, none, opt, c});
  b.SetInputs({a});
  b.SetOutputs({c});
  b.AddMethod("backward");
  uint32_t g = b.AddBuffer(1024, Device::Cuda(0));
  int32_t d = b.AddPlannedTensor(fb::ScalarType::BFLOAT16, {512}, g, 0,
                                 Device::Cuda(0));
  b.SetInputs({d});
  b.SetOutputs({d});
  return b.Build();
}

// Offsets above 4 GiB use memory_offset_high.
std::vector<uint8_t> HighOffset() {
  ProgramBuilder b;
  uint32_t big = b.AddBuffer((int64_t{1} << 32) + 4096);
  int32_t x = b.AddPlannedTensor(fb::ScalarType::FLOAT, {256}, big,
                                 (uint64_t{1} << 32) + 1024);
  b.SetInputs({x});
  b.SetOutputs({x});
  return b.Build();
}

// Deterministic bytes for the FuzzedDataProvider targets.
std::vector<uint8_t> PseudoRandom(uint64_t seed, size_t size) {
  std::vector<uint8_t> out(size);
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  for (uint8_t& byte : out) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    byte = static_cast<uint8_t>(state >> 24);
  }
  return out;
}

// The graph with every dim clamped to max_dim, so that loading it allocates
// kilobytes, not megabytes, each fuzz run; the original when a clamped view
// would outgrow its base.
memplan::planner::Graph ShrinkGraph(const memplan::planner::Graph& graph,
                                    int64_t max_dim) {
  memplan::planner::Graph small(graph.name());
  for (memplan::planner::TensorSpec spec : graph.tensors()) {
    for (int64_t& dim : spec.shape) dim = std::min(dim, max_dim);
    if (!small.AddTensor(std::move(spec)).ok()) return graph;
  }
  for (const memplan::planner::Node& node : graph.nodes()) {
    if (!small.AddNode(node).ok()) return graph;
  }
  return small;
}

// Plans (greedy, 16-byte alignment) and emits one example graph.
memplan::Result<std::vector<uint8_t>> EmitGraph(
    const memplan::planner::Graph& graph) {
  memplan::planner::PlanOptions options;
  memplan::Result<memplan::planner::PlanResult> plan =
      memplan::planner::PlanGraph(graph, options);
  if (!plan.ok()) return plan.error();
  return memplan::planner::EmitProgram(graph, *plan);
}

bool WriteSeed(const std::filesystem::path& dir, const Seed& seed) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::ofstream out(dir / seed.first, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(seed.second.data()),
            static_cast<std::streamsize>(seed.second.size()));
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: %s CORPUS_ROOT [GRAPHS_DIR]\n", argv[0]);
    return 2;
  }
  const std::filesystem::path root = argv[1];
  const std::filesystem::path graphs = argc == 3 ? argv[2] : "examples/graphs";
  std::vector<Seed> programs = {
      {"empty_plan.pte", EmptyPlan()},
      {"single_cpu_buffer.pte", SingleCpuBuffer()},
      {"multi_device.pte", MultiDevice()},
      {"view.pte", View()},
      {"in_place.pte", InPlace()},
      {"mutable_buffer.pte", MutableBuffer()},
      {"two_methods_lists.pte", TwoMethodsAndLists()},
      {"high_offset.pte", HighOffset()},
  };
  std::vector<Seed> bytes;
  for (uint64_t i = 0; i < 8; ++i) {
    bytes.push_back(
        {"random_" + std::to_string(i) + ".bin", PseudoRandom(i, 32 + 48 * i)});
  }
  size_t written = 0;
  for (const char* target :
       {"program_parser_fuzzer", "program_loader_fuzzer"}) {
    for (const Seed& seed : programs) {
      if (!WriteSeed(root / target, seed)) return 1;
      ++written;
    }
  }
  for (const char* name : {"control_flow", "multi_device", "small_cnn",
                           "transformer_block", "views_inplace"}) {
    const std::string path = (graphs / (std::string(name) + ".graph")).string();
    memplan::Result<memplan::planner::Graph> graph =
        memplan::planner::ReadGraphFile(path);
    if (!graph.ok()) {
      std::fprintf(stderr, "%s\n", graph.error().ToString().c_str());
      return 1;
    }
    // Parser: the graph as written; loader: dims clamped, so that every run
    // allocates little (the parser never allocates buffers).
    for (const auto& [target, max_dim] :
         {std::pair<const char*, int64_t>{"program_parser_fuzzer", INT64_MAX},
          {"program_loader_fuzzer", 4}}) {
      memplan::Result<std::vector<uint8_t>> bytes =
          EmitGraph(ShrinkGraph(*graph, max_dim));
      if (!bytes.ok()) {
        std::fprintf(stderr, "%s: %s\n", path.c_str(),
                     bytes.error().ToString().c_str());
        return 1;
      }
      if (!WriteSeed(root / target,
                     {std::string("graph_") + name + ".pte", *bytes})) {
        return 1;
      }
      ++written;
    }
  }
  for (const char* target :
       {"cuda_allocation_fuzzer", "planner_fuzzer", "planner_items_fuzzer"}) {
    for (const Seed& seed : bytes) {
      if (!WriteSeed(root / target, seed)) return 1;
      ++written;
    }
  }
  std::printf("wrote %zu seeds under %s\n", written, root.c_str());
  return 0;
}
