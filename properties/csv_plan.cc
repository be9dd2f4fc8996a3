#include "properties/csv_plan.h"

#include <algorithm>
#include <string>
#include <utility>

#include "planner/minimalloc_csv.h"
#include "runtime/core/checked_math.h"

namespace memplan {
namespace properties {

Result<Plan> PlanFromCsv(std::string_view text, const CsvPlanOptions& options) {
  planner::MinimallocCsvOptions read;
  // A non-positive default is kept as 0, which the alignment check reports.
  read.alignment = options.alignment > 0 ? options.alignment : 0;
  read.max_bytes = INT64_MAX;
  read.allow_empty_lifetimes = true;
  Result<planner::MinimallocProblem> problem =
      planner::ParseMinimallocCsv(text, read);
  if (!problem.ok()) {
    return Error(problem.error().code(), "csv " + problem.error().message());
  }
  if (!problem->has_offset_column) {
    return Error(ErrorCode::kInvalidArgument,
                 "csv line 1: no offsets: the header has no 'offset' column, "
                 "so this is a problem to solve, not a plan to verify");
  }
  return PlanFromMinimalloc(std::move(*problem), options);
}

Result<Plan> PlanFromMinimalloc(planner::MinimallocProblem problem,
                                const CsvPlanOptions& options) {
  Plan plan;
  plan.allocations.reserve(problem.buffers.size());
  for (planner::MinimallocBuffer& row : problem.buffers) {
    if (!row.offset) {
      return Error(ErrorCode::kInvalidArgument,
                   "row '" + row.id + "' has no offset");
    }
    if (*row.offset > static_cast<uint64_t>(INT64_MAX) ||
        row.size > static_cast<uint64_t>(INT64_MAX)) {
      return Error(ErrorCode::kInvalidArgument,
                   "row '" + row.id + "': offset and size must be < 2^63");
    }
    Allocation a;
    a.id = std::move(row.id);
    a.kind = SpecKind::kPlain;
    a.mem_id = 1;
    a.offset = static_cast<Offset>(*row.offset);  // Both <= 2^63 - 1.
    a.size = static_cast<Offset>(row.size);
    // [lower, upper) half-open becomes [lower, upper - 1]; an empty or
    // reversed range then fails the lifetime check instead of vanishing.
    a.lifetime.first = row.lower;
    a.lifetime.last = row.upper - 1;
    a.device = options.device;
    a.alignment = static_cast<Offset>(row.alignment);
    plan.allocations.push_back(std::move(a));
  }

  Buffer buffer;
  buffer.mem_id = 1;
  buffer.device = options.device;
  if (options.buffer_size) {
    buffer.size = *options.buffer_size;
  } else if (problem.buffer_size) {
    buffer.size = static_cast<Offset>(
        std::min<uint64_t>(*problem.buffer_size, INT64_MAX));
  } else {
    // Rows whose end overflows are left to the bounds check.
    for (const Allocation& a : plan.allocations) {
      int64_t end = 0;
      if (CheckedAdd(a.offset, a.size, &end)) {
        buffer.size = std::max(buffer.size, end);
      }
    }
  }
  plan.buffers.push_back(buffer);
  return plan;
}

}  // namespace properties
}  // namespace memplan
