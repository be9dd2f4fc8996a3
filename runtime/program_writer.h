// Writes ET12 program files from the flatbuffers object tree: the one
// serializer for the test builder and for `memplan plan` re-planning real
// programs.
//
// Layout (ExecuTorch's): the flatbuffer, with the extended header ("eh00",
// 32 bytes: length, program_size, segment_base_offset, segment_data_size)
// inserted after the file identifier when the file has segment data, then
// padding up to the segment alignment, then the segment data verbatim.
// DataSegment offsets in the program are relative to the segment base, so
// the segment data moves as one block and its offsets stay valid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/core/result.h"
#include "schema/program_generated.h"

namespace memplan {

// The bytes after the segment base: every DataSegment's payload, at the
// offsets the program states.
struct SegmentData {
  const uint8_t* data = nullptr;
  size_t size = 0;
  // A power of two >= 16 (ExecuTorch writes 128 by default): the segment
  // base is a multiple of it in the file.
  uint64_t alignment = 16;
  // Write the extended header even when there is no segment data (a
  // re-planned program keeps the header its original had).
  bool extended_header = false;
};

// Unions whose type is set but whose table is absent (which the flatbuffers
// Verifier lets through) are reset to NONE first: the generated Pack would
// dereference them. Fails only on a bad alignment.
Result<std::vector<uint8_t>> WriteProgramFile(
    executorch_flatbuffer::ProgramT& program, const SegmentData& segments = {});

// The segment data of a program file as Program::Read/Load parsed it: the
// bytes from the segment base to the end of the file (none without an
// extended header; extended_header says whether it had one), with the largest power-of-two alignment (16 to 4096)
// of the base, so that WriteProgramFile keeps every segment's alignment.
SegmentData SegmentDataOf(const uint8_t* data, size_t size,
                          uint64_t segment_base_offset, bool has_header);

}  // namespace memplan
