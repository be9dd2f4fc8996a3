// The placement rules a memory plan must keep, written once: the runtime
// validator (which refuses a program that breaks one) and the oracle (which
// names every break by its stable code) both call these, and each renders
// the verdict in its own words.
#pragma once

#include <cstdint>

#include "runtime/core/checked_math.h"
#include "runtime/core/device.h"

namespace memplan {

// Default bound on the sum of one method's planned buffer sizes.
inline constexpr uint64_t kDefaultMaxPlannedBytes = uint64_t{1} << 40;

// Where [offset, offset + nbytes) sits against a buffer of buffer_size bytes.
enum class SpanFault : uint8_t {
  kNone = 0,
  kOverflow,  // offset + nbytes does not fit in 64 bits.
  kPastEnd,   // offset + nbytes > buffer_size.
};

inline SpanFault CheckSpan(uint64_t offset, uint64_t nbytes,
                           uint64_t buffer_size) {
  uint64_t end = 0;
  if (!CheckedAdd(offset, nbytes, &end)) return SpanFault::kOverflow;
  return end > buffer_size ? SpanFault::kPastEnd : SpanFault::kNone;
}

// A device as a file states it: the type must be known, the index >= 0.
enum class DeviceFault : uint8_t {
  kNone = 0,
  kUnknownType,
  kNegativeIndex,
};

inline DeviceFault CheckDeviceFields(int raw_type, int index) {
  if (!IsKnownDeviceType(raw_type)) return DeviceFault::kUnknownType;
  return index < 0 ? DeviceFault::kNegativeIndex : DeviceFault::kNone;
}

// One entry of the sparse buffer-to-device map (non_const_buffer_device).
enum class DeviceMapFault : uint8_t {
  kNone = 0,
  kReservedIndex,  // buffer_idx 0: the constant buffer never has a device.
  kNoSuchBuffer,   // buffer_idx names no planned buffer.
  kDuplicate,      // An earlier entry named the same buffer.
  kUnknownType,
  kNegativeIndex,
};

// `buffer_exists`: buffer_idx names a planned buffer; `seen_before`: an
// earlier entry of the map named it. The first fault wins.
inline DeviceMapFault CheckDeviceMapEntry(int64_t buffer_idx,
                                          bool buffer_exists, bool seen_before,
                                          int raw_type, int index) {
  if (buffer_idx == 0) return DeviceMapFault::kReservedIndex;
  if (!buffer_exists) return DeviceMapFault::kNoSuchBuffer;
  if (seen_before) return DeviceMapFault::kDuplicate;
  switch (CheckDeviceFields(raw_type, index)) {
    case DeviceFault::kUnknownType:
      return DeviceMapFault::kUnknownType;
    case DeviceFault::kNegativeIndex:
      return DeviceMapFault::kNegativeIndex;
    case DeviceFault::kNone:
      break;
  }
  return DeviceMapFault::kNone;
}

// Adds one buffer's size to a method's running total; false once the total
// overflows or exceeds `limit` (the planned-bytes budget).
inline bool AddPlannedBytes(uint64_t size, uint64_t limit, uint64_t* total) {
  return CheckedAdd(*total, size, total) && *total <= limit;
}

}  // namespace memplan
