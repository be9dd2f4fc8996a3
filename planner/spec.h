// Spec kinds, shape dynamism and scalar types of the planner IR.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "schema/scalar_type_generated.h"
#include "schema/scalar_types.h"

namespace memplan {
namespace planner {

using ScalarType = executorch_flatbuffer::ScalarType;

// What a tensor value is to the planner; decides whether and how long it is
// planned. Views and in-place outputs alias a base and own no bytes.
enum class SpecKind : uint8_t {
  kPlain = 0,      // An activation defined by one node, used by later ones.
  kInput,          // Graph input: live from position 0.
  kOutput,         // Graph output: live until the last node.
  kConstant,       // Weights: never planned (buffer 0 / constant data).
  kMutableBuffer,  // State such as a KV cache: live for the whole program.
  kView,           // Same storage as its base, own shape.
  kInPlace,        // Output written into its input's storage.
  kScratch,        // A control-flow node's own arena, live at that node only.
};

inline bool IsAlias(SpecKind kind) {
  return kind == SpecKind::kView || kind == SpecKind::kInPlace;
}
// "plain", "input", "output", "constant", "mutable", "view", "in_place",
// "scratch": the graph format's keywords.
const char* SpecKindName(SpecKind kind);
std::optional<SpecKind> ParseSpecKind(std::string_view name);

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
