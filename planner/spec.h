// Shape dynamism and scalar types of the planner IR; its spec kinds are
// the shared vocabulary's (runtime/core/spec_kind.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "runtime/core/spec_kind.h"
#include "schema/scalar_type_generated.h"
#include "schema/scalar_types.h"

namespace memplan {
namespace planner {

using ScalarType = executorch_flatbuffer::ScalarType;

enum class Dynamism : uint8_t {
  kStatic = 0,
  kDynamicBound,    // Planned at its upper bound.
  kDynamicUnbound,  // Never planned: allocated at run time.
};
const char* DynamismName(Dynamism dynamism);
std::optional<Dynamism> ParseDynamism(std::string_view name);

// Names and sizes: schema/scalar_types.h (ParseScalarType, ScalarTypeName,
// ScalarTypeSize).

}  // namespace planner
}  // namespace memplan
