#include "planner/minimalloc_csv.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace memplan {
namespace planner {
namespace {

std::vector<std::string> SplitFields(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream stream(line);
  while (std::getline(stream, field, ',')) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.push_back("");
  return fields;
}

std::string Where(size_t line, const std::string& column) {
  return "line " + std::to_string(line) + ", column '" + column + "'";
}

// Parses a whole field as a non-negative decimal that fits in `max`.
Result<uint64_t> ParseCount(const std::string& text, size_t line,
                            const std::string& column, uint64_t max) {
  if (text.empty()) {
    return Error(ErrorCode::kInvalidArgument,
                 Where(line, column) + ": empty, expected an integer");
  }
  if (text[0] == '-') {
    return Error(ErrorCode::kInvalidArgument,
                 Where(line, column) + ": " + text + " is negative");
  }
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') {
      return Error(
          ErrorCode::kInvalidArgument,
          Where(line, column) + ": \"" + text + "\" is not an integer");
    }
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (value > (max - digit) / 10) {
      return Error(ErrorCode::kInvalidArgument, Where(line, column) + ": " +
                                                    text + " exceeds " +
                                                    std::to_string(max));
    }
    value = value * 10 + digit;
  }
  return value;
}

}  // namespace

Result<MinimallocProblem> ParseMinimallocCsv(const std::string& text) {
  MinimallocProblem problem;
  std::istringstream stream(text);
  std::string line;
  size_t line_number = 0;
  int id_col = -1, lower_col = -1, upper_col = -1, size_col = -1,
      offset_col = -1;
  while (std::getline(stream, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line_number == 1) {
      problem.header = SplitFields(line);
      for (size_t c = 0; c < problem.header.size(); ++c) {
        const std::string& name = problem.header[c];
        int* slot = name == "id"       ? &id_col
                    : name == "lower"  ? &lower_col
                    : name == "upper"  ? &upper_col
                    : name == "size"   ? &size_col
                    : name == "offset" ? &offset_col
                                       : nullptr;
        if (slot == nullptr) continue;
        if (*slot != -1) {
          return Error(ErrorCode::kInvalidArgument,
                       Where(1, name) + ": appears twice in the header");
        }
        *slot = static_cast<int>(c);
      }
      for (const auto& [name, col] : {std::pair<const char*, int>{"id", id_col},
                                      {"lower", lower_col},
                                      {"upper", upper_col},
                                      {"size", size_col}}) {
        if (col == -1) {
          return Error(ErrorCode::kInvalidArgument,
                       Where(1, name) + ": missing from the header");
        }
      }
      continue;
    }
    if (line.empty()) continue;
    std::vector<std::string> fields = SplitFields(line);
    if (fields.size() != problem.header.size()) {
      return Error(ErrorCode::kInvalidArgument,
                   "line " + std::to_string(line_number) + ": " +
                       std::to_string(fields.size()) + " fields, header has " +
                       std::to_string(problem.header.size()));
    }
    MinimallocBuffer buffer;
    buffer.id = fields[id_col];
    constexpr uint64_t kMaxTime = INT64_MAX;
    Result<uint64_t> lower =
        ParseCount(fields[lower_col], line_number, "lower", kMaxTime);
    if (!lower.ok()) return lower.error();
    Result<uint64_t> upper =
        ParseCount(fields[upper_col], line_number, "upper", kMaxTime);
    if (!upper.ok()) return upper.error();
    Result<uint64_t> size =
        ParseCount(fields[size_col], line_number, "size", UINT64_MAX);
    if (!size.ok()) return size.error();
    if (*lower >= *upper) {
      return Error(ErrorCode::kInvalidArgument,
                   Where(line_number, "upper") + ": " + fields[upper_col] +
                       ", must be > lower = " + fields[lower_col]);
    }
    buffer.lower = static_cast<int64_t>(*lower);
    buffer.upper = static_cast<int64_t>(*upper);
    buffer.size = *size;
    if (offset_col != -1) {
      Result<uint64_t> offset =
          ParseCount(fields[offset_col], line_number, "offset", UINT64_MAX);
      if (!offset.ok()) return offset.error();
      buffer.offset = *offset;
    }
    problem.rows.push_back(std::move(fields));
    problem.buffers.push_back(std::move(buffer));
  }
  if (line_number == 0) {
    return Error(ErrorCode::kInvalidArgument, "line 1: no header");
  }
  return problem;
}

Result<MinimallocProblem> ReadMinimallocCsvFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Error(ErrorCode::kIo, "cannot open " + path);
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) return Error(ErrorCode::kIo, "cannot read " + path);
  Result<MinimallocProblem> problem = ParseMinimallocCsv(text.str());
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
    items.push_back({buffer.size, 1, buffer.lower, buffer.upper - 1});
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
