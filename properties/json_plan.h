// Plans in memplan's own JSON format (described in PLAN_FORMAT.md).
#pragma once

#include <string>
#include <string_view>

#include "properties/plan.h"
#include "runtime/core/result.h"

namespace memplan {
namespace properties {

// Refuses malformed JSON, unknown members, mistyped values and duplicate
// allocation ids with "json LINE:COL: ..."; values that are well-formed but
// break an invariant (a negative offset, an unknown device type) are kept for
// check().
Result<Plan> PlanFromJson(std::string_view text);

// The same format; PlanFromJson(PlanToJson(p)) reproduces p, except
// device_map, which the format folds into each buffer's device, and what
// only plans read from programs carry (Allocation's fields marked
// "Program plans").
std::string PlanToJson(const Plan& plan);

}  // namespace properties
}  // namespace memplan
