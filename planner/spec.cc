#include "planner/spec.h"

#include <array>

namespace memplan {
namespace planner {
namespace {

struct ScalarTypeEntry {
  const char* name;
  ScalarType type;
  uint64_t bytes;
};

// The first name of each type is the one the writer prints.
constexpr std::array<ScalarTypeEntry, 27> kScalarTypes = {{
    {"uint8", ScalarType::BYTE, 1},
    {"byte", ScalarType::BYTE, 1},
    {"int8", ScalarType::CHAR, 1},
    {"char", ScalarType::CHAR, 1},
    {"int16", ScalarType::SHORT, 2},
    {"short", ScalarType::SHORT, 2},
    {"int32", ScalarType::INT, 4},
    {"int", ScalarType::INT, 4},
    {"int64", ScalarType::LONG, 8},
    {"long", ScalarType::LONG, 8},
    {"half", ScalarType::HALF, 2},
    {"float16", ScalarType::HALF, 2},
    {"float", ScalarType::FLOAT, 4},
    {"float32", ScalarType::FLOAT, 4},
    {"double", ScalarType::DOUBLE, 8},
    {"float64", ScalarType::DOUBLE, 8},
    {"bool", ScalarType::BOOL, 1},
    {"qint8", ScalarType::QINT8, 1},
    {"quint8", ScalarType::QUINT8, 1},
    {"qint32", ScalarType::QINT32, 4},
    {"bfloat16", ScalarType::BFLOAT16, 2},
    {"bits16", ScalarType::BITS16, 2},
    {"float8_e5m2", ScalarType::FLOAT8E5M2, 1},
    {"float8_e4m3fn", ScalarType::FLOAT8E4M3FN, 1},
    {"uint16", ScalarType::UINT16, 2},
    {"uint32", ScalarType::UINT32, 4},
    {"uint64", ScalarType::UINT64, 8},
}};

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

std::optional<ScalarType> ParseScalarType(std::string_view name) {
  for (const ScalarTypeEntry& entry : kScalarTypes) {
    if (name == entry.name) return entry.type;
  }
  return std::nullopt;
}

const char* ScalarTypeName(ScalarType type) {
  for (const ScalarTypeEntry& entry : kScalarTypes) {
    if (entry.type == type) return entry.name;
  }
  return "unknown";
}

uint64_t ScalarTypeBytes(ScalarType type) {
  for (const ScalarTypeEntry& entry : kScalarTypes) {
    if (entry.type == type) return entry.bytes;
  }
  return 0;
}

}  // namespace planner
}  // namespace memplan
