// The pipeline behind `memplan check`, as a library: every input is planned
// (or its given plan re-planned) with every algorithm, judged by the oracle,
// emitted, parsed and loaded onto the device allocators.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "planner/algorithm.h"
#include "planner/graph.h"
#include "properties/plan.h"
#include "properties/report.h"
#include "runtime/core/device.h"

namespace memplan {
namespace cli {

// Judged by the file name's extension; a CSV is a problem (no offsets) or a
// plan (with offsets), told apart once it is read.
enum class InputKind { kGraph, kProgram, kCsv, kJsonPlan, kUnknown };

InputKind InputKindOf(const std::string& name);

// One thing to check: a file, or an embedded graph whose text is given.
struct CheckInput {
  std::string name;                 // How reports name it.
  std::string path;                 // Read when `text` is absent.
  std::optional<std::string> text;  // Contents of an embedded input.
};

struct PipelineOptions {
  std::vector<std::string> algorithms;  // Empty: planner::AlgorithmNames().
  double exact_seconds = 1.0;           // Budget of "exact" per partition,
  uint64_t exact_nodes =                // in time and in nodes.
      planner::AlgorithmOptions().max_nodes;
  // Load CUDA buffers on a real GPU when CudaAllocator finds enough devices;
  // otherwise (or when false) on a SimulatedDeviceAllocator.
  bool use_gpu = true;
  // A backend's own view operators (memplan verify --alias-op).
  std::vector<std::string> alias_ops;
};

// One plan and the oracle's report on it.
struct CheckedPlan {
  std::string label;  // "greedy", "greedy/emitted", "given", ...
  properties::Plan plan;
  properties::Report report;
};

struct AlgorithmOutcome {
  std::string name;
  std::optional<uint64_t> total_bytes;  // Absent when the algorithm failed.
  bool proven_optimal = false;
  std::string error;
};

enum class Verdict { kOk, kFailed, kNotApplicable };
const char* VerdictName(Verdict verdict);  // "ok", "FAIL", "n/a".

struct InputReport {
  std::string name;  // Input name, plus ":method" for programs.
  InputKind kind = InputKind::kUnknown;
  bool readable = true;
  std::string error;  // Why the input could not be read.

  size_t num_tensors = 0;       // Allocations of the (first) plan.
  std::vector<Device> devices;  // Distinct buffer devices, sorted.
  size_t num_buffers = 0;
  // Sum of the oracle's per-buffer live-bytes bounds (raw bytes).
  uint64_t live_bytes_lower_bound = 0;
  // Total bytes of a plan made elsewhere (program, CSV or JSON plan).
  std::optional<uint64_t> given_bytes;
  std::vector<AlgorithmOutcome> algorithms;  // In PipelineOptions order.
  std::vector<CheckedPlan> plans;

  Verdict oracle = Verdict::kNotApplicable;
  Verdict load = Verdict::kNotApplicable;
  // One line per problem: "greedy: 2 overlap", "load greedy: ...".
  std::vector<std::string> findings;
  std::string load_detail;  // Allocators used, e.g. "cpu + simulated cuda".
  double seconds = 0;

  bool ok() const {
    return readable && oracle != Verdict::kFailed && load != Verdict::kFailed;
  }
};

// The embedded default graphs, then, when shared_data_dir names a folder,
// its pte/*.pte, pte/*.bpte (the wrapped program) and minimalloc/*.csv.
std::vector<CheckInput> DefaultInputs(const std::string& shared_data_dir);
// Files stay as given; folders expand to their inputs (known extensions,
// sorted, not recursive). A path that does not exist stays, to be reported
// unreadable.
std::vector<CheckInput> ExpandPaths(const std::vector<std::string>& paths);

// Never fails: problems land in the reports. A program yields one report
// per method, everything else one.
std::vector<InputReport> RunInput(const CheckInput& input,
                                  const PipelineOptions& options);
InputReport CheckGraph(const std::string& name, const planner::Graph& graph,
                       const PipelineOptions& options);
// A plan made elsewhere: judged (or given its verdict, as for a program
// whose methods were judged together), then re-planned buffer by buffer.
InputReport CheckGivenPlan(const std::string& name, InputKind kind,
                           const properties::Plan& plan,
                           const PipelineOptions& options,
                           const properties::Report* verdict = nullptr);

// 2 when an input was unreadable, else 1 when anything failed, else 0.
int ExitCode(const std::vector<InputReport>& reports);

// The algorithm names PipelineOptions resolves to.
std::vector<std::string> AlgorithmsOf(const PipelineOptions& options);

}  // namespace cli
}  // namespace memplan
