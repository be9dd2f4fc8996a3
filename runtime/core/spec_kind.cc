#include "runtime/core/spec_kind.h"

#include <array>
#include <cstddef>

namespace memplan {
namespace {

constexpr std::array<const char*, 8> kSpecKindNames = {
    "plain",   "input", "output",   "constant",
    "mutable", "view",  "in_place", "scratch"};

}  // namespace

const char* SpecKindName(SpecKind kind) {
  size_t i = static_cast<size_t>(kind);
  return i < kSpecKindNames.size() ? kSpecKindNames[i] : "unknown";
}

std::optional<SpecKind> ParseSpecKind(std::string_view name) {
  for (size_t i = 0; i < kSpecKindNames.size(); ++i) {
    if (name == kSpecKindNames[i]) return static_cast<SpecKind>(i);
  }
  return std::nullopt;
}

}  // namespace memplan
