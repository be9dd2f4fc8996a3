// Structure-aware oracle fuzzing: programs mutated at the field level (see
// program_mutator.h) are read as `memplan verify` reads them
// (ReadProgramPlans: structure checked, plan not) and judged (CheckMethods),
// and every report is rendered as text and JSON. Whatever the bytes, a
// refusal is a clean error with a message and judging never crashes, leaks
// or reads out of bounds (the sanitizers watch). Where the loader accepts
// the program too (Program::Load validates the plan), the oracle must find
// none of the faults the loader refuses (bounds, buffer_map, cross_device):
// both apply runtime/core/plan_rules.h, so a report of one is a
// disagreement between them. (device_info is not among them: the oracle
// also holds a view to its base's device, and only it knows views.)
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "fuzz/program_mutator.h"
#include "properties/program_plans.h"
#include "properties/report.h"
#include "runtime/program.h"

namespace {

#define ORACLE_CHECK(cond, ...)                           \
  do {                                                    \
    if (!(cond)) {                                        \
      std::fprintf(stderr, "oracle fuzzer: %s: ", #cond); \
      std::fprintf(stderr, __VA_ARGS__);                  \
      std::fprintf(stderr, "\n");                         \
      __builtin_trap();                                   \
    }                                                     \
  } while (0)

using memplan::properties::ViolationCode;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  memplan::Result<std::vector<memplan::properties::MethodPlan>> methods =
      memplan::properties::ReadProgramPlans(data, size);
  if (!methods.ok()) {
    ORACLE_CHECK(!methods.error().message().empty(), "%s without message",
                 methods.error().ToString().c_str());
    return 0;
  }
  const std::vector<memplan::properties::Report> reports =
      memplan::properties::CheckMethods(*methods);
  ORACLE_CHECK(reports.size() == methods->size(), "%zu reports, %zu methods",
               reports.size(), methods->size());
  for (const memplan::properties::Report& report : reports) {
    (void)memplan::properties::FormatText(report);
    (void)memplan::properties::FormatJson(report);
  }
  memplan::ProgramLimits limits;
  limits.max_verifier_tables = 100'000;
  memplan::Result<memplan::Program> loaded =
      memplan::Program::Load(data, size, limits);
  if (!loaded.ok()) return 0;
  for (size_t m = 0; m < reports.size(); ++m) {
    for (ViolationCode code :
         {ViolationCode::kBounds, ViolationCode::kBufferMap,
          ViolationCode::kCrossDevice}) {
      ORACLE_CHECK(reports[m].count(code) == 0,
                   "the loader accepts method %zu, the oracle reports %s:\n%s",
                   m, memplan::properties::ViolationCodeName(code),
                   memplan::properties::FormatText(reports[m]).c_str());
    }
  }
  return 0;
}

MEMPLAN_PROGRAM_MUTATOR_HOOKS()
