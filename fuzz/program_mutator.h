// Structure-aware mutation of ET12 programs for libFuzzer: decode (after
// verification) with the object API, change the fields the loader depends
// on, re-encode. Inputs that do not decode fall back to byte mutation.
#pragma once

#include <cstddef>
#include <cstdint>

namespace memplan {
namespace fuzz {

// Mutates data[0, size) in place into at most max_size bytes; returns the
// new size. Deterministic for a given seed. Falls back to LLVMFuzzerMutate
// (libFuzzer's, or replay_main's stand-in) for inputs that do not decode.
size_t MutateProgram(uint8_t* data, size_t size, size_t max_size,
                     unsigned int seed);

// Grafts buffers, device map and values of program 2 into program 1 and
// writes the result to out; falls back to a byte splice.
size_t CrossOverPrograms(const uint8_t* data1, size_t size1,
                         const uint8_t* data2, size_t size2, uint8_t* out,
                         size_t max_out_size, unsigned int seed);

}  // namespace fuzz
}  // namespace memplan

// Defines libFuzzer's custom mutator and cross-over hooks as the two
// functions above, in a fuzz target's own source (a hook in a library
// would not be linked in: libFuzzer only references it weakly).
#define MEMPLAN_PROGRAM_MUTATOR_HOOKS()                                       \
  extern "C" size_t LLVMFuzzerCustomMutator(                                  \
      uint8_t* data, size_t size, size_t max_size, unsigned int seed) {       \
    return memplan::fuzz::MutateProgram(data, size, max_size, seed);          \
  }                                                                           \
  extern "C" size_t LLVMFuzzerCustomCrossOver(                                \
      const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2, \
      uint8_t* out, size_t max_out_size, unsigned int seed) {                 \
    return memplan::fuzz::CrossOverPrograms(data1, size1, data2, size2, out,  \
                                            max_out_size, seed);              \
  }
