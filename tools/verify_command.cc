// memplan verify FILE [--json] [--align N] [--method NAME]: judges a plan
// (.pte program, MiniMalloc .csv with offsets, memplan .json, ExecuTorch's
// memory trace .json) with the oracle. Exit code 0 valid, 1 violations, 2
// unreadable input or usage.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "nlohmann/json.hpp"
#include "properties/oracle.h"
#include "properties/program_plans.h"
#include "properties/report.h"
#include "runtime/core/checked_math.h"
#include "tools/commands.h"

namespace memplan {
namespace cli {
namespace {

constexpr const char* kUsage =
    "usage: memplan verify FILE [--json] [--align N] [--method NAME]\n"
    "                      [--alias-op NAME]...\n"
    "  FILE      a program (.pte), a MiniMalloc CSV with an offset column\n"
    "            (.csv), a memplan JSON plan (.json, see\n"
    "            properties/PLAN_FORMAT.md) or ExecuTorch's activation\n"
    "            memory trace (.json with traceEvents; offsets needed)\n"
    "  --json    print the report as JSON\n"
    "  --align N every offset must be a multiple of N (a power of two),\n"
    "            on top of each tensor's element size\n"
    "  --method  verify only this method of a program (default: all)\n"
    "  --alias-op NAME  an operator of your backend whose output is a view\n"
    "            of its first tensor argument (repeatable), on top of\n"
    "            ExecuTorch's and PyTorch's view ops (properties/README.md)\n"
    "exit code: 0 valid, 1 violations, 2 unreadable input or usage\n";

struct VerifyArgs {
  std::string file;
  bool json = false;
  properties::Offset align = 1;
  std::string method;
  std::vector<std::string> alias_ops;
};

int UsageError(const std::string& message) {
  std::fprintf(stderr, "memplan verify: %s\n%s", message.c_str(), kUsage);
  return 2;
}

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
  VerifyArgs args;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (arg == "--json") {
      args.json = true;
    } else if (arg == "--align" || arg == "--method" || arg == "--alias-op") {
      if (i + 1 >= argc) return UsageError(arg + " needs a value");
      std::string value = argv[++i];
      if (arg == "--method") {
        args.method = value;
        continue;
      }
      if (arg == "--alias-op") {
        args.alias_ops.push_back(value);
        continue;
      }
      auto [end, ec] = std::from_chars(value.data(),
                                       value.data() + value.size(), args.align);
      if (ec != std::errc() || end != value.data() + value.size() ||
          args.align < 1 || !IsPowerOfTwo(static_cast<uint64_t>(args.align))) {
        return UsageError("--align " + value + ": must be a power of two >= 1");
      }
    } else if (!arg.empty() && arg[0] == '-') {
      return UsageError("unknown option " + arg);
    } else if (args.file.empty()) {
      args.file = arg;
    } else {
      return UsageError("more than one FILE");
    }
  }
  if (args.file.empty()) return UsageError("no FILE");

  std::ifstream in(args.file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "memplan verify: cannot read %s\n", args.file.c_str());
    return 2;
  }
  std::string bytes{std::istreambuf_iterator<char>(in),
                    std::istreambuf_iterator<char>()};
  Result<std::vector<properties::MethodPlan>> plans = ReadPlans(args, bytes);
  if (!plans.ok()) {
    std::fprintf(stderr, "memplan verify: %s: %s\n", args.file.c_str(),
                 plans.error().ToString().c_str());
    return 2;
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
  return valid ? 0 : 1;
}

}  // namespace cli
}  // namespace memplan
