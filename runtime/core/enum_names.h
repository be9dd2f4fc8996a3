// An enum's keywords as a table indexed by its value: the name of a value
// ("unknown" past the table) and the value of a name. Every keyword enum
// (spec kinds, dynamism) reads and prints through these.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace memplan {

template <typename Enum, size_t N>
const char* EnumName(const std::array<const char*, N>& names, Enum value) {
  const size_t i = static_cast<size_t>(value);
  return i < N ? names[i] : "unknown";
}

template <typename Enum, size_t N>
std::optional<Enum> ParseEnum(const std::array<const char*, N>& names,
                              std::string_view name) {
  for (size_t i = 0; i < N; ++i) {
    if (name == names[i]) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

}  // namespace memplan
