// MiniMalloc's CSV format (google/minimalloc), the one reader that both the
// planner (problems to solve) and the oracle (plans to judge) use. A header
// names the columns, in any order: id, lower, upper, size (required but id),
// alignment and offset (optional); other columns are kept for output but
// not read. One buffer a row, lifetime [lower, upper) half-open. MiniMalloc's
// older names are read too: buffer and buffer_id for id, start and begin
// for lower, end for upper (its benchmarks' "buffer,start,end,size"; end is
// exclusive there too, see minimalloc_csv.cc). Lines that
// start with '#' are comments; `# buffer_size: N` is read. MiniMalloc's
// hint and gaps columns are refused where a row fills them in: a planned
// buffer here is live over one contiguous range and is placed by memplan.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/algorithm.h"
#include "runtime/core/result.h"

namespace memplan {
namespace planner {

struct MinimallocBuffer {
  std::string id;                  // The id column, or the row number from 0.
  size_t line = 0;                 // Line of the row in the text, from 1.
  int64_t lower = 0;               // First live time.
  int64_t upper = 0;               // One past the last live time.
  uint64_t size = 0;               // Bytes.
  uint64_t alignment = 1;          // A power of two: the column or the default.
  std::optional<uint64_t> offset;  // Present when the file has the column.
};

struct MinimallocProblem {
  std::vector<std::string> header;             // Columns as in the file.
  std::vector<std::vector<std::string>> rows;  // Trimmed fields, for output.
  std::vector<MinimallocBuffer> buffers;       // One per row, in row order.
  bool has_offset_column = false;
  std::optional<uint64_t> buffer_size;  // From `# buffer_size: N`.
};

struct MinimallocCsvOptions {
  uint64_t alignment = 1;  // Of every row when there is no alignment column.
  // Largest size, offset and buffer_size accepted; the oracle's are int64.
  uint64_t max_bytes = UINT64_MAX;
  // false: lower >= upper is refused. The oracle sets it and reports an
  // empty lifetime as a violation of the plan instead.
  bool allow_empty_lifetimes = false;
};

// Errors name the line (from 1) and, for a field, its column (the
// character position, from 1) and column name: "line 3, column 5
// ('upper'): ...". Refused: a missing or repeated header column, a row
// with another field count, a value that is not a non-negative decimal
// within 64 bits (times within 2^63 - 1, bytes within max_bytes), an
// alignment that is not a power of two, lower >= upper (see options), a
// repeated or empty id, and a filled-in hint or gaps field.
Result<MinimallocProblem> ParseMinimallocCsv(
    std::string_view text, const MinimallocCsvOptions& options = {});
// As ParseMinimallocCsv, messages prefixed with the path.
Result<MinimallocProblem> ReadMinimallocCsvFile(
    const std::string& path, const MinimallocCsvOptions& options = {});

// One PlanItem per buffer, in row order: first = lower, last = upper - 1,
// the row's size and alignment.
std::vector<PlanItem> ToPlanItems(const MinimallocProblem& problem);

// The input's header and rows, with `offset` added (last column) or
// overwritten by offsets[i] for row i. Comments are not written.
Result<std::string> WriteMinimallocCsv(const MinimallocProblem& problem,
                                       const std::vector<uint64_t>& offsets);

}  // namespace planner
}  // namespace memplan
