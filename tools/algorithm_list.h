// "--algo" / "--algos" values shared by the subcommands.
#pragma once

#include <string>
#include <vector>

namespace memplan {
namespace cli {

// "greedy,best_fit" -> {"greedy", "best_fit"}; "suite" -> every algorithm
// name; empty items are skipped. Unknown names are left for the planner to
// report, so the message names the algorithm once, in one place.
std::vector<std::string> ParseAlgorithmList(const std::string& text);

}  // namespace cli
}  // namespace memplan
