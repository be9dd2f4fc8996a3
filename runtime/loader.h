// Loader: turns one method of a validated Program into memory. Each planned
// buffer becomes a DeviceMemoryBuffer on its device (through the registry),
// each planned tensor a pointer inside its buffer, and tensors with an
// initial state get it copied host -> device.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/device.h"
#include "runtime/core/plan_rules.h"
#include "runtime/core/result.h"
#include "runtime/device_allocator_registry.h"
#include "runtime/device_memory_buffer.h"
#include "runtime/hierarchical_allocator.h"
#include "runtime/program.h"

namespace memplan {

struct LoaderOptions {
  // Alignment of every planned buffer's base (a power of two).
  uint64_t alignment = 64;
  // Refused (kResourceExhausted) above this sum of planned buffer sizes,
  // before anything is allocated.
  uint64_t max_planned_bytes = kDefaultMaxPlannedBytes;
  // Copy initial states of mutable tensors into their buffers.
  bool load_initial_data = true;
};

// One planned tensor after loading.
struct LoadedTensor {
  uint32_t value_index = 0;
  uint32_t memory_id = 0;
  uint64_t offset = 0;
  uint64_t nbytes = 0;
  Device device;
  void* data = nullptr;      // Inside buffers()[memory_id - 1].
  bool initialized = false;  // Initial data was copied in.
};

class LoadedMethod {
 public:
  LoadedMethod(LoadedMethod&&) = default;
  LoadedMethod& operator=(LoadedMethod&&) = default;

  const std::string& name() const { return name_; }
  // Buffer i is memory_id i + 1.
  const std::vector<DeviceMemoryBuffer>& buffers() const { return buffers_; }
  const std::vector<LoadedTensor>& tensors() const { return tensors_; }
  const HierarchicalAllocator& allocator() const { return allocator_; }

  // Every tensor's [data, data + nbytes) lies inside its own buffer, and
  // the tensor's device is that buffer's device.
  Error CheckTensorsInOwnBuffers() const;

 private:
  friend Result<LoadedMethod> LoadMethodAt(const Program&, size_t,
                                           DeviceAllocatorRegistry&,
                                           const LoaderOptions&);
  LoadedMethod() = default;

  std::string name_;
  std::vector<DeviceMemoryBuffer> buffers_;
  HierarchicalAllocator allocator_;
  std::vector<LoadedTensor> tensors_;
};

// Loads the first method named `method`, as ExecuTorch's load_method does.
// On any error everything allocated so far is freed before returning.
Result<LoadedMethod> LoadMethod(const Program& program,
                                const std::string& method,
                                DeviceAllocatorRegistry& registry,
                                const LoaderOptions& options = {});
// The same for execution_plan[method_index]: no scan of the names (loading
// every method of a program by name scans them all each time, quadratic in
// their number), and a method whose name an earlier one shares is loaded
// itself rather than that earlier one.
Result<LoadedMethod> LoadMethodAt(const Program& program, size_t method_index,
                                  DeviceAllocatorRegistry& registry,
                                  const LoaderOptions& options = {});

}  // namespace memplan
