// BundledProgram ("BP08" .bpte files) wraps an ET12 program with test
// inputs and expected outputs; memplan only needs the wrapped program.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "runtime/core/result.h"
#include "runtime/program.h"  // ProgramLimits

namespace memplan {

// True when bytes [4, 8) hold the BundledProgram identifier "BP08".
bool IsBundledProgram(const uint8_t* data, size_t size);

// Verifies the BundledProgram root table (schema/bundled_program.fbs, by
// the flatbuffers Verifier under the program's depth and table limits) and
// returns its `program` byte vector, which points into `data`. A missing or
// out-of-bounds `program` is kInvalidProgram.
Result<std::pair<const uint8_t*, size_t>> ExtractBundledProgram(
    const uint8_t* data, size_t size, const ProgramLimits& limits = {});

// An ET12 program's bytes, copied to 8-byte aligned storage as
// Program::Load and Program::Read require.
struct ProgramBytes {
  std::vector<uint64_t> words;
  size_t size = 0;
  const uint8_t* data() const {
    return reinterpret_cast<const uint8_t*>(words.data());
  }
};

// The program in `data` (for a bundled program, the one it wraps),
// copied to aligned storage; errors as ExtractBundledProgram's.
Result<ProgramBytes> UnwrapProgram(const uint8_t* data, size_t size,
                                   const ProgramLimits& limits = {});

}  // namespace memplan
