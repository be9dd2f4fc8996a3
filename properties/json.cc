#include "properties/json.h"

#include <charconv>
#include <cstring>
#include <iterator>
#include <unordered_set>

#include "nlohmann/json.hpp"

namespace memplan {
namespace properties {
namespace {

Error ParseError(int line, int column, const std::string& what) {
  return Error(ErrorCode::kInvalidArgument, "json " + std::to_string(line) +
                                                ":" + std::to_string(column) +
                                                ": " + what);
}

// A const char* that also publishes its position, so the SAX handler can
// see how far nlohmann's lexer has read (the callbacks carry no position,
// and the input adapter keeps its iterator private). The pointer itself
// stays in the iterator, where the lexer's loop can keep it in a register;
// the shared cursor is only written.
class CursorIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CursorIterator(const char* at, const char** cursor)
      : at_(at), cursor_(cursor) {}
  const char& operator*() const { return *at_; }
  CursorIterator& operator++() {
    *cursor_ = ++at_;
    return *this;
  }
  bool operator==(const CursorIterator& other) const {
    return at_ == other.at_;
  }
  bool operator!=(const CursorIterator& other) const {
    return at_ != other.at_;
  }

 private:
  const char* at_;
  const char** cursor_;
};

bool IsNumberChar(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' ||
         c == 'e' || c == 'E';
}

// "where.member", or `where` alone for an empty member.
std::string FieldName(std::string_view where, std::string_view member) {
  std::string name(where);
  if (!member.empty()) name.append(".").append(member);
  return name;
}

// Objects up to this many members are searched for a duplicate key in
// place; larger ones get a hash set, so a key costs O(1) either way.
constexpr size_t kLinearKeyLimit = 16;

}  // namespace

// Builds JsonValues from nlohmann's SAX events. Positions are byte offsets
// read off the shared cursor; line:column is counted forward from the last
// one, so the whole document costs one memchr pass for them.
class JsonReader {
 public:
  using number_integer_t = nlohmann::json::number_integer_t;
  using number_unsigned_t = nlohmann::json::number_unsigned_t;
  using number_float_t = nlohmann::json::number_float_t;
  using string_t = nlohmann::json::string_t;
  using binary_t = nlohmann::json::binary_t;

  explicit JsonReader(std::string_view text)
      : text_(text), cursor_(text.data()), end_(text.data() + text.size()) {}

  Result<JsonValue> Document() {
    // nlohmann skips a UTF-8 byte order mark; RFC 8259 readers may refuse it
    // and the hand-written reader did.
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") {
      return ParseError(1, 1, "unexpected byte order mark");
    }
    // nlohmann's parser keeps its own state stack, so deep input never
    // recurses; the depth limit is ours, checked in StartContainer.
    bool ok = nlohmann::json::sax_parse(CursorIterator(cursor_, &cursor_),
                                        CursorIterator(end_, &cursor_), this);
    if (!ok) return error_;
    return std::move(root_);
  }

  // SAX interface (nlohmann::json_sax).
  bool null() { return Next(Literal(4), JsonValue::Type::kNull) != nullptr; }
  bool boolean(bool value) {
    JsonValue* out = Next(Literal(value ? 4 : 5), JsonValue::Type::kBool);
    out->bool_ = value;
    return true;
  }
  bool number_integer(number_integer_t) { return Number(); }
  bool number_unsigned(number_unsigned_t) { return Number(); }
  bool number_float(number_float_t, const string_t&) { return Number(); }
  bool string(string_t& value) {
    JsonValue* out = Next(StringStart(), JsonValue::Type::kString);
    out->text_ = std::move(value);
    return true;
  }
  bool binary(binary_t&) { return false; }  // Never sent for JSON text.
  bool start_object(std::size_t) {
    return StartContainer(JsonValue::Type::kObject);
  }
  bool key(string_t& name) {
    Open& open = stack_.back();
    auto& members = open.value->members_;
    bool duplicate;
    if (open.keys) {
      duplicate = !open.keys->insert(name).second;
    } else {
      duplicate = false;
      for (const auto& member : members) {
        duplicate = duplicate || member.first == name;
      }
      if (!duplicate && members.size() == kLinearKeyLimit) {
        open.keys = std::make_unique<std::unordered_set<std::string>>();
        for (const auto& member : members) open.keys->insert(member.first);
        open.keys->insert(name);
      }
    }
    if (duplicate) {
      return Fail(StringStart(), "duplicate member \"" + name + "\"");
    }
    // Plan objects have about eight members: one allocation, not four.
    if (members.empty()) members.reserve(8);
    members.emplace_back(std::move(name), JsonValue());
    return true;
  }
  bool end_object() {
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) {
    return StartContainer(JsonValue::Type::kArray);
  }
  bool end_array() {
    stack_.pop_back();
    return true;
  }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::json::exception& ex) {
    // `position` counts the bytes read, the offending one included.
    size_t offset = position == 0 ? 0 : position - 1;
    if (root_done_ && stack_.empty()) {
      Fail(offset, "unexpected text after the value");
      return false;
    }
    // "[json.exception.parse_error.101] parse error at line 1, column 6:
    // syntax error ..." -> "syntax error ..."; the position is ours.
    std::string what = ex.what();
    size_t column = what.find(", column ");
    size_t colon =
        column == std::string::npos ? column : what.find(": ", column);
    if (colon != std::string::npos) {
      what = what.substr(colon + 2);
    } else if (what.rfind("[json.exception.", 0) == 0) {
      what = what.substr(what.find("] ") + 2);
    }
    Fail(offset, what);
    return false;
  }

 private:
  struct Open {
    JsonValue* value;
    // Set once an object outgrows the linear duplicate search.
    std::unique_ptr<std::unordered_set<std::string>> keys;
  };

  size_t Offset() const { return static_cast<size_t>(cursor_ - text_.data()); }

  // A literal is read without lookahead: it ends at the cursor.
  size_t Literal(size_t length) const { return Offset() - length; }

  // The cursor is just past the closing quote; the opening one is the first
  // quote before it that no backslash escapes (an even run of them).
  size_t StringStart() const {
    size_t i = Offset() - 1;
    while (i > 0) {
      --i;
      if (text_[i] != '"') continue;
      size_t backslashes = 0;
      while (backslashes < i && text_[i - 1 - backslashes] == '\\') {
        ++backslashes;
      }
      if (backslashes % 2 == 0) return i;
    }
    return 0;
  }

  bool Number() {
    // The lexer has read one byte past the number unless it hit the end.
    size_t end = Offset();
    size_t start = end;
    if (start > 0 && !IsNumberChar(text_[start - 1])) --start;
    while (start > 0 && IsNumberChar(text_[start - 1])) --start;
    end = start;
    while (end < text_.size() && IsNumberChar(text_[end])) ++end;
    JsonValue* out = Next(start, JsonValue::Type::kNumber);
    out->text_.assign(text_.data() + start, end - start);
    return true;
  }

  // The value about to be filled: the root, the next array item, or the
  // member whose key was just read.
  JsonValue* Next(size_t offset, JsonValue::Type type) {
    JsonValue* out;
    if (stack_.empty()) {
      root_done_ = true;
      out = &root_;
    } else if (stack_.back().value->type_ == JsonValue::Type::kArray) {
      out = &stack_.back().value->items_.emplace_back();
    } else {
      out = &stack_.back().value->members_.back().second;
    }
    out->type_ = type;
    Locate(offset, &out->line_, &out->column_);
    return out;
  }

  bool StartContainer(JsonValue::Type type) {
    size_t offset = Offset() - 1;
    if (static_cast<int>(stack_.size()) >= kMaxJsonDepth) {
      return Fail(offset,
                  "nesting deeper than " + std::to_string(kMaxJsonDepth));
    }
    stack_.push_back({Next(offset, type), nullptr});
    return true;
  }

  void Locate(size_t offset, int* line, int* column) {
    const char* base = text_.data();
    while (const void* newline =
               std::memchr(base + scanned_, '\n', offset - scanned_)) {
      ++line_;
      scanned_ = static_cast<const char*>(newline) - base + 1;
      line_start_ = scanned_;
    }
    scanned_ = offset;
    *line = line_;
    *column = static_cast<int>(offset - line_start_ + 1);
  }

  bool Fail(size_t offset, const std::string& what) {
    int line, column;
    Locate(offset, &line, &column);
    error_ = ParseError(line, column, what);
    return false;
  }

  std::string_view text_;
  const char* cursor_;
  const char* end_;
  JsonValue root_;
  bool root_done_ = false;
  std::vector<Open> stack_;
  Error error_ = Error::Ok();
  // Line counting: bytes before scanned_ are counted; line_start_ is the
  // offset of the current line's first byte.
  size_t scanned_ = 0;
  size_t line_start_ = 0;
  int line_ = 1;
};

std::string JsonValue::Where() const {
  return std::to_string(line_) + ":" + std::to_string(column_);
}

const JsonValue* JsonValue::Find(std::string_view key) const {
  for (const auto& [name, value] : members_) {
    if (name == key) return &value;
  }
  return nullptr;
}

Result<int64_t> JsonValue::AsInt64(std::string_view field) const {
  return AsInt64(field, {});
}

Result<int64_t> JsonValue::AsInt64(std::string_view where,
                                   std::string_view member) const {
  int64_t value = 0;
  auto [end, ec] =
      std::from_chars(text_.data(), text_.data() + text_.size(), value);
  if (type_ != Type::kNumber || ec != std::errc() ||
      end != text_.data() + text_.size()) {
    return Error(ErrorCode::kInvalidArgument,
                 "json " + Where() + ": " + FieldName(where, member) +
                     " must be an integer in [-2^63, 2^63)");
  }
  return value;
}

Result<uint64_t> JsonValue::AsUint64(std::string_view field) const {
  uint64_t value = 0;
  auto [end, ec] =
      std::from_chars(text_.data(), text_.data() + text_.size(), value);
  if (type_ != Type::kNumber || ec != std::errc() ||
      end != text_.data() + text_.size()) {
    return Error(ErrorCode::kInvalidArgument,
                 "json " + Where() + ": " + std::string(field) +
                     " must be an integer in [0, 2^64)");
  }
  return value;
}

Result<std::string> JsonValue::AsString(std::string_view field) const {
  return AsString(field, {});
}

Result<std::string> JsonValue::AsString(std::string_view where,
                                        std::string_view member) const {
  if (type_ != Type::kString) {
    return Error(ErrorCode::kInvalidArgument, "json " + Where() + ": " +
                                                  FieldName(where, member) +
                                                  " must be a string");
  }
  return text_;
}

Result<JsonValue> ParseJson(std::string_view text) {
  return JsonReader(text).Document();
}

std::string JsonQuote(std::string_view text) {
  // Invalid UTF-8 (a file name, say) becomes U+FFFD instead of throwing.
  return nlohmann::json(std::string(text))
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace properties
}  // namespace memplan
