#include "planner/spec.h"

#include <array>

#include "runtime/core/enum_names.h"

namespace memplan {
namespace planner {
namespace {

constexpr std::array<const char*, 3> kDynamismNames = {
    "static", "dynamic_bound", "dynamic_unbound"};

}  // namespace

const char* DynamismName(Dynamism dynamism) {
  return EnumName(kDynamismNames, dynamism);
}

std::optional<Dynamism> ParseDynamism(std::string_view name) {
  return ParseEnum<Dynamism>(kDynamismNames, name);
}

}  // namespace planner
}  // namespace memplan
