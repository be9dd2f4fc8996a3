// check(plan): the oracle. Judges any planner's plan against every invariant
// of DESIGN.md's table and measures each buffer against its lower bound.
#pragma once

#include <cstddef>

#include "properties/plan.h"
#include "properties/report.h"

namespace memplan {
namespace properties {

struct CheckOptions {
  // Messages kept per code; the rest are only counted, so that a hostile
  // plan cannot blow up the report.
  size_t max_violations_per_code = 100;
};

Report Check(const Plan& plan, const CheckOptions& options = {});

}  // namespace properties
}  // namespace memplan
