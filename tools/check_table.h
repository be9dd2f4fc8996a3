// The results of `memplan check` as a table (text, cells for HTML) and as
// JSON. Times are the only nondeterministic values; each format can leave
// them out.
#pragma once

#include <string>
#include <vector>

#include "tools/check_pipeline.h"

namespace memplan {
namespace cli {

// Column headings: input, tensors, devices, buffers, lower bound, given,
// one per algorithm, oracle, load, and time when `times`.
std::vector<std::string> TableHeader(const std::vector<std::string>& algorithms,
                                     bool times);
// One row's cells, aligned with TableHeader; an algorithm's cell is its
// total bytes against the lower bound, e.g. "1.12x".
std::vector<std::string> TableRow(const InputReport& report,
                                  const std::vector<std::string>& algorithms,
                                  bool times);
// "1.12x"; "-" when the lower bound is 0 and bytes are not.
std::string RatioText(uint64_t bytes, uint64_t lower_bound);

// Per plan made elsewhere: what re-planning with each algorithm saves,
// e.g. "greedy saves 160 B (20.0%)". Empty for graphs and CSV problems.
std::string SavingsText(const InputReport& report);

// The aligned table, then findings and savings, one line each.
std::string FormatTable(const std::vector<InputReport>& reports,
                        const std::vector<std::string>& algorithms, bool times);
// {"inputs":[...], "exit_code":N}; "seconds" only when `times`.
std::string FormatReportsJson(const std::vector<InputReport>& reports,
                              const std::vector<std::string>& algorithms,
                              bool times);

}  // namespace cli
}  // namespace memplan
