// Program::Load (Verifier + semantic validation) against the bare
// flatbuffers Verifier on the same bytes; the goal is within 3x.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <vector>

#include "flatbuffers/flatbuffers.h"
#include "runtime/program.h"
#include "runtime/testing/program_builder.h"

namespace memplan {
namespace {

namespace fb = ::executorch_flatbuffer;

// A method shaped like a model: `num_tensors` planned float[4, 4] tensors
// split over a CPU and a CUDA buffer, one kernel call per pair of tensors.
const std::vector<uint8_t>& ProgramWithTensors(int64_t num_tensors) {
  static std::map<int64_t, std::vector<uint8_t>> cache;
  std::vector<uint8_t>& bytes = cache[num_tensors];
  if (!bytes.empty()) return bytes;
  testing::ProgramBuilder b;
  b.AddMethod("forward");
  constexpr int64_t kTensorBytes = 64;
  int64_t half = (num_tensors + 1) / 2;
  uint32_t cpu = b.AddBuffer(half * kTensorBytes);
  uint32_t gpu = b.AddBuffer(half * kTensorBytes, Device::Cuda(0));
  int32_t op = b.AddOperator("aten::add");
  for (int64_t i = 0; i < num_tensors; ++i) {
    bool on_gpu = i % 2 == 1;
    uint64_t offset = static_cast<uint64_t>(i / 2) * kTensorBytes;
    b.AddPlannedTensor(fb::ScalarType::FLOAT, {4, 4}, on_gpu ? gpu : cpu,
                       offset, on_gpu ? Device::Cuda(0) : Device::Cpu());
    if (on_gpu) {
      b.AddKernelCall(op,
                      {static_cast<int32_t>(i - 1), static_cast<int32_t>(i)});
    }
  }
  b.SetInputs({0});
  b.SetOutputs({static_cast<int32_t>(num_tensors - 1)});
  bytes = b.Build();
  return bytes;
}

void BM_BareVerifier(benchmark::State& state) {
  const std::vector<uint8_t>& bytes = ProgramWithTensors(state.range(0));
  ProgramLimits limits;
  flatbuffers::Verifier::Options options;
  options.max_depth = limits.max_verifier_depth;
  options.max_tables = limits.max_verifier_tables;
  for (auto _ : state) {
    flatbuffers::Verifier verifier(bytes.data(), bytes.size(), options);
    bool ok = fb::VerifyProgramBuffer(verifier);
    if (!ok) state.SkipWithError("the Verifier refused the program");
    benchmark::DoNotOptimize(ok);
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(bytes.size()));
}

void BM_ProgramLoad(benchmark::State& state) {
  const std::vector<uint8_t>& bytes = ProgramWithTensors(state.range(0));
  for (auto _ : state) {
    Result<Program> program = Program::Load(bytes.data(), bytes.size());
    if (!program.ok()) state.SkipWithError(program.error().ToString().c_str());
    benchmark::DoNotOptimize(program);
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(bytes.size()));
}

BENCHMARK(BM_BareVerifier)
    ->Arg(1'000)
    ->Arg(10'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ProgramLoad)
    ->Arg(1'000)
    ->Arg(10'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMicrosecond);

// A method with `num_buffers` empty planned buffers, each on cuda:0: the
// largest sparse device map a file can carry for its buffer count.
const std::vector<uint8_t>& ProgramWithDeviceBuffers(int64_t num_buffers) {
  static std::map<int64_t, std::vector<uint8_t>> cache;
  std::vector<uint8_t>& bytes = cache[num_buffers];
  if (!bytes.empty()) return bytes;
  testing::ProgramBuilder b;
  b.AddMethod("forward");
  for (int64_t i = 0; i < num_buffers; ++i) b.AddBuffer(0, Device::Cuda(0));
  bytes = b.Build();
  return bytes;
}

// Every buffer's device, one index at a time (a scan of the map each).
void BM_BufferDevicePerIndex(benchmark::State& state) {
  const std::vector<uint8_t>& bytes = ProgramWithDeviceBuffers(state.range(0));
  Result<Program> program = Program::Load(bytes.data(), bytes.size());
  if (!program.ok()) state.SkipWithError(program.error().ToString().c_str());
  Result<MethodMeta> meta = program->method_meta(0);
  for (auto _ : state) {
    for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
      benchmark::DoNotOptimize(meta->memory_planned_buffer_device(i));
    }
  }
}

// Every buffer's device in one pass, as the loader and the adapters use.
void BM_BufferDevicesOnePass(benchmark::State& state) {
  const std::vector<uint8_t>& bytes = ProgramWithDeviceBuffers(state.range(0));
  Result<Program> program = Program::Load(bytes.data(), bytes.size());
  if (!program.ok()) state.SkipWithError(program.error().ToString().c_str());
  Result<MethodMeta> meta = program->method_meta(0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(meta->memory_planned_buffer_devices());
  }
}

BENCHMARK(BM_BufferDevicePerIndex)
    ->Arg(1'000)
    ->Arg(10'000)
    ->Arg(30'000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BufferDevicesOnePass)
    ->Arg(1'000)
    ->Arg(10'000)
    ->Arg(30'000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace memplan
