#include "tools/check_pipeline.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <system_error>

#include "planner/algorithm.h"
#include "planner/emitter.h"
#include "planner/graph_format.h"
#include "planner/lower_bound.h"
#include "planner/memory_planner.h"
#include "planner/minimalloc_csv.h"
#include "properties/check.h"
#include "properties/csv_plan.h"
#include "properties/json_plan.h"
#include "properties/planner_plan.h"
#include "properties/program_plan.h"
#include "properties/program_plans.h"
#include "properties/storage_groups.h"
#include "runtime/bundled_program.h"
#include "runtime/core/checked_math.h"
#include "runtime/load_check.h"
#include "runtime/program.h"
#include "tools/commands.h"
#include "tools/default_corpus.h"

namespace memplan {
namespace cli {
namespace {

namespace fs = std::filesystem;
using properties::Plan;
using properties::Report;
using properties::ViolationCode;

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Result<std::string> ReadInput(const CheckInput& input) {
  if (input.text) return *input.text;
  std::ifstream file(input.path, std::ios::binary);
  if (!file) {
    return Error(ErrorCode::kIo, "cannot open '" + input.path + "'");
  }
  std::string text((std::istreambuf_iterator<char>(file)),
                   std::istreambuf_iterator<char>());
  if (file.bad()) {
    return Error(ErrorCode::kIo, "cannot read '" + input.path + "'");
  }
  return text;
}

uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
  uint64_t sum = 0;
  return CheckedAdd(a, b, &sum) ? sum : UINT64_MAX;
}

// "2 overlap, 1 cross_device" for the codes `counted` selects.
std::string CountsText(const Report& report, bool (*counted)(ViolationCode)) {
  std::string text;
  for (int c = 0; c < properties::kNumViolationCodes; ++c) {
    ViolationCode code = static_cast<ViolationCode>(c);
    if (report.count(code) == 0 || !counted(code)) continue;
    if (!text.empty()) text += ", ";
    text += std::to_string(report.count(code)) + " " +
            properties::ViolationCodeName(code);
  }
  return text;
}

bool EveryCode(ViolationCode) { return true; }
// A re-plan only moves offsets; other codes repeat the given plan's.
bool PlacementCode(ViolationCode code) {
  return code == ViolationCode::kOverlap || code == ViolationCode::kBounds ||
         code == ViolationCode::kAlignment;
}

void Judge(InputReport& report, const std::string& label, Plan plan,
           Report verdict, bool (*counted)(ViolationCode) = EveryCode) {
  std::string counts = CountsText(verdict, counted);
  if (!counts.empty()) {
    report.oracle = Verdict::kFailed;
    report.findings.push_back(label + ": " + counts);
  } else if (report.oracle == Verdict::kNotApplicable) {
    report.oracle = Verdict::kOk;
  }
  report.plans.push_back({label, std::move(plan), std::move(verdict)});
}

void Judge(InputReport& report, const std::string& label, Plan plan,
           bool (*counted)(ViolationCode) = EveryCode) {
  Report verdict = properties::Check(plan);
  Judge(report, label, std::move(plan), std::move(verdict), counted);
}

void Summarize(InputReport& report, const CheckedPlan& checked) {
  report.num_tensors = checked.plan.allocations.size();
  report.num_buffers = checked.plan.buffers.size();
  report.devices.clear();
  for (const properties::Buffer& buffer : checked.plan.buffers) {
    report.devices.push_back(buffer.device);
  }
  std::sort(report.devices.begin(), report.devices.end());
  report.devices.erase(
      std::unique(report.devices.begin(), report.devices.end()),
      report.devices.end());
  report.live_bytes_lower_bound = 0;
  for (const properties::BufferQuality& q : checked.report.buffers) {
    report.live_bytes_lower_bound =
        SaturatingAdd(report.live_bytes_lower_bound, q.live_bytes_lower_bound);
  }
}

Error LoadOnAllocators(const Program& program, size_t method_index,
                       const PipelineOptions& options, std::string* detail) {
  LoadCheckOptions load_options;
  load_options.use_gpu = options.use_gpu;
  return LoadAndCheckMethod(program, method_index, load_options, detail);
}

void RecordLoad(InputReport& report, const std::string& label,
                const Error& error, const std::string& detail) {
  if (!error.ok()) {
    report.load = Verdict::kFailed;
    report.findings.push_back("load " + label + ": " + error.ToString());
    return;
  }
  if (report.load == Verdict::kNotApplicable) report.load = Verdict::kOk;
  report.load_detail = detail;
}

// Our own emitted bytes: any failure to parse, judge or load is a finding.
void CheckEmittedProgram(InputReport& report, const std::string& label,
                         const std::vector<uint8_t>& bytes,
                         const PipelineOptions& options) {
  Result<Program> program = Program::Load(bytes.data(), bytes.size());
  if (!program.ok()) {
    RecordLoad(report, label, program.error(), "");
    return;
  }
  for (size_t m = 0; m < program->num_methods(); ++m) {
    Result<Plan> plan = properties::PlanFromProgram(*program, m);
    if (!plan.ok()) {
      report.oracle = Verdict::kFailed;
      report.findings.push_back(label + ": " + plan.error().ToString());
    } else {
      Judge(report, label, std::move(*plan));
    }
    std::string detail;
    Error loaded = LoadOnAllocators(*program, m, options, &detail);
    RecordLoad(report, label, loaded, detail);
  }
}

constexpr uint64_t kExecuTorchPlanAlignment = 16;

// Re-places each buffer's storage groups (a base with its aliases) with
// every algorithm, keeping buffers, devices and lifetimes; records each
// total.
// min_alignment: the alignment the given planner worked under, so a re-plan
// does not "save" bytes that planner spent on alignment on purpose.
void Replan(InputReport& report, const Plan& given, uint64_t min_alignment,
            const PipelineOptions& options) {
  planner::AlgorithmOptions algorithm_options;
  algorithm_options.max_seconds = options.exact_seconds;
  algorithm_options.max_nodes = options.exact_nodes;
  const properties::StorageGroups groups = properties::GroupStorage(given);
  for (const std::string& name : AlgorithmsOf(options)) {
    AlgorithmOutcome outcome;
    outcome.name = name;
    std::unique_ptr<planner::Algorithm> algorithm =
        planner::MakeAlgorithm(name);
    if (!algorithm) {
      outcome.error = "unknown algorithm";
      report.findings.push_back(name + ": unknown algorithm");
      report.oracle = Verdict::kFailed;
      report.algorithms.push_back(outcome);
      continue;
    }
    Plan replanned;
    replanned.end_time = given.end_time;
    uint64_t total = 0;
    bool optimal = true;
    for (const properties::Buffer& buffer : given.buffers) {
      // Each base with its aliases as one item, so that an alias keeps its
      // base's bytes for as long as either lives; broken allocations are
      // the oracle's to report, not something to place.
      std::vector<planner::PlanItem> items;
      std::vector<const properties::StorageGroup*> placed_groups;
      for (const properties::StorageGroup& group : groups.groups) {
        if (group.mem_id != buffer.mem_id) continue;
        planner::PlanItem item = group.item;
        item.alignment = std::max(min_alignment, item.alignment);
        items.push_back(item);
        placed_groups.push_back(&group);
      }
      Error valid = planner::ValidatePlanItems(items);
      Result<planner::Placement> placement =
          valid.ok() ? algorithm->Place(items, algorithm_options)
                     : Result<planner::Placement>(valid);
      if (!placement.ok()) {
        outcome.error = "buffer " + std::to_string(buffer.mem_id) + ": " +
                        placement.error().ToString();
        break;
      }
      // The plan model's offsets are signed 64-bit.
      if (placement->height > static_cast<uint64_t>(INT64_MAX)) {
        outcome.error = "buffer " + std::to_string(buffer.mem_id) +
                        ": height " + std::to_string(placement->height) +
                        " exceeds 2^63 - 1";
        break;
      }
      optimal = optimal && placement->proven_optimal;
      total = SaturatingAdd(total, placement->height);
      properties::Buffer placed = buffer;
      placed.size = static_cast<int64_t>(placement->height);
      replanned.buffers.push_back(placed);
      for (size_t k = 0; k < placed_groups.size(); ++k) {
        for (const properties::StorageGroup::Member& member :
             placed_groups[k]->members) {
          properties::Allocation a = given.allocations[member.allocation];
          a.mem_id = buffer.mem_id;
          a.offset = static_cast<int64_t>(placement->offsets[k] + member.delta);
          replanned.allocations.push_back(std::move(a));
        }
      }
    }
    if (!outcome.error.empty()) {
      report.findings.push_back(name + ": " + outcome.error);
      report.oracle = Verdict::kFailed;
    } else {
      outcome.total_bytes = total;
      outcome.proven_optimal = optimal;
      // A plan made elsewhere keeps "given"; ours are marked as re-plans.
      std::string label = report.given_bytes ? name + " re-plan" : name;
      Judge(report, label, std::move(replanned), PlacementCode);
    }
    report.algorithms.push_back(outcome);
  }
}

uint64_t GivenBytes(const Plan& plan) {
  uint64_t total = 0;
  for (const properties::Buffer& buffer : plan.buffers) {
    if (buffer.size > 0) {
      total = SaturatingAdd(total, static_cast<uint64_t>(buffer.size));
    }
  }
  return total;
}

// A MiniMalloc problem (no offsets): every algorithm places it.
InputReport CheckCsvProblem(const std::string& name,
                            const planner::MinimallocProblem& problem,
                            const PipelineOptions& options) {
  InputReport report;
  report.name = name;
  report.kind = InputKind::kCsv;
  Plan unplaced;
  properties::Buffer buffer;
  unplaced.buffers.push_back(buffer);
  for (const planner::MinimallocBuffer& row : problem.buffers) {
    properties::Allocation a;
    a.id = row.id;
    a.size = row.size > static_cast<uint64_t>(INT64_MAX)
                 ? -1
                 : static_cast<int64_t>(row.size);
    a.lifetime = {row.lower, row.upper - 1};
    a.alignment = row.alignment > static_cast<uint64_t>(INT64_MAX)
                      ? 1
                      : static_cast<int64_t>(row.alignment);
    a.device = Device::Cpu();
    unplaced.allocations.push_back(std::move(a));
  }
  Replan(report, unplaced, /*min_alignment=*/1, options);
  if (!report.plans.empty()) Summarize(report, report.plans.front());
  report.num_tensors = problem.buffers.size();
  return report;
}

InputReport Unreadable(const std::string& name, InputKind kind,
                       const std::string& error) {
  InputReport report;
  report.name = name;
  report.kind = kind;
  report.readable = false;
  report.error = error;
  return report;
}

std::vector<InputReport> RunProgram(const std::string& name,
                                    const std::string& text,
                                    const PipelineOptions& options) {
  const auto* data = reinterpret_cast<const uint8_t*>(text.data());
  size_t size = text.size();
  // Judging reads the plan as the file states it (plan faults get their
  // codes); loading validates it and may refuse, which is a load finding.
  properties::ProgramPlanOptions read_options;
  read_options.alias_ops = options.alias_ops;
  Result<std::vector<properties::MethodPlan>> methods =
      properties::ReadProgramPlans(data, size, read_options);
  if (!methods.ok()) {
    return {Unreadable(name, InputKind::kProgram, methods.error().ToString())};
  }
  std::vector<Report> verdicts = properties::CheckMethods(*methods);
  Result<ProgramBytes> bytes = UnwrapProgram(data, size);
  Result<Program> program = bytes.ok()
                                ? Program::Load(bytes->data(), bytes->size)
                                : Result<Program>(bytes.error());
  std::vector<InputReport> reports;
  for (size_t m = 0; m < methods->size(); ++m) {
    properties::MethodPlan& method = (*methods)[m];
    std::string label = name + ":" + method.name;
    InputReport report = CheckGivenPlan(label, InputKind::kProgram, method.plan,
                                        options, &verdicts[m]);
    if (!program.ok()) {
      RecordLoad(report, "given", program.error(), "");
    } else {
      std::string detail;
      Error loaded = LoadOnAllocators(*program, m, options, &detail);
      RecordLoad(report, "given", loaded, detail);
    }
    reports.push_back(std::move(report));
  }
  if (reports.empty()) {
    reports.push_back(
        Unreadable(name, InputKind::kProgram, "program has no methods"));
  }
  return reports;
}

std::vector<InputReport> RunText(const CheckInput& input,
                                 const std::string& text,
                                 const PipelineOptions& options) {
  InputKind kind = InputKindOf(input.name);
  switch (kind) {
    case InputKind::kGraph: {
      Result<planner::Graph> graph = planner::ParseGraph(text);
      if (!graph.ok()) {
        return {Unreadable(input.name, kind, graph.error().ToString())};
      }
      return {CheckGraph(input.name, *graph, options)};
    }
    case InputKind::kProgram:
      return RunProgram(input.name, text, options);
    case InputKind::kCsv: {
      Result<planner::MinimallocProblem> problem =
          planner::ParseMinimallocCsv(text);
      bool has_offsets =
          problem.ok() &&
          std::any_of(problem->buffers.begin(), problem->buffers.end(),
                      [](const planner::MinimallocBuffer& b) {
                        return b.offset.has_value();
                      });
      if (problem.ok() && !has_offsets) {
        return {CheckCsvProblem(input.name, *problem, options)};
      }
      Result<Plan> plan = properties::PlanFromCsv(text);
      if (!plan.ok()) {
        return {Unreadable(input.name, kind, plan.error().ToString())};
      }
      return {CheckGivenPlan(input.name, kind, *plan, options)};
    }
    case InputKind::kJsonPlan: {
      Result<Plan> plan = properties::PlanFromJson(text);
      if (!plan.ok()) {
        return {Unreadable(input.name, kind, plan.error().ToString())};
      }
      return {CheckGivenPlan(input.name, kind, *plan, options)};
    }
    case InputKind::kUnknown:
      break;
  }
  return {Unreadable(input.name, kind,
                     "unknown input type (expected .graph, .pte, .bpte, .csv "
                     "or .json)")};
}

// `prefix` replaces the folder in the names reports show.
void AddFolderInputs(const fs::path& folder, const std::string& prefix,
                     std::vector<CheckInput>* out) {
  std::error_code error;
  std::vector<std::string> files;
  for (fs::directory_iterator it(folder, error), end; !error && it != end;
       it.increment(error)) {
    if (!it->is_regular_file(error)) continue;
    std::string path = it->path().string();
    if (InputKindOf(path) != InputKind::kUnknown) files.push_back(path);
  }
  std::sort(files.begin(), files.end());
  for (const std::string& path : files) {
    std::string name =
        prefix.empty() ? path : prefix + fs::path(path).filename().string();
    out->push_back({name, path, {}});
  }
}

}  // namespace

InputKind InputKindOf(const std::string& name) {
  if (EndsWith(name, ".graph")) return InputKind::kGraph;
  if (EndsWith(name, ".pte") || EndsWith(name, ".bpte")) {
    return InputKind::kProgram;
  }
  if (EndsWith(name, ".csv")) return InputKind::kCsv;
  if (EndsWith(name, ".json")) return InputKind::kJsonPlan;
  return InputKind::kUnknown;
}

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kOk:
      return "ok";
    case Verdict::kFailed:
      return "FAIL";
    case Verdict::kNotApplicable:
      break;
  }
  return "n/a";
}

std::vector<std::string> AlgorithmsOf(const PipelineOptions& options) {
  return options.algorithms.empty() ? planner::AlgorithmNames()
                                    : options.algorithms;
}

std::vector<CheckInput> DefaultInputs(const std::string& shared_data_dir) {
  std::vector<CheckInput> inputs;
  for (const EmbeddedGraph& graph : DefaultCorpus()) {
    inputs.push_back({std::string(graph.name), "", std::string(graph.text)});
  }
  if (shared_data_dir.empty()) return inputs;
  std::error_code error;
  fs::path root(shared_data_dir);
  for (const char* sub : {"pte", "minimalloc"}) {
    if (fs::is_directory(root / sub, error)) {
      AddFolderInputs(root / sub, std::string(sub) + "/", &inputs);
    }
  }
  return inputs;
}

std::vector<CheckInput> ExpandPaths(const std::vector<std::string>& paths) {
  std::vector<CheckInput> inputs;
  for (const std::string& path : paths) {
    std::error_code error;
    if (fs::is_directory(path, error)) {
      AddFolderInputs(path, "", &inputs);
    } else {
      inputs.push_back({path, path, {}});
    }
  }
  return inputs;
}

std::vector<InputReport> RunInput(const CheckInput& input,
                                  const PipelineOptions& options) {
  auto start = std::chrono::steady_clock::now();
  std::vector<InputReport> reports;
  Result<std::string> text = ReadInput(input);
  if (!text.ok()) {
    reports.push_back(Unreadable(input.name, InputKindOf(input.name),
                                 text.error().ToString()));
  } else {
    reports = RunText(input, *text, options);
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  for (InputReport& report : reports) {
    report.seconds = seconds / static_cast<double>(reports.size());
  }
  return reports;
}

InputReport CheckGraph(const std::string& name, const planner::Graph& graph,
                       const PipelineOptions& options) {
  InputReport report;
  report.name = name;
  report.kind = InputKind::kGraph;
  properties::PlannerPlanOptions plan_options;
  plan_options.value_ids = true;
  if (!graph.nodes().empty()) {
    plan_options.end_time = static_cast<TimeValue>(graph.nodes().size()) - 1;
  }
  for (const std::string& algorithm : AlgorithmsOf(options)) {
    AlgorithmOutcome outcome;
    outcome.name = algorithm;
    planner::PlanOptions planner_options;
    planner_options.algorithms = {algorithm};
    planner_options.algorithm_options.max_seconds = options.exact_seconds;
    planner_options.algorithm_options.max_nodes = options.exact_nodes;
    Result<planner::PlanResult> result =
        planner::PlanGraph(graph, planner_options);
    if (!result.ok()) {
      outcome.error = result.error().ToString();
      report.findings.push_back(algorithm + ": " + outcome.error);
      report.oracle = Verdict::kFailed;
      report.algorithms.push_back(outcome);
      continue;
    }
    outcome.total_bytes = result->total_bytes();
    outcome.proven_optimal =
        !result->algorithms.empty() &&
        std::all_of(
            result->algorithms.begin(), result->algorithms.end(),
            [](const planner::AlgorithmStats& s) { return s.proven_optimal; });
    report.algorithms.push_back(outcome);

    Result<Plan> plan =
        properties::PlanFromPlannerResult(*result, plan_options);
    if (!plan.ok()) {
      report.oracle = Verdict::kFailed;
      report.findings.push_back(algorithm + ": " + plan.error().ToString());
    } else {
      Judge(report, algorithm, std::move(*plan));
      if (report.plans.size() == 1) Summarize(report, report.plans.front());
    }
    Result<std::vector<uint8_t>> bytes = planner::EmitProgram(graph, *result);
    if (!bytes.ok()) {
      RecordLoad(report, algorithm + " (emit)", bytes.error(), "");
      continue;
    }
    CheckEmittedProgram(report, algorithm + "/emitted", *bytes, options);
  }
  return report;
}

InputReport CheckGivenPlan(const std::string& name, InputKind kind,
                           const Plan& plan, const PipelineOptions& options,
                           const Report* verdict) {
  InputReport report;
  report.name = name;
  report.kind = kind;
  report.given_bytes = GivenBytes(plan);
  if (verdict != nullptr) {
    Judge(report, "given", plan, *verdict);
  } else {
    Judge(report, "given", plan);
  }
  Summarize(report, report.plans.front());
  // ExecuTorch plans every tensor at 16-byte alignment (exir's ALIGNMENT);
  // CSV and JSON plans state their own alignment.
  uint64_t min_alignment =
      kind == InputKind::kProgram ? kExecuTorchPlanAlignment : 1;
  Replan(report, plan, min_alignment, options);
  return report;
}

int ExitCode(const std::vector<InputReport>& reports) {
  int code = kExitOk;
  for (const InputReport& report : reports) {
    if (!report.readable) return kExitUnusable;
    if (!report.ok()) code = kExitFindings;
  }
  return code;
}

}  // namespace cli
}  // namespace memplan
