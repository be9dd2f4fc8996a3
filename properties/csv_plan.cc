#include "properties/csv_plan.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/core/checked_math.h"

namespace memplan {
namespace properties {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

std::vector<std::string_view> SplitFields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    size_t comma = line.find(',', start);
    if (comma == std::string_view::npos) {
      fields.push_back(Trim(line.substr(start)));
      return fields;
    }
    fields.push_back(Trim(line.substr(start, comma - start)));
    start = comma + 1;
  }
}

Error CsvError(size_t line, const std::string& what) {
  return Error(ErrorCode::kInvalidArgument,
               "csv line " + std::to_string(line) + ": " + what);
}

Error CsvError(size_t line, size_t column, const std::string& what) {
  return Error(ErrorCode::kInvalidArgument,
               "csv line " + std::to_string(line) + ", column " +
                   std::to_string(column) + ": " + what);
}

Result<int64_t> ParseInt(std::string_view text, size_t line,
                         std::string_view column) {
  int64_t value = 0;
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return CsvError(line, std::string(column) + " = '" + std::string(text) +
                              "', must be an integer in [-2^63, 2^63)");
  }
  return value;
}

}  // namespace

Result<Plan> PlanFromCsv(std::string_view text, const CsvPlanOptions& options) {
  enum Column { kId, kLower, kUpper, kSize, kOffset, kAlignment, kNumColumns };
  constexpr const char* kNames[kNumColumns] = {"id",   "lower",  "upper",
                                               "size", "offset", "alignment"};
  std::vector<int> column_of(kNumColumns, -1);
  size_t num_fields = 0;
  bool have_header = false;
  std::optional<Offset> comment_buffer_size;
  std::unordered_map<std::string_view, size_t> line_of_id;  // Views of text.
  Plan plan;

  size_t line_number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t newline = text.find('\n', pos);
    std::string_view line =
        text.substr(pos, newline == std::string_view::npos ? text.size() - pos
                                                           : newline - pos);
    pos = newline == std::string_view::npos ? text.size() : newline + 1;
    ++line_number;
    const char* const line_start = line.data();
    line = Trim(line);
    if (line.empty()) continue;
    if (line.front() == '#') {
      std::string_view comment = Trim(line.substr(1));
      constexpr std::string_view kKey = "buffer_size:";
      if (comment.substr(0, kKey.size()) == kKey) {
        Result<int64_t> size = ParseInt(Trim(comment.substr(kKey.size())),
                                        line_number, "buffer_size");
        if (!size.ok()) return size.error();
        comment_buffer_size = *size;
      }
      continue;
    }
    std::vector<std::string_view> fields = SplitFields(line);
    if (!have_header) {
      for (size_t f = 0; f < fields.size(); ++f) {
        for (int c = 0; c < kNumColumns; ++c) {
          if (fields[f] != kNames[c]) continue;
          if (column_of[c] != -1) {
            return CsvError(line_number, std::string("duplicate column '") +
                                             kNames[c] + "'");
          }
          column_of[c] = static_cast<int>(f);
        }
      }
      for (int c : {kLower, kUpper, kSize}) {
        if (column_of[c] == -1) {
          return CsvError(line_number, std::string("header lacks column '") +
                                           kNames[c] + "'");
        }
      }
      if (column_of[kOffset] == -1) {
        return CsvError(line_number,
                        "no offsets: the header has no 'offset' column, so "
                        "this is a problem to solve, not a plan to verify");
      }
      num_fields = fields.size();
      have_header = true;
      continue;
    }
    if (fields.size() != num_fields) {
      return CsvError(line_number, std::to_string(fields.size()) +
                                       " fields, the header has " +
                                       std::to_string(num_fields));
    }
    int64_t values[kNumColumns] = {};
    for (int c : {kLower, kUpper, kSize, kOffset, kAlignment}) {
      if (column_of[c] == -1) continue;
      Result<int64_t> value =
          ParseInt(fields[column_of[c]], line_number, kNames[c]);
      if (!value.ok()) return value.error();
      values[c] = *value;
    }
    Allocation a;
    if (column_of[kId] == -1) {
      a.id = std::to_string(plan.allocations.size());
    } else {
      // Reports name allocations by id; two rows with one id would be
      // indistinguishable, so the file is refused.
      const std::string_view id = fields[column_of[kId]];
      auto [first, inserted] = line_of_id.emplace(id, line_number);
      if (!inserted) {
        return CsvError(
            line_number, static_cast<size_t>(id.data() - line_start) + 1,
            "duplicate id '" + std::string(id) + "', first on line " +
                std::to_string(first->second));
      }
      a.id = std::string(id);
    }
    a.kind = AllocationKind::kPlain;
    a.mem_id = 1;
    a.offset = values[kOffset];
    a.size = values[kSize];
    // [lower, upper) half-open becomes [lower, upper - 1]; an empty or
    // reversed range then fails the lifetime check instead of vanishing.
    a.lifetime.first = values[kLower];
    if (values[kUpper] == INT64_MIN) {
      return CsvError(line_number, "upper = -2^63 has no last position");
    }
    a.lifetime.last = values[kUpper] - 1;
    a.device = options.device;
    a.alignment =
        column_of[kAlignment] == -1 ? options.alignment : values[kAlignment];
    plan.allocations.push_back(std::move(a));
  }
  if (!have_header) return CsvError(line_number, "no header line");

  Buffer buffer;
  buffer.mem_id = 1;
  buffer.device = options.device;
  if (options.buffer_size) {
    buffer.size = *options.buffer_size;
  } else if (comment_buffer_size) {
    buffer.size = *comment_buffer_size;
  } else {
    // Rows that overflow or go negative are left to the bounds check.
    for (const Allocation& a : plan.allocations) {
      int64_t end = 0;
      if (a.offset >= 0 && a.size >= 0 && CheckedAdd(a.offset, a.size, &end)) {
        buffer.size = std::max(buffer.size, end);
      }
    }
  }
  plan.buffers.push_back(buffer);
  return plan;
}

}  // namespace properties
}  // namespace memplan
