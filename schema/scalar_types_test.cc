#include "schema/scalar_types.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace memplan {
namespace {

namespace fb = executorch_flatbuffer;

// The generated enum is the schema; every value it lists has a row.
TEST(ScalarTypesTest, EveryValueOfTheSchemaHasASizeAndANameThatParses) {
  std::set<std::string> names;
  for (fb::ScalarType type : fb::EnumValuesScalarType()) {
    SCOPED_TRACE(fb::EnumNameScalarType(type));
    const size_t size = ScalarTypeSize(type);
    EXPECT_TRUE(size == 1 || size == 2 || size == 4 || size == 8) << size;
    const std::string name = ScalarTypeName(type);
    EXPECT_NE(name, "unknown");
    EXPECT_TRUE(names.insert(name).second) << "two types print " << name;
    EXPECT_EQ(ParseScalarType(name), type);
  }
}

// Where ExecuTorch's elementSize is easy to get wrong.
TEST(ScalarTypesTest, SubByteAndFloat8TypesTakeOneByte) {
  for (fb::ScalarType type :
       {fb::ScalarType::QUINT4X2, fb::ScalarType::QUINT2X4,
        fb::ScalarType::FLOAT8E5M2FNUZ, fb::ScalarType::FLOAT8E4M3FNUZ,
        fb::ScalarType::BOOL}) {
    EXPECT_EQ(ScalarTypeSize(type), 1u) << fb::EnumNameScalarType(type);
  }
  EXPECT_EQ(ScalarTypeSize(fb::ScalarType::BFLOAT16), 2u);
  EXPECT_EQ(ScalarTypeSize(fb::ScalarType::UINT64), 8u);
}

TEST(ScalarTypesTest, UnknownValuesAndNames) {
  EXPECT_EQ(ScalarTypeSize(static_cast<fb::ScalarType>(9)), 0u);
  EXPECT_EQ(ScalarTypeSize(static_cast<fb::ScalarType>(-1)), 0u);
  EXPECT_STREQ(ScalarTypeName(static_cast<fb::ScalarType>(100)), "unknown");
  EXPECT_EQ(ParseScalarType("float32"), fb::ScalarType::FLOAT);
  EXPECT_EQ(ParseScalarType("Float"), std::nullopt);
  EXPECT_EQ(ParseScalarType(""), std::nullopt);
}

}  // namespace
}  // namespace memplan
