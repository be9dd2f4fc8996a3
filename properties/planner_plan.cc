#include "properties/planner_plan.h"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace memplan {
namespace properties {
namespace {

// The oracle's byte fields are signed; a value above INT64_MAX is refused
// rather than wrapped to a negative number the oracle would misreport.
Error ToOffset(uint64_t value, const std::string& where, Offset* out) {
  if (value > static_cast<uint64_t>(INT64_MAX)) {
    return Error(ErrorCode::kInvalidArgument,
                 where + " = " + std::to_string(value) +
                     ", must be <= " + std::to_string(INT64_MAX));
  }
  *out = static_cast<Offset>(value);
  return Error::Ok();
}

std::string IdOf(const planner::TensorAllocation& tensor, bool value_ids) {
  return value_ids ? "v" + std::to_string(tensor.value_id) : tensor.name;
}

}  // namespace

Result<Plan> PlanFromPlannerResult(const planner::PlanResult& result,
                                   const PlannerPlanOptions& options) {
  Plan plan;
  plan.end_time = options.end_time;
  plan.buffers.reserve(result.buffers.size());
  for (size_t b = 0; b < result.buffers.size(); ++b) {
    const planner::BufferInfo& info = result.buffers[b];
    Buffer buffer;
    buffer.mem_id = info.mem_id;
    buffer.device = info.device;
    MEMPLAN_RETURN_IF_ERROR(ToOffset(
        info.size, "buffers[" + std::to_string(b) + "].size", &buffer.size));
    plan.buffers.push_back(buffer);
  }

  std::unordered_map<std::string, const planner::TensorAllocation*> by_name;
  for (const planner::TensorAllocation& tensor : result.tensors) {
    by_name.emplace(tensor.name, &tensor);
  }
  for (size_t i = 0; i < result.tensors.size(); ++i) {
    const planner::TensorAllocation& tensor = result.tensors[i];
    if (!tensor.planned) continue;
    const std::string where =
        "tensors[" + std::to_string(i) + "] '" + tensor.name + "'";
    Allocation a;
    a.id = IdOf(tensor, options.value_ids);
    a.kind = tensor.kind;
    a.mem_id = tensor.mem_id;
    MEMPLAN_RETURN_IF_ERROR(
        ToOffset(tensor.offset, where + ".offset", &a.offset));
    MEMPLAN_RETURN_IF_ERROR(ToOffset(tensor.size, where + ".size", &a.size));
    MEMPLAN_RETURN_IF_ERROR(
        ToOffset(tensor.alignment, where + ".alignment", &a.alignment));
    a.lifetime = {tensor.lifetime.first, tensor.lifetime.last};
    a.device = tensor.device;
    if (tensor.alias_of) {
      auto root = by_name.find(*tensor.alias_of);
      if (root == by_name.end()) {
        return Error(ErrorCode::kInvalidArgument,
                     where + ".alias_of = '" + *tensor.alias_of +
                         "', which is not a tensor of the result");
      }
      a.alias_of = IdOf(*root->second, options.value_ids);
    }
    plan.allocations.push_back(std::move(a));
  }
  return plan;
}

}  // namespace properties
}  // namespace memplan
