// Drives the device allocation path from fuzzer-chosen sequences: sizes,
// alignments, device indices, frees (double and foreign ones included),
// host<->device copies and injected failures. Checks alignment, that live
// allocations never overlap, that copies round-trip, that misuse is a clean
// error, and that everything is released at the end. Uses the CUDA allocator
// when a GPU is visible, else the simulated device.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

#include "runtime/cuda_allocator.h"
#include "runtime/device_allocator_registry.h"
#include "runtime/simulated_device_allocator.h"

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
