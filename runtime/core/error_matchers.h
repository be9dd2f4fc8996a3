// GoogleTest matchers for Error and Result<T>: a test names the error it
// expects, so a failure of the wrong kind fails the test.
//
//   EXPECT_THAT(allocator.allocate(8, 3, 0),
//               IsError(ErrorCode::kInvalidArgument, HasSubstr("alignment")));
#pragma once

#include <ostream>
#include <string>

#include "gmock/gmock.h"
#include "runtime/core/error.h"
#include "runtime/core/result.h"

namespace memplan {

// GoogleTest prints a failed Error or Result as its error, not as bytes.
// Every test that prints them includes this header, so one printer is seen.
inline void PrintTo(const Error& error, std::ostream* os) {
  *os << (error.ok() ? "ok" : error.ToString());
}
template <typename T>
void PrintTo(const Result<T>& result, std::ostream* os) {
  if (result.ok()) {
    *os << "a value";
  } else {
    PrintTo(result.error(), os);
  }
}

namespace testing {
namespace internal {

inline const Error& ErrorOf(const Error& error) { return error; }
// An ok Result has an Ok error, which matches no failure code.
template <typename T>
const Error& ErrorOf(const Result<T>& result) {
  return result.error();
}

}  // namespace internal

// The error (or the Result's error) has `code`.
MATCHER_P(IsError, code,
          std::string(negation ? "isn't" : "is") + " an error with code " +
              ErrorCodeName(code)) {
  const Error& error = internal::ErrorOf(arg);
  return error.code() == code;
}

// The error has `code` and its message matches `message` (e.g. HasSubstr),
// for the tests where the wording is the contract.
MATCHER_P2(IsError, code, message,
           std::string(negation ? "isn't" : "is") + " an error with code " +
               ErrorCodeName(code) + " whose message " +
               ::testing::DescribeMatcher<std::string>(message)) {
  const Error& error = internal::ErrorOf(arg);
  return error.code() == code &&
         ::testing::Matches(::testing::SafeMatcherCast<const std::string&>(
             message))(error.message());
}

}  // namespace testing
}  // namespace memplan
