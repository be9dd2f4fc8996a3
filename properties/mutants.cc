#include "properties/mutants.h"

#include <rapidcheck.h>

#include <algorithm>
#include <map>
#include <memory>

#include "planner/algorithm.h"
#include "planner/emitter.h"
#include "planner/graph_format.h"
#include "properties/generators.h"
#include "properties/plan_checks.h"
#include "schema/program_generated.h"

namespace memplan {
namespace properties {
namespace {

namespace fb = executorch_flatbuffer;
using planner::PlanResult;
using planner::TensorAllocation;

uint64_t AlignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// Places every buffer's roots again with the real algorithm, but with the
// buggy planner's view of the items: last use shortened by `last_shift`,
// or alignment ignored. Aliases follow their roots.
bool Replace(const MutantCase& c, PlanResult* plan, int64_t last_shift,
             bool ignore_alignment) {
  std::map<uint32_t, std::vector<size_t>> roots;
  for (size_t i = 0; i < plan->tensors.size(); ++i) {
    const TensorAllocation& t = plan->tensors[i];
    if (t.planned && !t.alias_of) roots[t.mem_id].push_back(i);
  }
  std::unique_ptr<planner::Algorithm> algorithm =
      planner::MakeAlgorithm(plan->algorithm);
  if (roots.empty() || algorithm == nullptr) return false;
  const PlanResult before = *plan;
  for (const auto& [mem_id, members] : roots) {
    std::vector<planner::PlanItem> items;
    for (size_t i : members) {
      TensorAllocation& t = plan->tensors[i];
      planner::PlanItem item;
      item.alignment = ignore_alignment ? 1 : t.alignment;
      item.size = ignore_alignment ? t.size : AlignUp(t.size, t.alignment);
      item.lifetime.first = t.lifetime.first;
      item.lifetime.last =
          std::max(t.lifetime.first, t.lifetime.last - last_shift);
      t.lifetime.last =
          item.lifetime.last;  // The buggy planner reports what it believed.
      items.push_back(item);
    }
    Result<planner::Placement> placement =
        algorithm->Place(items, c.options.algorithm_options);
    if (!placement.ok()) return false;
    for (size_t k = 0; k < members.size(); ++k) {
      plan->tensors[members[k]].offset = placement->offsets[k];
    }
    plan->buffers[mem_id - 1].size =
        placement->height + c.options.buffer_padding;
  }
  std::map<std::string, uint64_t> root_offset;
  for (const TensorAllocation& t : plan->tensors) {
    if (t.planned && !t.alias_of) root_offset[t.name] = t.offset;
  }
  for (TensorAllocation& t : plan->tensors) {
    if (t.planned && t.alias_of) t.offset = root_offset.at(*t.alias_of);
  }
  // Acted only when the buggy planner's view differs from the true one.
  for (size_t i = 0; i < plan->tensors.size(); ++i) {
    if (plan->tensors[i].offset != before.tensors[i].offset ||
        plan->tensors[i].lifetime.last != before.tensors[i].lifetime.last) {
      return true;
    }
  }
  return false;
}

// ExecuTorch's _ViewSpec bug: a view spec without device_index falls back
// to CPU:0 while its base lives on a device.
bool ViewDropsDevice(const MutantCase&, PlanResult* plan,
                     std::vector<uint8_t>*) {
  bool acted = false;
  for (TensorAllocation& t : plan->tensors) {
    if (t.planned && t.kind == SpecKind::kView && !t.device.is_cpu()) {
      t.device = Device::Cpu();
      acted = true;
    }
  }
  return acted;
}

// Partitioning by device type only: cuda:1 tensors planned into cuda:0's
// buffer. The buggy planner is the real one on a graph whose cuda:1 reads
// cuda:0, reporting each tensor's true device.
bool PartitionIgnoresDeviceIndex(const MutantCase& c, PlanResult* plan,
                                 std::vector<uint8_t>*) {
  bool any_cuda1 = false;
  for (const TensorAllocation& t : plan->tensors) {
    any_cuda1 |= t.planned && t.device == Device::Cuda(1);
  }
  if (!any_cuda1) return false;
  planner::Graph merged = MapDevices(c.graph, [](Device d) {
    return d.is_cpu() ? d : Device{d.type, 0};
  });
  Result<PlanResult> buggy = planner::PlanGraph(merged, c.options);
  if (!buggy.ok()) return false;
  for (TensorAllocation& t : buggy->tensors)
    t.device = c.graph.DeviceOf(t.value_id);
  *plan = std::move(*buggy);
  return true;
}

bool LifetimeEndOffByOne(const MutantCase& c, PlanResult* plan,
                         std::vector<uint8_t>*) {
  return Replace(c, plan, 1, false);
}

// An in-place output placed right after its base instead of on it.
bool InPlaceAtOtherOffset(const MutantCase&, PlanResult* plan,
                          std::vector<uint8_t>*) {
  for (TensorAllocation& t : plan->tensors) {
    if (!t.planned || t.kind != SpecKind::kInPlace) continue;
    const TensorAllocation* root = nullptr;
    for (const TensorAllocation& r : plan->tensors) {
      if (r.name == *t.alias_of) root = &r;
    }
    t.offset = root->offset + AlignUp(root->size, t.alignment);
    uint64_t& size = plan->buffers[t.mem_id - 1].size;
    size = std::max(size, t.offset + t.size);  // In bounds: only the alias.
    return true;
  }
  return false;
}

// Merging per-device plans with ids shifted by one.
bool MemIdOffByOne(const MutantCase&, PlanResult* plan, std::vector<uint8_t>*) {
  bool acted = false;
  for (TensorAllocation& t : plan->tensors) {
    if (t.planned) {
      ++t.mem_id;
      acted = true;
    }
  }
  return acted;
}

bool AlignmentIgnored(const MutantCase& c, PlanResult* plan,
                      std::vector<uint8_t>*) {
  return Replace(c, plan, 0, true);
}

// An emitter that writes offsets as 32 bits: memory_offset_high lost.
bool OffsetHighBitsDropped(const MutantCase& c, PlanResult* plan,
                           std::vector<uint8_t>* program) {
  Result<std::vector<uint8_t>> bytes = planner::EmitProgram(c.graph, *plan);
  if (!bytes.ok()) return false;
  std::unique_ptr<fb::ProgramT> unpacked(
      fb::GetProgram(bytes->data())->UnPack());
  bool acted = false;
  for (auto& method : unpacked->execution_plan) {
    for (auto& value : method->values) {
      fb::TensorT* tensor = value->val.AsTensor();
      if (tensor == nullptr || !tensor->allocation_info) continue;
      acted |= tensor->allocation_info->memory_offset_high != 0;
      tensor->allocation_info->memory_offset_high = 0;
    }
  }
  flatbuffers::FlatBufferBuilder builder;
  fb::FinishProgramBuffer(builder, fb::Program::Pack(builder, unpacked.get()));
  program->assign(builder.GetBufferPointer(),
                  builder.GetBufferPointer() + builder.GetSize());
  return acted;
}

planner::PlanOptions MutantOptions() {
  planner::PlanOptions options;
  options.algorithms = {"greedy"};
  options.alignment = 16;
  options.device_planning = true;
  return options;
}

std::string CaseText(const MutantCase& c) {
  return planner::FormatGraph(c.graph);
}

}  // namespace

std::vector<MutantCase> GeneratedCases(int count, uint64_t seed) {
  std::vector<MutantCase> cases;
  rc::Gen<planner::Graph> gen = GenGraph();
  for (int i = 0; i < count; ++i) {
    rc::Random random(seed + static_cast<uint64_t>(i));
    cases.push_back({gen(random, 50).value(), MutantOptions()});
  }
  return cases;
}

std::vector<MutantCase> BigOffsetCases() {
  std::vector<MutantCase> cases;
  // a (5..7 GB) and b live together, so b is placed above 2^32.
  for (int gb : {5, 6, 7}) {
    for (int b_dim : {1024, 4096}) {
      std::string text =
          "graph big\n"
          "tensor x uint8 [64] input\n"
          "tensor a uint8 [" +
          std::to_string(gb) + ",1000000000]\n" + "tensor b float [" +
          std::to_string(b_dim) + "]\n" + "tensor y float [" +
          std::to_string(b_dim) + "] output\n" +
          "node n0 op in=x out=a\n"
          "node n1 op in=a out=b\n"
          "node n2 op in=a,b out=y\n";
      Result<planner::Graph> graph = planner::ParseGraph(text);
      if (graph.ok()) cases.push_back({std::move(*graph), MutantOptions()});
    }
  }
  return cases;
}

std::vector<Mutant> PlannerMutants() {
  auto generated = [] { return GeneratedCases(150, 20240601); };
  return {
      {"view_drops_device", ViolationCode::kDeviceInfo, true, true,
       ViewDropsDevice, generated},
      {"partition_ignores_device_index", ViolationCode::kCrossDevice, true,
       true, PartitionIgnoresDeviceIndex, generated},
      {"lifetime_end_off_by_one", ViolationCode::kOverlap, false, true,
       LifetimeEndOffByOne, generated},
      {"in_place_at_other_offset", ViolationCode::kAlias, true, true,
       InPlaceAtOtherOffset, generated},
      {"mem_id_off_by_one", ViolationCode::kBounds, true, true, MemIdOffByOne,
       generated},
      {"alignment_ignored", ViolationCode::kAlignment, false, false,
       AlignmentIgnored, generated},
      {"offset_high_bits_dropped", ViolationCode::kOverlap, true, true,
       OffsetHighBitsDropped, BigOffsetCases},
  };
}

MutantOutcome RunMutant(const Mutant& mutant) {
  MutantOutcome outcome;
  for (const MutantCase& c : mutant.cases()) {
    Result<PlanResult> plan = planner::PlanGraph(c.graph, c.options);
    if (!plan.ok()) continue;
    PlannedGraphVerdict baseline = CheckPlannedGraph(c.graph, *plan, c.options);
    if (!baseline.ok()) {
      outcome.baseline_failure = CaseText(c) + baseline.Describe();
      continue;
    }
    PlanResult buggy = *plan;
    std::vector<uint8_t> program;
    if (!mutant.apply(c, &buggy, &program)) continue;
    ++outcome.applicable;
    PlannedGraphVerdict verdict =
        program.empty() ? CheckPlannedGraph(c.graph, buggy, c.options)
                        : CheckPlannedProgram(c.graph, buggy, c.options,
                                              std::move(program));
    bool killed = false;
    if (verdict.planner_report.count(mutant.expected) > 0) {
      outcome.killed_by.insert("oracle(planner plan)");
      killed = true;
    }
    if (verdict.program_report.count(mutant.expected) > 0) {
      outcome.killed_by.insert("oracle(emitted program)");
      killed = true;
    }
    if (!verdict.pipeline_error.empty()) {
      outcome.killed_by.insert(
          verdict.pipeline_error.substr(0, verdict.pipeline_error.find(':')) +
          " refused");
    }
    if (!verdict.device_mismatches.empty()) {
      outcome.killed_by.insert("device_index");
    }
    if (!verdict.lifetime_mismatches.empty()) {
      outcome.killed_by.insert("lifetimes");
    }
    if (!verdict.round_trip_mismatches.empty()) {
      outcome.killed_by.insert("round_trip");
    }
    if (killed) {
      ++outcome.killed;
    } else if (outcome.first_survivor.empty() && verdict.ok()) {
      outcome.first_survivor = CaseText(c);
    }
  }
  return outcome;
}

}  // namespace properties
}  // namespace memplan
