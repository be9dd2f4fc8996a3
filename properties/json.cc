#include "properties/json.h"

#include <charconv>
#include <cstdio>

namespace memplan {
namespace properties {
namespace {

Error ParseError(int line, int column, const std::string& what) {
  return Error(ErrorCode::kInvalidArgument, "json " + std::to_string(line) +
                                                ":" + std::to_string(column) +
                                                ": " + what);
}

}  // namespace

class JsonReader {
 public:
  explicit JsonReader(std::string_view text) : text_(text) {}

  Result<JsonValue> Document() {
    JsonValue value;
    MEMPLAN_RETURN_IF_ERROR(Value(0, &value));
    SkipSpace();
    if (pos_ != text_.size()) return Fail("unexpected text after the value");
    return value;
  }

 private:
  Error Fail(const std::string& what) const {
    return ParseError(line_, column_, what);
  }

  void Advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }

  void SkipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
            text_[pos_] == '\r')) {
      Advance();
    }
  }

  bool Consume(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    for (size_t i = 0; i < word.size(); ++i) Advance();
    return true;
  }

  Error Value(int depth, JsonValue* out) {
    SkipSpace();
    out->line_ = line_;
    out->column_ = column_;
    if (pos_ >= text_.size()) return Fail("expected a value, found the end");
    char c = text_[pos_];
    if (c == '{' || c == '[') {
      if (depth >= kMaxJsonDepth) {
        return Fail("nesting deeper than " + std::to_string(kMaxJsonDepth));
      }
      return c == '{' ? Object(depth, out) : Array(depth, out);
    }
    if (c == '"') {
      out->type_ = JsonValue::Type::kString;
      return String(&out->text_);
    }
    if (c == '-' || (c >= '0' && c <= '9')) return Number(out);
    if (Consume("true")) {
      out->type_ = JsonValue::Type::kBool;
      out->bool_ = true;
      return Error::Ok();
    }
    if (Consume("false")) {
      out->type_ = JsonValue::Type::kBool;
      return Error::Ok();
    }
    if (Consume("null")) return Error::Ok();
    return Fail(std::string("unexpected character '") + c + "'");
  }

  Error Object(int depth, JsonValue* out) {
    out->type_ = JsonValue::Type::kObject;
    Advance();  // '{'
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      Advance();
      return Error::Ok();
    }
    while (true) {
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"') {
        return Fail("expected a member name in quotes");
      }
      int key_line = line_, key_column = column_;
      std::string key;
      MEMPLAN_RETURN_IF_ERROR(String(&key));
      if (out->Find(key) != nullptr) {
        return ParseError(key_line, key_column,
                          "duplicate member \"" + key + "\"");
      }
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != ':')
        return Fail("expected ':'");
      Advance();
      JsonValue value;
      MEMPLAN_RETURN_IF_ERROR(Value(depth + 1, &value));
      out->members_.emplace_back(std::move(key), std::move(value));
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        Advance();
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '}') {
        Advance();
        return Error::Ok();
      }
      return Fail("expected ',' or '}'");
    }
  }

  Error Array(int depth, JsonValue* out) {
    out->type_ = JsonValue::Type::kArray;
    Advance();  // '['
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      Advance();
      return Error::Ok();
    }
    while (true) {
      JsonValue value;
      MEMPLAN_RETURN_IF_ERROR(Value(depth + 1, &value));
      out->items_.push_back(std::move(value));
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        Advance();
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == ']') {
        Advance();
        return Error::Ok();
      }
      return Fail("expected ',' or ']'");
    }
  }

  bool Digit() const {
    return pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9';
  }

  Error Number(JsonValue* out) {
    out->type_ = JsonValue::Type::kNumber;
    size_t start = pos_;
    if (text_[pos_] == '-') Advance();
    if (!Digit()) return Fail("expected a digit");
    if (text_[pos_] == '0') {
      Advance();
      if (Digit()) return Fail("leading zeros are not allowed");
    } else {
      while (Digit()) Advance();
    }
    if (pos_ < text_.size() && text_[pos_] == '.') {
      Advance();
      if (!Digit()) return Fail("expected a digit after '.'");
      while (Digit()) Advance();
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      Advance();
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) {
        Advance();
      }
      if (!Digit()) return Fail("expected a digit in the exponent");
      while (Digit()) Advance();
    }
    out->text_ = std::string(text_.substr(start, pos_ - start));
    return Error::Ok();
  }

  Error Hex4(uint32_t* out) {
    *out = 0;
    for (int i = 0; i < 4; ++i) {
      if (pos_ >= text_.size()) return Fail("truncated \\u escape");
      char c = text_[pos_];
      uint32_t digit;
      if (c >= '0' && c <= '9') {
        digit = c - '0';
      } else if (c >= 'a' && c <= 'f') {
        digit = c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        digit = c - 'A' + 10;
      } else {
        return Fail("bad hex digit in \\u escape");
      }
      *out = *out * 16 + digit;
      Advance();
    }
    return Error::Ok();
  }

  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  Error String(std::string* out) {
    Advance();  // '"'
    while (true) {
      if (pos_ >= text_.size()) return Fail("unterminated string");
      unsigned char c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        Advance();
        return Error::Ok();
      }
      if (c < 0x20) return Fail("control character in string");
      if (c != '\\') {
        out->push_back(static_cast<char>(c));
        Advance();
        continue;
      }
      Advance();
      if (pos_ >= text_.size()) return Fail("unterminated escape");
      char e = text_[pos_];
      Advance();
      switch (e) {
        case '"':
          out->push_back('"');
          break;
        case '\\':
          out->push_back('\\');
          break;
        case '/':
          out->push_back('/');
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'u': {
          uint32_t cp;
          MEMPLAN_RETURN_IF_ERROR(Hex4(&cp));
          if (cp >= 0xDC00 && cp <= 0xDFFF) return Fail("lone low surrogate");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            uint32_t low;
            if (!Consume("\\u")) return Fail("high surrogate without a pair");
            MEMPLAN_RETURN_IF_ERROR(Hex4(&low));
            if (low < 0xDC00 || low > 0xDFFF) return Fail("bad surrogate pair");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(cp, out);
          break;
        }
        default:
          return Fail(std::string("unknown escape '\\") + e + "'");
      }
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
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
  int64_t value = 0;
  auto [end, ec] =
      std::from_chars(text_.data(), text_.data() + text_.size(), value);
  if (type_ != Type::kNumber || ec != std::errc() ||
      end != text_.data() + text_.size()) {
    return Error(ErrorCode::kInvalidArgument,
                 "json " + Where() + ": " + std::string(field) +
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
  if (type_ != Type::kString) {
    return Error(
        ErrorCode::kInvalidArgument,
        "json " + Where() + ": " + std::string(field) + " must be a string");
  }
  return text_;
}

Result<JsonValue> ParseJson(std::string_view text) {
  return JsonReader(text).Document();
}

std::string JsonQuote(std::string_view text) {
  std::string out = "\"";
  for (char ch : text) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out.push_back(ch);
        }
    }
  }
  out += "\"";
  return out;
}

}  // namespace properties
}  // namespace memplan
