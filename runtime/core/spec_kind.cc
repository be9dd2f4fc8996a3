#include "runtime/core/spec_kind.h"

#include <array>
#include <cstddef>

#include "runtime/core/enum_names.h"

namespace memplan {
namespace {

constexpr std::array<const char*, 8> kSpecKindNames = {
    "plain",   "input", "output",   "constant",
    "mutable", "view",  "in_place", "scratch"};

}  // namespace

const char* SpecKindName(SpecKind kind) {
  return EnumName(kSpecKindNames, kind);
}

std::optional<SpecKind> ParseSpecKind(std::string_view name) {
  return ParseEnum<SpecKind>(kSpecKindNames, name);
}

}  // namespace memplan
