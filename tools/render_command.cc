// memplan render: draws one plan as SVG (time on x, offset on y, a panel
// per buffer, violations in red).
#include <cstdio>
#include <fstream>
#include <string>

#include "tools/check_pipeline.h"
#include "tools/commands.h"
#include "tools/svg_plan.h"

namespace memplan {
namespace cli {
namespace {

constexpr char kUsage[] =
    "usage: memplan render FILE -o PLAN.svg [--algo NAME]\n"
    "\n"
    "FILE: a .graph (planned with --algo, default best_fit), a .pte (its\n"
    "first method, or --method NAME), a .csv (a MiniMalloc plan, or a problem\n"
    "placed with --algo) or a .json plan. Exit code 1 when the oracle finds\n"
    "a violation in the drawn plan (it is drawn all the same).\n";

int Usage(const std::string& problem) {
  std::fprintf(stderr, "memplan render: %s\n%s", problem.c_str(), kUsage);
  return 2;
}

}  // namespace

int RunRender(int argc, char** argv) {
  std::string input, output, algorithm = "best_fit", method;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    bool has_value = i + 1 < argc;
    if (arg == "--help" || arg == "-h") {
      std::printf("%s", kUsage);
      return 0;
    } else if (arg == "-o" || arg == "--output") {
      if (!has_value) return Usage(arg + " needs a file");
      output = argv[++i];
    } else if (arg == "--algo") {
      if (!has_value) return Usage("--algo needs a name");
      algorithm = argv[++i];
    } else if (arg == "--method") {
      if (!has_value) return Usage("--method needs a name");
      method = argv[++i];
    } else if (!arg.empty() && arg[0] == '-') {
      return Usage("unknown option '" + arg + "'");
    } else if (input.empty()) {
      input = arg;
    } else {
      return Usage("more than one input");
    }
  }
  if (input.empty()) return Usage("no input file");
  if (output.empty()) return Usage("no output (-o PLAN.svg)");

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
  if (!chosen) return Usage("no method '" + method + "' in " + input);
  if (!chosen->readable) {
    std::fprintf(stderr, "memplan render: %s: %s\n", input.c_str(),
                 chosen->error.c_str());
    return 2;
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
    return 1;
  }
  SvgOptions svg_options;
  svg_options.title = chosen->name + " — " + plan->label;
  std::string svg = RenderPlanSvg(plan->plan, plan->report, svg_options);
  std::ofstream file(output, std::ios::binary | std::ios::trunc);
  file << svg;
  file.close();
  if (!file) {
    std::fprintf(stderr, "memplan render: cannot write '%s'\n", output.c_str());
    return 2;
  }
  std::printf("wrote %s (%zu allocations, %zu buffers, %s)\n", output.c_str(),
              plan->plan.allocations.size(), plan->plan.buffers.size(),
              plan->report.ok() ? "valid" : "violations in red");
  return plan->report.ok() ? 0 : 1;
}

}  // namespace cli
}  // namespace memplan
