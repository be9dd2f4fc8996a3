// What a tensor is to a memory plan, written once: the planner's specs and
// the oracle's allocations both carry a SpecKind, and the graph format,
// JSON plans, reports and SVGs print it by the same keywords.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace memplan {

// Decides whether and how long a tensor is planned. Views and in-place
// outputs alias a base and own no bytes.
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
// "scratch"; "unknown" for a value outside the enum.
const char* SpecKindName(SpecKind kind);
std::optional<SpecKind> ParseSpecKind(std::string_view name);

}  // namespace memplan
