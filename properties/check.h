// check(plan): the oracle. Judges any planner's plan against every invariant
// of DESIGN.md's table and measures each buffer against its lower bound.
#pragma once

#include <cstddef>

#include "properties/plan.h"
#include "properties/report.h"
#include "runtime/core/plan_rules.h"

namespace memplan {
namespace properties {

struct CheckOptions {
  // Messages kept per code; the rest are only counted, so that a hostile
  // plan cannot blow up the report.
  size_t max_violations_per_code = 100;
  // A plan whose buffers add up to more bytes than this breaks `bounds`
  // (the same budget the loader applies before allocating anything).
  uint64_t max_planned_bytes = kDefaultMaxPlannedBytes;
};

Report Check(const Plan& plan, const CheckOptions& options = {});

}  // namespace properties
}  // namespace memplan
