// memplan check: the main job. Plans, judges, emits, parses and loads every
// input (by default the embedded graphs and $MEMPLAN_SHARED_DATA's real
// programs) and prints one table row per input.
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "tools/algorithm_list.h"
#include "tools/check_pipeline.h"
#include "tools/check_table.h"
#include "tools/command_line.h"
#include "tools/commands.h"
#include "tools/html_report.h"

namespace memplan {
namespace cli {
namespace {

constexpr char kDescription[] =
    "Plans, judges, emits, parses and loads every input and prints one table\n"
    "row per input.\n"
    "PATH: .graph, .pte, .csv (MiniMalloc problem or plan), .json plan, or a\n"
    "folder of them. Without PATH: the embedded example graphs, plus\n"
    "$MEMPLAN_SHARED_DATA/pte/*.pte and minimalloc/*.csv when set.\n";

constexpr char kFooter[] =
    "Exit code: 0 everything holds, 1 a violation or load failure,\n"
    "2 unreadable input or usage.";

struct Args {
  std::vector<std::string> paths;
  std::string report_dir;
  bool json = false;
  bool no_times = false;
  bool quiet = false;
  bool no_gpu = false;
  PipelineOptions pipeline;
};

void AddOptions(CLI::App& app, Args* args) {
  app.add_option("PATH", args->paths, "inputs (default: see above)");
  app.add_option("--report", args->report_dir,
                 "write DIR/index.html: the table and an SVG per plan")
      ->type_name("DIR");
  app.add_flag("--json", args->json, "print the table as JSON");
  app.add_flag("--no-times", args->no_times,
               "leave out timings (output identical across runs)");
  app.add_flag("--quiet", args->quiet, "no table and no progress");
  app.add_flag("--no-gpu", args->no_gpu, "never load onto a real GPU");
  AddAlgorithmOption(app, AlgorithmCount::kList,
                     "algorithms to plan with (default: all)",
                     &args->pipeline.algorithms);
  AddExactSecondsOption(app, &args->pipeline.exact_seconds);
  AddExactNodesOption(app, &args->pipeline.exact_nodes);
  app.add_option("--alias-op", args->pipeline.alias_ops,
                 "a backend's own view operator, for judging programs\n"
                 "(repeatable; see memplan verify --help)")
      ->type_name("NAME")
      ->allow_extra_args(false);
}

}  // namespace

int RunCheck(int argc, char** argv) {
  CommandLine command_line("check", kDescription, kFooter);
  Args args;
  AddOptions(command_line.app(), &args);
  if (std::optional<int> stop = command_line.Parse(argc, argv)) return *stop;
  const bool times = !args.no_times;
  args.pipeline.use_gpu = !args.no_gpu;
  std::vector<CheckInput> inputs;
  if (args.paths.empty()) {
    const char* shared = std::getenv("MEMPLAN_SHARED_DATA");
    inputs = DefaultInputs(shared ? shared : "");
  } else {
    inputs = ExpandPaths(args.paths);
  }
  if (inputs.empty()) return command_line.UsageError("no inputs found");

  std::vector<InputReport> reports;
  StatusLine progress(!args.quiet && !args.json);
  for (size_t i = 0; i < inputs.size(); ++i) {
    progress.Show("[" + std::to_string(i + 1) + "/" +
                  std::to_string(inputs.size()) + "] " + inputs[i].name);
    for (InputReport& report : RunInput(inputs[i], args.pipeline)) {
      reports.push_back(std::move(report));
    }
  }
  progress.Done();

  std::vector<std::string> algorithms = AlgorithmsOf(args.pipeline);
  int code = ExitCode(reports);
  if (args.json) {
    std::fputs(FormatReportsJson(reports, algorithms, times).c_str(), stdout);
  } else if (!args.quiet) {
    std::fputs(FormatTable(reports, algorithms, times).c_str(), stdout);
  }
  if (!args.report_dir.empty()) {
    HtmlOptions html;
    html.times = times;
    Error written = WriteHtmlReport(args.report_dir, reports, algorithms, html);
    if (!written.ok()) {
      std::fprintf(stderr, "memplan check: %s\n", written.ToString().c_str());
      return kExitUnusable;
    }
    if (!args.json) {
      std::printf("report: %s/index.html\n", args.report_dir.c_str());
    }
  }
  if (!args.json) {
    size_t failing = 0;
    for (const InputReport& report : reports) failing += report.ok() ? 0 : 1;
    std::printf("%s: %zu input(s), %s\n", code == kExitOk ? "OK" : "FAILED",
                reports.size(),
                failing == 0
                    ? "every invariant holds"
                    : (std::to_string(failing) + " with findings").c_str());
  }
  return code;
}

}  // namespace cli
}  // namespace memplan
