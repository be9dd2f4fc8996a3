// Structural facts every accepted program must satisfy, rechecked straight
// from the flatbuffer so that a fuzz target does not trust the validator it
// is testing.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/program.h"

namespace memplan {
namespace fuzz {

// Checks method `index` of an accepted program: buffer count and sizes,
// the device map, and for every planned tensor its memory id, device and
// offset + nbytes within its buffer. Returns "" or the first violation.
std::string CheckAcceptedMethod(const Program& program, size_t index);

// All methods; "" when the whole program is consistent.
std::string CheckAcceptedProgram(const Program& program);

}  // namespace fuzz
}  // namespace memplan
