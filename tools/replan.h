// Re-plans a real ExecuTorch program: new offsets for its memory-planned
// tensors, everything else kept (values, instructions, constants, segments,
// the extended header). `memplan plan PROGRAM.pte` runs it.
//
// Lifetimes and aliases are the oracle's own (properties/program_plan.h:
// instruction positions widened over loops, alias operators and moves), so
// the new plan is sound wherever the oracle is. Planning stays per buffer:
// every tensor keeps its buffer (and so its device partition); only
// allocation_info offsets and non_const_buffer_sizes change. Shared state
// (tensors with a fully qualified name, which every method must place
// identically) keeps one layout at the bottom of its buffer in every method.
// The written program must load with the runtime and verify valid, or
// nothing is returned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "planner/algorithm.h"
#include "runtime/core/device.h"
#include "runtime/core/result.h"

namespace memplan {
namespace tools {

struct ReplanOptions {
  // Planner algorithms (planner/algorithm.h); the lowest plan wins.
  std::vector<std::string> algorithms = {"multi_fit"};
  // Alignment of every tensor on top of its scalar type's (ExecuTorch's 16
  // by default); a power of two.
  uint64_t alignment = 16;
  planner::AlgorithmOptions algorithm_options;
  // A backend's own view operators, on top of the oracle's known ones.
  std::vector<std::string> alias_ops;
  // Write the new plan even when a buffer grows.
  bool allow_larger = false;
};

struct ReplannedBuffer {
  std::string method;
  int64_t mem_id = 0;
  Device device;
  uint64_t tensors = 0;  // Planned tensors in it, aliases included.
  uint64_t old_size = 0;
  uint64_t new_size = 0;
  // No plan of these tensors is smaller: the shared-state prefix plus the
  // peak live raw bytes (no alignment padding), or what an algorithm proved
  // where more (exact counts the padding: three 4-byte tensors live
  // together at 16-byte offsets need 36 bytes, not 12). "lower_bound" in
  // the table.
  uint64_t lower_bound = 0;
  std::string algorithm;  // Whose plan it is ("" when nothing was planned).
  bool proven_optimal = false;
};

struct ReplanResult {
  // The new program file (ET12); empty when refused.
  std::vector<uint8_t> bytes;
  std::vector<ReplannedBuffer> buffers;
  bool bundled_input = false;  // The input was a .bpte; `bytes` is a .pte.
  // Invariants the given plan breaks (memplan verify's count): a broken
  // plan can be re-planned, but its sizes are no yardstick.
  uint64_t input_violations = 0;
  // Why nothing was written: a buffer would grow without allow_larger.
  std::string refusal;

  uint64_t old_total() const;
  uint64_t new_total() const;
};

// `data` is a program (.pte) or a bundled program (.bpte). Errors: bytes
// that do not read as a program, a plan that cannot be re-planned (a tensor
// in a buffer the program lacks, shared state placed inconsistently), or a
// new program that fails to load or verify (a bug, reported as kInternal).
Result<ReplanResult> ReplanProgram(const uint8_t* data, size_t size,
                                   const ReplanOptions& options = {});

}  // namespace tools
}  // namespace memplan
