// Plans from ExecuTorch's activation-memory trace: the Chrome-trace JSON
// that executorch/util/activation_memory_profiler.py's
// generate_memory_trace(..., enable_memory_offsets=True) writes. What it
// carries and lacks is in PLAN_FORMAT.md ("ExecuTorch memory traces").
//
// Each event {"name", "cat": "memory_allocation", "ph": "X", "ts": offset,
// "dur": bytes, "pid": mem_id, "tid": step} says one tensor is live at one
// step. Events with the same (name, pid, ts, dur) at consecutive steps are
// one allocation, live [first step, last step]; the same key after a gap
// starts another ("name#2"). Every pid is a buffer as large as its
// allocations reach (the trace has no buffer sizes), on options.device.
// The trace names no operator inputs, so no allocation is an alias: two
// tensors placed alike are two allocations (aliases come from semantics,
// never from coincidence; properties/README.md).
#pragma once

#include <string_view>

#include "properties/plan.h"
#include "runtime/core/result.h"

namespace memplan {
namespace properties {

struct MemoryTraceOptions {
  // The trace names no device: every buffer and allocation is on this one.
  Device device;
  // Nor alignments: every allocation asks for this one.
  Offset alignment = 1;
};

// True when `text` is a JSON object with a "traceEvents" member (a Chrome
// trace); cheap enough to pick the reader by content.
bool IsMemoryTrace(std::string_view text);

// Errors ("memory trace json L:C: ...") on malformed JSON, a missing or
// mistyped name/ts/dur/pid/tid, and a trace with no memory_allocation
// event. Events of other categories or phases are skipped.
Result<Plan> PlanFromMemoryTrace(std::string_view text,
                                 const MemoryTraceOptions& options = {});

}  // namespace properties
}  // namespace memplan
