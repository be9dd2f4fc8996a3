#include "runtime/bundled_program.h"

#include <cstring>
#include <string>

#include "flatbuffers/flatbuffers.h"

namespace memplan {
namespace {

constexpr char kBundledProgramIdentifier[] = "BP08";

// The one field memplan reads from ExecuTorch's BundledProgram root table:
// `program: [ubyte]` is its third field (after version and
// method_test_suites), so its vtable slot is 4 + 2 * 2.
class BundledProgramTable : private flatbuffers::Table {
 public:
  static constexpr flatbuffers::voffset_t kProgramField = 8;

  const flatbuffers::Vector<uint8_t>* program() const {
    return GetPointer<const flatbuffers::Vector<uint8_t>*>(kProgramField);
  }

  // Called by Verifier::VerifyBuffer; the other fields are never read, so
  // they need no verification.
  bool Verify(flatbuffers::Verifier& verifier) const {
    return VerifyTableStart(verifier) &&
           VerifyOffset(verifier, kProgramField) &&
           verifier.VerifyVector(program()) && verifier.EndTable();
  }
};

}  // namespace

bool IsBundledProgram(const uint8_t* data, size_t size) {
  return data != nullptr && size >= 8 &&
         flatbuffers::BufferHasIdentifier(data, kBundledProgramIdentifier);
}

Result<std::pair<const uint8_t*, size_t>> ExtractBundledProgram(
    const uint8_t* data, size_t size) {
  if (!IsBundledProgram(data, size)) {
    return Error(ErrorCode::kInvalidProgram,
                 "bundled_program: file_identifier at bytes [4, 8) must be "
                 "\"BP08\" (file size " +
                     std::to_string(size) + ")");
  }
  flatbuffers::Verifier verifier(data, size);
  if (!verifier.VerifyBuffer<BundledProgramTable>(kBundledProgramIdentifier)) {
    return Error(ErrorCode::kInvalidProgram,
                 "bundled_program: flatbuffer verification of the root table "
                 "and its program field failed over " +
                     std::to_string(size) + " bytes");
  }
  const auto* root = flatbuffers::GetRoot<BundledProgramTable>(data);
  const flatbuffers::Vector<uint8_t>* program = root->program();
  if (program == nullptr || program->size() == 0) {
    return Error(ErrorCode::kInvalidProgram,
                 "bundled_program.program is absent or empty");
  }
  return std::make_pair(program->data(), static_cast<size_t>(program->size()));
}

Result<ProgramBytes> UnwrapProgram(const uint8_t* data, size_t size) {
  if (IsBundledProgram(data, size)) {
    Result<std::pair<const uint8_t*, size_t>> inner =
        ExtractBundledProgram(data, size);
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
