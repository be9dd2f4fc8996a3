// Scalar types: the one table of element sizes and names that the runtime,
// the planner, the oracle and the fuzzers all read. The enum is ExecuTorch's
// (schema/scalar_type.fbs); scalar_types_test checks that every value the
// generated enum lists has a row here, so the table cannot fall behind the
// schema.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "schema/scalar_type_generated.h"

namespace memplan {

// X(enumerator, bytes of one element, printed name, another accepted name
// or nullptr). Sub-byte types (QUINT4X2, QUINT2X4) take a whole byte, as in
// ExecuTorch's elementSize.
#define MEMPLAN_SCALAR_TYPES(X)                    \
  X(BYTE, 1, "uint8", "byte")                      \
  X(CHAR, 1, "int8", "char")                       \
  X(SHORT, 2, "int16", "short")                    \
  X(INT, 4, "int32", "int")                        \
  X(LONG, 8, "int64", "long")                      \
  X(HALF, 2, "half", "float16")                    \
  X(FLOAT, 4, "float", "float32")                  \
  X(DOUBLE, 8, "double", "float64")                \
  X(BOOL, 1, "bool", nullptr)                      \
  X(QINT8, 1, "qint8", nullptr)                    \
  X(QUINT8, 1, "quint8", nullptr)                  \
  X(QINT32, 4, "qint32", nullptr)                  \
  X(BFLOAT16, 2, "bfloat16", nullptr)              \
  X(QUINT4X2, 1, "quint4x2", nullptr)              \
  X(QUINT2X4, 1, "quint2x4", nullptr)              \
  X(BITS16, 2, "bits16", nullptr)                  \
  X(FLOAT8E5M2, 1, "float8_e5m2", nullptr)         \
  X(FLOAT8E4M3FN, 1, "float8_e4m3fn", nullptr)     \
  X(FLOAT8E5M2FNUZ, 1, "float8_e5m2fnuz", nullptr) \
  X(FLOAT8E4M3FNUZ, 1, "float8_e4m3fnuz", nullptr) \
  X(UINT16, 2, "uint16", nullptr)                  \
  X(UINT32, 4, "uint32", nullptr)                  \
  X(UINT64, 8, "uint64", nullptr)

// Bytes of one element, or 0 for a value the table does not know (a file
// may carry any byte).
size_t ScalarTypeSize(executorch_flatbuffer::ScalarType type);

// The printed name ("float"), or "unknown".
const char* ScalarTypeName(executorch_flatbuffer::ScalarType type);

// Either name of a row ("float", "float32").
std::optional<executorch_flatbuffer::ScalarType> ParseScalarType(
    std::string_view name);

}  // namespace memplan
