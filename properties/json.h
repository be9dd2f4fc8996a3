// A strict JSON reader (RFC 8259) for plan files, built from nlohmann-json's
// SAX events, and the escaping the JSON writers share. Inputs are hostile, so
// depth is bounded, duplicate members are refused and every error names its
// line and column.
//
// The tree is flat: every value is a 40-byte node, the children of a
// container are contiguous in blocks of nodes, and all text (keys, strings,
// number literals) lives in one buffer. A 1M-allocation plan is a few large
// allocations instead of one per object (bench/json_plan_bench).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/result.h"

namespace memplan {
namespace properties {

struct JsonStorage;  // What a parsed document owns (json.cc).

class JsonValue {
 public:
  enum class Type : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };

  // A container's children: items of an array, members of an object.
  class Children {
   public:
    Children(const JsonValue* begin, size_t size)
        : begin_(begin), size_(size) {}
    const JsonValue* begin() const { return begin_; }
    const JsonValue* end() const { return begin_ + size_; }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const JsonValue& operator[](size_t i) const { return begin_[i]; }

   private:
    const JsonValue* begin_;
    size_t size_;
  };

  Type type() const { return type_; }
  int line() const { return line_; }
  int column() const { return column_; }
  // "3:14", for messages about this value.
  std::string Where() const;

  bool is_null() const { return type_ == Type::kNull; }
  bool bool_value() const { return bool_; }
  // The literal text of a number or the decoded text of a string.
  std::string_view text() const {
    return IsContainer() ? std::string_view()
                         : std::string_view(text_, text_ ? size_ : 0);
  }
  // An object member's key; empty for any other value.
  std::string_view key() const {
    return std::string_view(key_, key_ ? key_size_ : 0);
  }
  // An array's items (empty for any other value).
  Children items() const {
    return type_ == Type::kArray ? AllChildren() : Children(nullptr, 0);
  }
  // An object's members in file order, each with its key(); keys are unique
  // (the reader refuses duplicates).
  Children members() const {
    return type_ == Type::kObject ? AllChildren() : Children(nullptr, 0);
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

  bool IsContainer() const {
    return type_ == Type::kArray || type_ == Type::kObject;
  }
  Children AllChildren() const { return Children(children_, size_); }

  // All pointers are into the document's storage.
  const char* key_ = nullptr;
  union {
    const char* text_ = nullptr;  // A number or string.
    const JsonValue* children_;   // An array or object.
  };
  uint32_t key_size_ = 0;
  uint32_t size_ = 0;  // Bytes of text_ or count of children_.
  int line_ = 1;
  int column_ = 1;
  Type type_ = Type::kNull;
  bool bool_ = false;
};

// The root value of a parsed document, and the storage its values live in.
// Values found through it stay valid while it lives (moving it keeps them).
class JsonDocument : public JsonValue {
 public:
  JsonDocument(const JsonValue& root, std::unique_ptr<JsonStorage> storage);
  JsonDocument(JsonDocument&&) noexcept;
  JsonDocument& operator=(JsonDocument&&) noexcept;
  ~JsonDocument();

 private:
  std::unique_ptr<JsonStorage> owned_;
};

// Nesting deeper than this is refused rather than recursed into.
inline constexpr int kMaxJsonDepth = 64;
// Offsets in the tree are 32-bit: a longer text is refused.
inline constexpr size_t kMaxJsonBytes = (size_t{1} << 32) - 1;

// Parses one JSON document; trailing non-space text is an error.
Result<JsonDocument> ParseJson(std::string_view text);

// `text` as a JSON string literal, quotes included.
std::string JsonQuote(std::string_view text);

}  // namespace properties
}  // namespace memplan
