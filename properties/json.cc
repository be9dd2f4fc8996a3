#include "properties/json.h"

#include <algorithm>
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

// Children runs share blocks of this many values; a longer run gets a block
// of its own, so a block wastes at most a quarter of itself.
constexpr size_t kBlockValues = 16384;

}  // namespace

static_assert(sizeof(void*) != 8 || sizeof(JsonValue) == 40,
              "json.h promises 40-byte values");

struct JsonStorage {
  std::vector<std::unique_ptr<JsonValue[]>> blocks;
  JsonValue* shared = nullptr;  // The block short runs share, if any.
  size_t shared_used = 0;
  std::string text;

  // Room for `n` contiguous values that never move.
  JsonValue* Place(size_t n) {
    if (n == 0) return nullptr;
    if (n > kBlockValues / 4)
      return blocks.emplace_back(new JsonValue[n]).get();
    if (shared == nullptr || shared_used + n > kBlockValues) {
      shared = blocks.emplace_back(new JsonValue[kBlockValues]).get();
      shared_used = 0;
    }
    JsonValue* run = shared + shared_used;
    shared_used += n;
    return run;
  }
};

JsonDocument::JsonDocument(const JsonValue& root,
                           std::unique_ptr<JsonStorage> storage)
    : JsonValue(root), owned_(std::move(storage)) {}
JsonDocument::JsonDocument(JsonDocument&&) noexcept = default;
JsonDocument& JsonDocument::operator=(JsonDocument&&) noexcept = default;
JsonDocument::~JsonDocument() = default;

// Builds the flat tree from nlohmann's SAX events. Positions are byte
// offsets read off the shared cursor; line:column is counted forward from
// the last one, so the whole document costs one memchr pass for them.
//
// The children of each open container gather in a scratch list of their
// own (one per depth, reused); when the container closes they move into
// storage as one contiguous run, so a container is (pointer, count).
class JsonReader {
 public:
  using number_integer_t = nlohmann::json::number_integer_t;
  using number_unsigned_t = nlohmann::json::number_unsigned_t;
  using number_float_t = nlohmann::json::number_float_t;
  using string_t = nlohmann::json::string_t;
  using binary_t = nlohmann::json::binary_t;

  explicit JsonReader(std::string_view text)
      : text_(text),
        cursor_(text.data()),
        end_(text.data() + text.size()),
        storage_(std::make_unique<JsonStorage>()) {
    // Keys, strings and literals are never longer than their source text,
    // so the text buffer never moves (Keep checks).
    storage_->text.reserve(text.size());
  }

  Result<JsonDocument> Document() {
    if (text_.size() > kMaxJsonBytes) {
      return ParseError(1, 1,
                        "text of " + std::to_string(text_.size()) +
                            " bytes is over the " +
                            std::to_string(kMaxJsonBytes) + "-byte limit");
    }
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
    return JsonDocument(root_, std::move(storage_));
  }

  // SAX interface (nlohmann::json_sax).
  bool null() {
    Next(Literal(4), JsonValue::Type::kNull);
    return true;
  }
  bool boolean(bool value) {
    Next(Literal(value ? 4 : 5), JsonValue::Type::kBool).bool_ = value;
    return true;
  }
  bool number_integer(number_integer_t) { return Number(); }
  bool number_unsigned(number_unsigned_t) { return Number(); }
  bool number_float(number_float_t, const string_t&) { return Number(); }
  bool string(string_t& value) {
    JsonValue& out = Next(StringStart(), JsonValue::Type::kString);
    return Keep(value, &out.text_, &out.size_);
  }
  bool binary(binary_t&) { return false; }  // Never sent for JSON text.
  bool start_object(std::size_t) {
    return StartContainer(JsonValue::Type::kObject);
  }
  bool key(string_t& name) {
    Open& open = stack_.back();
    std::vector<JsonValue>& members = children_[stack_.size() - 1];
    bool duplicate;
    if (open.keys) {
      duplicate = !open.keys->insert(name).second;
    } else {
      duplicate = false;
      for (const JsonValue& member : members) {
        duplicate = duplicate || member.key() == name;
      }
      if (!duplicate && members.size() == kLinearKeyLimit) {
        open.keys = std::make_unique<std::unordered_set<std::string>>();
        for (const JsonValue& member : members) {
          open.keys->emplace(member.key());
        }
        open.keys->insert(name);
      }
    }
    if (duplicate) {
      return Fail(StringStart(), "duplicate member \"" + name + "\"");
    }
    JsonValue& member = members.emplace_back();
    return Keep(name, &member.key_, &member.key_size_);
  }
  bool end_object() { return EndContainer(); }
  bool start_array(std::size_t) {
    return StartContainer(JsonValue::Type::kArray);
  }
  bool end_array() { return EndContainer(); }
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

  // Appends `text` to the storage's text, which must not move: values
  // point into it. No text is longer than its source, so it fits.
  bool Keep(std::string_view text, const char** at, uint32_t* size) {
    std::string& kept = storage_->text;
    if (text.size() > kept.capacity() - kept.size()) {
      error_ =
          Error(ErrorCode::kInternal, "json: decoded text outgrew its source");
      return false;
    }
    *at = kept.data() + kept.size();
    *size = static_cast<uint32_t>(text.size());
    kept.append(text);
    return true;
  }

  bool Number() {
    // The lexer has read one byte past the number unless it hit the end.
    size_t end = Offset();
    size_t start = end;
    if (start > 0 && !IsNumberChar(text_[start - 1])) --start;
    while (start > 0 && IsNumberChar(text_[start - 1])) --start;
    end = start;
    while (end < text_.size() && IsNumberChar(text_[end])) ++end;
    JsonValue& out = Next(start, JsonValue::Type::kNumber);
    return Keep(text_.substr(start, end - start), &out.text_, &out.size_);
  }

  // The value about to be filled: the root, the next array item, or the
  // member whose key was just read.
  JsonValue& Next(size_t offset, JsonValue::Type type) {
    JsonValue* out;
    if (stack_.empty()) {
      root_done_ = true;
      out = &root_;
    } else {
      std::vector<JsonValue>& siblings = children_[stack_.size() - 1];
      out = Container().type_ == JsonValue::Type::kArray
                ? &siblings.emplace_back()
                : &siblings.back();
    }
    out->type_ = type;
    Locate(offset, &out->line_, &out->column_);
    return *out;
  }

  // The innermost open container (it is the last of its own siblings while
  // it is open, since nothing follows it there until it closes).
  JsonValue& Container() {
    size_t depth = stack_.size() - 1;
    return depth == 0 ? root_ : children_[depth - 1].back();
  }

  bool StartContainer(JsonValue::Type type) {
    size_t offset = Offset() - 1;
    if (static_cast<int>(stack_.size()) >= kMaxJsonDepth) {
      return Fail(offset,
                  "nesting deeper than " + std::to_string(kMaxJsonDepth));
    }
    Next(offset, type);
    stack_.emplace_back();
    if (children_.size() < stack_.size()) children_.emplace_back();
    return true;
  }

  bool EndContainer() {
    std::vector<JsonValue>& children = children_[stack_.size() - 1];
    JsonValue& container = Container();
    JsonValue* run = storage_->Place(children.size());
    std::copy(children.begin(), children.end(), run);
    container.children_ = run;
    // Fewer values than bytes, and the text is under 4 GiB.
    container.size_ = static_cast<uint32_t>(children.size());
    children.clear();
    stack_.pop_back();
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
  std::unique_ptr<JsonStorage> storage_;
  JsonValue root_;
  bool root_done_ = false;
  std::vector<Open> stack_;
  // children_[d]: the children read so far of the open container at depth d.
  std::vector<std::vector<JsonValue>> children_;
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
  for (const JsonValue& member : members()) {
    if (member.key() == key) return &member;
  }
  return nullptr;
}

Result<int64_t> JsonValue::AsInt64(std::string_view field) const {
  return AsInt64(field, {});
}

Result<int64_t> JsonValue::AsInt64(std::string_view where,
                                   std::string_view member) const {
  std::string_view literal = text();
  int64_t value = 0;
  auto [end, ec] =
      std::from_chars(literal.data(), literal.data() + literal.size(), value);
  if (type_ != Type::kNumber || ec != std::errc() ||
      end != literal.data() + literal.size()) {
    return Error(ErrorCode::kInvalidArgument,
                 "json " + Where() + ": " + FieldName(where, member) +
                     " must be an integer in [-2^63, 2^63)");
  }
  return value;
}

Result<uint64_t> JsonValue::AsUint64(std::string_view field) const {
  std::string_view literal = text();
  uint64_t value = 0;
  auto [end, ec] =
      std::from_chars(literal.data(), literal.data() + literal.size(), value);
  if (type_ != Type::kNumber || ec != std::errc() ||
      end != literal.data() + literal.size()) {
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
  return std::string(text());
}

Result<JsonDocument> ParseJson(std::string_view text) {
  return JsonReader(text).Document();
}

std::string JsonQuote(std::string_view text) {
  // Invalid UTF-8 (a file name, say) becomes U+FFFD instead of throwing.
  return nlohmann::json(std::string(text))
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace properties
}  // namespace memplan
