// Structure-aware loader fuzzing: programs mutated at the field level (see
// program_mutator.h) are loaded onto simulated CPU and CUDA devices
// registered in a registry local to each run. An accepted program must pass
// the independent structural checks; a loaded method must have every tensor
// inside its own buffer on its own device (checked through the allocator,
// which knows its live ranges); a failed load must be a clean error; and
// nothing may leak or overrun once the method is gone.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "fuzz/program_checks.h"
#include "fuzz/program_mutator.h"
#include "runtime/device_allocator_registry.h"
#include "runtime/loader.h"
#include "runtime/program.h"
#include "runtime/simulated_device_allocator.h"

namespace {

using memplan::SimulatedDeviceAllocator;

#define LOADER_CHECK(cond, ...)                           \
  do {                                                    \
    if (!(cond)) {                                        \
      std::fprintf(stderr, "loader fuzzer: %s: ", #cond); \
      std::fprintf(stderr, __VA_ARGS__);                  \
      std::fprintf(stderr, "\n");                         \
      __builtin_trap();                                   \
    }                                                     \
  } while (0)

std::shared_ptr<SimulatedDeviceAllocator> MakeDevice(memplan::DeviceType type,
                                                     int num_devices,
                                                     uint64_t fail_at_call) {
  memplan::SimulatedDeviceOptions options;
  options.device_type = type;
  options.num_devices = num_devices;
  // Small enough that huge planned buffers are a clean out-of-memory.
  // Buffers are zeroed and poisoned on free, so large ones cost each run.
  options.capacity_bytes = uint64_t{1} << 20;
  options.fail_at_call = fail_at_call;
  options.quarantine_bytes = 1 << 16;
  return std::make_shared<SimulatedDeviceAllocator>(options);
}

// Writes every tensor's bytes through its buffer's allocator: the simulator
// refuses ranges outside a live allocation, so this checks placement without
// trusting the loader's own CheckTensorsInOwnBuffers.
void CheckTensorsWritable(const memplan::LoadedMethod& method) {
  std::vector<uint8_t> pattern;
  for (const memplan::LoadedTensor& tensor : method.tensors()) {
    LOADER_CHECK(
        tensor.memory_id >= 1 && tensor.memory_id <= method.buffers().size(),
        "values[%u] memory_id %u of %zu buffers", tensor.value_index,
        tensor.memory_id, method.buffers().size());
    const memplan::DeviceMemoryBuffer& buffer =
        method.buffers()[tensor.memory_id - 1];
    LOADER_CHECK(tensor.device == buffer.device(),
                 "values[%u] on %s, buffer on %s", tensor.value_index,
                 tensor.device.ToString().c_str(),
                 buffer.device().ToString().c_str());
    if (tensor.nbytes == 0 || tensor.nbytes > (1 << 20)) continue;
    pattern.assign(tensor.nbytes, static_cast<uint8_t>(tensor.value_index));
    memplan::Error error = buffer.allocator()->copy_host_to_device(
        tensor.data, pattern.data(), tensor.nbytes, tensor.device.index);
    LOADER_CHECK(error.ok(), "values[%u]: %s", tensor.value_index,
                 error.ToString().c_str());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  memplan::ProgramLimits limits;
  limits.max_verifier_tables = 100'000;
  memplan::Result<memplan::Program> program =
      memplan::Program::Load(data, size, limits);
  if (!program.ok()) return 0;
  std::string violation = memplan::fuzz::CheckAcceptedProgram(*program);
  LOADER_CHECK(violation.empty(), "accepted program: %s", violation.c_str());

  // The last byte picks a fallible call to fail, so partial failures (some
  // buffers allocated, then an error) are reached from every input.
  uint64_t fail_at_call = size > 0 ? data[size - 1] % 8 : 0;
  for (size_t m = 0; m < program->num_methods() && m < 4; ++m) {
    auto cpu = MakeDevice(memplan::DeviceType::kCpu, 1, fail_at_call);
    auto cuda = MakeDevice(memplan::DeviceType::kCuda, 2, fail_at_call);
    {
      memplan::DeviceAllocatorRegistry registry;
      LOADER_CHECK(registry.Register(cpu).ok(), "register cpu");
      LOADER_CHECK(registry.Register(cuda).ok(), "register cuda");
      memplan::LoaderOptions options;
      options.max_planned_bytes = uint64_t{2} << 20;
      memplan::Result<memplan::LoadedMethod> method = memplan::LoadMethod(
          *program, program->method_name(m), registry, options);
      if (method.ok()) {
        memplan::Error own = method->CheckTensorsInOwnBuffers();
        LOADER_CHECK(own.ok(), "%s", own.ToString().c_str());
        cpu->SetFaults(0, 0);
        cuda->SetFaults(0, 0);
        CheckTensorsWritable(*method);
      } else {
        LOADER_CHECK(!method.error().message().empty(),
                     "error %s without message",
                     method.error().ToString().c_str());
      }
    }  // The loaded method and registry release everything here.
    for (const auto& device : {cpu, cuda}) {
      memplan::Error leaks = device->CheckNoLeaks();
      LOADER_CHECK(leaks.ok(), "%s", leaks.ToString().c_str());
      memplan::Error canaries = device->CheckCanaries();
      LOADER_CHECK(canaries.ok(), "%s", canaries.ToString().c_str());
    }
  }
  return 0;
}

MEMPLAN_PROGRAM_MUTATOR_HOOKS()
