// HierarchicalAllocator: the planned buffers of one method, by memory_id,
// and the checked arithmetic that turns (memory_id, offset, nbytes) into a
// pointer. memory_id 0 is reserved (constants); buffer i is memory_id i + 1.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "runtime/core/device.h"
#include "runtime/core/result.h"

namespace memplan {

// One planned buffer: memory the HierarchicalAllocator does not own.
struct PlannedBufferSpan {
  void* data = nullptr;
  uint64_t size = 0;
  Device device;
};

class HierarchicalAllocator {
 public:
  HierarchicalAllocator() = default;
  explicit HierarchicalAllocator(std::vector<PlannedBufferSpan> buffers)
      : buffers_(std::move(buffers)) {}

  size_t num_buffers() const { return buffers_.size(); }
  const std::vector<PlannedBufferSpan>& buffers() const { return buffers_; }

  // Pointer to [offset, offset + nbytes) inside buffer memory_id; an error
  // naming the id, the range and the bound when it does not fit.
  Result<void*> get_offset_address(uint32_t memory_id, uint64_t offset,
                                   uint64_t nbytes) const;
  Result<Device> device(uint32_t memory_id) const;

 private:
  Result<const PlannedBufferSpan*> Find(uint32_t memory_id) const;

  std::vector<PlannedBufferSpan> buffers_;
};

}  // namespace memplan
