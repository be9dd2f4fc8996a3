#include "runtime/program.h"

#include <cstring>
#include <string>

#include "flatbuffers/flatbuffers.h"
#include "runtime/core/checked_math.h"
#include "runtime/program_validator.h"

namespace memplan {
namespace {

namespace fb = executorch_flatbuffer;

constexpr size_t kHeaderOffset = kExtendedHeaderOffset;
constexpr uint32_t kMinHeaderLength = 24;

uint32_t ReadLe32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 |
         uint32_t{p[3]} << 24;
}

uint64_t ReadLe64(const uint8_t* p) {
  return uint64_t{ReadLe32(p)} | uint64_t{ReadLe32(p + 4)} << 32;
}

// Hostile bytes go into messages as \xNN unless printable ASCII.
std::string Printable(const uint8_t* p, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    if (p[i] >= 0x20 && p[i] < 0x7F && p[i] != '"' && p[i] != '\\') {
      out += static_cast<char>(p[i]);
    } else {
      static const char kHex[] = "0123456789abcdef";
      out += {'\\', 'x', kHex[p[i] >> 4], kHex[p[i] & 15]};
    }
  }
  return out;
}

Error Invalid(std::string message) {
  return Error(ErrorCode::kInvalidProgram, std::move(message));
}

}  // namespace

Result<ExtendedHeader> ParseExtendedHeader(const uint8_t* data, size_t size) {
  ExtendedHeader header;
  if (data == nullptr || size < kHeaderOffset + sizeof(kExtendedHeaderMagic) ||
      std::memcmp(data + kHeaderOffset, kExtendedHeaderMagic,
                  sizeof(kExtendedHeaderMagic)) != 0) {
    return header;
  }
  // Length counts from the magic; newer files append fields, so >= 24.
  if (size < kHeaderOffset + 8) {
    return Invalid("extended_header: file size " + std::to_string(size) +
                   " ends inside the header length field");
  }
  uint32_t length = ReadLe32(data + kHeaderOffset + 4);
  if (length < kMinHeaderLength || length > size - kHeaderOffset) {
    return Invalid("extended_header.length = " + std::to_string(length) +
                   ", must be in [24, " + std::to_string(size - kHeaderOffset) +
                   "] (file size - 8)");
  }
  header.present = true;
  header.program_size = ReadLe64(data + kHeaderOffset + 8);
  header.segment_base_offset = ReadLe64(data + kHeaderOffset + 16);
  if (header.program_size > size) {
    return Invalid("extended_header.program_size = " +
                   std::to_string(header.program_size) +
                   ", must be <= " + std::to_string(size) + " (file size)");
  }
  if (header.program_size < kHeaderOffset + length) {
    return Invalid("extended_header.program_size = " +
                   std::to_string(header.program_size) +
                   ", must be >= " + std::to_string(kHeaderOffset + length) +
                   " (the header lies inside the program)");
  }
  return header;
}

Result<Program> Program::Load(const uint8_t* data, size_t size,
                              const ProgramLimits& limits) {
  return Open(data, size, limits, /*check_plan=*/true);
}

Result<Program> Program::Read(const uint8_t* data, size_t size,
                              const ProgramLimits& limits) {
  return Open(data, size, limits, /*check_plan=*/false);
}

Result<Program> Program::Open(const uint8_t* data, size_t size,
                              const ProgramLimits& limits, bool check_plan) {
  if (data == nullptr) {
    return Error(ErrorCode::kInvalidArgument, "program data is null");
  }
  // Generated accessors read 8-byte scalars in place.
  if (reinterpret_cast<uintptr_t>(data) % alignof(uint64_t) != 0) {
    return Error(ErrorCode::kInvalidArgument,
                 "program data must be 8-byte aligned");
  }
  if (size < kHeaderOffset) {
    return Invalid("file size = " + std::to_string(size) +
                   ", must be >= 8 (root offset + file identifier)");
  }
  if (!flatbuffers::BufferHasIdentifier(data, fb::ProgramIdentifier())) {
    return Invalid("file_identifier = \"" + Printable(data + 4, 4) +
                   "\" at bytes [4, 8), must be \"ET12\"");
  }
  Result<ExtendedHeader> header = ParseExtendedHeader(data, size);
  if (!header.ok()) return header.error();
  uint64_t program_size = header->present ? header->program_size : size;

  flatbuffers::Verifier::Options options;
  options.max_depth = limits.max_verifier_depth;
  options.max_tables = limits.max_verifier_tables;
  flatbuffers::Verifier verifier(data, static_cast<size_t>(program_size),
                                 options);
  if (!fb::VerifyProgramBuffer(verifier)) {
    return Invalid("flatbuffer verification failed over " +
                   std::to_string(program_size) + " program bytes (max_depth " +
                   std::to_string(limits.max_verifier_depth) + ", max_tables " +
                   std::to_string(limits.max_verifier_tables) + ")");
  }
  const fb::Program* program = fb::GetProgram(data);
  MEMPLAN_RETURN_IF_ERROR(
      ValidateProgram(*program, *header, size, limits,
                      check_plan ? ValidationScope::kStructureAndPlan
                                 : ValidationScope::kStructure));
  return Program(data, size, limits, *header, program, check_plan);
}

size_t Program::num_methods() const {
  const auto* plans = program_->execution_plan();
  return plans == nullptr ? 0 : plans->size();
}

std::string Program::method_name(size_t index) const {
  if (index >= num_methods()) return "";
  const flatbuffers::String* name =
      program_->execution_plan()->Get(static_cast<uint32_t>(index))->name();
  return name == nullptr ? "" : name->str();
}

Result<size_t> Program::method_index(const std::string& name) const {
  for (size_t i = 0; i < num_methods(); ++i) {
    const flatbuffers::String* plan_name =
        program_->execution_plan()->Get(static_cast<uint32_t>(i))->name();
    if (plan_name != nullptr && plan_name->string_view() == name) return i;
  }
  return Error(ErrorCode::kNotFound, "no execution_plan named \"" + name +
                                         "\" among " +
                                         std::to_string(num_methods()));
}

Result<MethodMeta> Program::method_meta(const std::string& name) const {
  Result<size_t> index = method_index(name);
  if (!index.ok()) return index.error();
  return method_meta(*index);
}

Result<MethodMeta> Program::method_meta(size_t index) const {
  if (index >= num_methods()) {
    return Error(ErrorCode::kNotFound,
                 "execution_plan index " + std::to_string(index) +
                     ", must be < " + std::to_string(num_methods()) +
                     " (len(execution_plan))");
  }
  return MethodMeta(
      program_->execution_plan()->Get(static_cast<uint32_t>(index)),
      method_name(index));
}

Result<std::pair<const uint8_t*, uint64_t>> Program::segment(
    size_t index) const {
  const auto* segments = program_->segments();
  size_t n = segments == nullptr ? 0 : segments->size();
  if (index >= n) {
    return Error(ErrorCode::kNotFound,
                 "segments index " + std::to_string(index) + ", must be < " +
                     std::to_string(n) + " (len(segments))");
  }
  const fb::DataSegment* seg = segments->Get(static_cast<uint32_t>(index));
  uint64_t base = header_.present ? header_.segment_base_offset : 0;
  // Load checked base + offset + size <= size_ without overflow.
  return std::make_pair(data_ + base + seg->offset(), seg->size());
}

}  // namespace memplan
