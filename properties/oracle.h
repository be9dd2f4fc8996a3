// memplan's oracle as a library for other planners: read a plan (or build
// one), check it, read the report's structured violations; plan a
// MiniMalloc-style problem with any of memplan's algorithms; load a program
// onto the (simulated) device allocators and check every tensor pointer.
//
//   #include "properties/oracle.h"     // deps: @memplan//properties:oracle
//   namespace oracle = memplan::oracle;
//   auto verdict = oracle::Verify(oracle::PlanFormat::kProgram, pte_bytes);
//   if (!verdict.ok()) ...             // unreadable: verdict.error()
//   for (const oracle::Report& r : verdict->reports)
//     for (const oracle::Violation& v : r.violations)
//       ... v.code, v.allocation_ids, v.mem_id, v.bytes, v.lifetime
//
// Everything here is a thin layer over the readers and Check() that the
// `memplan` command line uses: one reader per format, one Check. This
// header pulls in no flatbuffers and no test-only types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/minimalloc_csv.h"
#include "properties/check.h"
#include "properties/plan.h"
#include "properties/report.h"
#include "runtime/core/device.h"
#include "runtime/core/error.h"
#include "runtime/core/result.h"

namespace memplan {
namespace oracle {

// The neutral plan model (properties/plan.h) and the report
// (properties/report.h), under the names this API speaks.
using memplan::Lifetime;
using memplan::SpecKind;
using memplan::TimeValue;
using properties::Allocation;
using properties::Buffer;
using properties::BufferQuality;
using properties::ByteRange;
using properties::CheckOptions;
using properties::kNumViolationCodes;
using properties::MemId;
using properties::Offset;
using properties::Plan;
using properties::Report;
using properties::Violation;
using properties::ViolationCode;
using properties::ViolationCodeName;
// Report rendering: human text, and JSON with the structured fields.
using properties::FormatJson;
using properties::FormatText;

enum class PlanFormat {
  kProgram,      // An ET12 program (.pte) or a bundled program (.bpte).
  kCsv,          // MiniMalloc CSV with an offset column (.csv).
  kJson,         // memplan.plan.v1 (.json, properties/PLAN_FORMAT.md).
  kMemoryTrace,  // ExecuTorch's activation-memory Chrome trace (.json).
};
// "program", "csv", "json", "memory_trace".
const char* PlanFormatName(PlanFormat format);

// By the path's extension (.pte, .bpte, .csv, .json); a .json whose
// contents are a Chrome trace ({"traceEvents": ...}) is kMemoryTrace.
// nullopt for any other extension.
[[nodiscard]] std::optional<PlanFormat> DetectFormat(std::string_view path,
                                                     std::string_view contents);

struct ReadOptions {
  // Every offset must be a multiple of this (a power of two), on top of
  // what the format states (a program: each tensor's element size).
  Offset alignment = 1;
  // Programs: judge only this method ("" for all; an unknown name is an
  // error).
  std::string method;
  // Programs: a backend's own view operators, on top of ExecuTorch's.
  std::vector<std::string> alias_ops;
  // CSV: the buffer's size (default: a `# buffer_size:` comment, else the
  // highest end).
  std::optional<Offset> buffer_size;
  // CSV and memory traces, which name no device: where everything lives.
  Device device;
};

// One plan read from the input: a program yields one per method (name =
// the method's), the other formats one (name "").
struct NamedPlan {
  std::string name;
  Plan plan;
};

// Errors (unreadable input) name the line/column or the field, the index
// and the bound; plan faults are never errors, they are left to Check.
[[nodiscard]] Result<std::vector<NamedPlan>> ReadPlans(
    PlanFormat format, std::string_view bytes, const ReadOptions& options = {});

// Every invariant of DESIGN.md's table, and each buffer's quality.
[[nodiscard]] Report Check(const Plan& plan, const CheckOptions& options = {});

// Check of each plan, plus `shared_state` across them (the methods of one
// program must place the state they share alike). One report per plan.
[[nodiscard]] std::vector<Report> CheckAll(const std::vector<NamedPlan>& plans,
                                           const CheckOptions& options = {});

struct Verdict {
  std::vector<NamedPlan> plans;
  std::vector<Report> reports;  // reports[i] judges plans[i].
  bool ok() const;              // No violation in any report.
  uint64_t total_violations() const;
};

// ReadPlans, then CheckAll: what `memplan verify` does.
[[nodiscard]] Result<Verdict> Verify(PlanFormat format, std::string_view bytes,
                                     const ReadOptions& read_options = {},
                                     const CheckOptions& check_options = {});

// --- Planning: MiniMalloc-style problems with memplan's algorithms ---

// A problem: one buffer per row, live [lower, upper) half-open, with a size
// and an alignment (a power of two); `offset` is ignored by Solve.
using Problem = planner::MinimallocProblem;
using ProblemBuffer = planner::MinimallocBuffer;

// A problem in MiniMalloc's CSV (id, lower, upper, size, optional
// alignment); `alignment` for rows without one.
[[nodiscard]] Result<Problem> ReadProblemCsv(std::string_view text,
                                             uint64_t alignment = 1);

// "naive", "greedy", "best_fit", "multi_fit", "exact", and "suite" (every
// one of them, keeping the lowest plan).
[[nodiscard]] std::vector<std::string> AlgorithmNames();

struct SolveOptions {
  double max_seconds = 10.0;  // Budget of "exact" (also inside "suite").
};

struct Solution {
  std::vector<uint64_t> offsets;  // One per problem buffer, in row order.
  uint64_t height = 0;            // max(offset + size): the buffer size.
  std::string algorithm;          // The algorithm whose plan this is.
  bool proven_optimal = false;    // "exact" proved no plan is lower.
};

// Errors on an unknown algorithm, lower >= upper, an alignment that is not
// a power of two, or sizes that overflow.
[[nodiscard]] Result<Solution> Solve(const Problem& problem,
                                     const std::string& algorithm = "suite",
                                     const SolveOptions& options = {});

// The solution as a plan (one buffer of `height` bytes on `device`), for
// Check.
[[nodiscard]] Result<Plan> PlanOfSolution(const Problem& problem,
                                          const Solution& solution,
                                          Device device = Device::Cpu());

// --- Loading: the runtime's view of a program ---

struct LoadOptions {
  // CUDA buffers on a real GPU when one is present; otherwise (or when
  // false) on a simulated device with canaries and leak checks.
  bool use_gpu = true;
};

struct MethodLoad {
  std::string method;
  Error error;             // Ok: loaded, every tensor inside its own buffer.
  std::string allocators;  // "cpu", "cpu + simulated cuda", "cpu + cuda".
  bool ok() const { return error.ok(); }
};

// Program::Load (verify and validate) of a .pte or .bpte, then every
// method loaded onto the allocators and each tensor pointer checked.
// Errors when the program itself is refused.
[[nodiscard]] Result<std::vector<MethodLoad>> LoadAndCheck(
    std::string_view bytes, const LoadOptions& options = {});

}  // namespace oracle
}  // namespace memplan
