#include "runtime/bundled_program.h"

#include <cstring>
#include <string>

#include "flatbuffers/flatbuffers.h"
#include "schema/bundled_program_generated.h"

namespace memplan {
namespace {

namespace bp = memplan_bundled;

}  // namespace

bool IsBundledProgram(const uint8_t* data, size_t size) {
  return data != nullptr && size >= 8 &&
         bp::BundledProgramBufferHasIdentifier(data);
}

Result<std::pair<const uint8_t*, size_t>> ExtractBundledProgram(
    const uint8_t* data, size_t size, const ProgramLimits& limits) {
  if (!IsBundledProgram(data, size)) {
    return Error(ErrorCode::kInvalidProgram,
                 "bundled_program: file_identifier at bytes [4, 8) must be "
                 "\"BP08\" (file size " +
                     std::to_string(size) + ")");
  }
  // The program's own limits: the wrapper is no less hostile.
  flatbuffers::Verifier::Options options;
  options.max_depth = limits.max_verifier_depth;
  options.max_tables = limits.max_verifier_tables;
  flatbuffers::Verifier verifier(data, size, options);
  if (!bp::VerifyBundledProgramBuffer(verifier)) {
    return Error(ErrorCode::kInvalidProgram,
                 "bundled_program: flatbuffer verification of the root table "
                 "and its program field failed over " +
                     std::to_string(size) + " bytes");
  }
  const flatbuffers::Vector<uint8_t>* program =
      bp::GetBundledProgram(data)->program();
  if (program == nullptr || program->size() == 0) {
    return Error(ErrorCode::kInvalidProgram,
                 "bundled_program.program is absent or empty");
  }
  return std::make_pair(program->data(), static_cast<size_t>(program->size()));
}

Result<ProgramBytes> UnwrapProgram(const uint8_t* data, size_t size,
                                   const ProgramLimits& limits) {
  if (IsBundledProgram(data, size)) {
    Result<std::pair<const uint8_t*, size_t>> inner =
        ExtractBundledProgram(data, size, limits);
    if (!inner.ok()) return inner.error();
    data = inner->first;
    size = inner->second;
  }
  ProgramBytes bytes;
  bytes.size = size;
  bytes.words.resize((size + 7) / 8);
  if (size > 0) std::memcpy(bytes.words.data(), data, size);
  return bytes;
}

}  // namespace memplan
