// Loads one method of a program onto the device allocators and checks that
// every planned tensor's data pointer lies inside its own device's buffer:
// the runtime half of `memplan check`, as a library.
#pragma once

#include <cstddef>
#include <string>

#include "runtime/core/error.h"
#include "runtime/program.h"

namespace memplan {

struct LoadCheckOptions {
  // CUDA buffers go to the real GPU when enough devices are present;
  // otherwise (or when false) to a SimulatedDeviceAllocator.
  bool use_gpu = true;
};

// Ok when LoadMethod succeeds, every tensor lies in its own buffer and, on
// the simulated device, no canary was overwritten and nothing leaked.
// `detail` (optional) receives the allocators used, e.g. "cpu + simulated
// cuda".
[[nodiscard]] Error LoadAndCheckMethod(const Program& program,
                                       size_t method_index,
                                       const LoadCheckOptions& options = {},
                                       std::string* detail = nullptr);

}  // namespace memplan
