#include "runtime/program_writer.h"

#include <cstring>
#include <string>

#include "flatbuffers/flatbuffers.h"
#include "runtime/core/checked_math.h"
#include "runtime/program.h"

namespace memplan {
namespace {

namespace fb = executorch_flatbuffer;

// Inserted at kExtendedHeaderOffset; a multiple of every force_align in the
// schema, so the flatbuffer's internal alignment survives the shift.
constexpr uint32_t kHeaderLength = 32;
constexpr uint64_t kMaxSegmentAlignment = 4096;

void WriteLe(uint8_t* p, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) p[i] = static_cast<uint8_t>(value >> (8 * i));
}

template <typename Union>
void ClearEmpty(Union& u) {
  if (u.value == nullptr) u.Reset();
}

void ClearEmptyUnions(fb::ProgramT& program) {
  for (auto& plan : program.execution_plan) {
    if (plan == nullptr) continue;
    for (auto& value : plan->values) {
      if (value != nullptr) ClearEmpty(value->val);
    }
    for (auto& chain : plan->chains) {
      if (chain == nullptr) continue;
      for (auto& instruction : chain->instructions) {
        if (instruction != nullptr) ClearEmpty(instruction->instr_args);
      }
    }
  }
}

}  // namespace

Result<std::vector<uint8_t>> WriteProgramFile(fb::ProgramT& program,
                                              const SegmentData& segments) {
  if (segments.alignment < 16 || !IsPowerOfTwo(segments.alignment) ||
      segments.alignment > kMaxSegmentAlignment) {
    return Error(ErrorCode::kInvalidArgument,
                 "segment alignment " + std::to_string(segments.alignment) +
                     " must be a power of two in [16, 4096]");
  }
  ClearEmptyUnions(program);
  flatbuffers::FlatBufferBuilder fbb;
  fb::FinishProgramBuffer(fbb, fb::Program::Pack(fbb, &program));
  std::vector<uint8_t> bytes(fbb.GetBufferPointer(),
                             fbb.GetBufferPointer() + fbb.GetSize());
  if (segments.size == 0 && !segments.extended_header) return bytes;

  // All flatbuffer offsets are relative except the root offset at byte 0,
  // so inserting the header after the identifier only moves the root.
  bytes.insert(bytes.begin() + kExtendedHeaderOffset, kHeaderLength, 0);
  WriteLe(bytes.data(),
          flatbuffers::ReadScalar<uint32_t>(bytes.data()) + kHeaderLength, 4);
  const uint64_t program_size = bytes.size();
  const uint64_t base =
      (program_size + segments.alignment - 1) & ~(segments.alignment - 1);
  uint8_t* header = bytes.data() + kExtendedHeaderOffset;
  std::memcpy(header, kExtendedHeaderMagic, sizeof(kExtendedHeaderMagic));
  WriteLe(header + 4, kHeaderLength, 4);
  WriteLe(header + 8, program_size, 8);
  WriteLe(header + 16, base, 8);
  WriteLe(header + 24, segments.size, 8);
  bytes.resize(base, 0);
  bytes.insert(bytes.end(), segments.data, segments.data + segments.size);
  return bytes;
}

SegmentData SegmentDataOf(const uint8_t* data, size_t size,
                          uint64_t segment_base_offset, bool has_header) {
  SegmentData segments;
  segments.extended_header = has_header;
  if (!has_header || segment_base_offset >= size) return segments;
  segments.data = data + segment_base_offset;
  segments.size = size - segment_base_offset;
  while (segments.alignment < kMaxSegmentAlignment &&
         segment_base_offset % (segments.alignment * 2) == 0) {
    segments.alignment *= 2;
  }
  return segments;
}

}  // namespace memplan
