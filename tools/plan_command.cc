// memplan plan: plans a graph (planner/GRAPH_FORMAT.md) and emits an ET12
// program, solves a MiniMalloc CSV problem and writes its solution, or
// re-plans a real ExecuTorch program (.pte/.bpte) in place.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "planner/emitter.h"
#include "planner/graph_format.h"
#include "planner/lower_bound.h"
#include "planner/memory_planner.h"
#include "planner/minimalloc_csv.h"
#include "planner/suite.h"
#include "runtime/core/checked_math.h"
#include "tools/algorithm_list.h"
#include "tools/commands.h"
#include "tools/replan.h"

namespace memplan {
namespace cli {
namespace {

constexpr char kUsage[] =
    "usage: memplan plan GRAPH [--algo NAME] [--align N] [--padding N]\n"
    "                   [--no-device-planning] [--capacity DEVICE=BYTES]...\n"
    "                   [--no-plan-inputs] [--no-plan-outputs]\n"
    "                   [--no-plan-mutable-buffers] [-o FILE.pte]\n"
    "       memplan plan --csv PROBLEM.csv [--algo NAME] [--align N]\n"
    "                   [-o SOLUTION.csv]\n"
    "       memplan plan PROGRAM.pte|PROGRAM.bpte [--algo NAME] [--align N]\n"
    "                   [--allow-larger] [-o OUT.pte]\n"
    "\n"
    "NAME: naive | greedy | best_fit | multi_fit | exact | suite |\n"
    "      a,comma,list\n"
    "(default greedy for graphs and CSV, multi_fit for programs; suite runs\n"
    "every algorithm and keeps the smallest).\n"
    "A CSV's alignment column is honoured; --align N is the alignment of\n"
    "rows without one (default 1). The solution adds an offset column.\n"
    "A program (an ExecuTorch .pte, or the program inside a .bpte) is\n"
    "re-planned: every planned tensor keeps its buffer and device, gets a\n"
    "new offset at --align N (default 16, ExecuTorch's) from the oracle's\n"
    "lifetimes and aliases, and only allocation_info and\n"
    "non_const_buffer_sizes change. A plan larger than the given one is\n"
    "refused (exit 1) unless --allow-larger. Without -o nothing is written.\n";

struct Args {
  std::string input;
  bool csv = false;
  bool program = false;     // A .pte/.bpte to re-plan.
  bool algo_given = false;  // Programs default to multi_fit.
  bool allow_larger = false;
  std::vector<std::string> graph_only;  // Graph flags given (for errors).
  std::string output;
  std::vector<std::string> algorithms = {"greedy"};
  bool align_given = false;  // A CSV's default alignment is 1, not 16.
  planner::PlanOptions options;
};

int Usage(const std::string& problem) {
  if (!problem.empty())
    std::fprintf(stderr, "memplan plan: %s\n", problem.c_str());
  std::fprintf(stderr, "%s", kUsage);
  return 2;
}

bool ParseUint(const std::string& text, uint64_t* out) {
  if (text.empty() || text[0] == '-') return false;
  char* end = nullptr;
  errno = 0;
  unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *out = value;
  return true;
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

// Returns an exit code >= 0 on a usage error, -1 when args are complete.
int ParseArgs(int argc, char** argv, Args* args) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    std::string text;
    if (arg == "--help" || arg == "-h") {
      std::printf("%s", kUsage);
      return 0;
    } else if (arg == "--csv") {
      if (!value(&args->input)) return Usage("--csv needs a file");
      args->csv = true;
    } else if (arg == "-o" || arg == "--output") {
      if (!value(&args->output)) return Usage(arg + " needs a file");
    } else if (arg == "--algo") {
      if (!value(&text)) return Usage("--algo needs a name");
      args->algorithms = ParseAlgorithmList(text);
      if (args->algorithms.empty()) return Usage("--algo needs a name");
      args->algo_given = true;
    } else if (arg == "--allow-larger") {
      args->allow_larger = true;
    } else if (arg == "--align") {
      if (!value(&text) || !ParseUint(text, &args->options.alignment) ||
          !IsPowerOfTwo(args->options.alignment)) {
        return Usage("--align needs a power of two");
      }
      args->align_given = true;
    } else if (arg == "--padding") {
      args->graph_only.push_back(arg);
      if (!value(&text) || !ParseUint(text, &args->options.buffer_padding)) {
        return Usage("--padding needs a byte count");
      }
    } else if (arg == "--capacity") {
      args->graph_only.push_back(arg);
      if (!value(&text)) return Usage("--capacity needs DEVICE=BYTES");
      Result<std::pair<Device, uint64_t>> capacity =
          planner::ParseCapacity(text);
      if (!capacity.ok()) return Usage(capacity.error().message());
      args->options.capacity[capacity->first] = capacity->second;
    } else if (arg == "--no-device-planning") {
      args->graph_only.push_back(arg);
      args->options.device_planning = false;
    } else if (arg == "--no-plan-inputs") {
      args->graph_only.push_back(arg);
      args->options.lifetimes.plan_inputs = false;
    } else if (arg == "--no-plan-outputs") {
      args->graph_only.push_back(arg);
      args->options.lifetimes.plan_outputs = false;
    } else if (arg == "--no-plan-mutable-buffers") {
      args->graph_only.push_back(arg);
      args->options.lifetimes.plan_mutable_buffers = false;
    } else if (!arg.empty() && arg[0] == '-') {
      return Usage("unknown option '" + arg + "'");
    } else if (args->input.empty()) {
      args->input = arg;
    } else {
      return Usage("more than one input ('" + args->input + "', '" + arg +
                   "')");
    }
  }
  if (args->input.empty()) return Usage("no input graph or --csv file");
  args->program = !args->csv && IsProgramFile(args->input);
  if (args->program && !args->graph_only.empty()) {
    return Usage(args->graph_only.front() +
                 " applies to graphs; a program keeps its buffers");
  }
  if (args->allow_larger && !args->program) {
    return Usage("--allow-larger applies to programs (.pte/.bpte)");
  }
  args->options.algorithms = args->algorithms;
  return -1;
}

int Fail(const Error& error) {
  std::fprintf(stderr, "memplan plan: %s\n", error.ToString().c_str());
  // A plan that does not fit a device is a finding; anything else is input.
  return error.code() == ErrorCode::kResourceExhausted ? 1 : 2;
}

double Ratio(uint64_t size, uint64_t bound) {
  return bound == 0 ? 1.0 : static_cast<double>(size) / bound;
}

int RunGraph(const Args& args) {
  Result<planner::Graph> graph = planner::ReadGraphFile(args.input);
  if (!graph.ok()) return Fail(graph.error());
  Result<planner::PlanResult> plan = planner::PlanGraph(*graph, args.options);
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
                static_cast<unsigned long long>(buffer.lower_bound),
                Ratio(buffer.size, buffer.lower_bound));
  }
  if (plan->algorithms.size() > 1) {
    for (const planner::AlgorithmStats& stats : plan->algorithms) {
      std::printf("  %-9s %14llu bytes %s %.3f s%s%s\n", stats.name.c_str(),
                  static_cast<unsigned long long>(stats.total_bytes),
                  stats.proven_optimal ? "optimal" : "       ", stats.seconds,
                  stats.error.empty() ? "" : " error: ", stats.error.c_str());
    }
  }
  if (args.output.empty()) return 0;
  Result<std::vector<uint8_t>> bytes = planner::EmitProgram(*graph, *plan);
  if (!bytes.ok()) return Fail(bytes.error());
  Error written = planner::WriteFile(args.output, *bytes);
  if (!written.ok()) return Fail(written);
  std::printf("wrote %s (%zu bytes)\n", args.output.c_str(), bytes->size());
  return 0;
}

int RunCsv(const Args& args) {
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
  if (!suite.ok()) return Fail(suite.error());
  uint64_t bound = planner::LiveBytesLowerBound(items);
  std::printf("%s: %zu buffers, lower bound %llu\n", args.input.c_str(),
              items.size(), static_cast<unsigned long long>(bound));
  for (const planner::SuiteMemberResult& member : suite->members) {
    std::printf("  %-9s height %14llu ratio %.3f %s %.3f s\n",
                member.name.c_str(),
                static_cast<unsigned long long>(member.height),
                Ratio(member.height, bound),
                member.proven_optimal ? "optimal" : "       ", member.seconds);
  }
  Result<std::string> csv =
      planner::WriteMinimallocCsv(*problem, suite->best.offsets);
  if (!csv.ok()) return Fail(csv.error());
  if (args.output.empty()) {
    std::fputs(csv->c_str(), stdout);
    return 0;
  }
  Error written = planner::WriteFile(
      args.output, std::vector<uint8_t>(csv->begin(), csv->end()));
  if (!written.ok()) return Fail(written);
  std::printf("wrote %s (best: %s, height %llu)\n", args.output.c_str(),
              suite->best_name.c_str(),
              static_cast<unsigned long long>(suite->best.height));
  return 0;
}

std::string Percent(uint64_t saved, uint64_t given) {
  if (given == 0) return "";
  char text[32];
  std::snprintf(text, sizeof(text), " (%.1f%%)",
                100.0 * static_cast<double>(saved) / given);
  return text;
}

int RunProgram(const Args& args) {
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
    return 1;
  }
  if (args.output.empty()) {
    std::printf("(no -o: nothing written)\n");
    return 0;
  }
  Error written = planner::WriteFile(args.output, result->bytes);
  if (!written.ok()) return Fail(written);
  std::printf("wrote %s (%zu bytes%s); it loads and verifies valid\n",
              args.output.c_str(), result->bytes.size(),
              result->bundled_input ? ", the program without its bundle" : "");
  return 0;
}

}  // namespace

int RunPlan(int argc, char** argv) {
  Args args;
  int usage = ParseArgs(argc, argv, &args);
  if (usage >= 0) return usage;
  if (args.csv) return RunCsv(args);
  return args.program ? RunProgram(args) : RunGraph(args);
}

}  // namespace cli
}  // namespace memplan
