#include "fuzz/program_mutator.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "flatbuffers/flatbuffers.h"
#include "runtime/program_writer.h"
#include "schema/program_generated.h"

// Called directly, not through a pointer: UBSan's function-type check on
// indirect calls needs a runtime symbol this toolchain's libFuzzer link lacks.
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace memplan {
namespace fuzz {
namespace {

namespace fb = executorch_flatbuffer;
using Rng = std::minstd_rand;

template <typename T>
T Pick(Rng& rng, std::initializer_list<T> values) {
  return *(values.begin() + rng() % values.size());
}

// The Verifier checks a vector's length field for 4-byte alignment only;
// UnPack of a misaligned 8-byte vector is a misaligned load (UBSan).
template <typename T>
bool Aligned(const flatbuffers::Vector<T>* v) {
  return v == nullptr ||
         reinterpret_cast<uintptr_t>(v->Data()) % alignof(T) == 0;
}

bool EightByteVectorsAligned(const fb::Program& program) {
  if (const auto* plans = program.execution_plan()) {
    for (const fb::ExecutionPlan* plan : *plans) {
      if (plan == nullptr || !Aligned(plan->non_const_buffer_sizes())) {
        return false;
      }
      if (plan->values() == nullptr) continue;
      for (const fb::EValue* value : *plan->values()) {
        if (value == nullptr) continue;
        if (const fb::IntList* list = value->val_as_IntList()) {
          if (!Aligned(list->items())) return false;
        }
        if (const fb::DoubleList* list = value->val_as_DoubleList()) {
          if (!Aligned(list->items())) return false;
        }
      }
    }
  }
  if (const fb::SubsegmentOffsets* constants = program.constant_segment()) {
    if (!Aligned(constants->offsets())) return false;
  }
  if (const auto* segments = program.mutable_data_segments()) {
    for (const fb::SubsegmentOffsets* offsets : *segments) {
      if (offsets == nullptr || !Aligned(offsets->offsets())) return false;
    }
  }
  return true;
}

std::unique_ptr<fb::ProgramT> Decode(const uint8_t* data, size_t size) {
  flatbuffers::Verifier verifier(data, size);
  if (!fb::VerifyProgramBuffer(verifier)) return nullptr;
  if (!EightByteVectorsAligned(*fb::GetProgram(data))) return nullptr;
  return fb::UnPackProgram(data);
}

// Through the one program writer, which also clears unions whose type is
// set but whose table is absent (a hostile input decodes to that).
size_t Encode(fb::ProgramT& program, uint8_t* out, size_t max_size) {
  Result<std::vector<uint8_t>> bytes = WriteProgramFile(program);
  if (!bytes.ok() || bytes->size() > max_size) return 0;
  std::memcpy(out, bytes->data(), bytes->size());
  return bytes->size();
}

// Values near the bounds that validation must enforce.
uint64_t InterestingU64(Rng& rng, uint64_t near) {
  switch (rng() % 6) {
    case 0:
      return 0;
    case 1:
      return near;
    case 2:
      return near + 1 + rng() % 64;
    case 3:
      return near > 0 ? near - 1 - rng() % std::min<uint64_t>(near, 64) : 0;
    case 4:
      return std::numeric_limits<uint64_t>::max() - rng() % 4;
    default:
      return rng();
  }
}

fb::ExecutionPlanT* PickPlan(fb::ProgramT& program, Rng& rng) {
  if (program.execution_plan.empty()) return nullptr;
  return program.execution_plan[rng() % program.execution_plan.size()].get();
}

fb::TensorT* PickTensor(fb::ExecutionPlanT& plan, Rng& rng) {
  std::vector<fb::TensorT*> tensors;
  for (auto& value : plan.values) {
    if (value && value->val.type == fb::KernelTypes::Tensor) {
      tensors.push_back(value->val.AsTensor());
    }
  }
  return tensors.empty() ? nullptr : tensors[rng() % tensors.size()];
}

uint64_t BufferSize(const fb::ExecutionPlanT& plan, uint32_t id) {
  if (id >= plan.non_const_buffer_sizes.size()) return 0;
  return static_cast<uint64_t>(plan.non_const_buffer_sizes[id]);
}

void MutateTensor(fb::ExecutionPlanT& plan, fb::TensorT& t, Rng& rng) {
  uint32_t num_buffers =
      static_cast<uint32_t>(plan.non_const_buffer_sizes.size());
  switch (rng() % 8) {
    case 0:
      if (!t.allocation_info)
        t.allocation_info.reset(new fb::AllocationDetailsT);
      t.allocation_info->memory_id = Pick<uint32_t>(
          rng,
          {0, 1, num_buffers - 1, num_buffers, static_cast<uint32_t>(rng())});
      break;
    case 1: {
      if (!t.allocation_info) break;
      uint64_t offset =
          InterestingU64(rng, BufferSize(plan, t.allocation_info->memory_id));
      t.allocation_info->memory_offset_low = static_cast<uint32_t>(offset);
      t.allocation_info->memory_offset_high =
          rng() % 4 == 0 ? static_cast<uint32_t>(offset >> 32) : 0;
      break;
    }
    case 2:
      if (!t.sizes.empty() && rng() % 4 != 0) {
        t.sizes[rng() % t.sizes.size()] = Pick<int32_t>(
            rng, {-1, 0, 1, 2, 7, 1 << 16, std::numeric_limits<int32_t>::max(),
                  std::numeric_limits<int32_t>::min()});
      } else if (rng() % 2 == 0 && !t.sizes.empty()) {
        t.sizes.pop_back();
      } else {
        t.sizes.push_back(static_cast<int32_t>(rng() % 9));
      }
      break;
    case 3:
      if (t.dim_order.empty() || rng() % 3 == 0) {
        t.dim_order.push_back(static_cast<uint8_t>(rng() % 20));
      } else if (rng() % 2 == 0) {
        std::shuffle(t.dim_order.begin(), t.dim_order.end(), rng);
      } else {
        t.dim_order[rng() % t.dim_order.size()] = static_cast<uint8_t>(rng());
      }
      break;
    case 4:
      t.scalar_type = static_cast<fb::ScalarType>(
          rng() % 2 ? rng() % 32 : static_cast<int8_t>(rng()));
      break;
    case 5:
      if (!t.extra_tensor_info)
        t.extra_tensor_info.reset(new fb::ExtraTensorInfoT);
      t.extra_tensor_info->device_type =
          static_cast<fb::DeviceType>(Pick<int8_t>(rng, {0, 1, 1, 2, -1}));
      t.extra_tensor_info->device_index = Pick<int8_t>(rng, {0, 1, 2, -1, 127});
      break;
    case 6:
      t.data_buffer_idx =
          Pick<uint32_t>(rng, {0, 1, 2, static_cast<uint32_t>(rng())});
      break;
    default:
      t.allocation_info.reset();
      break;
  }
}

void MutateBuffers(fb::ExecutionPlanT& plan, Rng& rng) {
  auto& sizes = plan.non_const_buffer_sizes;
  auto& devices = plan.non_const_buffer_device;
  switch (rng() % 5) {
    case 0:
      if (!sizes.empty()) {
        int64_t& s = sizes[rng() % sizes.size()];
        // Wrapping on purpose: a negative result is a value to try too.
        uint64_t u = static_cast<uint64_t>(s);
        s = Pick<int64_t>(
            rng, {0, -1, s / 2, static_cast<int64_t>(u * 2),
                  static_cast<int64_t>(u + 1),
                  std::numeric_limits<int64_t>::max(), int64_t{1} << 33});
      }
      break;
    case 1:
      if (rng() % 2 == 0 && !sizes.empty()) {
        sizes.pop_back();
      } else {
        sizes.push_back(Pick<int64_t>(rng, {0, 64, 4096, -8}));
      }
      break;
    case 2: {
      std::unique_ptr<fb::NonConstBufferDeviceT> entry(
          new fb::NonConstBufferDeviceT);
      entry->buffer_idx =
          Pick<int32_t>(rng, {0, 1, 2, static_cast<int32_t>(sizes.size()), -1,
                              static_cast<int32_t>(rng())});
      entry->device_type =
          static_cast<fb::DeviceType>(Pick<int8_t>(rng, {0, 1, 1, 2}));
      entry->device_index = Pick<int8_t>(rng, {0, 1, -1, 64});
      devices.push_back(std::move(entry));
      break;
    }
    case 3:
      if (!devices.empty())
        devices.erase(devices.begin() + rng() % devices.size());
      break;
    default:
      if (!devices.empty()) {
        auto& entry = devices[rng() % devices.size()];
        if (rng() % 2) {
          entry->buffer_idx = static_cast<int32_t>(rng() % (sizes.size() + 2));
        } else {
          entry->device_index = static_cast<int8_t>(rng() % 4);
        }
      }
      break;
  }
}

void MutateInstruction(fb::ExecutionPlanT& plan, Rng& rng) {
  int32_t num_values = static_cast<int32_t>(plan.values.size());
  auto index = [&] {
    return Pick<int32_t>(rng, {0, num_values - 1, num_values, -1,
                               static_cast<int32_t>(rng() % (num_values + 1))});
  };
  if (rng() % 4 == 0) {
    auto& list = rng() % 2 ? plan.inputs : plan.outputs;
    if (list.empty() || rng() % 3 == 0)
      list.push_back(index());
    else
      list[rng() % list.size()] = index();
    return;
  }
  if (plan.chains.empty() || !plan.chains[0]) return;
  auto& instructions = plan.chains[0]->instructions;
  if (instructions.empty()) return;
  auto& instruction = instructions[rng() % instructions.size()];
  if (!instruction) return;
  if (auto* call = instruction->instr_args.AsKernelCall()) {
    if (call->args.empty() || rng() % 4 == 0)
      call->args.push_back(index());
    else
      call->args[rng() % call->args.size()] = index();
    if (rng() % 4 == 0) call->op_index = index();
  } else if (auto* move = instruction->instr_args.AsMoveCall()) {
    move->move_from = index();
  } else if (auto* free_call = instruction->instr_args.AsFreeCall()) {
    free_call->value_index = index();
  }
}

void MutateOnce(fb::ProgramT& program, Rng& rng) {
  fb::ExecutionPlanT* plan = PickPlan(program, rng);
  if (plan == nullptr) {
    program.execution_plan.emplace_back(new fb::ExecutionPlanT);
    return;
  }
  switch (rng() % 6) {
    case 0:
    case 1:
    case 2:
      if (fb::TensorT* tensor = PickTensor(*plan, rng)) {
        MutateTensor(*plan, *tensor, rng);
        return;
      }
      [[fallthrough]];
    case 3:
      MutateBuffers(*plan, rng);
      return;
    case 4:
      MutateInstruction(*plan, rng);
      return;
    default:
      // Duplicate a tensor value: shares bytes with the original.
      if (fb::TensorT* tensor = PickTensor(*plan, rng)) {
        flatbuffers::FlatBufferBuilder b;
        b.Finish(fb::Tensor::Pack(b, tensor));
        std::unique_ptr<fb::TensorT> unpacked(
            flatbuffers::GetRoot<fb::Tensor>(b.GetBufferPointer())->UnPack());
        auto copy = std::make_unique<fb::EValueT>();
        copy->val.Set(std::move(*unpacked));
        plan->values.push_back(std::move(copy));
      }
      return;
  }
}

}  // namespace

size_t MutateProgram(uint8_t* data, size_t size, size_t max_size,
                     unsigned int seed) {
  Rng rng(seed);
  std::unique_ptr<fb::ProgramT> program =
      rng() % 8 == 0 ? nullptr : Decode(data, size);
  if (program == nullptr) return LLVMFuzzerMutate(data, size, max_size);
  int rounds = 1 + static_cast<int>(rng() % 3);
  for (int i = 0; i < rounds; ++i) MutateOnce(*program, rng);
  size_t out = Encode(*program, data, max_size);
  return out != 0 ? out : LLVMFuzzerMutate(data, size, max_size);
}

size_t CrossOverPrograms(const uint8_t* data1, size_t size1,
                         const uint8_t* data2, size_t size2, uint8_t* out,
                         size_t max_out_size, unsigned int seed) {
  Rng rng(seed);
  std::unique_ptr<fb::ProgramT> a = Decode(data1, size1);
  std::unique_ptr<fb::ProgramT> b = Decode(data2, size2);
  if (a && b && !a->execution_plan.empty() && !b->execution_plan.empty()) {
    fb::ExecutionPlanT& to = *a->execution_plan[0];
    fb::ExecutionPlanT& from = *b->execution_plan[0];
    switch (rng() % 3) {
      case 0:
        to.non_const_buffer_sizes = from.non_const_buffer_sizes;
        to.non_const_buffer_device = std::move(from.non_const_buffer_device);
        break;
      case 1:
        for (auto& value : from.values) {
          if (rng() % 2) to.values.push_back(std::move(value));
        }
        break;
      default:
        a->execution_plan.push_back(std::move(b->execution_plan[0]));
        break;
    }
    size_t n = Encode(*a, out, max_out_size);
    if (n != 0) return n;
  }
  // Byte splice: a prefix of one, the rest of the other.
  size_t cut1 = size1 == 0 ? 0 : rng() % size1;
  size_t cut2 = size2 == 0 ? 0 : rng() % size2;
  size_t n = std::min(max_out_size, cut1 + (size2 - cut2));
  size_t first = std::min(cut1, n);
  std::memcpy(out, data1, first);
  std::memcpy(out + first, data2 + cut2, n - first);
  return n;
}

}  // namespace fuzz
}  // namespace memplan
