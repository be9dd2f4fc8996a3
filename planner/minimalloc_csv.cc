#include "planner/minimalloc_csv.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "runtime/core/checked_math.h"

namespace memplan {
namespace planner {
namespace {

enum Column {
  kId,
  kLower,
  kUpper,
  kSize,
  kAlignment,
  kOffset,
  kHint,
  kGaps,
  kNumColumns
};
constexpr const char* kColumnNames[kNumColumns] = {
    "id", "lower", "upper", "size", "alignment", "offset", "hint", "gaps"};

// MiniMalloc's older header names (its benchmarks use "buffer,start,end,
// size"). "end" is exclusive, the same as "upper": MiniMalloc's converter
// adds 1 to it, but its benchmark files are half-open. asplos2024's
// A.1048576.csv peaks at exactly 1048576 live bytes (the capacity in its
// name) read half-open, and at 1704960 read inclusive.
struct HeaderAlias {
  const char* name;
  Column column;
};
constexpr HeaderAlias kHeaderAliases[] = {
    {"buffer", kId},   {"buffer_id", kId}, {"start", kLower},
    {"begin", kLower}, {"end", kUpper},
};

std::optional<Column> ColumnNamed(std::string_view name) {
  for (int c = 0; c < kNumColumns; ++c) {
    if (name == kColumnNames[c]) return Column(c);
  }
  for (const HeaderAlias& alias : kHeaderAliases) {
    if (name == alias.name) return alias.column;
  }
  return std::nullopt;
}

// "'lower' column (or 'start' or 'begin')": the names a column goes by.
std::string ColumnAndAliases(Column c) {
  std::string names = std::string("'") + kColumnNames[c] + "' column";
  std::vector<const char*> aliases;
  for (const HeaderAlias& alias : kHeaderAliases) {
    if (alias.column == c) aliases.push_back(alias.name);
  }
  for (size_t i = 0; i < aliases.size(); ++i) {
    names += i == 0 ? " (or '" : (i + 1 == aliases.size() ? " or '" : ", '");
    names += std::string(aliases[i]) + "'";
  }
  if (!aliases.empty()) names += ")";
  return names;
}

// A field without its surrounding blanks, and where it starts in its line.
struct Field {
  std::string_view text;
  size_t column = 0;  // Character position, from 1.
};

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

Field Trim(std::string_view text, size_t column) {
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && IsBlank(text[begin])) ++begin;
  while (end > begin && IsBlank(text[end - 1])) --end;
  return {text.substr(begin, end - begin), column + begin};
}

std::vector<Field> SplitFields(std::string_view line) {
  std::vector<Field> fields;
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    if (comma == std::string_view::npos) {
      fields.push_back(Trim(line.substr(start), start + 1));
      return fields;
    }
    fields.push_back(Trim(line.substr(start, comma - start), start + 1));
    start = comma + 1;
  }
}

Error LineError(size_t line, const std::string& what) {
  return Error(ErrorCode::kInvalidArgument,
               "line " + std::to_string(line) + ": " + what);
}

Error FieldError(size_t line, const Field& field, const std::string& name,
                 const std::string& what) {
  return Error(ErrorCode::kInvalidArgument,
               "line " + std::to_string(line) + ", column " +
                   std::to_string(field.column) + " ('" + name + "'): " + what);
}

// A whole field as a non-negative decimal no larger than `max`.
Result<uint64_t> ParseCount(const Field& field, size_t line,
                            const std::string& name, uint64_t max) {
  const std::string text(field.text);
  if (text.empty()) {
    return FieldError(line, field, name, "empty, expected an integer");
  }
  if (text[0] == '-') {
    return FieldError(line, field, name, text + " is negative");
  }
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') {
      return FieldError(line, field, name,
                        "\"" + text + "\" is not an integer");
    }
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (value > (max - digit) / 10) {
      return FieldError(line, field, name,
                        text + " exceeds " + std::to_string(max));
    }
    value = value * 10 + digit;
  }
  return value;
}

// Comment lines carry no data except `# buffer_size: N`.
Error ReadComment(std::string_view line, size_t line_number,
                  const MinimallocCsvOptions& options,
                  MinimallocProblem* problem) {
  const Field comment = Trim(line.substr(1), 2);
  constexpr std::string_view kKey = "buffer_size:";
  if (comment.text.substr(0, kKey.size()) != kKey) return Error::Ok();
  const Field value =
      Trim(comment.text.substr(kKey.size()), comment.column + kKey.size());
  Result<uint64_t> size =
      ParseCount(value, line_number, "buffer_size", options.max_bytes);
  if (!size.ok()) return size.error();
  problem->buffer_size = *size;
  return Error::Ok();
}

}  // namespace

Result<MinimallocProblem> ParseMinimallocCsv(
    std::string_view text, const MinimallocCsvOptions& options) {
  constexpr uint64_t kMaxTime = INT64_MAX;
  MinimallocProblem problem;
  int column_of[kNumColumns];
  std::fill(column_of, column_of + kNumColumns, -1);
  bool have_header = false;
  std::unordered_map<std::string, size_t> line_of_id;

  size_t line_number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t newline = text.find('\n', pos);
    const size_t end =
        newline == std::string_view::npos ? text.size() : newline;
    const std::string_view line = text.substr(pos, end - pos);
    pos = end == text.size() ? end : end + 1;
    ++line_number;
    const Field whole = Trim(line, 1);
    if (whole.text.empty()) continue;
    if (whole.text.front() == '#') {
      Error read = ReadComment(line.substr(whole.column - 1), line_number,
                               options, &problem);
      if (!read.ok()) return read;
      continue;
    }
    const std::vector<Field> fields = SplitFields(line);

    if (!have_header) {
      for (size_t f = 0; f < fields.size(); ++f) {
        problem.header.emplace_back(fields[f].text);
        const std::optional<Column> named = ColumnNamed(fields[f].text);
        if (!named) continue;
        const Column c = *named;
        if (column_of[c] != -1) {
          return FieldError(line_number, fields[f], kColumnNames[c],
                            problem.header[column_of[c]] == fields[f].text
                                ? "appears twice in the header"
                                : "appears twice in the header (as '" +
                                      problem.header[column_of[c]] + "' and '" +
                                      std::string(fields[f].text) + "')");
        }
        column_of[c] = static_cast<int>(f);
      }
      for (int c : {kLower, kUpper, kSize}) {
        if (column_of[c] == -1) {
          return LineError(line_number,
                           "the header has no " + ColumnAndAliases(Column(c)));
        }
      }
      problem.has_offset_column = column_of[kOffset] != -1;
      have_header = true;
      continue;
    }

    if (fields.size() != problem.header.size()) {
      return LineError(line_number, std::to_string(fields.size()) +
                                        " fields, the header has " +
                                        std::to_string(problem.header.size()));
    }
    auto field = [&](Column c) -> const Field& { return fields[column_of[c]]; };
    auto count = [&](Column c, uint64_t max) {
      return ParseCount(field(c), line_number, problem.header[column_of[c]],
                        max);
    };

    if (column_of[kHint] != -1 && !field(kHint).text.empty()) {
      return FieldError(line_number, field(kHint), "hint",
                        "offset hints are not supported: memplan's "
                        "algorithms place every buffer themselves (leave "
                        "the field empty or drop the column)");
    }
    if (column_of[kGaps] != -1 && !field(kGaps).text.empty()) {
      return FieldError(line_number, field(kGaps), "gaps",
                        "gaps are not supported: a buffer is live over the "
                        "whole of [lower, upper) (split it into one row per "
                        "live range, or leave the field empty)");
    }

    MinimallocBuffer buffer;
    buffer.line = line_number;
    if (column_of[kId] == -1) {
      buffer.id = std::to_string(problem.buffers.size());
    } else {
      buffer.id = std::string(field(kId).text);
      if (buffer.id.empty()) {
        return FieldError(line_number, field(kId), "id", "empty id");
      }
      // Reports and solutions name buffers by id; two rows with one id
      // could not be told apart.
      auto [first, inserted] = line_of_id.emplace(buffer.id, line_number);
      if (!inserted) {
        return FieldError(line_number, field(kId), "id",
                          "duplicate id '" + buffer.id + "', first on line " +
                              std::to_string(first->second));
      }
    }
    Result<uint64_t> lower = count(kLower, kMaxTime);
    if (!lower.ok()) return lower.error();
    Result<uint64_t> upper = count(kUpper, kMaxTime);
    if (!upper.ok()) return upper.error();
    if (*lower >= *upper && !options.allow_empty_lifetimes) {
      const std::string& upper_name = problem.header[column_of[kUpper]];
      const std::string& lower_name = problem.header[column_of[kLower]];
      return FieldError(line_number, field(kUpper), upper_name,
                        std::string(field(kUpper).text) + ", must be " + "> " +
                            lower_name + " = " +
                            std::string(field(kLower).text));
    }
    buffer.lower = static_cast<int64_t>(*lower);
    buffer.upper = static_cast<int64_t>(*upper);
    Result<uint64_t> size = count(kSize, options.max_bytes);
    if (!size.ok()) return size.error();
    buffer.size = *size;
    buffer.alignment = options.alignment;
    if (column_of[kAlignment] != -1) {
      Result<uint64_t> alignment = count(kAlignment, options.max_bytes);
      if (!alignment.ok()) return alignment.error();
      if (!IsPowerOfTwo(*alignment)) {
        return FieldError(
            line_number, field(kAlignment), "alignment",
            std::to_string(*alignment) + " is not a power of two >= 1");
      }
      buffer.alignment = *alignment;
    }
    if (column_of[kOffset] != -1) {
      Result<uint64_t> offset = count(kOffset, options.max_bytes);
      if (!offset.ok()) return offset.error();
      buffer.offset = *offset;
    }
    std::vector<std::string> row;
    row.reserve(fields.size());
    for (const Field& f : fields) row.emplace_back(f.text);
    problem.rows.push_back(std::move(row));
    problem.buffers.push_back(std::move(buffer));
  }
  if (!have_header) {
    return LineError(std::max<size_t>(line_number, 1), "no header line");
  }
  return problem;
}

Result<MinimallocProblem> ReadMinimallocCsvFile(
    const std::string& path, const MinimallocCsvOptions& options) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Error(ErrorCode::kIo, "cannot open " + path);
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) return Error(ErrorCode::kIo, "cannot read " + path);
  Result<MinimallocProblem> problem = ParseMinimallocCsv(text.str(), options);
  if (!problem.ok()) {
    return Error(problem.error().code(),
                 path + ": " + problem.error().message());
  }
  return problem;
}

std::vector<PlanItem> ToPlanItems(const MinimallocProblem& problem) {
  std::vector<PlanItem> items;
  items.reserve(problem.buffers.size());
  for (const MinimallocBuffer& buffer : problem.buffers) {
    items.push_back(
        {buffer.size, buffer.alignment, buffer.lower, buffer.upper - 1});
  }
  return items;
}

Result<std::string> WriteMinimallocCsv(const MinimallocProblem& problem,
                                       const std::vector<uint64_t>& offsets) {
  if (offsets.size() != problem.rows.size()) {
    return Error(ErrorCode::kInvalidArgument,
                 "offsets has " + std::to_string(offsets.size()) +
                     " entries, the problem has " +
                     std::to_string(problem.rows.size()) + " rows");
  }
  size_t offset_col = problem.header.size();
  for (size_t c = 0; c < problem.header.size(); ++c) {
    if (problem.header[c] == "offset") offset_col = c;
  }
  auto write_row = [](const std::vector<std::string>& fields,
                      std::string* out) {
    for (size_t c = 0; c < fields.size(); ++c) {
      if (c > 0) *out += ',';
      *out += fields[c];
    }
    *out += '\n';
  };
  std::string out;
  std::vector<std::string> header = problem.header;
  if (offset_col == header.size()) header.push_back("offset");
  write_row(header, &out);
  for (size_t r = 0; r < problem.rows.size(); ++r) {
    std::vector<std::string> fields = problem.rows[r];
    if (offset_col == fields.size()) fields.emplace_back();
    fields[offset_col] = std::to_string(offsets[r]);
    write_row(fields, &out);
  }
  return out;
}

}  // namespace planner
}  // namespace memplan
