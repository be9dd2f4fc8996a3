// Error values shared by the runtime, the planner and the oracle. The
// runtime never throws or aborts on input: every failure is an Error with a
// code and a message naming the field, the index and the bound it broke.
#pragma once

#include <string>
#include <utility>

namespace memplan {

enum class ErrorCode {
  kOk = 0,
  kInvalidArgument,    // A caller passed something out of contract.
  kInvalidProgram,     // The program bytes broke a structural or semantic rule.
  kNotFound,           // A named method, device or file does not exist.
  kOutOfMemory,        // An allocator could not satisfy a request.
  kResourceExhausted,  // A configured budget or capacity was exceeded.
  kUnavailable,        // A device or runtime is not present here.
  kAlreadyExists,      // Registering something twice.
  kInternal,           // A broken invariant inside memplan itself.
  kIo,                 // Reading or writing a file failed.
};

const char* ErrorCodeName(ErrorCode code);

// [[nodiscard]]: a function returning an Error cannot have it dropped
// silently (the build makes that an error: -Werror=unused-result).
class [[nodiscard]] Error {
 public:
  Error() = default;
  Error(ErrorCode code, std::string message)
      : code_(code), message_(std::move(message)) {}

  static Error Ok() { return Error(); }

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "invalid_program: values[3].tensor.sizes[1] = -2, must be >= 0".
  std::string ToString() const;

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
};

}  // namespace memplan
