// Plans from the planner's own result (planner::PlanResult), so that the
// oracle judges memplan's planner exactly as it judges any other.
#pragma once

#include <optional>

#include "planner/plan_result.h"
#include "properties/plan.h"
#include "runtime/core/result.h"

namespace memplan {
namespace properties {

struct PlannerPlanOptions {
  // Allocation ids: the tensor's name (false), or "v<value id>" (true), the
  // ids PlanFromProgram gives, so plans from both adapters compare by id.
  bool value_ids = false;
  // Last position of the program, e.g. graph.nodes().size() - 1; when set,
  // the oracle also checks that every lifetime lies in [0, end_time].
  std::optional<TimeValue> end_time;
};

// One Buffer per PlanResult buffer (unused ids included, with size 0) and
// one Allocation per planned tensor; unplanned tensors (constants, dynamic
// unbound, inputs/outputs not asked for) are left out. Aliases name their
// root as alias_of. Errors: a size or offset above INT64_MAX, or an alias
// whose root is not in the result (both name the tensor and the field).
Result<Plan> PlanFromPlannerResult(const planner::PlanResult& result,
                                   const PlannerPlanOptions& options = {});

}  // namespace properties
}  // namespace memplan
