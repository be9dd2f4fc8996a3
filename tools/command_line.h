// The conventions every memplan subcommand's command line follows, on top
// of CLI11: --help/-h prints to stdout and exits kExitOk; an unknown option,
// a missing or bad value or a missing positional prints one line naming the
// problem to stderr and exits kExitUsage; a single-value option given twice
// keeps the last value, as the hand-written parsers did.
#pragma once

#include <CLI/CLI.hpp>
#include <chrono>
#include <optional>
#include <string>

namespace memplan {
namespace cli {

class CommandLine {
 public:
  // `command` is the subcommand ("check"); `description` heads --help and
  // `footer` ends it (the exit codes).
  CommandLine(const std::string& command, const std::string& description,
              const std::string& footer);

  CLI::App& app() { return app_; }

  // Parses argv (argv[0] is the subcommand's name). Returns the exit code
  // to stop with after --help or a usage error, or nullopt to run.
  std::optional<int> Parse(int argc, char** argv);

  // A problem CLI11 cannot see (options that do not go together): prints
  // it like CLI11's own and returns kExitUsage.
  int UsageError(const std::string& problem) const;

 private:
  std::string name_;  // "memplan check": every message starts with it.
  CLI::App app_;
};

// A status line on stderr that a long run keeps up to date. On a terminal
// it is rewritten in place and Done() clears it; elsewhere (a log) it is
// printed as a line, at most one a second and none in the first second, so
// a short run prints nothing.
class StatusLine {
 public:
  explicit StatusLine(bool enabled);
  void Show(const std::string& text);
  void Done();

 private:
  bool enabled_;
  bool tty_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;  // Of the last line printed.
};

// A decimal integer that fits in 64 bits, digits only: CLI11 would read
// "-4" into an unsigned as 2^64 - 4.
bool ParseDecimal(const std::string& text, uint64_t* value);

// Checks on option values, each with a message that names what it expects.
CLI::Validator PowerOfTwo();       // 1, 2, 4, ... (decimal).
CLI::Validator ByteCount();        // A non-negative decimal integer.
CLI::Validator NodeCount();        // The same, of search nodes.
CLI::Validator PositiveSeconds();  // A number > 0.

}  // namespace cli
}  // namespace memplan
