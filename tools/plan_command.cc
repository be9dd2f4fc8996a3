// memplan plan: plans a graph (planner/GRAPH_FORMAT.md) and emits an ET12
// program, solves a MiniMalloc CSV problem and writes its solution, or
// re-plans a real ExecuTorch program (.pte/.bpte) in place.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "planner/emitter.h"
#include "planner/graph_format.h"
#include "planner/lower_bound.h"
#include "planner/memory_planner.h"
#include "planner/minimalloc_csv.h"
#include "planner/suite.h"
#include "planner/time_parts.h"
#include "tools/algorithm_list.h"
#include "tools/command_line.h"
#include "tools/commands.h"
#include "tools/replan.h"

namespace memplan {
namespace cli {
namespace {

constexpr char kDescription[] =
    "Plans a graph (planner/GRAPH_FORMAT.md) and emits an ET12 program,\n"
    "solves a MiniMalloc CSV problem, or re-plans an ExecuTorch program:\n"
    "  memplan plan GRAPH [--algo NAME] [--align N] [graph options]\n"
    "               [-o FILE.pte]\n"
    "  memplan plan --csv PROBLEM.csv [--algo NAME] [--align N]\n"
    "               [--capacity BYTES] [-o SOLUTION.csv]\n"
    "  memplan plan PROGRAM.pte|PROGRAM.bpte [--algo NAME] [--align N]\n"
    "               [--allow-larger] [-o OUT.pte]\n"
    "A CSV's alignment column is honoured; --align N is the alignment of\n"
    "rows without one (default 1). The solution adds an offset column.\n"
    "With --capacity BYTES the problem is a decision, as MiniMalloc's:\n"
    "exact (the default then) stops at the first plan within BYTES, or\n"
    "once it proves there is none; the solution is written only where\n"
    "one fits (exit 1 where none does).\n"
    "A program (an ExecuTorch .pte, or the program inside a .bpte) is\n"
    "re-planned: every planned tensor keeps its buffer and device, gets a\n"
    "new offset at --align N (default 16, ExecuTorch's) from the oracle's\n"
    "lifetimes and aliases, and only allocation_info and\n"
    "non_const_buffer_sizes change. A plan larger than the given one is\n"
    "refused (exit 1) unless --allow-larger. Without -o nothing is written.\n";

constexpr char kFooter[] =
    "Exit code: 0 planned, 1 the plan does not fit a device's (or the\n"
    "CSV's) capacity or a larger plan was refused, 2 unreadable input or\n"
    "usage.";

constexpr char kGraphOptions[] = "Graph options";

struct Args {
  std::string input;
  std::string csv_input;
  bool csv = false;
  bool program = false;  // A .pte/.bpte to re-plan.
  bool allow_larger = false;
  std::string output;
  std::vector<std::string> algorithms;  // Empty: the kind's default.
  bool algo_given = false;              // Programs default to multi_fit.
  bool align_given = false;  // A CSV's default alignment is 1, not 16.
  std::vector<std::string> capacities;  // DEVICE=BYTES, in order.
  bool no_device_planning = false;
  bool no_plan_inputs = false;
  bool no_plan_outputs = false;
  bool no_plan_mutable_buffers = false;
  planner::PlanOptions options;
};

// DEVICE=BYTES (a graph's device), or BYTES (a CSV problem's arena).
CLI::Validator Capacity() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        uint64_t bytes = 0;
        if (ParseDecimal(text, &bytes)) return "";
        Result<std::pair<Device, uint64_t>> capacity =
            planner::ParseCapacity(text);
        return capacity.ok() ? "" : capacity.error().message();
      },
      "");
}

void AddOptions(CLI::App& app, Args* args) {
  app.add_option("INPUT", args->input, "a graph or a program (see above)")
      ->type_name("GRAPH|PROGRAM");
  app.add_option("--csv", args->csv_input, "a MiniMalloc problem to solve")
      ->type_name("PROBLEM.csv");
  app.add_option("-o,--output", args->output,
                 "the program or solution to write")
      ->type_name("FILE");
  AddAlgorithmOption(app, AlgorithmCount::kList,
                     "default greedy for graphs and CSV (exact with\n"
                     "--capacity), multi_fit for programs; several: the\n"
                     "smallest plan is kept",
                     &args->algorithms);
  app.add_option("--align", args->options.alignment,
                 "the alignment of every offset (default 16; a CSV's rows\n"
                 "without an alignment column: 1)")
      ->type_name("N")
      ->check(PowerOfTwo());
  AddExactSecondsOption(app, &args->options.algorithm_options.max_seconds);
  AddExactNodesOption(app, &args->options.algorithm_options.max_nodes);
  app.add_flag("--allow-larger", args->allow_larger,
               "write a re-planned program even when it is larger");
  app.add_option("--padding", args->options.buffer_padding,
                 "extra bytes at the end of each used buffer")
      ->type_name("N")
      ->check(ByteCount())
      ->group(kGraphOptions);
  app.add_option("--capacity", args->capacities,
                 "a device's size limit (repeatable), e.g. cuda:0=1048576;\n"
                 "with --csv, the arena's size (BYTES, once): exact then\n"
                 "decides whether the problem fits it, as MiniMalloc's\n"
                 "--capacity does")
      ->type_name("DEVICE=BYTES|BYTES")
      ->allow_extra_args(false)
      ->check(Capacity())
      ->group(kGraphOptions);
  app.add_flag("--no-device-planning", args->no_device_planning,
               "one buffer for every device's tensors")
      ->group(kGraphOptions);
  app.add_flag("--no-plan-inputs", args->no_plan_inputs,
               "leave the graph's inputs unplanned")
      ->group(kGraphOptions);
  app.add_flag("--no-plan-outputs", args->no_plan_outputs,
               "leave the graph's outputs unplanned")
      ->group(kGraphOptions);
  app.add_flag("--no-plan-mutable-buffers", args->no_plan_mutable_buffers,
               "leave the graph's mutable buffers unplanned")
      ->group(kGraphOptions);
}

// An ExecuTorch program or bundled program, by extension or by the file
// identifier at bytes 4..8 (ET12, BP08).
bool IsProgramFile(const std::string& path) {
  auto ends_with = [&](const char* suffix) {
    const size_t n = std::strlen(suffix);
    return path.size() >= n && path.compare(path.size() - n, n, suffix) == 0;
  };
  if (ends_with(".pte") || ends_with(".bpte")) return true;
  std::ifstream in(path, std::ios::binary);
  char head[8] = {};
  if (!in.read(head, sizeof(head))) return false;
  return std::memcmp(head + 4, "ET12", 4) == 0 ||
         std::memcmp(head + 4, "BP08", 4) == 0;
}

// What CLI11 cannot check: one input, and options that fit its kind.
// Returns the exit code to stop with, or nullopt to run.
std::optional<int> CheckArgs(const CommandLine& command_line,
                             const CLI::App& app, Args* args) {
  args->csv = app.count("--csv") > 0;
  if (args->csv && !args->input.empty()) {
    return command_line.UsageError("more than one input ('" + args->input +
                                   "', --csv '" + args->csv_input + "')");
  }
  if (args->csv) args->input = args->csv_input;
  if (args->input.empty()) {
    return command_line.UsageError("no input graph or --csv file");
  }
  args->program = !args->csv && IsProgramFile(args->input);
  if (args->program) {
    for (const CLI::Option* option : app.parse_order()) {
      if (option->get_group() == kGraphOptions) {
        return command_line.UsageError(
            option->get_name() +
            " applies to graphs; a program keeps its buffers");
      }
    }
  }
  if (args->allow_larger && !args->program) {
    return command_line.UsageError(
        "--allow-larger applies to programs (.pte/.bpte)");
  }
  args->algo_given = !args->algorithms.empty();
  // A CSV problem at a capacity is a decision: exact's by default.
  if (!args->algo_given) {
    args->algorithms = {args->csv && !args->capacities.empty() ? "exact"
                                                               : "greedy"};
  }
  args->options.algorithms = args->algorithms;
  args->align_given = app.count("--align") > 0;
  for (const std::string& text : args->capacities) {
    uint64_t bytes = 0;
    const bool bare = ParseDecimal(text, &bytes);
    if (args->csv) {
      if (!bare || args->capacities.size() > 1) {
        return command_line.UsageError(
            "a CSV problem has one arena: --capacity BYTES, once (not '" +
            text + "')");
      }
      if (bytes == 0) {
        return command_line.UsageError("--capacity 0: an arena of no bytes");
      }
      args->options.algorithm_options.capacity = bytes;
      continue;
    }
    if (bare) {
      return command_line.UsageError(
          "--capacity '" + text +
          "': a graph's capacities name their device (e.g. cpu=" + text + ")");
    }
    Result<std::pair<Device, uint64_t>> capacity = planner::ParseCapacity(text);
    args->options.capacity[capacity->first] = capacity->second;  // Checked.
  }
  args->options.device_planning = !args->no_device_planning;
  args->options.lifetimes.plan_inputs = !args->no_plan_inputs;
  args->options.lifetimes.plan_outputs = !args->no_plan_outputs;
  args->options.lifetimes.plan_mutable_buffers = !args->no_plan_mutable_buffers;
  return std::nullopt;
}

int Fail(const Error& error) {
  std::fprintf(stderr, "memplan plan: %s\n", error.ToString().c_str());
  // A plan that does not fit a device is a finding; anything else is input.
  return error.code() == ErrorCode::kResourceExhausted ? kExitFindings
                                                       : kExitUnusable;
}

double Ratio(uint64_t size, uint64_t bound) {
  return bound == 0 ? 1.0 : static_cast<double>(size) / bound;
}

int RunGraph(const Args& args, StatusLine* status) {
  Result<planner::Graph> graph = planner::ReadGraphFile(args.input);
  if (!graph.ok()) return Fail(graph.error());
  Result<planner::PlanResult> plan = planner::PlanGraph(*graph, args.options);
  status->Done();
  if (!plan.ok()) return Fail(plan.error());
  std::printf("graph %s: %zu tensors, %zu nodes, algorithm %s\n",
              graph->name().c_str(), graph->tensors().size(),
              graph->nodes().size(), plan->algorithm.c_str());
  std::printf("%-7s %-8s %14s %14s %7s\n", "mem_id", "device", "bytes",
              "lower_bound", "ratio");
  for (const planner::BufferInfo& buffer : plan->buffers) {
    std::printf("%-7u %-8s %14llu %14llu %7.3f\n", buffer.mem_id,
                buffer.device.ToString().c_str(),
                static_cast<unsigned long long>(buffer.size),
                static_cast<unsigned long long>(buffer.aligned_lower_bound),
                Ratio(buffer.size, buffer.aligned_lower_bound));
  }
  if (plan->algorithms.size() > 1) {
    for (const planner::AlgorithmStats& stats : plan->algorithms) {
      std::printf("  %-9s %14llu bytes %s %.3f s%s%s\n", stats.name.c_str(),
                  static_cast<unsigned long long>(stats.total_bytes),
                  stats.proven_optimal ? "optimal" : "       ", stats.seconds,
                  stats.error.empty() ? "" : " error: ", stats.error.c_str());
    }
  }
  if (args.output.empty()) return kExitOk;
  Result<std::vector<uint8_t>> bytes = planner::EmitProgram(*graph, *plan);
  if (!bytes.ok()) return Fail(bytes.error());
  Error written = planner::WriteFile(args.output, *bytes);
  if (!written.ok()) return Fail(written);
  std::printf("wrote %s (%zu bytes)\n", args.output.c_str(), bytes->size());
  return kExitOk;
}

int RunCsv(const Args& args, StatusLine* status) {
  planner::MinimallocCsvOptions read;
  if (args.align_given) read.alignment = args.options.alignment;
  Result<planner::MinimallocProblem> problem =
      planner::ReadMinimallocCsvFile(args.input, read);
  if (!problem.ok()) return Fail(problem.error());
  std::vector<planner::PlanItem> items = planner::ToPlanItems(*problem);
  Error valid = planner::ValidatePlanItems(items);
  if (!valid.ok()) return Fail(valid);
  Result<planner::SuiteResult> suite =
      planner::RunSuite(args.algorithms, items, args.options.algorithm_options);
  status->Done();
  if (!suite.ok()) return Fail(suite.error());
  uint64_t bound = planner::LiveBytesLowerBound(items);
  std::printf("%s: %zu buffers, lower bound %llu", args.input.c_str(),
              items.size(), static_cast<unsigned long long>(bound));
  // multi_fit and exact place such parts apart (planner/time_parts.h).
  const size_t parts = planner::TimeParts(items).size();
  if (parts > 1) std::printf("; %zu parts in time", parts);
  std::printf("\n");
  for (const planner::SuiteMemberResult& member : suite->members) {
    std::printf("  %-9s height %14llu ratio %.3f %s %.3f s",
                member.name.c_str(),
                static_cast<unsigned long long>(member.height),
                Ratio(member.height, bound),
                member.proven_optimal ? "optimal" : "       ", member.seconds);
    // An exact search that ran out of budget: what it proved.
    if (!member.proven_optimal && member.lower_bound > 0) {
      std::printf(", no plan below %llu (ratio %.3f)",
                  static_cast<unsigned long long>(member.lower_bound),
                  Ratio(member.lower_bound, bound));
    }
    std::printf("\n");
  }
  const uint64_t capacity = args.options.algorithm_options.capacity;
  if (capacity > 0) {
    const unsigned long long c = capacity;
    if (suite->best.height <= capacity) {
      std::printf("capacity %llu: fits (%s, height %llu)\n", c,
                  suite->best_name.c_str(),
                  static_cast<unsigned long long>(suite->best.height));
    } else {
      // What is proven: the live bytes, or the strongest bound a member
      // proved (the suite's).
      const uint64_t proven = std::max(bound, suite->best.lower_bound);
      bool ran_exact = false;
      for (const planner::SuiteMemberResult& member : suite->members) {
        ran_exact = ran_exact || member.name == "exact";
      }
      if (proven > capacity) {
        std::printf("capacity %llu: does not fit (no plan is below %llu)\n", c,
                    static_cast<unsigned long long>(proven));
      } else {
        std::printf(
            "capacity %llu: no plan within it found (the lowest %llu), and "
            "none ruled out%s\n",
            c, static_cast<unsigned long long>(suite->best.height),
            ran_exact ? "" : "; --algo exact searches for one");
      }
      std::fprintf(stderr,
                   "memplan plan: no solution written: the plan does "
                   "not fit the capacity\n");
      return kExitFindings;
    }
  }
  Result<std::string> csv =
      planner::WriteMinimallocCsv(*problem, suite->best.offsets);
  if (!csv.ok()) return Fail(csv.error());
  if (args.output.empty()) {
    std::fputs(csv->c_str(), stdout);
    return kExitOk;
  }
  Error written = planner::WriteFile(
      args.output, std::vector<uint8_t>(csv->begin(), csv->end()));
  if (!written.ok()) return Fail(written);
  std::printf("wrote %s (best: %s, height %llu)\n", args.output.c_str(),
              suite->best_name.c_str(),
              static_cast<unsigned long long>(suite->best.height));
  return kExitOk;
}

std::string Percent(uint64_t saved, uint64_t given) {
  if (given == 0) return "";
  char text[32];
  std::snprintf(text, sizeof(text), " (%.1f%%)",
                100.0 * static_cast<double>(saved) / given);
  return text;
}

int RunProgram(const Args& args, StatusLine* status) {
  std::ifstream in(args.input, std::ios::binary);
  if (!in) return Fail(Error(ErrorCode::kIo, "cannot read " + args.input));
  const std::vector<uint8_t> data{std::istreambuf_iterator<char>(in),
                                  std::istreambuf_iterator<char>()};
  tools::ReplanOptions options;
  if (args.algo_given) options.algorithms = args.algorithms;
  if (args.align_given) options.alignment = args.options.alignment;
  options.algorithm_options = args.options.algorithm_options;
  options.allow_larger = args.allow_larger;
  Result<tools::ReplanResult> result =
      tools::ReplanProgram(data.data(), data.size(), options);
  status->Done();
  if (!result.ok()) return Fail(result.error());
  std::printf("program %s%s: alignment %llu\n", args.input.c_str(),
              result->bundled_input ? " (bundled)" : "",
              static_cast<unsigned long long>(options.alignment));
  if (result->input_violations > 0) {
    std::printf(
        "note: the given plan breaks %llu invariants (memplan verify "
        "names them); the new one breaks none\n",
        static_cast<unsigned long long>(result->input_violations));
  }
  std::printf("%-12s %-6s %-8s %7s %14s %14s %14s %14s  %s\n", "method",
              "mem_id", "device", "tensors", "given_bytes", "new_bytes",
              "saved", "lower_bound", "algorithm");
  for (const tools::ReplannedBuffer& b : result->buffers) {
    const long long saved =
        static_cast<long long>(b.old_size) - static_cast<long long>(b.new_size);
    std::printf("%-12s %-6lld %-8s %7llu %14llu %14llu %14lld %14llu  %s%s\n",
                b.method.c_str(), static_cast<long long>(b.mem_id),
                b.device.ToString().c_str(),
                static_cast<unsigned long long>(b.tensors),
                static_cast<unsigned long long>(b.old_size),
                static_cast<unsigned long long>(b.new_size), saved,
                static_cast<unsigned long long>(b.lower_bound),
                b.algorithm.empty() ? "-" : b.algorithm.c_str(),
                b.proven_optimal ? " (optimal)" : "");
  }
  const uint64_t old_total = result->old_total();
  const uint64_t new_total = result->new_total();
  if (new_total <= old_total) {
    std::printf("total: %llu -> %llu bytes, %llu saved%s\n",
                static_cast<unsigned long long>(old_total),
                static_cast<unsigned long long>(new_total),
                static_cast<unsigned long long>(old_total - new_total),
                Percent(old_total - new_total, old_total).c_str());
  } else {
    std::printf("total: %llu -> %llu bytes, %llu more\n",
                static_cast<unsigned long long>(old_total),
                static_cast<unsigned long long>(new_total),
                static_cast<unsigned long long>(new_total - old_total));
  }
  if (!result->refusal.empty()) {
    std::fprintf(stderr,
                 "memplan plan: not written: %s; --allow-larger writes it\n",
                 result->refusal.c_str());
    return kExitFindings;
  }
  if (args.output.empty()) {
    std::printf("(no -o: nothing written)\n");
    return kExitOk;
  }
  Error written = planner::WriteFile(args.output, result->bytes);
  if (!written.ok()) return Fail(written);
  std::printf("wrote %s (%zu bytes%s); it loads and verifies valid\n",
              args.output.c_str(), result->bytes.size(),
              result->bundled_input ? ", the program without its bundle" : "");
  return kExitOk;
}

}  // namespace

int RunPlan(int argc, char** argv) {
  CommandLine command_line("plan", kDescription, kFooter);
  Args args;
  AddOptions(command_line.app(), &args);
  if (std::optional<int> stop = command_line.Parse(argc, argv)) return *stop;
  if (std::optional<int> stop =
          CheckArgs(command_line, command_line.app(), &args)) {
    return *stop;
  }
  // A long exact search shows where it stands.
  StatusLine status(true);
  args.options.algorithm_options.on_progress =
      [&status](const planner::SearchProgress& progress) {
        char text[160];
        const int used = std::snprintf(
            text, sizeof(text), "exact: lowest plan %llu, none below %llu",
            static_cast<unsigned long long>(progress.height),
            static_cast<unsigned long long>(progress.lower_bound));
        if (progress.trying != 0) {
          std::snprintf(text + used, sizeof(text) - used,
                        "; trying %llu since %.1f s",
                        static_cast<unsigned long long>(progress.trying),
                        progress.seconds);
        } else {
          std::snprintf(text + used, sizeof(text) - used, " at %.1f s",
                        progress.seconds);
        }
        status.Show(text);
      };
  if (args.csv) return RunCsv(args, &status);
  return args.program ? RunProgram(args, &status) : RunGraph(args, &status);
}

}  // namespace cli
}  // namespace memplan
