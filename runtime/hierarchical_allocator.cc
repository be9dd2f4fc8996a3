#include "runtime/hierarchical_allocator.h"

#include <string>

#include "runtime/core/checked_math.h"

namespace memplan {

Result<const PlannedBufferSpan*> HierarchicalAllocator::Find(
    uint32_t memory_id) const {
  if (memory_id == 0) {
    return Error(ErrorCode::kInvalidArgument,
                 "memory_id = 0 is reserved for constants, planned buffers "
                 "start at 1");
  }
  if (memory_id > buffers_.size()) {
    return Error(ErrorCode::kInvalidArgument,
                 "memory_id = " + std::to_string(memory_id) +
                     ", must be <= num planned buffers " +
                     std::to_string(buffers_.size()));
  }
  return &buffers_[memory_id - 1];
}

Result<void*> HierarchicalAllocator::get_offset_address(uint32_t memory_id,
                                                        uint64_t offset,
                                                        uint64_t nbytes) const {
  Result<const PlannedBufferSpan*> buffer = Find(memory_id);
  if (!buffer.ok()) return buffer.error();
  uint64_t end = 0;
  if (!CheckedAdd(offset, nbytes, &end) || end > (*buffer)->size) {
    return Error(ErrorCode::kInvalidArgument,
                 "memory_id " + std::to_string(memory_id) + ": offset " +
                     std::to_string(offset) + " + nbytes " +
                     std::to_string(nbytes) + " exceeds buffer size " +
                     std::to_string((*buffer)->size));
  }
  if ((*buffer)->data == nullptr) {
    return Error(
        ErrorCode::kInvalidArgument,
        "memory_id " + std::to_string(memory_id) + " has no memory behind it");
  }
  return static_cast<void*>(static_cast<char*>((*buffer)->data) + offset);
}

Result<Device> HierarchicalAllocator::device(uint32_t memory_id) const {
  Result<const PlannedBufferSpan*> buffer = Find(memory_id);
  if (!buffer.ok()) return buffer.error();
  return (*buffer)->device;
}

}  // namespace memplan
