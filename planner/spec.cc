#include "planner/spec.h"

#include <array>

namespace memplan {
namespace planner {
namespace {

constexpr std::array<const char*, 3> kDynamismNames = {
    "static", "dynamic_bound", "dynamic_unbound"};

}  // namespace

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
