// memplan render: draws one plan as SVG (time on x, offset on y, a panel
// per buffer, violations in red).
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "tools/algorithm_list.h"
#include "tools/check_pipeline.h"
#include "tools/command_line.h"
#include "tools/commands.h"
#include "tools/svg_plan.h"

namespace memplan {
namespace cli {
namespace {

constexpr char kDescription[] =
    "Draws one plan as SVG: time on x, offset on y, a panel per buffer,\n"
    "violations in red. FILE: a .graph (planned with --algo), a .pte (its\n"
    "first method, or --method NAME), a .csv (a MiniMalloc plan, or a\n"
    "problem placed with --algo) or a .json plan.\n";

constexpr char kFooter[] =
    "Exit code: 0 valid, 1 the oracle finds a violation in the drawn plan\n"
    "(it is drawn all the same), 2 unreadable input or usage.";

}  // namespace

int RunRender(int argc, char** argv) {
  CommandLine command_line("render", kDescription, kFooter);
  std::string input, output, method;
  std::vector<std::string> algorithms = {"best_fit"};
  CLI::App& app = command_line.app();
  app.add_option("FILE", input, "the plan or graph to draw")->required();
  app.add_option("-o,--output", output, "the SVG to write")
      ->type_name("PLAN.svg")
      ->required();
  AddAlgorithmOption(app, AlgorithmCount::kOne,
                     "how to place a graph or a CSV problem (default "
                     "best_fit)",
                     &algorithms);
  app.add_option("--method", method,
                 "the method of a program to draw (default: its first)")
      ->type_name("NAME");
  if (std::optional<int> stop = command_line.Parse(argc, argv)) return *stop;
  const std::string& algorithm = algorithms.front();

  PipelineOptions options;
  options.algorithms = {algorithm};
  std::vector<InputReport> reports = RunInput({input, input, {}}, options);
  const InputReport* chosen = nullptr;
  for (const InputReport& report : reports) {
    if (method.empty() || report.name == input + ":" + method) {
      chosen = &report;
      break;
    }
  }
  if (!chosen) {
    return command_line.UsageError("no method '" + method + "' in " + input);
  }
  if (!chosen->readable) {
    std::fprintf(stderr, "memplan render: %s: %s\n", input.c_str(),
                 chosen->error.c_str());
    return kExitUnusable;
  }
  // The plan the file gave, else the one --algo made.
  const CheckedPlan* plan = nullptr;
  for (const CheckedPlan& checked : chosen->plans) {
    if (checked.label == "given") plan = &checked;
  }
  for (const CheckedPlan& checked : chosen->plans) {
    if (!plan && checked.label == algorithm) plan = &checked;
  }
  if (!plan) {
    std::fprintf(stderr, "memplan render: %s: no plan to draw\n",
                 input.c_str());
    for (const std::string& finding : chosen->findings) {
      std::fprintf(stderr, "  %s\n", finding.c_str());
    }
    return kExitFindings;
  }
  SvgOptions svg_options;
  svg_options.title = chosen->name + " — " + plan->label;
  std::string svg = RenderPlanSvg(plan->plan, plan->report, svg_options);
  std::ofstream file(output, std::ios::binary | std::ios::trunc);
  file << svg;
  file.close();
  if (!file) {
    std::fprintf(stderr, "memplan render: cannot write '%s'\n", output.c_str());
    return kExitUnusable;
  }
  std::printf("wrote %s (%zu allocations, %zu buffers, %s)\n", output.c_str(),
              plan->plan.allocations.size(), plan->plan.buffers.size(),
              plan->report.ok() ? "valid" : "violations in red");
  return plan->report.ok() ? kExitOk : kExitFindings;
}

}  // namespace cli
}  // namespace memplan
