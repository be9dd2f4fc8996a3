#include "planner/spec.h"

#include <array>

namespace memplan {
namespace planner {
namespace {

constexpr std::array<const char*, 8> kSpecKindNames = {
    "plain",   "input", "output",   "constant",
    "mutable", "view",  "in_place", "scratch"};

constexpr std::array<const char*, 3> kDynamismNames = {
    "static", "dynamic_bound", "dynamic_unbound"};

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

const char* DynamismName(Dynamism dynamism) {
  size_t i = static_cast<size_t>(dynamism);
  return i < kDynamismNames.size() ? kDynamismNames[i] : "unknown";
}

std::optional<Dynamism> ParseDynamism(std::string_view name) {
  for (size_t i = 0; i < kDynamismNames.size(); ++i) {
    if (name == kDynamismNames[i]) return static_cast<Dynamism>(i);
  }
  return std::nullopt;
}

}  // namespace planner
}  // namespace memplan
