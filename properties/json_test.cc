#include "properties/json.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace memplan {
namespace properties {
namespace {

using ::testing::HasSubstr;

TEST(JsonTest, ParsesNestedValues) {
  Result<JsonValue> v = ParseJson(
      R"({"a": [1, -2, 3.5e2], "b": {"c": "x\n\u00e9\ud83d\ude00"}, "d": null, "e": true})");
  ASSERT_TRUE(v.ok()) << v.error().ToString();
  ASSERT_EQ(v->Find("a")->items().size(), 3u);
  EXPECT_EQ(*v->Find("a")->items()[1].AsInt64("a[1]"), -2);
  EXPECT_FALSE(v->Find("a")->items()[2].AsInt64("a[2]").ok());
  EXPECT_EQ(v->Find("b")->Find("c")->text(), "x\n\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_TRUE(v->Find("d")->is_null());
  EXPECT_TRUE(v->Find("e")->bool_value());
  EXPECT_EQ(v->Find("missing"), nullptr);
}

TEST(JsonTest, IntegerRangesAreChecked) {
  Result<JsonValue> v =
      ParseJson("[9223372036854775808, 18446744073709551615]");
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(v->items()[0].AsInt64("x").ok());
  EXPECT_EQ(*v->items()[1].AsUint64("x"), UINT64_MAX);
  EXPECT_FALSE(ParseJson("-1")->AsUint64("x").ok());
}

TEST(JsonTest, ErrorsNameLineAndColumn) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {
           Case{"{\n  \"a\": 1,\n}", "json 3:1: expected a member name"},
           Case{"[1, 2", "json 1:6: expected ',' or ']'"},
           Case{"{\"a\": 1, \"a\": 2}", "json 1:10: duplicate member \"a\""},
           Case{"[01]", "json 1:3: leading zeros"},
           Case{"\"abc", "unterminated string"},
           Case{"\"\\ud800\"", "high surrogate without a pair"},
           Case{"[1] x", "json 1:5: unexpected text after the value"},
           Case{"// comment\n1", "json 1:1: unexpected character '/'"},
           Case{"", "found the end"},
       }) {
    Result<JsonValue> v = ParseJson(c.text);
    ASSERT_FALSE(v.ok()) << c.text;
    EXPECT_THAT(v.error().message(), HasSubstr(c.message)) << c.text;
  }
}

TEST(JsonTest, DeepNestingIsRefusedNotRecursed) {
  std::string deep(100000, '[');
  Result<JsonValue> v = ParseJson(deep);
  ASSERT_FALSE(v.ok());
  EXPECT_THAT(v.error().message(), HasSubstr("nesting deeper than 64"));
  std::string ok = std::string(64, '[') + std::string(64, ']');
  EXPECT_TRUE(ParseJson(ok).ok());
}

TEST(JsonTest, QuoteRoundTrips) {
  std::string text = "a\"b\\c\n\x01";
  Result<JsonValue> v = ParseJson(JsonQuote(text));
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->text(), text);
}

}  // namespace
}  // namespace properties
}  // namespace memplan
