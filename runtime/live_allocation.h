// The one question every allocator must answer before a copy: does
// [ptr, ptr + nbytes) lie inside a single live allocation?
#pragma once

#include <cstdint>
#include <map>

#include "runtime/core/checked_math.h"

namespace memplan {

// `live` maps each allocation's start address to its record; `nbytes_of`
// reads a record's byte count. Returns the record holding the whole range,
// or nullptr (also for a null ptr or a range whose end overflows).
template <typename Record, typename NbytesOf>
const Record* FindLiveAllocation(const std::map<uintptr_t, Record>& live,
                                 const void* ptr, uint64_t nbytes,
                                 NbytesOf nbytes_of) {
  uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  uint64_t end = 0;
  if (ptr == nullptr || !CheckedAdd(uint64_t{address}, nbytes, &end)) {
    return nullptr;
  }
  auto it = live.upper_bound(address);
  if (it == live.begin()) return nullptr;
  --it;
  uint64_t alloc_end = 0;
  if (!CheckedAdd(uint64_t{it->first}, nbytes_of(it->second), &alloc_end) ||
      end > alloc_end) {
    return nullptr;
  }
  return &it->second;
}

}  // namespace memplan
