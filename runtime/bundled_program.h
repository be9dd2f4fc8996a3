// BundledProgram ("BP08" .bpte files) wraps an ET12 program with test
// inputs and expected outputs; memplan only needs the wrapped program.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "runtime/core/result.h"

namespace memplan {

// True when bytes [4, 8) hold the BundledProgram identifier "BP08".
bool IsBundledProgram(const uint8_t* data, size_t size);

// Verifies the BundledProgram root table (flatbuffers Verifier) and returns
// its `program` byte vector, which points into `data`. Errors name the
// field: a missing or out-of-bounds `program` is kInvalidProgram.
Result<std::pair<const uint8_t*, size_t>> ExtractBundledProgram(
    const uint8_t* data, size_t size);

}  // namespace memplan
