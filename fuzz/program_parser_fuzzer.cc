// Bytes -> Program::Load -> MethodMeta of every method. Untrusted bytes must
// give a clean error or a program whose planned tensors all lie inside
// their own buffers on known devices; anything else traps.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/program_checks.h"
#include "runtime/program.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  memplan::ProgramLimits limits;
  // Small enough that a hostile depth or table count is refused quickly.
  limits.max_verifier_tables = 100'000;
  memplan::Result<memplan::Program> program =
      memplan::Program::Load(data, size, limits);
  // MEMPLAN_FUZZ_VERBOSE=1 shows why an input was refused (seed triage).
  static const bool verbose = std::getenv("MEMPLAN_FUZZ_VERBOSE") != nullptr;
  if (verbose) {
    std::printf("  load: %s\n",
                program.ok() ? "accepted" : program.error().ToString().c_str());
  }
  if (!program.ok()) {
    if (program.error().message().empty()) {
      std::fprintf(stderr, "error without a message: %s\n",
                   program.error().ToString().c_str());
      __builtin_trap();
    }
    return 0;
  }
  // Names and lookups by name must agree with lookups by index.
  for (size_t i = 0; i < program->num_methods(); ++i) {
    std::string name = program->method_name(i);
    memplan::Result<memplan::MethodMeta> by_index = program->method_meta(i);
    if (by_index.ok() && by_index->name() != name) {
      std::fprintf(stderr, "method %zu named '%s', meta says '%s'\n", i,
                   name.c_str(), by_index->name().c_str());
      __builtin_trap();
    }
    if (by_index.ok() &&
        by_index->total_planned_bytes() > program->limits().max_planned_bytes) {
      std::fprintf(
          stderr, "method %zu plans %llu bytes, limit %llu\n", i,
          static_cast<unsigned long long>(by_index->total_planned_bytes()),
          static_cast<unsigned long long>(program->limits().max_planned_bytes));
      __builtin_trap();
    }
  }
  std::string violation = memplan::fuzz::CheckAcceptedProgram(*program);
  if (!violation.empty()) {
    std::fprintf(stderr, "accepted program breaks a structural rule: %s\n",
                 violation.c_str());
    __builtin_trap();
  }
  return 0;
}
