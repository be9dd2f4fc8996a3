// Plans from MiniMalloc-style CSV, read by the planner's one CSV reader
// (planner/minimalloc_csv.h): a header naming the columns `id`, `lower`,
// `upper`, `size`, `offset` (any order; `id` and `alignment` optional), one
// allocation a row, lifetime [lower, upper) half-open. All rows share one
// buffer (mem_id 1) whose size is max(offset + size) unless a comment line
// `# buffer_size: N` or CsvPlanOptions::buffer_size gives it.
#pragma once

#include <optional>
#include <string_view>

#include "planner/minimalloc_csv.h"
#include "properties/plan.h"
#include "runtime/core/result.h"

namespace memplan {
namespace properties {

struct CsvPlanOptions {
  std::optional<Offset> buffer_size;  // Wins over a `# buffer_size:` comment.
  Offset alignment = 1;               // For rows without an alignment column.
  Device device;                      // Of the buffer and every allocation.
};

// Errors are the reader's, prefixed "csv ": "csv line L, column C
// ('name'): ...". A CSV without an `offset` column is a problem, not a plan:
// it is refused with an error that says "no offsets". Sizes and offsets
// above 2^63 - 1 are refused; an empty or reversed [lower, upper) is read
// and left to the lifetime check, and a sum that overflows to the bounds
// check.
Result<Plan> PlanFromCsv(std::string_view text,
                         const CsvPlanOptions& options = {});

// The same plan from a problem already read (or built in code) whose rows
// all carry an offset; a row without one is an error naming it.
Result<Plan> PlanFromMinimalloc(planner::MinimallocProblem problem,
                                const CsvPlanOptions& options = {});

}  // namespace properties
}  // namespace memplan
