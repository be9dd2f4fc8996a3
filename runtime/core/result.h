// Result<T>: a value or an Error, in the manner of ExecuTorch's Result.
#pragma once

#include <cassert>
#include <optional>
#include <utility>

#include "runtime/core/error.h"

namespace memplan {

template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit on purpose
  Result(Error error) : error_(std::move(error)) {  // NOLINT
    assert(!error_.ok() && "a Result's error must not be Ok");
    if (error_.ok()) error_ = Error(ErrorCode::kInternal, "Result from Ok");
  }

  bool ok() const { return value_.has_value(); }
  const Error& error() const { return error_; }

  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }

 private:
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
