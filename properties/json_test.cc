#include "properties/json.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/core/error_matchers.h"

namespace memplan {
namespace properties {
namespace {

using ::memplan::testing::IsError;
using ::testing::HasSubstr;

TEST(JsonTest, ParsesNestedValues) {
  Result<JsonDocument> v = ParseJson(
      R"({"a": [1, -2, 3.5e2], "b": {"c": "x\n\u00e9\ud83d\ude00"}, "d": null, "e": true})");
  ASSERT_TRUE(v.ok()) << v.error().ToString();
  ASSERT_EQ(v->Find("a")->items().size(), 3u);
  EXPECT_EQ(*v->Find("a")->items()[1].AsInt64("a[1]"), -2);
  EXPECT_THAT(
      v->Find("a")->items()[2].AsInt64("a[2]"),
      IsError(
          ErrorCode::kInvalidArgument,
          HasSubstr("json 1:15: a[2] must be an integer in [-2^63, 2^63)")));
  EXPECT_EQ(v->Find("b")->Find("c")->text(), "x\n\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_TRUE(v->Find("d")->is_null());
  EXPECT_TRUE(v->Find("e")->bool_value());
  EXPECT_EQ(v->Find("missing"), nullptr);
}

TEST(JsonTest, IntegerRangesAreChecked) {
  Result<JsonDocument> v =
      ParseJson("[9223372036854775808, 18446744073709551615]");
  ASSERT_TRUE(v.ok());
  EXPECT_THAT(v->items()[0].AsInt64("x"),
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("x must be an integer in [-2^63, 2^63)")));
  EXPECT_EQ(*v->items()[1].AsUint64("x"), UINT64_MAX);
  EXPECT_THAT(
      ParseJson("-1")->AsUint64("x"),
      IsError(ErrorCode::kInvalidArgument,
              HasSubstr("json 1:1: x must be an integer in [0, 2^64)")));
}

TEST(JsonTest, ErrorsNameLineAndColumn) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {
           Case{"{\n  \"a\": 1,\n}",
                "json 3:1: syntax error while parsing object key - unexpected "
                "'}'"},
           Case{"[1, 2",
                "json 1:6: syntax error while parsing array - unexpected end "
                "of input"},
           Case{"{\"a\": 1, \"a\": 2}", "json 1:10: duplicate member \"a\""},
           Case{"[01]",
                "json 1:3: syntax error while parsing array - unexpected "
                "number"},
           Case{"\"abc",
                "json 1:5: syntax error while parsing value - invalid string: "
                "missing closing quote"},
           Case{"\"\\ud800\"",
                "json 1:8: syntax error while parsing value - invalid string: "
                "surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF"},
           Case{"[1] x", "json 1:5: unexpected text after the value"},
           Case{"// comment\n1",
                "json 1:1: syntax error while parsing value - invalid literal; "
                "last read: '/'"},
           Case{"",
                "json 1:1: syntax error while parsing value - unexpected end "
                "of input"},
           Case{"\xEF\xBB\xBF{}", "json 1:1: unexpected byte order mark"},
           Case{"[1e400]", "json 1:6: number overflow parsing '1e400'"},
       }) {
    Result<JsonDocument> v = ParseJson(c.text);
    EXPECT_THAT(v, IsError(ErrorCode::kInvalidArgument, HasSubstr(c.message)))
        << c.text;
  }
}

TEST(JsonTest, DuplicateMembersAreFoundInLargeObjects) {
  // Past 16 members the duplicate search switches to a hash set.
  std::string text = "{";
  for (int i = 0; i < 40; ++i) text += "\"k" + std::to_string(i) + "\": 0, ";
  Result<JsonDocument> ok = ParseJson(text + "\"last\": 1}");
  ASSERT_TRUE(ok.ok()) << ok.error().ToString();
  EXPECT_EQ(ok->members().size(), 41u);
  for (const char* key : {"k3", "k20", "k39"}) {
    Result<JsonDocument> v = ParseJson(text + "\"" + key + "\": 1}");
    EXPECT_THAT(v, IsError(ErrorCode::kInvalidArgument,
                           HasSubstr(std::string("json 1:") +
                                     std::to_string(text.size() + 1) +
                                     ": duplicate member \"" + key + "\"")))
        << key;
  }
}

TEST(JsonTest, ValuesKnowTheirLineAndColumn) {
  Result<JsonDocument> v =
      ParseJson("{\n  \"a\": [\"x\\\"\", -12],\n  \"b\": true\n}");
  ASSERT_TRUE(v.ok()) << v.error().ToString();
  EXPECT_EQ(v->Where(), "1:1");
  EXPECT_EQ(v->Find("a")->Where(), "2:8");
  EXPECT_EQ(v->Find("a")->items()[0].Where(), "2:9");
  EXPECT_EQ(v->Find("a")->items()[1].Where(), "2:16");
  EXPECT_EQ(v->Find("a")->items()[1].text(), "-12");
  EXPECT_EQ(v->Find("b")->Where(), "3:8");
}

TEST(JsonTest, DeepNestingIsRefusedNotRecursed) {
  std::string deep(100000, '[');
  Result<JsonDocument> v = ParseJson(deep);
  EXPECT_THAT(v, IsError(ErrorCode::kInvalidArgument,
                         HasSubstr("nesting deeper than 64")));
  std::string ok = std::string(64, '[') + std::string(64, ']');
  EXPECT_TRUE(ParseJson(ok).ok());
}

TEST(JsonTest, ValuesOutliveMovesOfTheirDocument) {
  // Nested containers close in an order unlike the one they open in; each
  // keeps its own children, in file order, after the document moves.
  Result<JsonDocument> read = ParseJson(
      R"({"a": [[1, 2], {"k": [3]}, "s"], "b": {"x": 4, "y": [[], {}]}})");
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  JsonDocument doc = std::move(*read);
  const JsonValue* a = doc.Find("a");
  JsonDocument moved = std::move(doc);
  ASSERT_EQ(a->items().size(), 3u);
  EXPECT_EQ(a->items()[0].items()[1].text(), "2");
  EXPECT_EQ(a->items()[1].Find("k")->items()[0].text(), "3");
  EXPECT_EQ(a->items()[2].text(), "s");
  EXPECT_TRUE(a->items()[1].items().empty());  // An object has no items.
  std::vector<std::string_view> keys;
  for (const JsonValue& member : moved.Find("b")->members()) {
    keys.push_back(member.key());
  }
  EXPECT_THAT(keys, ::testing::ElementsAre("x", "y"));
  EXPECT_EQ(moved.Find("b")->Find("y")->items()[1].type(),
            JsonValue::Type::kObject);
  EXPECT_EQ(moved.members()[1].key(), "b");
}

TEST(JsonTest, QuoteRoundTrips) {
  std::string text = "a\"b\\c\n\x01";
  Result<JsonDocument> v = ParseJson(JsonQuote(text));
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->text(), text);
}

}  // namespace
}  // namespace properties
}  // namespace memplan
