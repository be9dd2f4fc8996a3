// Program: verified and validated view of untrusted ET12 program bytes.
//
// Load() runs the flatbuffers Verifier (explicit depth and table limits)
// and then memplan's semantic validation; only after both passed is any
// accessor safe. The Program does not own the bytes: they must outlive it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/device.h"
#include "runtime/core/plan_rules.h"
#include "runtime/core/result.h"
#include "schema/program_generated.h"
#include "schema/scalar_types.h"  // ScalarTypeSize

namespace memplan {

// Bounds applied to untrusted programs; the defaults are generous for real
// models and small enough to keep a hostile file from exhausting the host.
struct ProgramLimits {
  uint32_t max_verifier_depth = 64;
  uint32_t max_verifier_tables = 10'000'000;
  uint32_t max_rank = 16;
  // Sum of all planned buffer sizes of one method; refused above this,
  // before anything is allocated.
  uint64_t max_planned_bytes = kDefaultMaxPlannedBytes;
};

// The optional extended header ("eh00") that follows the file identifier.
inline constexpr size_t kExtendedHeaderOffset = 8;  // After root offset + id.
inline constexpr char kExtendedHeaderMagic[4] = {'e', 'h', '0', '0'};

struct ExtendedHeader {
  bool present = false;
  uint64_t program_size = 0;         // Bytes of the flatbuffer itself.
  uint64_t segment_base_offset = 0;  // Where data segments start in the file.
};

// Parses the extended header at bytes[8..]; absent header -> present=false.
// A header that is present but malformed is an error.
Result<ExtendedHeader> ParseExtendedHeader(const uint8_t* data, size_t size);

class MethodMeta;

class Program {
 public:
  // Verifies and validates; returns an error naming field, index and bound.
  static Result<Program> Load(const uint8_t* data, size_t size,
                              const ProgramLimits& limits = {});
  // Verifies and validates the structure only (ValidationScope::kStructure):
  // every accessor is safe, but the plan itself (buffer sizes, the device
  // map, tensor placements and devices) is unchecked, for the oracle to
  // judge. LoadMethod refuses a program read this way.
  static Result<Program> Read(const uint8_t* data, size_t size,
                              const ProgramLimits& limits = {});
  // True for Load(), false for Read().
  bool plan_validated() const { return plan_validated_; }

  const executorch_flatbuffer::Program* flatbuffer() const { return program_; }
  const ExtendedHeader& extended_header() const { return header_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  const ProgramLimits& limits() const { return limits_; }

  size_t num_methods() const;
  // Name of the i-th execution plan ("" when the name is absent).
  std::string method_name(size_t index) const;
  // The index of the first execution plan named `name` (kNotFound when
  // none is): a scan, once per lookup by name.
  Result<size_t> method_index(const std::string& name) const;
  Result<MethodMeta> method_meta(const std::string& name) const;
  Result<MethodMeta> method_meta(size_t index) const;

  // Bytes of the data segment `index` ([base + offset, +size) was checked
  // to lie inside the file at load time).
  Result<std::pair<const uint8_t*, uint64_t>> segment(size_t index) const;

 private:
  Program(const uint8_t* data, size_t size, const ProgramLimits& limits,
          ExtendedHeader header, const executorch_flatbuffer::Program* program,
          bool plan_validated)
      : data_(data),
        size_(size),
        limits_(limits),
        header_(header),
        program_(program),
        plan_validated_(plan_validated) {}
  static Result<Program> Open(const uint8_t* data, size_t size,
                              const ProgramLimits& limits, bool check_plan);

  const uint8_t* data_;
  size_t size_;
  ProgramLimits limits_;
  ExtendedHeader header_;
  const executorch_flatbuffer::Program* program_;
  bool plan_validated_;
};

// One planned tensor of a method: where it lives and how big it is.
struct PlannedTensor {
  uint32_t value_index = 0;      // Index into ExecutionPlan.values.
  uint32_t memory_id = 0;        // Planned buffer id (>= 1).
  uint64_t offset = 0;           // low | high << 32.
  uint64_t nbytes = 0;           // Element size * product of sizes.
  Device device;                 // From extra_tensor_info; CPU:0 when absent.
  uint32_t data_buffer_idx = 0;  // > 0: has initial data.
};

// Buffer-level metadata of one method (execution plan), validated.
class MethodMeta {
 public:
  MethodMeta(const executorch_flatbuffer::ExecutionPlan* plan, std::string name)
      : plan_(plan), name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  const executorch_flatbuffer::ExecutionPlan* plan() const { return plan_; }

  // Planned buffers exclude the reserved index 0:
  // num = max(0, len(non_const_buffer_sizes) - 1), buffer i is id i + 1.
  size_t num_memory_planned_buffers() const;
  Result<uint64_t> memory_planned_buffer_size(size_t index) const;
  Result<Device> memory_planned_buffer_device(size_t index) const;
  // Every buffer's device in one pass over the sparse map (element i is
  // buffer i); use it to walk all buffers: calling the one above per buffer
  // is O(buffers x entries), which a hostile file can make quadratic.
  std::vector<Device> memory_planned_buffer_devices() const;
  uint64_t total_planned_bytes() const;

  // Every tensor value with allocation_info, in value order.
  std::vector<PlannedTensor> planned_tensors() const;

 private:
  const executorch_flatbuffer::ExecutionPlan* plan_;
  std::string name_;
};

}  // namespace memplan
