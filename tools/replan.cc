#include "tools/replan.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "planner/lower_bound.h"
#include "planner/suite.h"
#include "properties/check.h"
#include "properties/program_plans.h"
#include "properties/storage_groups.h"
#include "runtime/bundled_program.h"
#include "runtime/core/checked_math.h"
#include "runtime/program.h"
#include "runtime/program_writer.h"

namespace memplan {
namespace tools {
namespace {

namespace fb = executorch_flatbuffer;
using properties::Allocation;
using properties::MethodPlan;
using properties::Plan;

using SharedKey = std::vector<std::string_view>;

std::string Joined(const SharedKey& key) {
  std::string text;
  for (std::string_view name : key) {
    if (!text.empty()) text += ",";
    text += name;
  }
  return text;
}

// A base and its aliases (properties/storage_groups.h), one item to the
// planner, with the slot it takes in the shared prefix.
struct Group : properties::StorageGroup {
  // The names that other methods name too, in the group's order (none when
  // it has none and is planned freely): views of the plan's names.
  SharedKey shared_key;
};

Error InvalidPlan(const std::string& method, const std::string& why) {
  return Error(ErrorCode::kInvalidProgram,
               "cannot re-plan method '" + method + "': " + why);
}

Result<std::vector<Group>> GroupsOf(const MethodPlan& method) {
  properties::StorageGroups storage = properties::GroupStorage(method.plan);
  if (!storage.unplaceable.empty()) {
    const Allocation& a = method.plan.allocations[storage.unplaceable[0]];
    return InvalidPlan(method.name,
                       a.size < 0
                           ? a.id + " has " + std::to_string(a.size) + " bytes"
                           : a.id + " cannot be placed (" +
                                 properties::DescribeAllocation(a) + ")");
  }
  std::vector<Group> groups;
  groups.reserve(storage.groups.size());
  for (properties::StorageGroup& group : storage.groups) {
    groups.push_back({std::move(group), {}});
  }
  return groups;
}

// Shared state: a name that several methods give a tensor must be in the
// same place in each (the oracle's shared_state). Every group holding such
// names gets one slot, at the bottom of its buffer, in every method; a
// name only one method uses binds nothing.
struct Slot {
  int64_t mem_id = 0;
  uint64_t size = 0;
  uint64_t alignment = 1;
  std::vector<std::pair<std::string_view, uint64_t>> names;  // The group's.
  uint64_t offset = 0;
  std::string first_method;
};

Result<std::map<SharedKey, Slot>> SharedSlots(
    const std::vector<MethodPlan>& methods,
    std::vector<std::vector<Group>>* groups,
    std::map<int64_t, uint64_t>* prefix_end) {
  std::map<std::string_view, size_t> methods_naming;
  for (const std::vector<Group>& method_groups : *groups) {
    std::set<std::string_view> names;
    for (const Group& group : method_groups) {
      for (const auto& name : group.names) names.insert(name.first);
    }
    for (std::string_view name : names) ++methods_naming[name];
  }
  std::map<SharedKey, Slot> slots;
  std::map<std::string_view, SharedKey> key_of_name;
  for (size_t m = 0; m < methods.size(); ++m) {
    for (Group& group : (*groups)[m]) {
      std::vector<std::pair<std::string_view, uint64_t>> shared;
      for (const auto& name : group.names) {
        if (methods_naming[name.first] < 2) continue;
        shared.push_back(name);
        group.shared_key.push_back(name.first);
      }
      if (shared.empty()) continue;
      for (const auto& name : shared) {
        auto [it, inserted] = key_of_name.emplace(name.first, group.shared_key);
        if (!inserted && it->second != group.shared_key) {
          return InvalidPlan(
              methods[m].name,
              "shared state " + properties::QuotedName(name.first) +
                  " shares storage with " +
                  properties::QuotedName(Joined(group.shared_key)) +
                  " here but with " +
                  properties::QuotedName(Joined(it->second)) + " elsewhere");
        }
      }
      auto [it, inserted] = slots.emplace(group.shared_key, Slot{});
      Slot& slot = it->second;
      if (inserted) {
        slot = {
            group.mem_id,   group.item.size, group.item.alignment, shared, 0,
            methods[m].name};
        continue;
      }
      if (slot.mem_id != group.mem_id || slot.names != shared) {
        return InvalidPlan(
            methods[m].name,
            "shared state " + properties::QuotedName(Joined(group.shared_key)) +
                " is in buffer " + std::to_string(group.mem_id) +
                " here but in buffer " + std::to_string(slot.mem_id) +
                " in method '" + slot.first_method + "'" +
                (slot.mem_id == group.mem_id
                     ? ", at other places relative to its storage"
                     : ""));
      }
      slot.size = std::max(slot.size, group.item.size);
      slot.alignment = std::max(slot.alignment, group.item.alignment);
    }
  }
  for (auto& [key, slot] : slots) {
    uint64_t& end = (*prefix_end)[slot.mem_id];
    if (!CheckedAlignUp(end, slot.alignment, &slot.offset) ||
        !CheckedAdd(slot.offset, slot.size, &end)) {
      return Error(ErrorCode::kInvalidProgram,
                   "shared state " + properties::QuotedName(Joined(key)) +
                       " overflows its buffer");
    }
  }
  return slots;
}

// The re-planned file is written from the object tree, which holds a string
// per reference: names that tensors share in the file are copied once per
// tensor (16,000 tensors sharing a 100 KB name made 1.6 GB per copy of the
// tree, and 7.8 GB in all). Refused where that adds over 64 MiB.
Error CheckSharedNames(const fb::Program& program) {
  constexpr uint64_t kMaxCopiedBytes = uint64_t{64} << 20;
  std::unordered_map<const flatbuffers::String*, uint64_t> references;
  uint64_t copied = 0;
  const auto* plans = program.execution_plan();
  for (uint32_t m = 0; plans != nullptr && m < plans->size(); ++m) {
    const auto* values = plans->Get(m)->values();
    for (uint32_t v = 0; values != nullptr && v < values->size(); ++v) {
      const fb::Tensor* tensor = values->Get(v)->val_as_Tensor();
      const fb::ExtraTensorInfo* extra =
          tensor != nullptr ? tensor->extra_tensor_info() : nullptr;
      const flatbuffers::String* name =
          extra != nullptr ? extra->fully_qualified_name() : nullptr;
      if (name == nullptr) continue;
      if (references[name]++ > 0) copied += name->size();
      if (copied > kMaxCopiedBytes) {
        return Error(ErrorCode::kInvalidProgram,
                     "cannot re-plan: tensors share fully_qualified_name "
                     "strings, and writing a copy for each (as the "
                     "flatbuffers object API does) would add over " +
                         std::to_string(kMaxCopiedBytes >> 20) + " MiB");
      }
    }
  }
  return Error::Ok();
}

uint64_t ToSize(int64_t size) {
  return size < 0 ? 0 : static_cast<uint64_t>(size);
}

}  // namespace

uint64_t ReplanResult::old_total() const {
  uint64_t total = 0;
  for (const ReplannedBuffer& b : buffers) total += b.old_size;
  return total;
}

uint64_t ReplanResult::new_total() const {
  uint64_t total = 0;
  for (const ReplannedBuffer& b : buffers) total += b.new_size;
  return total;
}

Result<ReplanResult> ReplanProgram(const uint8_t* data, size_t size,
                                   const ReplanOptions& options) {
  if (data == nullptr) {
    return Error(ErrorCode::kInvalidArgument, "program data is null");
  }
  if (!IsPowerOfTwo(options.alignment)) {
    return Error(ErrorCode::kInvalidArgument,
                 "alignment " + std::to_string(options.alignment) +
                     " is not a power of two");
  }
  ReplanResult result;
  Result<ProgramBytes> bytes = UnwrapProgram(data, size);
  if (!bytes.ok()) return bytes.error();
  result.bundled_input = bytes->size != size;
  Result<Program> program = Program::Read(bytes->data(), bytes->size);
  if (!program.ok()) return program.error();

  properties::ProgramPlanOptions plan_options;
  plan_options.min_alignment = static_cast<properties::Offset>(
      std::min<uint64_t>(options.alignment, INT64_MAX));
  plan_options.alias_ops = options.alias_ops;
  Result<std::vector<MethodPlan>> methods =
      properties::ReadProgramPlans(bytes->data(), bytes->size, plan_options);
  if (!methods.ok()) return methods.error();
  std::vector<properties::Report> input_reports =
      properties::CheckMethods(*methods);
  for (const properties::Report& report : input_reports) {
    result.input_violations += report.total_violations();
  }

  std::vector<std::vector<Group>> groups;
  for (const MethodPlan& method : *methods) {
    Result<std::vector<Group>> method_groups = GroupsOf(method);
    if (!method_groups.ok()) return method_groups.error();
    groups.push_back(std::move(*method_groups));
  }
  std::map<int64_t, uint64_t> prefix_end;
  Result<std::map<SharedKey, Slot>> slots =
      SharedSlots(*methods, &groups, &prefix_end);
  if (!slots.ok()) return slots.error();

  MEMPLAN_RETURN_IF_ERROR(CheckSharedNames(*program->flatbuffer()));
  fb::ProgramT tree;
  program->flatbuffer()->UnPackTo(&tree);
  if (tree.execution_plan.size() != methods->size()) {
    return Error(ErrorCode::kInternal, "methods and execution plans differ");
  }
  for (size_t m = 0; m < methods->size(); ++m) {
    const MethodPlan& method = (*methods)[m];
    fb::ExecutionPlanT& plan = *tree.execution_plan[m];
    Result<MethodMeta> meta = program->method_meta(m);
    if (!meta.ok()) return meta.error();
    const std::vector<PlannedTensor> tensors = meta->planned_tensors();
    if (tensors.size() != method.plan.allocations.size()) {
      return Error(ErrorCode::kInternal,
                   "planned tensors and the oracle's allocations differ");
    }
    std::vector<uint64_t> offset_of(tensors.size(), 0);
    std::vector<int64_t> mem_id_of(tensors.size(), 0);
    const size_t first_buffer = result.buffers.size();  // This method's.
    for (size_t b = 0; b < method.plan.buffers.size(); ++b) {
      const properties::Buffer& buffer = method.plan.buffers[b];
      const uint64_t prefix = prefix_end[buffer.mem_id];
      std::vector<planner::PlanItem> items;
      std::vector<const Group*> planned;
      uint64_t alignment = 1;
      ReplannedBuffer out;
      out.method = method.name;
      out.mem_id = buffer.mem_id;
      out.device = buffer.device;
      out.old_size = ToSize(buffer.size);
      for (const Group& group : groups[m]) {
        if (group.mem_id != buffer.mem_id) continue;
        out.tensors += group.members.size();
        if (!group.shared_key.empty()) continue;
        items.push_back(group.item);
        planned.push_back(&group);
        alignment = std::max(alignment, group.item.alignment);
      }
      uint64_t shift = prefix;
      if (!CheckedAlignUp(prefix, alignment, &shift)) {
        return InvalidPlan(
            method.name,
            "buffer " + std::to_string(buffer.mem_id) + " overflows");
      }
      out.new_size = prefix;
      out.lower_bound = prefix;
      if (!items.empty()) {
        Error valid = planner::ValidatePlanItems(items);
        if (!valid.ok()) {
          return InvalidPlan(method.name, "buffer " +
                                              std::to_string(buffer.mem_id) +
                                              ": " + valid.message());
        }
        Result<planner::SuiteResult> suite = planner::RunSuite(
            options.algorithms, items, options.algorithm_options);
        if (!suite.ok()) return suite.error();
        if (!CheckedAdd(shift, suite->best.height, &out.new_size) ||
            !CheckedAdd(shift,
                        std::max(planner::LiveBytesLowerBound(items),
                                 suite->best.lower_bound),
                        &out.lower_bound)) {
          return InvalidPlan(
              method.name,
              "buffer " + std::to_string(buffer.mem_id) + " overflows");
        }
        out.algorithm = suite->best_name;
        out.proven_optimal = suite->best.proven_optimal && prefix == 0;
        for (size_t k = 0; k < planned.size(); ++k) {
          for (const properties::StorageGroup::Member& member :
               planned[k]->members) {
            offset_of[member.allocation] =
                shift + suite->best.offsets[k] + member.delta;
            mem_id_of[member.allocation] = buffer.mem_id;
          }
        }
      }
      result.buffers.push_back(std::move(out));
    }
    for (const Group& group : groups[m]) {
      if (group.mem_id < 1 ||
          static_cast<uint64_t>(group.mem_id) > method.plan.buffers.size()) {
        const Allocation& a =
            method.plan.allocations[group.members[0].allocation];
        return InvalidPlan(method.name,
                           a.id + " is in buffer " +
                               std::to_string(group.mem_id) +
                               ", which the method does not have (it has " +
                               std::to_string(method.plan.buffers.size()) +
                               " planned buffers)");
      }
      if (group.shared_key.empty()) continue;
      const Slot& slot = slots->at(group.shared_key);
      for (const properties::StorageGroup::Member& member : group.members) {
        offset_of[member.allocation] = slot.offset + member.delta;
        mem_id_of[member.allocation] = group.mem_id;
      }
    }
    for (size_t p = 0; p < tensors.size(); ++p) {
      fb::TensorT* tensor = plan.values[tensors[p].value_index]->val.AsTensor();
      fb::AllocationDetailsT& info = *tensor->allocation_info;
      info.memory_id = static_cast<uint32_t>(mem_id_of[p]);
      info.memory_offset_low = static_cast<uint32_t>(offset_of[p]);
      info.memory_offset_high = static_cast<uint32_t>(offset_of[p] >> 32);
    }
    for (size_t b = first_buffer; b < result.buffers.size(); ++b) {
      const ReplannedBuffer& buffer = result.buffers[b];
      plan.non_const_buffer_sizes[static_cast<size_t>(buffer.mem_id)] =
          static_cast<int64_t>(std::min<uint64_t>(buffer.new_size, INT64_MAX));
    }
  }

  for (const ReplannedBuffer& buffer : result.buffers) {
    if (buffer.new_size <= buffer.old_size || options.allow_larger) continue;
    result.refusal = "buffer " + std::to_string(buffer.mem_id) +
                     " of method '" + buffer.method + "' would grow from " +
                     std::to_string(buffer.old_size) + " to " +
                     std::to_string(buffer.new_size) + " bytes";
    if (result.input_violations > 0) {
      result.refusal += " (the given plan breaks " +
                        std::to_string(result.input_violations) +
                        " invariants, so its sizes are no yardstick)";
    }
    return result;
  }

  const ExtendedHeader& header = program->extended_header();
  Result<std::vector<uint8_t>> written = WriteProgramFile(
      tree, SegmentDataOf(bytes->data(), bytes->size,
                          header.segment_base_offset, header.present));
  if (!written.ok()) return written.error();

  // The new file must stand on its own: it loads, and the oracle passes it.
  // A fault the given program has too is the program's; any other is ours.
  Result<ProgramBytes> check = UnwrapProgram(written->data(), written->size());
  if (!check.ok()) return check.error();
  Result<Program> loaded = Program::Load(check->data(), check->size);
  if (!loaded.ok()) {
    const bool inherited = !Program::Load(bytes->data(), bytes->size).ok();
    return Error(
        inherited ? ErrorCode::kInvalidProgram : ErrorCode::kInternal,
        "the re-planned program does not load: " + loaded.error().message());
  }
  Result<std::vector<MethodPlan>> replanned =
      properties::ReadProgramPlans(check->data(), check->size, plan_options);
  if (!replanned.ok()) return replanned.error();
  std::vector<properties::Report> reports =
      properties::CheckMethods(*replanned);
  for (size_t m = 0; m < reports.size(); ++m) {
    if (reports[m].ok() || reports[m].violations.empty()) continue;
    const properties::Violation& first = reports[m].violations.front();
    const bool inherited =
        m < input_reports.size() && input_reports[m].count(first.code) > 0;
    return Error(inherited ? ErrorCode::kInvalidProgram : ErrorCode::kInternal,
                 "the re-planned method '" + (*replanned)[m].name +
                     "' breaks " + first.message +
                     (inherited ? " (as the given one does: re-planning "
                                  "changes only offsets and buffer sizes)"
                                : ""));
  }
  result.bytes = std::move(*written);
  return result;
}

}  // namespace tools
}  // namespace memplan
