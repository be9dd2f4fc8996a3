// Result<T>: a value or an Error, in the manner of ExecuTorch's Result.
#pragma once

#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <utility>

#include "runtime/core/error.h"

namespace memplan {

namespace internal {
// Reading the value of a failed Result is a bug in the caller: stop with
// its error rather than read an empty optional.
[[noreturn]] inline void DieOnMissingValue(const Error& error) {
  std::fprintf(stderr, "memplan: value of a failed Result read: %s\n",
               error.ToString().c_str());
  std::abort();
}
}  // namespace internal

// [[nodiscard]] as Error: a dropped Result is a dropped error.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit on purpose
  Result(Error error) : error_(std::move(error)) {  // NOLINT
    assert(!error_.ok() && "a Result's error must not be Ok");
    if (error_.ok()) error_ = Error(ErrorCode::kInternal, "Result from Ok");
  }

  bool ok() const { return value_.has_value(); }
  const Error& error() const { return error_; }

  // Checked: reading the value of an error stops the program.
  T& value() & { return Checked(); }
  const T& value() const& { return Checked(); }
  T&& value() && { return std::move(Checked()); }
  T* operator->() { return &Checked(); }
  const T* operator->() const { return &Checked(); }
  T& operator*() & { return Checked(); }
  const T& operator*() const& { return Checked(); }

 private:
  T& Checked() {
    if (!value_) internal::DieOnMissingValue(error_);
    return *value_;
  }
  const T& Checked() const {
    if (!value_) internal::DieOnMissingValue(error_);
    return *value_;
  }

  std::optional<T> value_;
  Error error_;
};

// Returns the error of an expression that yields an Error, if it is not Ok.
#define MEMPLAN_RETURN_IF_ERROR(expr)                \
  do {                                               \
    ::memplan::Error memplan_error_ = (expr);        \
    if (!memplan_error_.ok()) return memplan_error_; \
  } while (0)

}  // namespace memplan
