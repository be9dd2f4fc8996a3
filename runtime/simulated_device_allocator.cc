#include "runtime/simulated_device_allocator.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime/core/checked_math.h"
#include "runtime/live_allocation.h"

namespace memplan {
namespace {

constexpr unsigned char kCanary = 0xCB;
constexpr unsigned char kFreshFill = 0xAB;  // Never-written device memory.
constexpr unsigned char kFreedPoison = 0xDD;
// Host blocks above this are refused before posix_memalign: sanitizers
// abort on absurd sizes instead of returning null.
constexpr uint64_t kMaxHostBlockBytes = uint64_t{1} << 38;

// Index of the first byte in [p, p + n) that is not `value`, or n.
uint64_t FirstMismatch(const unsigned char* p, uint64_t n,
                       unsigned char value) {
  for (uint64_t i = 0; i < n; ++i) {
    if (p[i] != value) return i;
  }
  return n;
}

std::string Hex(uintptr_t address) {
  char text[2 + 16 + 1];
  std::snprintf(text, sizeof(text), "0x%llx",
                static_cast<unsigned long long>(address));
  return text;
}

}  // namespace

SimulatedDeviceAllocator::SimulatedDeviceAllocator(
    SimulatedDeviceOptions options)
    : options_(options) {}

SimulatedDeviceAllocator::~SimulatedDeviceAllocator() {
  for (const auto& [address, block] : live_) std::free(block.host);
  for (const auto& [address, block] : freed_) std::free(block.host);
}

bool SimulatedDeviceAllocator::NextCallFails() {
  ++fallible_calls_;
  bool fail =
      (options_.fail_every_nth != 0 &&
       fallible_calls_ % options_.fail_every_nth == 0) ||
      (options_.fail_at_call != 0 && fallible_calls_ == options_.fail_at_call);
  if (fail) ++stats_.injected_faults;
  return fail;
}

void SimulatedDeviceAllocator::SetFaults(uint64_t fail_every_nth,
                                         uint64_t fail_at_call) {
  std::lock_guard<std::mutex> lock(mutex_);
  options_.fail_every_nth = fail_every_nth;
  options_.fail_at_call = fail_at_call;
}

uint64_t SimulatedDeviceAllocator::fallible_calls() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return fallible_calls_;
}

Error SimulatedDeviceAllocator::CheckIndex(DeviceIndex index) const {
  MEMPLAN_RETURN_IF_ERROR(CheckDeviceIndex(options_.device_type, index));
  if (index >= options_.num_devices) {
    return Error(
        ErrorCode::kNotFound,
        std::string("simulated ") + DeviceTypeName(options_.device_type) +
            " device index = " + std::to_string(index) +
            ", must be < num_devices " + std::to_string(options_.num_devices));
  }
  return Error::Ok();
}

Result<void*> SimulatedDeviceAllocator::allocate(uint64_t nbytes,
                                                 uint64_t alignment,
                                                 DeviceIndex index) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++stats_.allocate_calls;
  Result<void*> ptr = AllocateLocked(nbytes, alignment, index);
  if (!ptr.ok()) ++stats_.failed_allocations;
  return ptr;
}

Result<void*> SimulatedDeviceAllocator::AllocateLocked(uint64_t nbytes,
                                                       uint64_t alignment,
                                                       DeviceIndex index) {
  if (NextCallFails()) {
    return Error(ErrorCode::kOutOfMemory,
                 "simulated allocate: injected fault at call " +
                     std::to_string(fallible_calls_));
  }
  MEMPLAN_RETURN_IF_ERROR(CheckAlignment(alignment));
  MEMPLAN_RETURN_IF_ERROR(CheckIndex(index));
  uint64_t live = live_bytes_by_index_[index];
  uint64_t after = 0;
  if (!CheckedAdd(live, nbytes, &after) || after > options_.capacity_bytes) {
    return Error(ErrorCode::kOutOfMemory,
                 "simulated allocate on index " + std::to_string(index) +
                     ": nbytes = " + std::to_string(nbytes) + " + live " +
                     std::to_string(live) + " exceeds capacity " +
                     std::to_string(options_.capacity_bytes));
  }
  // Layout: [front canary, padded to alignment][nbytes][back canary].
  uint64_t front = 0;
  uint64_t total = 0;
  if (!CheckedAlignUp(options_.canary_bytes, alignment, &front) ||
      !CheckedAdd(front, nbytes, &total) ||
      !CheckedAdd(total, options_.canary_bytes, &total) ||
      total > kMaxHostBlockBytes) {
    return Error(ErrorCode::kOutOfMemory,
                 "simulated allocate: nbytes = " + std::to_string(nbytes) +
                     " with alignment = " + std::to_string(alignment) +
                     " needs more than " + std::to_string(kMaxHostBlockBytes) +
                     " host bytes");
  }
  if (total == 0) total = 1;  // Keeps zero-byte pointers unique.
  uint64_t host_alignment = alignment < 16 ? 16 : alignment;
  void* host = nullptr;
  if (posix_memalign(&host, static_cast<size_t>(host_alignment),
                     static_cast<size_t>(total)) != 0 ||
      host == nullptr) {
    return Error(ErrorCode::kOutOfMemory,
                 "simulated allocate: host posix_memalign(" +
                     std::to_string(total) + ") failed");
  }
  auto* bytes = static_cast<unsigned char*>(host);
  std::memset(bytes, kCanary, static_cast<size_t>(front));
  std::memset(bytes + front, kFreshFill, static_cast<size_t>(nbytes));
  std::memset(bytes + front + nbytes, kCanary,
              static_cast<size_t>(options_.canary_bytes));
  uintptr_t address = reinterpret_cast<uintptr_t>(bytes + front);
  live_[address] = Block{host, front, nbytes, index};
  live_bytes_by_index_[index] = after;
  ++stats_.live_allocations;
  stats_.live_bytes += nbytes;
  if (stats_.live_bytes > stats_.peak_live_bytes) {
    stats_.peak_live_bytes = stats_.live_bytes;
  }
  return reinterpret_cast<void*>(address);
}

Error SimulatedDeviceAllocator::CheckBlockCanaries(uintptr_t address,
                                                   const Block& block) const {
  const auto* host = static_cast<const unsigned char*>(block.host);
  uint64_t bad = FirstMismatch(host, block.front, kCanary);
  if (bad != block.front) {
    return Error(ErrorCode::kInternal,
                 "simulated: front canary of allocation " + Hex(address) +
                     " (nbytes " + std::to_string(block.nbytes) +
                     ") corrupted at byte -" +
                     std::to_string(block.front - bad));
  }
  bad = FirstMismatch(host + block.front + block.nbytes, options_.canary_bytes,
                      kCanary);
  if (bad != options_.canary_bytes) {
    return Error(ErrorCode::kInternal,
                 "simulated: back canary of allocation " + Hex(address) +
                     " (nbytes " + std::to_string(block.nbytes) +
                     ") corrupted at byte nbytes + " + std::to_string(bad));
  }
  return Error::Ok();
}

void SimulatedDeviceAllocator::Quarantine(uintptr_t address,
                                          const Block& block) {
  std::memset(reinterpret_cast<void*>(address), kFreedPoison,
              static_cast<size_t>(block.nbytes));
  freed_[address] = block;
  quarantine_order_.push_back(address);
  quarantined_bytes_ += block.front + block.nbytes + options_.canary_bytes;
  while (quarantined_bytes_ > options_.quarantine_bytes &&
         !quarantine_order_.empty()) {
    uintptr_t oldest = quarantine_order_.front();
    quarantine_order_.pop_front();
    auto it = freed_.find(oldest);
    quarantined_bytes_ -=
        it->second.front + it->second.nbytes + options_.canary_bytes;
    std::free(it->second.host);
    freed_.erase(it);
  }
}

Error SimulatedDeviceAllocator::deallocate(void* ptr, DeviceIndex index) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++stats_.deallocate_calls;
  if (ptr == nullptr) return Error::Ok();
  uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  auto it = live_.find(address);
  if (it == live_.end()) {
    ++stats_.rejected_deallocations;
    if (freed_.count(address) != 0) {
      return Error(ErrorCode::kInvalidArgument,
                   "simulated deallocate: double free of " + Hex(address));
    }
    return Error(
        ErrorCode::kInvalidArgument,
        "simulated deallocate: " + Hex(address) + " was never allocated here");
  }
  if (it->second.index != index) {
    ++stats_.rejected_deallocations;
    return Error(ErrorCode::kInvalidArgument,
                 "simulated deallocate: " + Hex(address) + " lives on index " +
                     std::to_string(it->second.index) + ", not " +
                     std::to_string(index));
  }
  Block block = it->second;
  Error canaries = CheckBlockCanaries(address, block);
  live_.erase(it);
  live_bytes_by_index_[index] -= block.nbytes;
  --stats_.live_allocations;
  stats_.live_bytes -= block.nbytes;
  Quarantine(address, block);
  return canaries;
}

Error SimulatedDeviceAllocator::CheckInLiveAllocation(const void* ptr,
                                                      uint64_t nbytes,
                                                      DeviceIndex index,
                                                      const char* what) const {
  const Block* owner = FindLiveAllocation(
      live_, ptr, nbytes, [](const Block& b) { return b.nbytes; });
  if (owner != nullptr && owner->index == index) return Error::Ok();
  uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  return Error(ErrorCode::kInvalidArgument,
               std::string("simulated ") + what + ": [" + Hex(address) + ", +" +
                   std::to_string(nbytes) +
                   ") does not lie inside one live allocation on index " +
                   std::to_string(index));
}

Error SimulatedDeviceAllocator::copy_host_to_device(void* dst, const void* src,
                                                    uint64_t nbytes,
                                                    DeviceIndex index) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++stats_.copy_host_to_device_calls;
  if (NextCallFails()) {
    return Error(ErrorCode::kUnavailable,
                 "simulated copy_host_to_device: injected fault at call " +
                     std::to_string(fallible_calls_));
  }
  MEMPLAN_RETURN_IF_ERROR(CheckIndex(index));
  MEMPLAN_RETURN_IF_ERROR(
      CheckInLiveAllocation(dst, nbytes, index, "copy_host_to_device dst"));
  if (nbytes == 0) return Error::Ok();
  if (src == nullptr) {
    return Error(ErrorCode::kInvalidArgument,
                 "simulated copy_host_to_device: src is null");
  }
  std::memmove(dst, src, static_cast<size_t>(nbytes));
  return Error::Ok();
}

Error SimulatedDeviceAllocator::copy_device_to_host(void* dst, const void* src,
                                                    uint64_t nbytes,
                                                    DeviceIndex index) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++stats_.copy_device_to_host_calls;
  if (NextCallFails()) {
    return Error(ErrorCode::kUnavailable,
                 "simulated copy_device_to_host: injected fault at call " +
                     std::to_string(fallible_calls_));
  }
  MEMPLAN_RETURN_IF_ERROR(CheckIndex(index));
  MEMPLAN_RETURN_IF_ERROR(
      CheckInLiveAllocation(src, nbytes, index, "copy_device_to_host src"));
  if (nbytes == 0) return Error::Ok();
  if (dst == nullptr) {
    return Error(ErrorCode::kInvalidArgument,
                 "simulated copy_device_to_host: dst is null");
  }
  std::memmove(dst, src, static_cast<size_t>(nbytes));
  return Error::Ok();
}

Error SimulatedDeviceAllocator::CheckCanaries() const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [address, block] : live_) {
    MEMPLAN_RETURN_IF_ERROR(CheckBlockCanaries(address, block));
  }
  for (const auto& [address, block] : freed_) {
    MEMPLAN_RETURN_IF_ERROR(CheckBlockCanaries(address, block));
    uint64_t bad =
        FirstMismatch(reinterpret_cast<const unsigned char*>(address),
                      block.nbytes, kFreedPoison);
    if (bad != block.nbytes) {
      return Error(ErrorCode::kInternal,
                   "simulated: freed allocation " + Hex(address) +
                       " written after free at byte " + std::to_string(bad));
    }
  }
  return Error::Ok();
}

Error SimulatedDeviceAllocator::CheckNoLeaks() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (live_.empty()) return Error::Ok();
  std::string first = Hex(live_.begin()->first);
  return Error(ErrorCode::kInternal,
               "simulated: " + std::to_string(live_.size()) +
                   " allocation(s), " + std::to_string(stats_.live_bytes) +
                   " bytes still live (first at " + first + ")");
}

SimulatedDeviceAllocator::Stats SimulatedDeviceAllocator::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

uint64_t SimulatedDeviceAllocator::live_bytes(DeviceIndex index) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = live_bytes_by_index_.find(index);
  return it == live_bytes_by_index_.end() ? 0 : it->second;
}

}  // namespace memplan
