// The oracle's view of a whole program file: every method's plan, read
// without judging (Program::Read), then judged together, so that state the
// methods share is checked across them (`shared_state`).
//
// Reading fails (the caller's "unreadable", exit 2) only when no plan can be
// derived: not a program, the flatbuffers Verifier refuses it, or an index a
// plan needs is out of range. Every plan fault is left to CheckMethods.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "properties/check.h"
#include "properties/plan.h"
#include "properties/program_plan.h"
#include "properties/report.h"
#include "runtime/core/result.h"

namespace memplan {
namespace properties {

struct MethodPlan {
  std::string name;  // The execution plan's name.
  Plan plan;
};

// `data`: an ET12 program (.pte) or a bundled program (.bpte); any
// alignment. `method`: only that method ("" for all; one that no method
// has is kNotFound).
Result<std::vector<MethodPlan>> ReadProgramPlans(
    const uint8_t* data, size_t size, const ProgramPlanOptions& options = {},
    const std::string& method = "");

// Check() of each method, plus `shared_state`: an allocation that carries a
// shared name (a mutable buffer's fully qualified name) must have the same
// (mem_id, offset, size) wherever it appears, in every method and within
// one; each one that differs from the first is reported in its method.
std::vector<Report> CheckMethods(const std::vector<MethodPlan>& methods,
                                 const CheckOptions& options = {});

}  // namespace properties
}  // namespace memplan
