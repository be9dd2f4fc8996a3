// Test-only checks of a PlanResult against the invariants of DESIGN.md,
// so each planner test asserts validity, not only the numbers it targets.
#pragma once

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "planner/graph.h"
#include "planner/graph_format.h"
#include "planner/plan_result.h"

namespace memplan {
namespace planner {
namespace testing {

// One line per broken rule: overlap of two live non-aliased tensors in one
// buffer, a tensor outside its buffer, a misaligned offset, a tensor whose
// device differs from its buffer's, an alias not at its root's bytes.
inline std::vector<std::string> PlanViolations(const PlanResult& plan) {
  std::vector<std::string> violations;
  const std::vector<TensorAllocation>& t = plan.tensors;
  auto root_name = [](const TensorAllocation& a) {
    return a.alias_of ? *a.alias_of : a.name;
  };
  for (size_t i = 0; i < t.size(); ++i) {
    if (!t[i].planned) continue;
    if (t[i].mem_id == 0 || t[i].mem_id > plan.buffers.size()) {
      violations.push_back(t[i].name + ": mem_id out of range");
      continue;
    }
    const BufferInfo& buffer = plan.buffers[t[i].mem_id - 1];
    if (t[i].offset + t[i].size > buffer.size) {
      violations.push_back(t[i].name + ": beyond its buffer");
    }
    if (t[i].offset % t[i].alignment != 0) {
      violations.push_back(t[i].name + ": misaligned");
    }
    if (t[i].device != buffer.device) {
      violations.push_back(t[i].name + ": device " + t[i].device.ToString() +
                           " in a " + buffer.device.ToString() + " buffer");
    }
    for (size_t j = i + 1; j < t.size(); ++j) {
      if (!t[j].planned || t[j].mem_id != t[i].mem_id) continue;
      if (root_name(t[i]) == root_name(t[j])) continue;  // Aliases share.
      bool live_together = t[i].first <= t[j].last && t[j].first <= t[i].last;
      bool bytes_overlap = t[i].offset < t[j].offset + t[j].size &&
                           t[j].offset < t[i].offset + t[i].size;
      if (live_together && bytes_overlap && t[i].size && t[j].size) {
        violations.push_back("overlap: " + t[i].name + " and " + t[j].name);
      }
    }
  }
  return violations;
}

inline const TensorAllocation& Find(const PlanResult& plan,
                                    const std::string& name) {
  for (const TensorAllocation& t : plan.tensors) {
    if (t.name == name) return t;
  }
  static const TensorAllocation kMissing{};
  return kMissing;
}

// Parses a graph that a test wrote by hand; an error here is a test bug.
inline Graph MustParse(const std::string& text) {
  Result<Graph> graph = ParseGraph(text);
  if (!graph.ok()) {
    ADD_FAILURE() << "test graph does not parse: " << graph.error().ToString();
    return Graph("unparsed");
  }
  return std::move(*graph);
}

}  // namespace testing
}  // namespace planner
}  // namespace memplan
