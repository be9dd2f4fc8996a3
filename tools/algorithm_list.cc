#include "tools/algorithm_list.h"

#include <cstdio>
#include <string>

#include "planner/algorithm.h"
#include "tools/command_line.h"

namespace memplan {
namespace cli {
namespace {

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    out += (out.empty() ? "" : ", ") + name;
  }
  return out;
}

// Empty when every name in `text` is an algorithm; else what is wrong.
std::string AlgorithmsProblem(AlgorithmCount count, const std::string& text) {
  std::vector<std::string> names = ParseAlgorithmList(text);
  if (names.empty()) return "needs an algorithm name";
  if (count == AlgorithmCount::kOne && names.size() > 1) {
    return "takes one algorithm, not '" + text + "'";
  }
  for (const std::string& name : names) {
    if (!planner::MakeAlgorithm(name)) {
      return "unknown algorithm '" + name +
             "' (known: " + Join(planner::AlgorithmNames()) + ")";
    }
  }
  return "";
}

CLI::Validator KnownAlgorithms(AlgorithmCount count) {
  return CLI::Validator(
      [count](std::string& text) { return AlgorithmsProblem(count, text); },
      "");
}

}  // namespace

std::vector<std::string> ParseAlgorithmList(const std::string& text) {
  if (text == "suite") return planner::AlgorithmNames();
  std::vector<std::string> names;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    if (comma > start) names.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return names;
}

void AddAlgorithmOption(CLI::App& app, AlgorithmCount count,
                        const std::string& description,
                        std::vector<std::string>* algorithms) {
  const bool list = count == AlgorithmCount::kList;
  auto set = [algorithms](const std::string& text) {
    *algorithms = ParseAlgorithmList(text);
  };
  std::string help = description + "\n(" + Join(planner::AlgorithmNames()) +
                     (list ? "; suite: all of them)" : ")");
  CLI::Option* algo = app.add_option_function<std::string>("--algo", set, help)
                          ->type_name(list ? "NAME[,NAME...]" : "NAME")
                          ->check(KnownAlgorithms(count));
  // The spelling `memplan check` used to take, kept for scripts. Listed
  // apart rather than hidden: CLI11 2.1 leaves a hidden option's name out
  // of its error messages.
  auto set_old = [algo, set](const std::string& text) {
    if (algo->count() > 0) {
      throw CLI::ValidationError(
          "--algos", "is the older spelling of --algo; give one of them");
    }
    set(text);
  };
  app.add_option_function<std::string>("--algos", set_old,
                                       "the older spelling of --algo")
      ->type_name(list ? "NAME[,NAME...]" : "NAME")
      ->check(KnownAlgorithms(count))
      ->group("Deprecated");
}

void AddExactSecondsOption(CLI::App& app, double* seconds) {
  char help[128];
  std::snprintf(help, sizeof(help),
                "time budget of the exact algorithm per partition "
                "(default %g)",
                *seconds);
  app.add_option("--exact-seconds", *seconds, help)
      ->type_name("S")
      ->check(PositiveSeconds());
}

void AddExactNodesOption(CLI::App& app, uint64_t* nodes) {
  app.add_option("--exact-nodes", *nodes,
                 "node budget of the exact algorithm per partition\n"
                 "(default " +
                     std::to_string(*nodes) +
                     "; where it runs out first, the plan\n"
                     "depends on the problem alone)")
      ->type_name("N")
      ->check(NodeCount());
}

}  // namespace cli
}  // namespace memplan
