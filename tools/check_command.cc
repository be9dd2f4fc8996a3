// memplan check: the main job. Plans, judges, emits, parses and loads every
// input (by default the embedded graphs and $MEMPLAN_SHARED_DATA's real
// programs) and prints one table row per input.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "planner/algorithm.h"
#include "tools/algorithm_list.h"
#include "tools/check_pipeline.h"
#include "tools/check_table.h"
#include "tools/commands.h"
#include "tools/html_report.h"

namespace memplan {
namespace cli {
namespace {

constexpr char kUsage[] =
    "usage: memplan check [PATH ...] [--report DIR] [--json] [--no-times]\n"
    "                     [--algos a,b,c] [--exact-seconds S] [--no-gpu]\n"
    "                     [--quiet] [--alias-op NAME]...\n"
    "\n"
    "PATH: .graph, .pte, .csv (MiniMalloc problem or plan), .json plan, or a\n"
    "folder of them. Without PATH: the embedded example graphs, plus\n"
    "$MEMPLAN_SHARED_DATA/pte/*.pte and minimalloc/*.csv when set.\n"
    "--alias-op NAME: a backend's own view operator, for judging programs\n"
    "(repeatable; see memplan verify --help).\n"
    "Exit code: 0 everything holds, 1 a violation or load failure,\n"
    "2 unreadable input or usage.\n";

struct Args {
  std::vector<std::string> paths;
  std::string report_dir;
  bool json = false;
  bool times = true;
  bool quiet = false;
  PipelineOptions pipeline;
};

int Usage(const std::string& problem) {
  std::fprintf(stderr, "memplan check: %s\n%s", problem.c_str(), kUsage);
  return 2;
}

// Returns an exit code >= 0 to stop with, or -1 to run.
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
    } else if (arg == "--report") {
      if (!value(&args->report_dir)) return Usage("--report needs a folder");
    } else if (arg == "--json") {
      args->json = true;
    } else if (arg == "--no-times") {
      args->times = false;
    } else if (arg == "--quiet") {
      args->quiet = true;
    } else if (arg == "--no-gpu") {
      args->pipeline.use_gpu = false;
    } else if (arg == "--algos") {
      if (!value(&text)) return Usage("--algos needs names");
      args->pipeline.algorithms = ParseAlgorithmList(text);
      if (args->pipeline.algorithms.empty()) {
        return Usage("--algos needs names");
      }
      for (const std::string& name : args->pipeline.algorithms) {
        if (!planner::MakeAlgorithm(name)) {
          return Usage("unknown algorithm '" + name + "'");
        }
      }
    } else if (arg == "--alias-op") {
      if (!value(&text)) return Usage("--alias-op needs an operator name");
      args->pipeline.alias_ops.push_back(text);
    } else if (arg == "--exact-seconds") {
      char* end = nullptr;
      if (!value(&text)) return Usage("--exact-seconds needs a number");
      double seconds = std::strtod(text.c_str(), &end);
      if (*end != '\0' || !(seconds > 0)) {
        return Usage("--exact-seconds needs a positive number");
      }
      args->pipeline.exact_seconds = seconds;
    } else if (!arg.empty() && arg[0] == '-') {
      return Usage("unknown option '" + arg + "'");
    } else {
      args->paths.push_back(arg);
    }
  }
  return -1;
}

// A progress line on stderr for terminals and for runs longer than 1 s.
class Progress {
 public:
  explicit Progress(bool enabled)
      : enabled_(enabled),
        tty_(isatty(STDERR_FILENO) == 1),
        start_(std::chrono::steady_clock::now()) {}

  void Update(size_t done, size_t total, const std::string& name) {
    if (!enabled_) return;
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_)
            .count();
    if (!tty_ && elapsed < 1.0) return;
    std::fprintf(stderr, tty_ ? "\r\033[K[%zu/%zu] %s" : "[%zu/%zu] %s\n",
                 done + 1, total, name.c_str());
    shown_ = true;
  }
  void Done() {
    if (shown_ && tty_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  bool enabled_;
  bool tty_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

int RunCheck(int argc, char** argv) {
  Args args;
  int stop = ParseArgs(argc, argv, &args);
  if (stop >= 0) return stop;
  std::vector<CheckInput> inputs;
  if (args.paths.empty()) {
    const char* shared = std::getenv("MEMPLAN_SHARED_DATA");
    inputs = DefaultInputs(shared ? shared : "");
  } else {
    inputs = ExpandPaths(args.paths);
  }
  if (inputs.empty()) return Usage("no inputs found");

  std::vector<InputReport> reports;
  Progress progress(!args.quiet && !args.json);
  for (size_t i = 0; i < inputs.size(); ++i) {
    progress.Update(i, inputs.size(), inputs[i].name);
    for (InputReport& report : RunInput(inputs[i], args.pipeline)) {
      reports.push_back(std::move(report));
    }
  }
  progress.Done();

  std::vector<std::string> algorithms = AlgorithmsOf(args.pipeline);
  int code = ExitCode(reports);
  if (args.json) {
    std::fputs(FormatReportsJson(reports, algorithms, args.times).c_str(),
               stdout);
  } else if (!args.quiet) {
    std::fputs(FormatTable(reports, algorithms, args.times).c_str(), stdout);
  }
  if (!args.report_dir.empty()) {
    HtmlOptions html;
    html.times = args.times;
    Error written = WriteHtmlReport(args.report_dir, reports, algorithms, html);
    if (!written.ok()) {
      std::fprintf(stderr, "memplan check: %s\n", written.ToString().c_str());
      return 2;
    }
    if (!args.json) {
      std::printf("report: %s/index.html\n", args.report_dir.c_str());
    }
  }
  if (!args.json) {
    size_t failing = 0;
    for (const InputReport& report : reports) failing += report.ok() ? 0 : 1;
    std::printf(
        "%s: %zu input(s), %s\n", code == 0 ? "OK" : "FAILED", reports.size(),
        failing == 0 ? "every invariant holds"
                     : (std::to_string(failing) + " with findings").c_str());
  }
  return code;
}

}  // namespace cli
}  // namespace memplan
