#include "properties/plan_checks.h"

#include <map>
#include <memory>
#include <sstream>

#include "planner/emitter.h"
#include "properties/check.h"
#include "properties/planner_plan.h"
#include "properties/program_plan.h"
#include "runtime/cpu_allocator.h"
#include "runtime/device_allocator_registry.h"
#include "runtime/loader.h"
#include "runtime/program.h"
#include "runtime/simulated_device_allocator.h"
#include "schema/program_generated.h"

namespace memplan {
namespace properties {
namespace {

namespace fb = executorch_flatbuffer;

std::map<std::string, const Allocation*> ById(const Plan& plan) {
  std::map<std::string, const Allocation*> by_id;
  for (const Allocation& a : plan.allocations) by_id[a.id] = &a;
  return by_id;
}

std::string DeviceOrNone(const std::optional<Device>& device) {
  return device ? device->ToString() : "none";
}

// The device each value carries in the file, CPU:0 when it carries none.
std::vector<Device> FileDevices(const fb::ExecutionPlan& method) {
  std::vector<Device> devices;
  if (method.values() == nullptr) return devices;
  for (const fb::EValue* value : *method.values()) {
    Device device;
    if (const fb::Tensor* tensor = value->val_as_Tensor()) {
      if (const auto* info = tensor->extra_tensor_info()) {
        device.type = static_cast<DeviceType>(info->device_type());
        device.index = static_cast<DeviceIndex>(info->device_index());
      }
    }
    devices.push_back(device);
  }
  return devices;
}

void CheckDevices(const planner::Graph& graph,
                  const planner::PlanOptions& options, const MethodMeta& meta,
                  PlannedGraphVerdict* verdict) {
  std::vector<Device> file = FileDevices(*meta.plan());
  if (file.size() != graph.tensors().size()) {
    verdict->device_mismatches.push_back(
        "file has " + std::to_string(file.size()) + " values, graph " +
        std::to_string(graph.tensors().size()));
    return;
  }
  for (size_t i = 0; i < file.size(); ++i) {
    planner::ValueId id = static_cast<planner::ValueId>(i);
    Device expected =
        options.device_planning ? graph.DeviceOf(id) : Device::Cpu();
    Device root = file[graph.RootOf(id)];
    const std::string& name = graph.tensor(id).name;
    if (file[i] != expected || file[i] != root) {
      verdict->device_mismatches.push_back(
          "device_index: '" + name + "' is on " + file[i].ToString() +
          " in the file, on " + expected.ToString() +
          " in the graph, its root on " + root.ToString());
    }
  }
  for (const PlannedTensor& t : meta.planned_tensors()) {
    Result<Device> buffer = meta.memory_planned_buffer_device(t.memory_id - 1);
    if (!buffer.ok() || *buffer != t.device) {
      verdict->device_mismatches.push_back(
          "buffer device: value " + std::to_string(t.value_index) + " on " +
          t.device.ToString() + " in buffer " + std::to_string(t.memory_id) +
          " on " +
          (buffer.ok() ? buffer->ToString() : buffer.error().ToString()));
    }
  }
}

void CompareWithProgram(const planner::Graph& graph,
                        PlannedGraphVerdict* verdict) {
  // Planner times are node indices; the file's are instruction positions,
  // where node n's et_view declarations precede its own KernelCall.
  const std::vector<TimeValue> kernel = planner::KernelPositions(graph);
  auto window_start = [&](TimeValue node) -> TimeValue {
    if (node <= 0 || kernel.empty()) return 0;
    return kernel[std::min<size_t>(node, kernel.size()) - 1] + 1;
  };
  auto window_end = [&](TimeValue node) -> TimeValue {
    if (kernel.empty() || node < 0) return node;
    return kernel[std::min<size_t>(node, kernel.size() - 1)];
  };
  auto planned = ById(verdict->planner_plan);
  auto loaded = ById(verdict->program_plan);
  for (const auto& [id, a] : planned) {
    auto it = loaded.find(id);
    if (it == loaded.end()) {
      verdict->round_trip_mismatches.push_back(
          id + " is planned but not in the file");
      continue;
    }
    const Allocation& b = *it->second;
    if (a->mem_id != b.mem_id || a->offset != b.offset || a->size != b.size ||
        a->device != b.device) {
      verdict->round_trip_mismatches.push_back(
          id + ": planner mem_id " + std::to_string(a->mem_id) + " offset " +
          std::to_string(a->offset) + " size " + std::to_string(a->size) +
          " on " + DeviceOrNone(a->device) + "; file mem_id " +
          std::to_string(b.mem_id) + " offset " + std::to_string(b.offset) +
          " size " + std::to_string(b.size) + " on " + DeviceOrNone(b.device));
    }
    // Containment, not equality: the planner stretches a root over its
    // aliases' uses and a mutable buffer over the program; the file only
    // shows where each value itself is named.
    if (b.lifetime.first < window_start(a->lifetime.first) ||
        b.lifetime.last > window_end(a->lifetime.last)) {
      verdict->lifetime_mismatches.push_back(
          id + ": named in the file over [" + std::to_string(b.lifetime.first) +
          "," + std::to_string(b.lifetime.last) + "], planned for nodes [" +
          std::to_string(a->lifetime.first) + "," +
          std::to_string(a->lifetime.last) + "] = instructions [" +
          std::to_string(window_start(a->lifetime.first)) + "," +
          std::to_string(window_end(a->lifetime.last)) + "]");
    }
  }
  for (const auto& [id, b] : loaded) {
    if (planned.count(id) == 0) {
      verdict->round_trip_mismatches.push_back(
          id + " is in the file but not planned");
    }
  }
}

void AppendReport(const char* title, const Report& report,
                  std::ostringstream* out) {
  if (report.ok()) return;
  *out << title << ":\n" << FormatText(report);
}

}  // namespace

bool PlannedGraphVerdict::ok() const {
  return pipeline_error.empty() && planner_report.ok() && program_report.ok() &&
         device_mismatches.empty() && lifetime_mismatches.empty() &&
         round_trip_mismatches.empty();
}

std::string PlannedGraphVerdict::Describe() const {
  std::ostringstream out;
  if (!pipeline_error.empty()) out << "pipeline: " << pipeline_error << "\n";
  AppendReport("oracle on the planner's plan", planner_report, &out);
  AppendReport("oracle on the emitted program", program_report, &out);
  for (const auto* list :
       {&device_mismatches, &lifetime_mismatches, &round_trip_mismatches}) {
    for (const std::string& line : *list) out << line << "\n";
  }
  return out.str();
}

namespace {

// The planner's side of the verdict; false when the adapter refused.
bool CheckPlannerSide(const planner::Graph& graph,
                      const planner::PlanResult& result,
                      PlannedGraphVerdict* verdict) {
  PlannerPlanOptions adapter;
  adapter.value_ids = true;
  adapter.end_time =
      std::max<TimeValue>(0, static_cast<TimeValue>(graph.nodes().size()) - 1);
  Result<Plan> planner_plan = PlanFromPlannerResult(result, adapter);
  if (!planner_plan.ok()) {
    verdict->pipeline_error = "adapter: " + planner_plan.error().ToString();
    return false;
  }
  verdict->planner_plan = std::move(*planner_plan);
  verdict->planner_report = Check(verdict->planner_plan);
  // Kind rules: inputs live from 0, outputs to the end, mutable state for
  // the whole program (it outlives one run, which no instruction shows).
  const TimeValue end = *adapter.end_time;
  for (const Allocation& a : verdict->planner_plan.allocations) {
    bool broken = (a.kind == SpecKind::kInput && a.lifetime.first != 0) ||
                  (a.kind == SpecKind::kOutput && a.lifetime.last != end) ||
                  (a.kind == SpecKind::kMutableBuffer &&
                   (a.lifetime.first != 0 || a.lifetime.last != end));
    if (broken) {
      verdict->lifetime_mismatches.push_back(
          std::string(SpecKindName(a.kind)) + " " + a.id + " live [" +
          std::to_string(a.lifetime.first) + "," +
          std::to_string(a.lifetime.last) + "] in a program [0," +
          std::to_string(end) + "]");
    }
  }
  // A root holds its bytes while any alias of it is live.
  auto by_id = ById(verdict->planner_plan);
  for (const Allocation& a : verdict->planner_plan.allocations) {
    if (!a.alias_of || by_id.count(*a.alias_of) == 0) continue;
    const Lifetime& root = by_id[*a.alias_of]->lifetime;
    if (root.first > a.lifetime.first || root.last < a.lifetime.last) {
      verdict->lifetime_mismatches.push_back(
          a.id + " live [" + std::to_string(a.lifetime.first) + "," +
          std::to_string(a.lifetime.last) + "] outlives its root " +
          *a.alias_of + " [" + std::to_string(root.first) + "," +
          std::to_string(root.last) + "]");
    }
  }
  return true;
}

}  // namespace

PlannedGraphVerdict CheckPlannedGraph(const planner::Graph& graph,
                                      const planner::PlanResult& result,
                                      const planner::PlanOptions& options) {
  Result<std::vector<uint8_t>> bytes = planner::EmitProgram(graph, result);
  if (!bytes.ok()) {
    // The planner's plan is still judged: the emitter refusing it is only
    // one of the findings.
    PlannedGraphVerdict verdict;
    if (CheckPlannerSide(graph, result, &verdict)) {
      verdict.pipeline_error = "emit: " + bytes.error().ToString();
    }
    return verdict;
  }
  return CheckPlannedProgram(graph, result, options, std::move(*bytes));
}

PlannedGraphVerdict CheckPlannedProgram(const planner::Graph& graph,
                                        const planner::PlanResult& result,
                                        const planner::PlanOptions& options,
                                        std::vector<uint8_t> bytes) {
  PlannedGraphVerdict verdict;
  if (!CheckPlannerSide(graph, result, &verdict)) return verdict;
  verdict.program = std::move(bytes);
  Result<Program> program =
      Program::Load(verdict.program.data(), verdict.program.size());
  if (!program.ok()) {
    verdict.pipeline_error = "load: " + program.error().ToString();
    return verdict;
  }
  Result<MethodMeta> meta = program->method_meta(0);
  if (!meta.ok()) {
    verdict.pipeline_error = "method_meta: " + meta.error().ToString();
    return verdict;
  }
  CheckDevices(graph, options, *meta, &verdict);
  ProgramPlanOptions read_options;
  read_options.min_alignment = static_cast<Offset>(options.alignment);
  Result<Plan> program_plan = PlanFromProgram(*program, 0, read_options);
  if (!program_plan.ok()) {
    verdict.pipeline_error = "program_plan: " + program_plan.error().ToString();
    return verdict;
  }
  verdict.program_plan = std::move(*program_plan);
  verdict.program_report = Check(verdict.program_plan);
  CompareWithProgram(graph, &verdict);
  return verdict;
}

Error CheckLoadedOnOwnDevices(const std::vector<uint8_t>& bytes) {
  Result<Program> program = Program::Load(bytes.data(), bytes.size());
  if (!program.ok()) return program.error();
  DeviceAllocatorRegistry registry;
  MEMPLAN_RETURN_IF_ERROR(registry.Register(std::make_shared<CpuAllocator>()));
  SimulatedDeviceOptions cuda;
  cuda.num_devices = 2;
  cuda.capacity_bytes = uint64_t{1} << 28;
  MEMPLAN_RETURN_IF_ERROR(
      registry.Register(std::make_shared<SimulatedDeviceAllocator>(cuda)));
  Result<LoadedMethod> method =
      LoadMethod(*program, program->method_name(0), registry);
  if (!method.ok()) return method.error();
  for (const LoadedTensor& tensor : method->tensors()) {
    const std::string what = "value " + std::to_string(tensor.value_index);
    if (tensor.memory_id == 0 || tensor.memory_id > method->buffers().size()) {
      return Error(ErrorCode::kInternal, what + ": memory_id " +
                                             std::to_string(tensor.memory_id) +
                                             " has no buffer");
    }
    const DeviceMemoryBuffer& buffer = method->buffers()[tensor.memory_id - 1];
    Result<std::shared_ptr<DeviceAllocator>> own =
        registry.Get(tensor.device.type);
    if (!own.ok()) return own.error();
    if (buffer.allocator() != *own || buffer.device() != tensor.device) {
      return Error(ErrorCode::kInternal,
                   what + " on " + tensor.device.ToString() +
                       " lies in buffer " + std::to_string(tensor.memory_id) +
                       " allocated on " + buffer.device().ToString());
    }
    const uintptr_t begin = reinterpret_cast<uintptr_t>(tensor.data);
    const uintptr_t base = reinterpret_cast<uintptr_t>(buffer.data());
    if (begin < base || tensor.nbytes > buffer.size() ||
        begin - base > buffer.size() - tensor.nbytes) {
      return Error(ErrorCode::kInternal,
                   what + ": [data, data + " + std::to_string(tensor.nbytes) +
                       ") is outside buffer " +
                       std::to_string(tensor.memory_id) + " of " +
                       std::to_string(buffer.size()) + " bytes");
    }
  }
  return method->CheckTensorsInOwnBuffers();
}

}  // namespace properties
}  // namespace memplan
