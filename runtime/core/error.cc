#include "runtime/core/error.h"

namespace memplan {

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk:
      return "ok";
    case ErrorCode::kInvalidArgument:
      return "invalid_argument";
    case ErrorCode::kInvalidProgram:
      return "invalid_program";
    case ErrorCode::kNotFound:
      return "not_found";
    case ErrorCode::kOutOfMemory:
      return "out_of_memory";
    case ErrorCode::kResourceExhausted:
      return "resource_exhausted";
    case ErrorCode::kUnavailable:
      return "unavailable";
    case ErrorCode::kAlreadyExists:
      return "already_exists";
    case ErrorCode::kInternal:
      return "internal";
    case ErrorCode::kIo:
      return "io";
  }
  return "unknown";
}

std::string Error::ToString() const {
  if (ok()) return "ok";
  return std::string(ErrorCodeName(code_)) + ": " + message_;
}

}  // namespace memplan
