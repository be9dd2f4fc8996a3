// Bytes -> Program::Load -> MethodMeta of every method. Untrusted bytes must
// give a clean error or a program whose planned tensors all lie inside
// their own buffers on known devices; anything else traps. Program::Read
// (structure only) must accept whatever Load accepts, and the lookups by
// index, by name and of segments must refuse one past the end.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "fuzz/program_checks.h"
#include "runtime/program.h"

namespace {

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "program_parser_fuzzer: %s\n", what.c_str());
  __builtin_trap();
}

// Null and misaligned data are refused before any byte is read.
void CheckRefusesBadPointers(const uint8_t* data, size_t size) {
  if (memplan::Program::Load(nullptr, size).ok()) Fail("loaded null data");
  if (size == 0) return;
  std::unique_ptr<uint64_t[]> copy(new uint64_t[size / 8 + 2]);
  uint8_t* misaligned = reinterpret_cast<uint8_t*>(copy.get()) + 1;
  std::memcpy(misaligned, data, size);
  memplan::Result<memplan::Program> program =
      memplan::Program::Load(misaligned, size);
  if (program.ok() ||
      program.error().code() != memplan::ErrorCode::kInvalidArgument) {
    Fail("misaligned data was not refused as an invalid argument");
  }
}

// What Load accepted, Read accepts, with the same methods; lookups one past
// the end (by index, by an unknown name, of a segment) are NotFound, and
// every segment lies inside the file.
void CheckLookups(const memplan::Program& program, const uint8_t* data,
                  size_t size) {
  memplan::Result<memplan::Program> read =
      memplan::Program::Read(data, size, program.limits());
  if (!read.ok()) {
    Fail("Read refused what Load accepted: " + read.error().ToString());
  }
  if (read->plan_validated() || !program.plan_validated() ||
      read->num_methods() != program.num_methods()) {
    Fail("Read and Load disagree on the methods");
  }
  const size_t n = program.num_methods();
  if (program.method_meta(n).ok()) Fail("method_meta(num_methods) is ok");
  size_t longest = 0;  // A name longer than every method's is nobody's.
  for (size_t i = 0; i < n; ++i) {
    longest = std::max(longest, program.method_name(i).size());
    memplan::Result<memplan::MethodMeta> by_name =
        program.method_meta(program.method_name(i));
    // Names may repeat; the first method of that name is found.
    if (by_name.ok() && by_name->name() != program.method_name(i)) {
      Fail("method_meta(name) found another name");
    }
  }
  if (program.method_meta(std::string(longest + 1, 'x')).ok()) {
    Fail("an unknown method name was found");
  }
  const auto* segments = program.flatbuffer()->segments();
  const size_t num_segments = segments == nullptr ? 0 : segments->size();
  for (size_t s = 0; s <= num_segments; ++s) {
    auto segment = program.segment(s);
    if (s == num_segments) {
      if (segment.ok()) Fail("segment(len(segments)) is ok");
      break;
    }
    if (!segment.ok()) Fail("segment " + std::to_string(s) + " refused");
    if (segment->first < data || segment->first > data + size ||
        segment->second > static_cast<uint64_t>(data + size - segment->first)) {
      Fail("segment " + std::to_string(s) + " lies outside the file");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static bool checked_pointers = false;
  if (!checked_pointers) {
    CheckRefusesBadPointers(data, size);
    checked_pointers = size > 0;
  }
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
  CheckLookups(*program, data, size);
  std::string violation = memplan::fuzz::CheckAcceptedProgram(*program);
  if (!violation.empty()) {
    std::fprintf(stderr, "accepted program breaks a structural rule: %s\n",
                 violation.c_str());
    __builtin_trap();
  }
  return 0;
}
