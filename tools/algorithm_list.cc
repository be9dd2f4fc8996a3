#include "tools/algorithm_list.h"

#include "planner/algorithm.h"

namespace memplan {
namespace cli {

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

}  // namespace cli
}  // namespace memplan
