// memplan verify FILE [--json] [--align N] [--method NAME]: judges a plan
// (.pte program, MiniMalloc .csv with offsets, memplan .json, ExecuTorch's
// memory trace .json) with the oracle. Exit code 0 valid, 1 violations, 2
// unreadable input or usage.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "nlohmann/json.hpp"
#include "properties/oracle.h"
#include "properties/program_plans.h"
#include "properties/report.h"
#include "tools/command_line.h"
#include "tools/commands.h"

namespace memplan {
namespace cli {
namespace {

constexpr char kDescription[] =
    "Judges a plan with the oracle. FILE: a program (.pte), a MiniMalloc CSV\n"
    "with an offset column (.csv), a memplan JSON plan (.json, see\n"
    "properties/PLAN_FORMAT.md) or ExecuTorch's activation memory trace\n"
    "(.json with traceEvents; offsets needed).\n";

constexpr char kFooter[] =
    "Exit code: 0 valid, 1 violations, 2 unreadable input or usage.";

struct VerifyArgs {
  std::string file;
  bool json = false;
  properties::Offset align = 1;
  std::string method;
  std::vector<std::string> alias_ops;
};

// One reader per format, the oracle API's; a name without a known
// extension is read as a program.
Result<std::vector<properties::MethodPlan>> ReadPlans(
    const VerifyArgs& args, const std::string& bytes) {
  oracle::ReadOptions options;
  options.alignment = args.align;
  options.method = args.method;
  options.alias_ops = args.alias_ops;
  oracle::PlanFormat format = oracle::DetectFormat(args.file, bytes)
                                  .value_or(oracle::PlanFormat::kProgram);
  Result<std::vector<oracle::NamedPlan>> read =
      oracle::ReadPlans(format, bytes, options);
  if (!read.ok()) return read.error();
  std::vector<properties::MethodPlan> plans;
  for (oracle::NamedPlan& named : *read) {
    // Plans of one-plan formats are named after the file.
    plans.push_back({named.name.empty() ? args.file : std::move(named.name),
                     std::move(named.plan)});
  }
  return plans;
}

}  // namespace

int RunVerify(int argc, char** argv) {
  CommandLine command_line("verify", kDescription, kFooter);
  VerifyArgs args;
  CLI::App& app = command_line.app();
  app.add_option("FILE", args.file, "the plan")->required();
  app.add_flag("--json", args.json, "print the report as JSON");
  app.add_option("--align", args.align,
                 "every offset must be a multiple of N, on top of each\n"
                 "tensor's element size (default 1)")
      ->type_name("N")
      ->check(PowerOfTwo());
  app.add_option("--method", args.method,
                 "verify only this method of a program (default: all)")
      ->type_name("NAME");
  app.add_option("--alias-op", args.alias_ops,
                 "an operator of your backend whose output is a view of its\n"
                 "first tensor argument (repeatable), on top of ExecuTorch's\n"
                 "and PyTorch's view ops (properties/README.md)")
      ->type_name("NAME")
      ->allow_extra_args(false);
  if (std::optional<int> stop = command_line.Parse(argc, argv)) return *stop;

  std::ifstream in(args.file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "memplan verify: cannot read %s\n", args.file.c_str());
    return kExitUnusable;
  }
  std::string bytes{std::istreambuf_iterator<char>(in),
                    std::istreambuf_iterator<char>()};
  Result<std::vector<properties::MethodPlan>> plans = ReadPlans(args, bytes);
  if (!plans.ok()) {
    std::fprintf(stderr, "memplan verify: %s: %s\n", args.file.c_str(),
                 plans.error().ToString().c_str());
    return kExitUnusable;
  }

  const std::vector<properties::MethodPlan>& methods = *plans;
  // Methods of one program are judged together (shared state).
  std::vector<properties::Report> reports = properties::CheckMethods(methods);
  bool valid = true;
  std::string out;
  nlohmann::ordered_json json = {{"file", args.file},
                                 {"plans", nlohmann::ordered_json::array()}};
  for (size_t p = 0; p < methods.size(); ++p) {
    const properties::MethodPlan& named = methods[p];
    const properties::Report& report = reports[p];
    valid = valid && report.ok();
    if (args.json) {
      json["plans"].push_back({{"name", named.name},
                               {"allocations", named.plan.allocations.size()},
                               {"report", properties::ReportJson(report)}});
    } else {
      out += named.name + ": " + std::to_string(named.plan.allocations.size()) +
             " allocation(s) in " + std::to_string(named.plan.buffers.size()) +
             " buffer(s)\n" + properties::FormatText(report);
    }
  }
  if (args.json) {
    out = json.dump(-1, ' ', false,
                    nlohmann::ordered_json::error_handler_t::replace) +
          "\n";
  }
  std::fputs(out.c_str(), stdout);
  return valid ? kExitOk : kExitFindings;
}

}  // namespace cli
}  // namespace memplan
