#include "tools/command_line.h"

#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "runtime/core/checked_math.h"
#include "tools/commands.h"

namespace memplan {
namespace cli {
bool ParseDecimal(const std::string& text, uint64_t* value) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *value);
  return !text.empty() && ec == std::errc() && ptr == end;
}

CommandLine::CommandLine(const std::string& command,
                         const std::string& description,
                         const std::string& footer)
    : name_("memplan " + command), app_(description, name_) {
  app_.footer(footer);
  app_.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  // Left over for Parse to name: CLI11's ExtrasError lists them all in
  // one sentence that does not say which are options.
  app_.allow_extras();
}

std::optional<int> CommandLine::Parse(int argc, char** argv) {
  try {
    app_.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app_.help().c_str(), stdout);
    return kExitOk;
  } catch (const CLI::ParseError& error) {
    return UsageError(error.what());
  }
  for (const std::string& extra : app_.remaining()) {
    if (extra == "--") continue;
    if (!extra.empty() && extra[0] == '-') {
      return UsageError("unknown option '" + extra + "'");
    }
    return UsageError("unexpected argument '" + extra + "'");
  }
  return std::nullopt;
}

int CommandLine::UsageError(const std::string& problem) const {
  std::fprintf(stderr, "%s: %s\n%sRun '%s --help' for every option.\n",
               name_.c_str(), problem.c_str(),
               CLI::Formatter().make_usage(&app_, name_).c_str(),
               name_.c_str());
  return kExitUsage;
}

CLI::Validator PowerOfTwo() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        uint64_t value = 0;
        if (ParseDecimal(text, &value) && IsPowerOfTwo(value)) {
          return "";
        }
        return "must be a power of two (1, 2, 4, ...), not '" + text + "'";
      },
      "");
}

namespace {

// A non-negative decimal integer; else "must be <what> (0, 1, 2, ...)".
CLI::Validator Count(const std::string& what) {
  return CLI::Validator(
      [what](std::string& text) -> std::string {
        uint64_t value = 0;
        if (ParseDecimal(text, &value)) return "";
        return "must be " + what + " (0, 1, 2, ...), not '" + text + "'";
      },
      "");
}

}  // namespace

CLI::Validator ByteCount() { return Count("a byte count"); }

CLI::Validator NodeCount() { return Count("a number of nodes"); }

CLI::Validator PositiveSeconds() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        double value = std::strtod(text.c_str(), &end);
        if (!text.empty() && *end == '\0' && value > 0 &&
            std::isfinite(value)) {
          return "";
        }
        return "must be a positive number of seconds, not '" + text + "'";
      },
      "");
}

StatusLine::StatusLine(bool enabled)
    : enabled_(enabled),
      tty_(isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void StatusLine::Show(const std::string& text) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!tty_) {
    const std::chrono::duration<double> since_start = now - start_;
    const std::chrono::duration<double> since_last = now - last_;
    if (since_start.count() < 1.0 || (shown_ && since_last.count() < 1.0)) {
      return;
    }
  }
  std::fprintf(stderr, tty_ ? "\r\033[K%s" : "%s\n", text.c_str());
  shown_ = true;
  last_ = now;
}

void StatusLine::Done() {
  if (shown_ && tty_) std::fprintf(stderr, "\r\033[K");
}

}  // namespace cli
}  // namespace memplan
