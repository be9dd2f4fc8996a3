// MiniMalloc's CSV problem format (google/minimalloc): a header naming the
// columns id, lower, upper, size and optionally offset, one buffer a row,
// lifetimes [lower, upper) half-open, alignment 1.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "planner/algorithm.h"
#include "runtime/core/result.h"

namespace memplan {
namespace planner {

struct MinimallocBuffer {
  std::string id;
  int64_t lower = 0;  // First live time.
  int64_t upper = 0;  // One past the last live time.
  uint64_t size = 0;
  std::optional<uint64_t> offset;  // Present when the file has one.
};

struct MinimallocProblem {
  std::vector<std::string> header;             // Columns as in the file.
  std::vector<std::vector<std::string>> rows;  // Raw fields, kept for output.
  std::vector<MinimallocBuffer> buffers;       // One per row, in row order.
};

// Errors name the line (1 = header) and the column: missing column,
// non-integer, negative, out of 64-bit range, lower >= upper.
Result<MinimallocProblem> ParseMinimallocCsv(const std::string& text);
Result<MinimallocProblem> ReadMinimallocCsvFile(const std::string& path);

// One PlanItem per buffer, in row order: first = lower, last = upper - 1.
std::vector<PlanItem> ToPlanItems(const MinimallocProblem& problem);

// The input's header and rows, with `offset` added (last column) or
// overwritten by offsets[i] for row i.
Result<std::string> WriteMinimallocCsv(const MinimallocProblem& problem,
                                       const std::vector<uint64_t>& offsets);

}  // namespace planner
}  // namespace memplan
