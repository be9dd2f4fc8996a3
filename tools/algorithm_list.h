// The --algo option, with one spelling and one check for every subcommand,
// and exact's budgets.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace memplan {
namespace cli {

// "greedy,best_fit" -> {"greedy", "best_fit"}; "suite" -> every algorithm
// name; empty items are skipped.
std::vector<std::string> ParseAlgorithmList(const std::string& text);

// How many algorithms a subcommand's --algo takes.
enum class AlgorithmCount { kOne, kList };

// Adds --algo NAME (kOne) or --algo NAME,NAME,... (kList, "suite" for
// all) to `app`, and --algos, its older spelling, in a "Deprecated" group.
// Every name must be one planner::MakeAlgorithm knows; `*algorithms` is set
// only when either is given.
void AddAlgorithmOption(CLI::App& app, AlgorithmCount count,
                        const std::string& description,
                        std::vector<std::string>* algorithms);

// Adds --exact-seconds S, exact's wall-time budget per partition, a number
// > 0; `*seconds` holds the default and is set only when it is given.
void AddExactSecondsOption(CLI::App& app, double* seconds);

// Adds --exact-nodes N, exact's node budget per partition (a dive counts
// one node per item), a decimal integer; `*nodes` holds the default and is
// set only when it is given.
void AddExactNodesOption(CLI::App& app, uint64_t* nodes);

}  // namespace cli
}  // namespace memplan
