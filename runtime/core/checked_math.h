// Overflow-checked arithmetic for sizes and offsets that come from files or
// users. Each returns false (and leaves *out unspecified) on overflow.
#pragma once

#include <cstdint>

namespace memplan {

inline bool CheckedAdd(uint64_t a, uint64_t b, uint64_t* out) {
  return !__builtin_add_overflow(a, b, out);
}
inline bool CheckedMul(uint64_t a, uint64_t b, uint64_t* out) {
  return !__builtin_mul_overflow(a, b, out);
}
inline bool CheckedAdd(int64_t a, int64_t b, int64_t* out) {
  return !__builtin_add_overflow(a, b, out);
}
inline bool CheckedMul(int64_t a, int64_t b, int64_t* out) {
  return !__builtin_mul_overflow(a, b, out);
}

// Rounds value up to a multiple of alignment (> 0); false on overflow.
inline bool CheckedAlignUp(uint64_t value, uint64_t alignment, uint64_t* out) {
  if (alignment == 0) return false;
  uint64_t rem = value % alignment;
  if (rem == 0) {
    *out = value;
    return true;
  }
  return CheckedAdd(value, alignment - rem, out);
}

inline bool IsPowerOfTwo(uint64_t value) {
  return value != 0 && (value & (value - 1)) == 0;
}

}  // namespace memplan
