// The neutral plan model every adapter produces and the oracle judges:
// buffers, and allocations placed in them with a lifetime and a device.
// Values are stored as a file states them (negative offsets, unknown
// devices, cycles of aliases) so that check() can name what is wrong.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/device.h"
#include "runtime/core/lifetime.h"
#include "runtime/core/spec_kind.h"

namespace memplan {
namespace properties {

// Byte positions and sizes; signed so that a negative offset in a file is
// reported by the bounds check instead of wrapping.
using Offset = int64_t;
using MemId = int64_t;

// Kinds and lifetimes are the shared vocabulary's: SpecKind
// (runtime/core/spec_kind.h), TimeValue and Lifetime (runtime/core/lifetime.h).

struct Buffer {
  MemId mem_id = 1;  // Planned buffers are numbered from 1; 0 is reserved.
  Offset size = 0;   // Bytes.
  Device device;     // May hold an unknown device type read from a file.
};

// A part of an allocation's lifetime after a hole (Allocation::resumed).
struct ResumedPart {
  Lifetime lifetime;
  // The allocation it may share bytes with: the false branch's output moved
  // into the same slot, which never lives in the same run.
  std::optional<std::string> with;

  bool operator==(const ResumedPart& other) const {
    return lifetime.first == other.lifetime.first &&
           lifetime.last == other.lifetime.last && with == other.with;
  }
};

struct Allocation {
  std::string id;
  SpecKind kind = SpecKind::kPlain;
  MemId mem_id = 1;
  Offset offset = 0;
  Offset size = 0;
  Lifetime lifetime;
  std::optional<Device> device;         // Absent: the spec carried no device.
  Offset alignment = 1;                 // Must be a power of two >= 1.
  std::optional<std::string> alias_of;  // Id of the base of a view/in-place.
  // Program plans: the position of the first instruction that names it
  // (-1: none), so that messages can name the operator that wrote it.
  TimeValue first_named = -1;
  // Program plans: the move whose destination (or a slot it was moved on
  // to) read these bytes last, where that outlived the tensor's own
  // namings (-1: none did), so that messages can say why it is live.
  TimeValue kept_by_move = -1;
  // Program plans: where the tensor is live again after holes in its
  // lifetime, in time order, each part past the one before it plus one: a
  // cond's true-branch output, moved into the cond's output, is not live
  // over the false branch (which runs instead of the true one) but is again
  // where the cond's output is read after the join; nested in other true
  // branches, it has a hole over each of their false branches too. Only
  // where the false branch's output (ResumedPart::with, moved into the
  // same slot) does not already hold these bytes there; the two never live
  // in one run, so the part may share bytes with it.
  std::vector<ResumedPart> resumed;
  // The last part of the lifetime: the last resumed part, else `lifetime`.
  Lifetime& last_part() {
    return resumed.empty() ? lifetime : resumed.back().lifetime;
  }
  const Lifetime& last_part() const {
    return resumed.empty() ? lifetime : resumed.back().lifetime;
  }
  // Program plans: false for a tensor no instruction can read or write (a
  // slot into which every path moves another tensor before naming it; the
  // runtime still resolves its pointer). Its bounds, alignment and device
  // are checked; its bytes meet nothing, and its lifetime is the first move.
  bool accessed = true;
  // State shared with other methods under this name (the fully qualified
  // name of a mutable buffer); every method must place it alike. Null when
  // unnamed; tensors that share one name in a file share one string, so a
  // long name is held once however many tensors carry it.
  std::shared_ptr<const std::string> shared_name;
};

// One entry of a program's sparse buffer-to-device map, as stored; the
// adapters for plans without such a map leave Plan::device_map empty.
struct BufferDeviceEntry {
  int64_t buffer_index = 0;  // Index into non_const_buffer_sizes.
  int raw_device_type = 0;   // DeviceType as stored (may be unknown).
  int device_index = 0;
};

struct Plan {
  std::vector<Buffer> buffers;
  std::vector<Allocation> allocations;
  std::vector<BufferDeviceEntry> device_map;
  // Last position of the program when known: lifetimes lie in [0, end_time].
  std::optional<TimeValue> end_time;
  // Program plans: what each position (instruction) runs, for messages:
  // position p runs instruction_kinds[instruction_kind_of[p]] ("aten::mul.out",
  // "move", ...) and is instruction p - chain_starts[c] of the last chain c
  // starting at or before p. Empty for other plans.
  std::vector<std::string> instruction_kinds;
  std::vector<uint32_t> instruction_kind_of;
  std::vector<TimeValue> chain_starts;
};

// "aten::mul.out at chains[0].instructions[4]"; "" when unknown.
std::string DescribeInstruction(const Plan& plan, TimeValue position);
// " (first named by <instruction>)" when the plan knows it, else "", and
// "; then read through the <move>" where a move kept it live.
std::string DescribeOrigin(const Plan& plan, const Allocation& allocation);

// A name from a file, quoted; one over 200 bytes cut, with its length, so
// that a message stays short however long the names a file holds.
std::string QuotedName(std::string_view name);

// offset + size, saturated to [-2^63, 2^63 - 1] where it overflows.
Offset AllocationEnd(const Allocation& allocation);

// "t3 [2,5] bytes [64,128)" ("t3 [2,5]+[8,9] ..." with a resumed part):
// how messages name an allocation.
std::string DescribeAllocation(const Allocation& allocation);
// From the lifetime's first to the end of its last resumed part, if any.
Lifetime LifetimeHull(const Allocation& allocation);

}  // namespace properties
}  // namespace memplan
