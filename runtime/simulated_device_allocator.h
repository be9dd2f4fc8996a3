// SimulatedDeviceAllocator: host memory that behaves like a device with a
// capacity per index, for tests and fuzzing. It reports misuse instead of
// invoking UB: canaries around each allocation, double and unknown frees,
// copies outside live allocations, leaks; and it injects faults on demand.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>

#include "runtime/device_allocator.h"

namespace memplan {

struct SimulatedDeviceOptions {
  // What device_type() reports, so it can stand in for CUDA.
  DeviceType device_type = DeviceType::kCuda;
  // Indices [0, num_devices) exist; others are kNotFound.
  int num_devices = 2;
  // Live bytes allowed on each index; beyond it allocate is kOutOfMemory.
  uint64_t capacity_bytes = uint64_t{1} << 30;
  // Fault injection over fallible calls (allocate and both copies), counted
  // from 1: fail when count % fail_every_nth == 0, and when count ==
  // fail_at_call. 0 disables either.
  uint64_t fail_every_nth = 0;
  uint64_t fail_at_call = 0;
  // Bytes of canary before and after each allocation.
  uint64_t canary_bytes = 16;
  // Freed blocks stay reserved (and poisoned) up to this many bytes, so a
  // double free is recognised even after later allocations.
  uint64_t quarantine_bytes = uint64_t{64} << 20;
};

class SimulatedDeviceAllocator : public DeviceAllocator {
 public:
  struct Stats {
    uint64_t allocate_calls = 0;
    uint64_t deallocate_calls = 0;
    uint64_t copy_host_to_device_calls = 0;
    uint64_t copy_device_to_host_calls = 0;
    uint64_t injected_faults = 0;
    uint64_t failed_allocations = 0;  // allocate calls that returned an error.
    // Double, unknown or wrong-index frees (each also returned an error).
    uint64_t rejected_deallocations = 0;
    uint64_t live_allocations = 0;
    uint64_t live_bytes = 0;
    uint64_t peak_live_bytes = 0;
  };

  explicit SimulatedDeviceAllocator(SimulatedDeviceOptions options = {});
  ~SimulatedDeviceAllocator() override;
  SimulatedDeviceAllocator(const SimulatedDeviceAllocator&) = delete;
  SimulatedDeviceAllocator& operator=(const SimulatedDeviceAllocator&) = delete;

  Result<void*> allocate(uint64_t nbytes, uint64_t alignment,
                         DeviceIndex index) override;
  Error deallocate(void* ptr, DeviceIndex index) override;
  Error copy_host_to_device(void* dst, const void* src, uint64_t nbytes,
                            DeviceIndex index) override;
  Error copy_device_to_host(void* dst, const void* src, uint64_t nbytes,
                            DeviceIndex index) override;
  DeviceType device_type() const override { return options_.device_type; }

  // Every live allocation's canaries intact, and every quarantined block
  // still holds its poison (nothing wrote after free).
  Error CheckCanaries() const;
  // kInternal naming the count and bytes still live.
  Error CheckNoLeaks() const;
  Stats stats() const;
  uint64_t live_bytes(DeviceIndex index) const;

  // Changes fault injection mid-test; the call counter keeps running.
  void SetFaults(uint64_t fail_every_nth, uint64_t fail_at_call);
  // Fallible calls so far (what fail_at_call counts).
  uint64_t fallible_calls() const;

 private:
  struct Block {
    void* host = nullptr;  // What posix_memalign returned.
    uint64_t front = 0;    // Bytes from host to the user pointer.
    uint64_t nbytes = 0;   // Requested bytes.
    DeviceIndex index = 0;
  };

  // allocate() with mutex_ held.
  Result<void*> AllocateLocked(uint64_t nbytes, uint64_t alignment,
                               DeviceIndex index);
  // Called with mutex_ held; true when this call must fail.
  bool NextCallFails();
  Error CheckBlockCanaries(uintptr_t address, const Block& block) const;
  Error CheckInLiveAllocation(const void* ptr, uint64_t nbytes,
                              DeviceIndex index, const char* what) const;
  Error CheckIndex(DeviceIndex index) const;
  void Quarantine(uintptr_t address, const Block& block);

  SimulatedDeviceOptions options_;
  mutable std::mutex mutex_;
  uint64_t fallible_calls_ = 0;
  Stats stats_;
  std::map<uintptr_t, Block> live_;         // User address -> block.
  std::map<uintptr_t, Block> freed_;        // Quarantined, by user address.
  std::deque<uintptr_t> quarantine_order_;  // Oldest first.
  uint64_t quarantined_bytes_ = 0;
  std::map<DeviceIndex, uint64_t> live_bytes_by_index_;
};

}  // namespace memplan
