#include "properties/oracle.h"

#include <algorithm>
#include <utility>

#include "planner/algorithm.h"
#include "planner/suite.h"
#include "properties/csv_plan.h"
#include "properties/json_plan.h"
#include "properties/memory_trace.h"
#include "properties/program_plans.h"
#include "runtime/bundled_program.h"
#include "runtime/load_check.h"
#include "runtime/program.h"

namespace memplan {
namespace oracle {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool IsPowerOfTwo(uint64_t value) {
  return value != 0 && (value & (value - 1)) == 0;
}

// The formats that state alignments of their own get `alignment` on top.
void RaiseAlignment(Plan& plan, Offset alignment) {
  for (Allocation& a : plan.allocations) {
    a.alignment = std::max(a.alignment, alignment);
  }
}

}  // namespace

const char* PlanFormatName(PlanFormat format) {
  switch (format) {
    case PlanFormat::kProgram:
      return "program";
    case PlanFormat::kCsv:
      return "csv";
    case PlanFormat::kJson:
      return "json";
    case PlanFormat::kMemoryTrace:
      return "memory_trace";
  }
  return "unknown";
}

std::optional<PlanFormat> DetectFormat(std::string_view path,
                                       std::string_view contents) {
  if (EndsWith(path, ".pte") || EndsWith(path, ".bpte")) {
    return PlanFormat::kProgram;
  }
  if (EndsWith(path, ".csv")) return PlanFormat::kCsv;
  if (EndsWith(path, ".json")) {
    return properties::IsMemoryTrace(contents) ? PlanFormat::kMemoryTrace
                                               : PlanFormat::kJson;
  }
  return std::nullopt;
}

Result<std::vector<NamedPlan>> ReadPlans(PlanFormat format,
                                         std::string_view bytes,
                                         const ReadOptions& options) {
  std::vector<NamedPlan> plans;
  switch (format) {
    case PlanFormat::kProgram: {
      properties::ProgramPlanOptions read;
      read.min_alignment = options.alignment;
      read.alias_ops = options.alias_ops;
      Result<std::vector<properties::MethodPlan>> methods =
          properties::ReadProgramPlans(
              reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
              read, options.method);
      if (!methods.ok()) return methods.error();
      for (properties::MethodPlan& method : *methods) {
        plans.push_back({std::move(method.name), std::move(method.plan)});
      }
      return plans;
    }
    case PlanFormat::kCsv: {
      properties::CsvPlanOptions read;
      read.alignment = options.alignment;
      read.buffer_size = options.buffer_size;
      read.device = options.device;
      Result<Plan> plan = properties::PlanFromCsv(bytes, read);
      if (!plan.ok()) return plan.error();
      plans.push_back({"", std::move(*plan)});
      return plans;
    }
    case PlanFormat::kJson: {
      Result<Plan> plan = properties::PlanFromJson(bytes);
      if (!plan.ok()) return plan.error();
      RaiseAlignment(*plan, options.alignment);
      plans.push_back({"", std::move(*plan)});
      return plans;
    }
    case PlanFormat::kMemoryTrace: {
      properties::MemoryTraceOptions read;
      read.device = options.device;
      read.alignment = options.alignment;
      Result<Plan> plan = properties::PlanFromMemoryTrace(bytes, read);
      if (!plan.ok()) return plan.error();
      plans.push_back({"", std::move(*plan)});
      return plans;
    }
  }
  return Error(ErrorCode::kInvalidArgument, "unknown plan format");
}

Report Check(const Plan& plan, const CheckOptions& options) {
  return properties::Check(plan, options);
}

std::vector<Report> CheckAll(const std::vector<NamedPlan>& plans,
                             const CheckOptions& options) {
  // CheckMethods judges each plan and the state they share.
  std::vector<properties::MethodPlan> methods;
  methods.reserve(plans.size());
  for (const NamedPlan& named : plans) {
    methods.push_back({named.name, named.plan});
  }
  return properties::CheckMethods(methods, options);
}

bool Verdict::ok() const { return total_violations() == 0; }

uint64_t Verdict::total_violations() const {
  uint64_t total = 0;
  for (const Report& report : reports) total += report.total_violations();
  return total;
}

Result<Verdict> Verify(PlanFormat format, std::string_view bytes,
                       const ReadOptions& read_options,
                       const CheckOptions& check_options) {
  Result<std::vector<NamedPlan>> plans = ReadPlans(format, bytes, read_options);
  if (!plans.ok()) return plans.error();
  Verdict verdict;
  verdict.reports = CheckAll(*plans, check_options);
  verdict.plans = std::move(*plans);
  return verdict;
}

Result<Problem> ReadProblemCsv(std::string_view text, uint64_t alignment) {
  planner::MinimallocCsvOptions read;
  read.alignment = alignment;
  Result<Problem> problem = planner::ParseMinimallocCsv(text, read);
  if (!problem.ok()) {
    return Error(problem.error().code(), "csv " + problem.error().message());
  }
  return problem;
}

std::vector<std::string> AlgorithmNames() {
  std::vector<std::string> names = planner::AlgorithmNames();
  names.push_back("suite");
  return names;
}

Result<Solution> Solve(const Problem& problem, const std::string& algorithm,
                       const SolveOptions& options) {
  // A problem built in code has not been through the CSV reader's checks.
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const ProblemBuffer& b = problem.buffers[i];
    std::string where =
        "problem.buffers[" + std::to_string(i) + "] ('" + b.id + "')";
    if (b.lower >= b.upper) {
      return Error(ErrorCode::kInvalidArgument,
                   where + ": lower = " + std::to_string(b.lower) +
                       ", must be < upper = " + std::to_string(b.upper));
    }
    if (!IsPowerOfTwo(b.alignment)) {
      return Error(ErrorCode::kInvalidArgument,
                   where + ": alignment = " + std::to_string(b.alignment) +
                       ", must be a power of two");
    }
  }
  std::vector<std::string> names = {algorithm};
  if (algorithm == "suite") names = planner::AlgorithmNames();
  planner::AlgorithmOptions algorithm_options;
  algorithm_options.max_seconds = options.max_seconds;
  Result<planner::SuiteResult> suite = planner::RunSuite(
      names, planner::ToPlanItems(problem), algorithm_options);
  if (!suite.ok()) return suite.error();
  Solution solution;
  solution.offsets = std::move(suite->best.offsets);
  solution.height = suite->best.height;
  solution.algorithm = suite->best_name;
  solution.proven_optimal = suite->best.proven_optimal;
  return solution;
}

Result<Plan> PlanOfSolution(const Problem& problem, const Solution& solution,
                            Device device) {
  if (solution.offsets.size() != problem.buffers.size()) {
    return Error(ErrorCode::kInvalidArgument,
                 "solution has " + std::to_string(solution.offsets.size()) +
                     " offsets for " + std::to_string(problem.buffers.size()) +
                     " problem buffers");
  }
  Problem placed = problem;
  for (size_t i = 0; i < placed.buffers.size(); ++i) {
    placed.buffers[i].offset = solution.offsets[i];
  }
  placed.has_offset_column = true;
  placed.buffer_size = solution.height;
  properties::CsvPlanOptions options;
  options.device = device;
  return properties::PlanFromMinimalloc(std::move(placed), options);
}

Result<std::vector<MethodLoad>> LoadAndCheck(std::string_view bytes,
                                             const LoadOptions& options) {
  Result<ProgramBytes> unwrapped = UnwrapProgram(
      reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (!unwrapped.ok()) return unwrapped.error();
  Result<Program> program = Program::Load(unwrapped->data(), unwrapped->size);
  if (!program.ok()) return program.error();
  LoadCheckOptions load_options;
  load_options.use_gpu = options.use_gpu;
  std::vector<MethodLoad> loads;
  for (size_t m = 0; m < program->num_methods(); ++m) {
    MethodLoad load;
    load.method = program->method_name(m);
    load.error =
        LoadAndCheckMethod(*program, m, load_options, &load.allocators);
    loads.push_back(std::move(load));
  }
  return loads;
}

}  // namespace oracle
}  // namespace memplan
