#include "schema/scalar_types.h"

namespace memplan {

namespace fb = executorch_flatbuffer;

size_t ScalarTypeSize(fb::ScalarType type) {
  switch (type) {
#define MEMPLAN_SIZE_CASE(name, bytes, printed, alias) \
  case fb::ScalarType::name:                           \
    return bytes;
    MEMPLAN_SCALAR_TYPES(MEMPLAN_SIZE_CASE)
#undef MEMPLAN_SIZE_CASE
  }
  return 0;
}

const char* ScalarTypeName(fb::ScalarType type) {
  switch (type) {
#define MEMPLAN_NAME_CASE(name, bytes, printed, alias) \
  case fb::ScalarType::name:                           \
    return printed;
    MEMPLAN_SCALAR_TYPES(MEMPLAN_NAME_CASE)
#undef MEMPLAN_NAME_CASE
  }
  return "unknown";
}

std::optional<fb::ScalarType> ParseScalarType(std::string_view text) {
  struct Row {
    fb::ScalarType type;
    const char* printed;
    const char* alias;
  };
  static constexpr Row kRows[] = {
#define MEMPLAN_ROW(name, bytes, printed, alias) \
  {fb::ScalarType::name, printed, alias},
      MEMPLAN_SCALAR_TYPES(MEMPLAN_ROW)
#undef MEMPLAN_ROW
  };
  for (const Row& row : kRows) {
    if (text == row.printed || (row.alias != nullptr && text == row.alias)) {
      return row.type;
    }
  }
  return std::nullopt;
}

}  // namespace memplan
