#include "properties/program_plans.h"

#include <cstring>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "runtime/bundled_program.h"
#include "runtime/program.h"

namespace memplan {
namespace properties {

Result<std::vector<MethodPlan>> ReadProgramPlans(
    const uint8_t* data, size_t size, const ProgramPlanOptions& options,
    const std::string& method) {
  if (data == nullptr) {
    return Error(ErrorCode::kInvalidArgument, "program data is null");
  }
  Result<ProgramBytes> bytes = UnwrapProgram(data, size);
  if (!bytes.ok()) return bytes.error();
  Result<Program> program = Program::Read(bytes->data(), bytes->size);
  if (!program.ok()) return program.error();
  std::vector<MethodPlan> plans;
  for (size_t m = 0; m < program->num_methods(); ++m) {
    std::string name = program->method_name(m);
    if (!method.empty() && name != method) continue;
    Result<Plan> plan = PlanFromProgram(*program, m, options);
    if (!plan.ok()) return plan.error();
    plans.push_back({std::move(name), std::move(*plan)});
  }
  if (!method.empty() && plans.empty()) {
    return Error(ErrorCode::kNotFound, "no method named '" + method + "'");
  }
  return plans;
}

std::vector<Report> CheckMethods(const std::vector<MethodPlan>& methods,
                                 const CheckOptions& options) {
  std::vector<Report> reports;
  reports.reserve(methods.size());
  for (const MethodPlan& method : methods) {
    reports.push_back(Check(method.plan, options));
  }
  struct Place {
    size_t method;
    const Allocation* allocation;
  };
  // Keyed by views of the plans' names: no copy per tensor.
  std::unordered_map<std::string_view, Place> first_place;
  for (size_t m = 0; m < methods.size(); ++m) {
    for (const Allocation& a : methods[m].plan.allocations) {
      if (!a.shared_name) continue;
      auto [it, inserted] = first_place.emplace(*a.shared_name, Place{m, &a});
      if (inserted) continue;
      const Allocation& b = *it->second.allocation;
      if (a.mem_id == b.mem_id && a.offset == b.offset && a.size == b.size) {
        continue;
      }
      Report& report = reports[m];
      uint64_t& count =
          report.counts[static_cast<int>(ViolationCode::kSharedState)];
      if (++count > options.max_violations_per_code) continue;
      auto place = [](const Allocation& x) {
        return x.id + " at buffer " + std::to_string(x.mem_id) + " offset " +
               std::to_string(x.offset) + " (" + std::to_string(x.size) +
               " bytes)";
      };
      Violation v;
      v.code = ViolationCode::kSharedState;
      v.message = "shared_state: " + QuotedName(*a.shared_name) + " is " +
                  place(a) + " in method '" + methods[m].name + "' but " +
                  place(b) + " in method '" + methods[it->second.method].name +
                  "'";
      // `b` lives in another method's plan; only this method's id is named.
      v.allocation_ids = {a.id};
      v.mem_id = a.mem_id;
      v.bytes = ByteRange{a.offset, AllocationEnd(a)};
      v.lifetime = a.lifetime;
      report.violations.push_back(std::move(v));
    }
  }
  return reports;
}

}  // namespace properties
}  // namespace memplan
