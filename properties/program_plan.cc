#include "properties/program_plan.h"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace memplan {
namespace properties {
namespace {

namespace fb = executorch_flatbuffer;

constexpr size_t kNotPlanned = static_cast<size_t>(-1);

// Value indices an instruction names; lists expanded to their items.
class NamedValues {
 public:
  explicit NamedValues(const fb::ExecutionPlan& plan) : plan_(plan) {}

  void Collect(const fb::Instruction& instruction, std::vector<int64_t>* out) {
    out->clear();
    switch (instruction.instr_args_type()) {
      case fb::InstructionArguments::KernelCall:
        if (const auto* call = instruction.instr_args_as_KernelCall()) {
          AddList(call->args(), out);
        }
        break;
      case fb::InstructionArguments::DelegateCall:
        if (const auto* call = instruction.instr_args_as_DelegateCall()) {
          AddList(call->args(), out);
        }
        break;
      case fb::InstructionArguments::MoveCall:
        if (const auto* call = instruction.instr_args_as_MoveCall()) {
          Add(call->move_from(), out);
          Add(call->move_to(), out);
        }
        break;
      case fb::InstructionArguments::FreeCall:
        if (const auto* call = instruction.instr_args_as_FreeCall()) {
          Add(call->value_index(), out);
        }
        break;
      default:
        break;
    }
  }

  void AddList(const flatbuffers::Vector<int32_t>* list,
               std::vector<int64_t>* out) const {
    if (list == nullptr) return;
    for (int32_t index : *list) Add(index, out);
  }

  // Adds the value and, for a tensor list, its items (one level: lists
  // hold tensors, never lists).
  void Add(int64_t index, std::vector<int64_t>* out) const {
    const auto* values = plan_.values();
    if (values == nullptr || index < 0 ||
        static_cast<uint64_t>(index) >= values->size()) {
      return;
    }
    out->push_back(index);
    const fb::EValue* value = values->Get(static_cast<uint32_t>(index));
    const flatbuffers::Vector<int32_t>* items = nullptr;
    if (const auto* list = value->val_as_TensorList()) items = list->items();
    if (const auto* list = value->val_as_OptionalTensorList()) {
      items = list->items();
    }
    if (items == nullptr) return;
    for (int32_t item : *items) {
      if (item >= 0 && static_cast<uint64_t>(item) < values->size()) {
        out->push_back(item);
      }
    }
  }

 private:
  const fb::ExecutionPlan& plan_;
};

struct UnionFind {
  std::vector<size_t> parent;
  explicit UnionFind(size_t n) : parent(n) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  size_t Find(size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void Union(size_t a, size_t b) { parent[Find(a)] = Find(b); }
};

}  // namespace

std::string ProgramAllocationId(uint32_t value_index) {
  return "v" + std::to_string(value_index);
}

Result<Plan> PlanFromProgram(const Program& program, size_t method_index,
                             const ProgramPlanOptions& options) {
  Result<MethodMeta> meta = program.method_meta(method_index);
  if (!meta.ok()) return meta.error();
  const fb::ExecutionPlan& method = *meta->plan();
  Plan plan;

  const std::vector<Device> devices = meta->memory_planned_buffer_devices();
  for (size_t b = 0; b < meta->num_memory_planned_buffers(); ++b) {
    Result<uint64_t> size = meta->memory_planned_buffer_size(b);
    if (!size.ok()) return size.error();
    if (*size > static_cast<uint64_t>(INT64_MAX)) {
      return Error(ErrorCode::kInvalidProgram,
                   "non_const_buffer_sizes[" + std::to_string(b + 1) +
                       "] = " + std::to_string(*size) + ", must be < 2^63");
    }
    plan.buffers.push_back(
        {static_cast<MemId>(b + 1), static_cast<Offset>(*size), devices[b]});
  }
  if (const auto* entries = method.non_const_buffer_device()) {
    for (const fb::NonConstBufferDevice* entry : *entries) {
      plan.device_map.push_back({entry->buffer_idx(),
                                 static_cast<int>(entry->device_type()),
                                 entry->device_index()});
    }
  }

  // Position of every instruction naming each value.
  const uint64_t num_values = method.values() ? method.values()->size() : 0;
  std::vector<TimeValue> first(num_values, INT64_MAX), last(num_values, -1);
  std::vector<size_t> planned_of(num_values, kNotPlanned);
  std::vector<PlannedTensor> tensors = meta->planned_tensors();
  for (size_t p = 0; p < tensors.size(); ++p) {
    if (tensors[p].value_index < num_values) {
      planned_of[tensors[p].value_index] = p;
    }
  }
  UnionFind storage(tensors.size());
  std::vector<bool> moved_into(tensors.size(), false);
  auto same_place = [&](size_t a, size_t b) {
    return tensors[a].memory_id == tensors[b].memory_id &&
           tensors[a].offset == tensors[b].offset;
  };

  NamedValues named(method);
  std::vector<int64_t> names;
  std::vector<size_t> planned_names;
  TimeValue time = 0;
  if (const auto* chains = method.chains()) {
    for (const fb::Chain* chain : *chains) {
      if (chain->instructions() == nullptr) continue;
      for (const fb::Instruction* instruction : *chain->instructions()) {
        named.Collect(*instruction, &names);
        planned_names.clear();
        for (int64_t v : names) {
          first[v] = std::min(first[v], time);
          last[v] = std::max(last[v], time);
          if (planned_of[v] != kNotPlanned)
            planned_names.push_back(planned_of[v]);
        }
        // Same-place tensors one instruction names share storage; sorted
        // by place so that a long tensor list costs k log k, not k^2.
        std::sort(
            planned_names.begin(), planned_names.end(),
            [&](size_t a, size_t b) {
              return std::make_pair(tensors[a].memory_id, tensors[a].offset) <
                     std::make_pair(tensors[b].memory_id, tensors[b].offset);
            });
        for (size_t i = 1; i < planned_names.size(); ++i) {
          size_t a = planned_names[i - 1], b = planned_names[i];
          if (a != b && same_place(a, b)) storage.Union(a, b);
        }
        if (instruction->instr_args_type() ==
            fb::InstructionArguments::MoveCall) {
          const auto* move = instruction->instr_args_as_MoveCall();
          int64_t to = move ? move->move_to() : -1;
          if (to >= 0 && static_cast<uint64_t>(to) < num_values &&
              planned_of[to] != kNotPlanned) {
            moved_into[planned_of[to]] = true;
          }
        }
        ++time;
      }
    }
  }
  const TimeValue end_time = std::max<TimeValue>(time - 1, 0);
  plan.end_time = end_time;

  std::vector<bool> is_input(num_values, false), is_output(num_values, false);
  names.clear();
  named.AddList(method.inputs(), &names);
  for (int64_t v : names) is_input[v] = true;
  names.clear();
  named.AddList(method.outputs(), &names);
  for (int64_t v : names) is_output[v] = true;

  for (const PlannedTensor& t : tensors) {
    const uint32_t v = t.value_index;
    Allocation a;
    a.id = ProgramAllocationId(v);
    a.mem_id = t.memory_id;
    if (t.offset > static_cast<uint64_t>(INT64_MAX) ||
        t.nbytes > static_cast<uint64_t>(INT64_MAX)) {
      return Error(ErrorCode::kInvalidProgram,
                   "values[" + std::to_string(v) + "].tensor: offset " +
                       std::to_string(t.offset) + " or nbytes " +
                       std::to_string(t.nbytes) + " is not below 2^63");
    }
    a.offset = static_cast<Offset>(t.offset);
    a.size = static_cast<Offset>(t.nbytes);
    a.device = t.device;
    const fb::Tensor* tensor = method.values()->Get(v)->val_as_Tensor();
    a.alignment = std::max<Offset>(
        static_cast<Offset>(ScalarTypeSize(tensor->scalar_type())),
        options.min_alignment);
    const bool named_somewhere = last[v] >= 0;
    if (named_somewhere) {
      a.lifetime = {first[v], last[v]};
    } else if (is_input[v] || is_output[v]) {
      // An input no instruction reads is needed only as the method starts
      // (an unnamed output only as it ends); the rules below widen these.
      a.lifetime = is_input[v] ? Lifetime{0, 0} : Lifetime{end_time, end_time};
    } else {
      // Nothing says when it is used: assume the whole program.
      a.lifetime = {0, end_time};
    }
    if (is_input[v]) {
      a.kind = AllocationKind::kInput;
      a.lifetime.first = 0;
    } else if (is_output[v]) {
      a.kind = AllocationKind::kOutput;
    }
    if (is_output[v]) a.lifetime.last = end_time;
    if (t.data_buffer_idx > 0) {
      a.kind = AllocationKind::kMutable;
      a.lifetime = {0, end_time};
    }
    plan.allocations.push_back(std::move(a));
  }

  // The base of each storage group: the largest, then the earliest, then
  // the lowest value index; every other member aliases it.
  std::unordered_map<size_t, size_t> base_of_group;
  for (size_t p = 0; p < tensors.size(); ++p) {
    auto [it, inserted] = base_of_group.emplace(storage.Find(p), p);
    if (inserted) continue;
    const Allocation& current = plan.allocations[it->second];
    const Allocation& candidate = plan.allocations[p];
    if (std::make_tuple(-candidate.size, candidate.lifetime.first, p) <
        std::make_tuple(-current.size, current.lifetime.first, it->second)) {
      it->second = p;
    }
  }
  for (size_t p = 0; p < tensors.size(); ++p) {
    size_t base = base_of_group[storage.Find(p)];
    if (base == p) continue;
    Allocation& a = plan.allocations[p];
    a.alias_of = plan.allocations[base].id;
    if (a.kind != AllocationKind::kMutable) {
      a.kind = moved_into[p] ? AllocationKind::kView : AllocationKind::kInPlace;
    }
  }
  return plan;
}

}  // namespace properties
}  // namespace memplan
