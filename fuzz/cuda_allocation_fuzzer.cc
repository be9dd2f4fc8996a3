// Drives the device allocation path from fuzzer-chosen sequences: sizes,
// alignments, device indices, frees (double and foreign ones included),
// host<->device copies and injected failures; then the same through
// DeviceMemoryBuffer (Create, CopyFromHost/CopyToHost, Release) and through
// LoadMethod on a small program with fuzzer-chosen buffer sizes and devices.
// Checks alignment, that live allocations never overlap, that copies
// round-trip, that misuse and failures are clean errors, and that
// everything is released at the end, after partial failures too. Uses the
// CUDA allocator when a GPU is visible, else the simulated device.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

#include "runtime/cuda_allocator.h"
#include "runtime/device_allocator_registry.h"
#include "runtime/device_memory_buffer.h"
#include "runtime/loader.h"
#include "runtime/program.h"
#include "runtime/simulated_device_allocator.h"
#include "runtime/testing/program_builder.h"

namespace {

using memplan::DeviceAllocator;
using memplan::DeviceIndex;

#define FUZZ_CHECK(cond, ...)                            \
  do {                                                   \
    if (!(cond)) {                                       \
      std::fprintf(stderr, "check failed: %s: ", #cond); \
      std::fprintf(stderr, __VA_ARGS__);                 \
      std::fprintf(stderr, "\n");                        \
      __builtin_trap();                                  \
    }                                                    \
  } while (0)

bool UseRealCuda() {
  static const bool use = [] {
    memplan::Result<int> count = memplan::CudaAllocator::DeviceCount();
    bool real = count.ok() && *count > 0;
    std::printf("cuda_allocation_fuzzer: %s\n",
                real ? "real CUDA allocator (GPU present)"
                     : "simulated device (no GPU)");
    return real;
  }();
  return use;
}

struct Live {
  void* ptr;
  uint64_t nbytes;
  DeviceIndex index;
};

enum class Op { kAllocate, kFree, kDoubleFree, kCopyRoundTrip, kCopyOutside };

std::vector<uint8_t> Pattern(uint64_t n, int salt) {
  std::vector<uint8_t> bytes(n);
  for (uint64_t k = 0; k < n; ++k) {
    bytes[k] = static_cast<uint8_t>(k * 131 + salt);
  }
  return bytes;
}

// DeviceMemoryBuffer over the registry: Create (faults, bad devices and
// alignments are errors), copies inside round-trip, copies past the end and
// copies into released buffers are refused, Release twice is harmless.
void RunBuffers(FuzzedDataProvider& in,
                memplan::DeviceAllocatorRegistry& registry, int num_devices) {
  std::vector<memplan::DeviceMemoryBuffer> buffers;
  const int steps = in.ConsumeIntegralInRange(0, 16);
  for (int step = 0; step < steps && in.remaining_bytes() > 0; ++step) {
    const int op = in.ConsumeIntegralInRange(0, 3);
    if (op == 0 || buffers.empty()) {
      uint64_t size = in.ConsumeIntegralInRange<uint64_t>(0, 8192);
      uint64_t alignment = uint64_t{1} << in.ConsumeIntegralInRange(0, 10);
      memplan::Device device{
          memplan::DeviceType::kCuda,
          static_cast<DeviceIndex>(
              in.ConsumeIntegralInRange<int>(-1, num_devices))};
      memplan::Result<memplan::DeviceMemoryBuffer> buffer =
          memplan::DeviceMemoryBuffer::Create(size, alignment, device,
                                              registry);
      bool bad_device = device.index < 0 || device.index >= num_devices;
      FUZZ_CHECK(!bad_device || !buffer.ok(), "buffer on %s accepted",
                 device.ToString().c_str());
      if (!buffer.ok()) {
        FUZZ_CHECK(!buffer.error().message().empty(), "error without message");
        continue;
      }
      FUZZ_CHECK(
          buffer->size() == size && buffer->device() == device &&
              !buffer->empty() &&
              reinterpret_cast<uintptr_t>(buffer->data()) % alignment == 0,
          "buffer of %llu bytes on %s: size %llu, data %p",
          (unsigned long long)size, device.ToString().c_str(),
          (unsigned long long)buffer->size(), buffer->data());
      buffers.push_back(std::move(*buffer));
      continue;
    }
    memplan::DeviceMemoryBuffer& buffer =
        buffers[in.ConsumeIntegralInRange<size_t>(0, buffers.size() - 1)];
    if (op == 1) {
      uint64_t offset =
          in.ConsumeIntegralInRange<uint64_t>(0, buffer.size() + 8);
      uint64_t n = in.ConsumeIntegralInRange<uint64_t>(0, 4096);
      std::vector<uint8_t> out = Pattern(n, step), back(n);
      memplan::Error to = buffer.CopyFromHost(offset, out.data(), n);
      bool inside = !buffer.empty() && offset + n <= buffer.size();
      if (!inside) {
        FUZZ_CHECK(!to.ok(), "copy of [%llu, +%llu) into %llu bytes accepted",
                   (unsigned long long)offset, (unsigned long long)n,
                   (unsigned long long)buffer.size());
        FUZZ_CHECK(!buffer.CopyToHost(offset, back.data(), n).ok(),
                   "copy out of [%llu, +%llu) accepted",
                   (unsigned long long)offset, (unsigned long long)n);
        continue;
      }
      if (!to.ok()) continue;  // Injected fault.
      if (!buffer.CopyToHost(offset, back.data(), n).ok()) continue;
      FUZZ_CHECK(out == back, "buffer round trip of %llu bytes differs",
                 (unsigned long long)n);
    } else if (op == 2) {
      memplan::Error released = buffer.Release();
      FUZZ_CHECK(released.ok(), "release: %s", released.ToString().c_str());
      FUZZ_CHECK(buffer.empty() && buffer.size() == 0, "released, not empty");
      FUZZ_CHECK(buffer.Release().ok(), "second release of an empty buffer");
    } else {
      // Moves keep exactly one owner.
      memplan::DeviceMemoryBuffer moved = std::move(buffer);
      FUZZ_CHECK(buffer.empty(), "moved-from buffer still owns memory");
      buffer = std::move(moved);
    }
  }
}

// LoadMethod on a program whose buffer sizes and devices the input picks,
// one tensor filling each buffer and an initial state copied into the
// first: a loaded method has every tensor in its own buffer; a failed one
// (injected fault, unknown device index) is a clean error, and either way
// the caller's leak check sees everything released.
void RunLoader(FuzzedDataProvider& in,
               memplan::DeviceAllocatorRegistry& registry, int num_devices) {
  namespace fb = executorch_flatbuffer;
  memplan::testing::ProgramBuilder builder;
  builder.AddMethod("forward");
  const int num_buffers = in.ConsumeIntegralInRange(1, 4);
  std::vector<int32_t> tensors;
  bool with_state = in.ConsumeBool();
  for (int b = 0; b < num_buffers; ++b) {
    int32_t elements = in.ConsumeIntegralInRange<int32_t>(0, 2048);
    memplan::Device device =
        in.ConsumeBool()
            ? memplan::Device::Cpu()
            : memplan::Device::Cuda(in.ConsumeIntegralInRange(0, num_devices));
    uint32_t id = builder.AddBuffer(elements, device);
    if (b == 0 && with_state && elements >= 8) {
      builder.AddSegment(Pattern(8, 7));
      memplan::testing::TensorSpec state;
      state.scalar_type = fb::ScalarType::BYTE;
      state.sizes = {8};
      state.memory_id = id;
      state.device = device;
      state.data_buffer_idx = 1;
      tensors.push_back(builder.AddTensor(state));
      continue;
    }
    tensors.push_back(builder.AddPlannedTensor(fb::ScalarType::BYTE, {elements},
                                               id, 0, device));
  }
  builder.AddKernelCall(builder.AddOperator("aten::op"), tensors);
  builder.SetInputs({tensors.front()});
  builder.SetOutputs({tensors.back()});
  std::vector<uint8_t> bytes = builder.Build();
  memplan::Result<memplan::Program> program =
      memplan::Program::Load(bytes.data(), bytes.size());
  FUZZ_CHECK(program.ok(), "built program refused: %s",
             program.error().ToString().c_str());
  memplan::Result<memplan::LoadedMethod> method =
      memplan::LoadMethod(*program, "forward", registry);
  if (!method.ok()) {
    FUZZ_CHECK(!method.error().message().empty(), "load error without message");
    return;
  }
  memplan::Error own = method->CheckTensorsInOwnBuffers();
  FUZZ_CHECK(own.ok(), "%s", own.ToString().c_str());
  FUZZ_CHECK(method->buffers().size() == static_cast<size_t>(num_buffers),
             "%zu buffers loaded, %d planned", method->buffers().size(),
             num_buffers);
}

void Run(FuzzedDataProvider& in) {
  const bool real = UseRealCuda();
  const int num_devices = real ? *memplan::CudaAllocator::DeviceCount()
                               : in.ConsumeIntegralInRange(1, 4);
  std::shared_ptr<memplan::SimulatedDeviceAllocator> simulated;
  std::shared_ptr<memplan::CudaAllocator> cuda;
  memplan::DeviceAllocatorRegistry registry;
  if (real) {
    cuda = std::make_shared<memplan::CudaAllocator>();
    FUZZ_CHECK(registry.Register(cuda).ok(), "register cuda");
  } else {
    memplan::SimulatedDeviceOptions options;
    options.num_devices = num_devices;
    options.capacity_bytes = in.ConsumeIntegralInRange<uint64_t>(0, 1 << 22);
    options.fail_every_nth = in.ConsumeIntegralInRange<uint64_t>(0, 8);
    options.fail_at_call = in.ConsumeIntegralInRange<uint64_t>(0, 32);
    options.quarantine_bytes = 1 << 20;
    simulated = std::make_shared<memplan::SimulatedDeviceAllocator>(options);
    FUZZ_CHECK(registry.Register(simulated).ok(), "register simulated");
  }
  // A second allocator for the same type must be refused.
  FUZZ_CHECK(
      !registry.Register(std::make_shared<memplan::CudaAllocator>()).ok(),
      "second CUDA allocator accepted");
  memplan::Result<std::shared_ptr<DeviceAllocator>> got =
      registry.Get(memplan::DeviceType::kCuda);
  FUZZ_CHECK(got.ok(), "registry lost the CUDA allocator");
  DeviceAllocator& allocator = **got;

  std::vector<Live> live;
  std::vector<Live> freed;
  const int steps = in.ConsumeIntegralInRange(0, 48);
  for (int step = 0; step < steps && in.remaining_bytes() > 0; ++step) {
    switch (in.PickValueInArray({Op::kAllocate, Op::kAllocate, Op::kFree,
                                 Op::kDoubleFree, Op::kCopyRoundTrip,
                                 Op::kCopyOutside})) {
      case Op::kAllocate: {
        uint64_t nbytes = in.ConsumeBool()
                              ? in.ConsumeIntegralInRange<uint64_t>(0, 4096)
                              : in.ConsumeIntegral<uint64_t>() >>
                                    in.ConsumeIntegralInRange(0, 63);
        // Mostly powers of two; sometimes a value that must be refused.
        uint64_t alignment =
            in.ConsumeBool() ? uint64_t{1} << in.ConsumeIntegralInRange(0, 12)
                             : in.ConsumeIntegralInRange<uint64_t>(0, 100);
        DeviceIndex index = in.ConsumeIntegralInRange<int>(-2, num_devices + 1);
        memplan::Result<void*> ptr =
            allocator.allocate(nbytes, alignment, index);
        bool bad_args = !memplan::IsPowerOfTwo(alignment) || index < 0 ||
                        index >= num_devices;
        if (bad_args) {
          FUZZ_CHECK(!ptr.ok(), "allocate(%llu, %llu, %d) accepted",
                     (unsigned long long)nbytes, (unsigned long long)alignment,
                     index);
          break;
        }
        if (!ptr.ok()) break;  // Out of memory or an injected fault.
        uintptr_t address = reinterpret_cast<uintptr_t>(*ptr);
        FUZZ_CHECK(*ptr != nullptr && address % alignment == 0,
                   "pointer %p not aligned to %llu", *ptr,
                   (unsigned long long)alignment);
        for (const Live& other : live) {
          if (other.index != index) continue;
          uintptr_t a = reinterpret_cast<uintptr_t>(other.ptr);
          bool disjoint = address + (nbytes ? nbytes : 1) <= a ||
                          a + (other.nbytes ? other.nbytes : 1) <= address;
          FUZZ_CHECK(disjoint, "allocation %p+%llu overlaps %p+%llu", *ptr,
                     (unsigned long long)nbytes, other.ptr,
                     (unsigned long long)other.nbytes);
        }
        live.push_back({*ptr, nbytes, index});
        break;
      }
      case Op::kFree: {
        if (live.empty()) break;
        size_t i = in.ConsumeIntegralInRange<size_t>(0, live.size() - 1);
        Live victim = live[i];
        live.erase(live.begin() + i);
        FUZZ_CHECK(allocator.deallocate(victim.ptr, victim.index).ok(),
                   "freeing a live allocation failed");
        freed.push_back(victim);
        break;
      }
      case Op::kDoubleFree: {
        if (freed.empty() || real) break;  // The CUDA driver reuses freely.
        size_t i = in.ConsumeIntegralInRange<size_t>(0, freed.size() - 1);
        bool reused = false;
        for (const Live& l : live) reused |= l.ptr == freed[i].ptr;
        if (reused) break;
        FUZZ_CHECK(!allocator.deallocate(freed[i].ptr, freed[i].index).ok(),
                   "double free of %p accepted", freed[i].ptr);
        break;
      }
      case Op::kCopyRoundTrip: {
        if (live.empty()) break;
        const Live& target =
            live[in.ConsumeIntegralInRange<size_t>(0, live.size() - 1)];
        uint64_t limit = std::min<uint64_t>(target.nbytes, 1 << 16);
        uint64_t offset = in.ConsumeIntegralInRange<uint64_t>(0, limit);
        uint64_t n = in.ConsumeIntegralInRange<uint64_t>(0, limit - offset);
        std::vector<uint8_t> out(n), back(n);
        for (uint64_t k = 0; k < n; ++k)
          out[k] = static_cast<uint8_t>(k * 131 + step);
        void* dst = static_cast<uint8_t*>(target.ptr) + offset;
        if (!allocator.copy_host_to_device(dst, out.data(), n, target.index)
                 .ok())
          break;
        if (!allocator.copy_device_to_host(back.data(), dst, n, target.index)
                 .ok())
          break;
        FUZZ_CHECK(out == back, "copy round trip of %llu bytes differs",
                   (unsigned long long)n);
        break;
      }
      case Op::kCopyOutside: {
        if (live.empty() || real) break;  // Only the simulator tracks ranges.
        const Live& target =
            live[in.ConsumeIntegralInRange<size_t>(0, live.size() - 1)];
        uint64_t past = in.ConsumeIntegralInRange<uint64_t>(1, 64);
        std::vector<uint8_t> host(target.nbytes + past);
        memplan::Error error = allocator.copy_host_to_device(
            target.ptr, host.data(), target.nbytes + past, target.index);
        FUZZ_CHECK(!error.ok(), "copy of %llu bytes past the end accepted",
                   (unsigned long long)past);
        break;
      }
    }
  }
  for (const Live& l : live) {
    FUZZ_CHECK(allocator.deallocate(l.ptr, l.index).ok(), "final free failed");
  }
  // The same device through DeviceMemoryBuffer and the loader, with a
  // simulated CPU beside it, faults continuing from the input's settings.
  memplan::SimulatedDeviceOptions cpu_options;
  cpu_options.device_type = memplan::DeviceType::kCpu;
  cpu_options.num_devices = 1;
  cpu_options.capacity_bytes = 1 << 20;
  cpu_options.fail_at_call = in.ConsumeIntegralInRange<uint64_t>(0, 8);
  cpu_options.quarantine_bytes = 1 << 16;
  auto cpu = std::make_shared<memplan::SimulatedDeviceAllocator>(cpu_options);
  FUZZ_CHECK(registry.Register(cpu).ok(), "register cpu");
  RunBuffers(in, registry, num_devices);
  if (simulated && in.ConsumeBool()) {
    // A fault a few calls into the load: some buffers exist, then it fails.
    simulated->SetFaults(0, simulated->fallible_calls() +
                                in.ConsumeIntegralInRange<uint64_t>(1, 6));
  }
  RunLoader(in, registry, num_devices);
  for (const auto& device : {cpu, simulated}) {
    if (device == nullptr) continue;
    memplan::Error canaries = device->CheckCanaries();
    FUZZ_CHECK(canaries.ok(), "%s", canaries.ToString().c_str());
    memplan::Error leaks = device->CheckNoLeaks();
    FUZZ_CHECK(leaks.ok(), "%s", leaks.ToString().c_str());
  }
  if (simulated) {
    memplan::Error canaries = simulated->CheckCanaries();
    FUZZ_CHECK(canaries.ok(), "%s", canaries.ToString().c_str());
    memplan::Error leaks = simulated->CheckNoLeaks();
    FUZZ_CHECK(leaks.ok(), "%s", leaks.ToString().c_str());
  } else {
    FUZZ_CHECK(cuda->live_allocations() == 0, "%zu CUDA allocations leaked",
               cuda->live_allocations());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  Run(in);
  return 0;
}
