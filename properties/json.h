// A strict JSON reader (RFC 8259) for plan files, built from nlohmann-json's
// SAX events, and the escaping the JSON writers share. Inputs are hostile, so
// depth is bounded, duplicate members are refused and every error names its
// line and column.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/core/result.h"

namespace memplan {
namespace properties {

class JsonValue {
 public:
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };

  Type type() const { return type_; }
  int line() const { return line_; }
  int column() const { return column_; }
  // "3:14", for messages about this value.
  std::string Where() const;

  bool is_null() const { return type_ == Type::kNull; }
  bool bool_value() const { return bool_; }
  // The literal text of a number or the decoded text of a string.
  const std::string& text() const { return text_; }
  const std::vector<JsonValue>& items() const { return items_; }
  // Members in file order; keys are unique (the reader refuses duplicates).
  const std::vector<std::pair<std::string, JsonValue>>& members() const {
    return members_;
  }
  // The member named key, or nullptr.
  const JsonValue* Find(std::string_view key) const;

  // Integers only (no fraction or exponent), range-checked. `field` names
  // the value in the error; the two-part forms name it "where.member" and
  // build that text only for an error (a plan reads millions of fields).
  Result<int64_t> AsInt64(std::string_view field) const;
  Result<int64_t> AsInt64(std::string_view where,
                          std::string_view member) const;
  Result<uint64_t> AsUint64(std::string_view field) const;
  Result<std::string> AsString(std::string_view field) const;
  Result<std::string> AsString(std::string_view where,
                               std::string_view member) const;

 private:
  friend class JsonReader;
  Type type_ = Type::kNull;
  int line_ = 1;
  int column_ = 1;
  bool bool_ = false;
  std::string text_;
  std::vector<JsonValue> items_;
  std::vector<std::pair<std::string, JsonValue>> members_;
};

// Nesting deeper than this is refused rather than recursed into.
inline constexpr int kMaxJsonDepth = 64;

// Parses one JSON document; trailing non-space text is an error.
Result<JsonValue> ParseJson(std::string_view text);

// `text` as a JSON string literal, quotes included.
std::string JsonQuote(std::string_view text);

}  // namespace properties
}  // namespace memplan
