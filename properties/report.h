// What the oracle found: violations, each with a stable code, and the
// quality of every buffer; rendered as a human report or as JSON.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "properties/plan.h"

namespace memplan {
namespace properties {

// Stable codes of DESIGN.md's invariant table; the order is the report's.
enum class ViolationCode : uint8_t {
  kOverlap = 0,
  kCrossDevice,
  kDeviceInfo,
  kBounds,
  kAlignment,
  kBufferMap,
  kLifetime,
  kAlias,
  kSharedState,
};
inline constexpr int kNumViolationCodes = 9;

// "overlap", "cross_device", "device_info", "bounds", "alignment",
// "buffer_map", "lifetime", "alias", "shared_state".
const char* ViolationCodeName(ViolationCode code);

// Bytes [begin, end) of one buffer (`end` as AllocationEnd computes it).
struct ByteRange {
  Offset begin = 0;
  Offset end = 0;
};

// The message is rendered from the same facts the fields carry; tools read
// the fields, never the English.
struct Violation {
  ViolationCode code = ViolationCode::kOverlap;
  std::string message;  // Names the allocations, lifetimes and byte ranges.
  // Allocations it is about, in the message's order: overlap the two,
  // alias the alias then its base, a cycle its members; none for buffers.
  std::vector<std::string> allocation_ids;
  // The buffer (or non_const_buffer_device index) involved, when one is.
  std::optional<MemId> mem_id;
  // overlap: the bytes and positions both allocations hold; otherwise the
  // first allocation's bytes and lifetime as stated.
  std::optional<ByteRange> bytes;
  std::optional<Lifetime> lifetime;
};

// Quality of one buffer; reported, never a violation.
struct BufferQuality {
  MemId mem_id = 0;
  Device device;
  Offset size = 0;  // Planned (declared) bytes.
  // Max over time of the raw bytes (no alignment padding) of live
  // non-aliases; "lower_bound" in JSON and Python.
  uint64_t live_bytes_lower_bound = 0;
  uint64_t high_water = 0;  // Max offset + size of its allocations.
  uint64_t num_allocations = 0;
  // size / live_bytes_lower_bound; absent when the lower bound is 0.
  std::optional<double> ratio() const;
};

struct Report {
  // At most CheckOptions::max_violations_per_code messages per code.
  std::vector<Violation> violations;
  // Every violation found, reported or not, per code.
  std::array<uint64_t, kNumViolationCodes> counts{};
  std::vector<BufferQuality> buffers;

  bool ok() const;
  uint64_t count(ViolationCode code) const {
    return counts[static_cast<int>(code)];
  }
  uint64_t total_violations() const;
};

// Violations first (grouped by code, with "... and N more"), then quality.
std::string FormatText(const Report& report);
// {"valid":..., "counts":{code:n},
//  "violations":[{code,message,allocations,mem_id,bytes,lifetime}]
//  (the last four only when known; bytes [begin,end), lifetime [first,last]),
//  "buffers":[{mem_id,device,size,lower_bound,high_water,ratio,...}]}.
std::string FormatJson(const Report& report);
// The same document, for writers that embed it.
nlohmann::ordered_json ReportJson(const Report& report);

}  // namespace properties
}  // namespace memplan
