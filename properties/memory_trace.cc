#include "properties/memory_trace.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

#include "properties/json.h"

namespace memplan {
namespace properties {
namespace {

Error TraceError(const Error& error) {
  return Error(error.code(), "memory trace " + error.message());
}

Error TraceError(const JsonValue& at, const std::string& what) {
  return Error(ErrorCode::kInvalidArgument,
               "memory trace json " + at.Where() + ": " + what);
}

Result<int64_t> ReadInt(const JsonValue& event, const std::string& where,
                        std::string_view key) {
  const JsonValue* value = event.Find(key);
  if (value == nullptr) {
    return TraceError(event, where + " lacks \"" + std::string(key) + "\"");
  }
  Result<int64_t> parsed = value->AsInt64(where + "." + std::string(key));
  if (!parsed.ok()) return TraceError(parsed.error());
  return parsed;
}

// One tensor as the trace places it; its steps are collected per key.
struct Key {
  std::string name;
  int64_t pid = 0;
  int64_t ts = 0;
  int64_t dur = 0;
  bool operator<(const Key& other) const {
    return std::tie(name, pid, ts, dur) <
           std::tie(other.name, other.pid, other.ts, other.dur);
  }
};

}  // namespace

bool IsMemoryTrace(std::string_view text) {
  Result<JsonDocument> root = ParseJson(text);
  return root.ok() && root->type() == JsonValue::Type::kObject &&
         root->Find("traceEvents") != nullptr;
}

Result<Plan> PlanFromMemoryTrace(std::string_view text,
                                 const MemoryTraceOptions& options) {
  Result<JsonDocument> root = ParseJson(text);
  if (!root.ok()) return TraceError(root.error());
  if (root->type() != JsonValue::Type::kObject) {
    return TraceError(*root, "the trace must be an object");
  }
  const JsonValue* events = root->Find("traceEvents");
  if (events == nullptr || events->type() != JsonValue::Type::kArray) {
    return TraceError(*root, "the trace lacks a \"traceEvents\" array");
  }

  std::map<Key, std::vector<int64_t>> steps_of;
  std::vector<Key> order;  // Keys by first appearance, for stable ids.
  for (size_t e = 0; e < events->items().size(); ++e) {
    const JsonValue& event = events->items()[e];
    std::string where = "traceEvents[" + std::to_string(e) + "]";
    if (event.type() != JsonValue::Type::kObject) {
      return TraceError(event, where + " must be an object");
    }
    const JsonValue* cat = event.Find("cat");
    const JsonValue* ph = event.Find("ph");
    if (cat == nullptr || cat->type() != JsonValue::Type::kString ||
        cat->text() != "memory_allocation" || ph == nullptr ||
        ph->type() != JsonValue::Type::kString || ph->text() != "X") {
      continue;
    }
    const JsonValue* name = event.Find("name");
    if (name == nullptr || name->type() != JsonValue::Type::kString) {
      return TraceError(event, where + ".name must be a string");
    }
    Key key{std::string(name->text()), 0, 0, 0};
    Result<int64_t> pid = ReadInt(event, where, "pid");
    if (!pid.ok()) return pid.error();
    Result<int64_t> ts = ReadInt(event, where, "ts");
    if (!ts.ok()) return ts.error();
    Result<int64_t> dur = ReadInt(event, where, "dur");
    if (!dur.ok()) return dur.error();
    Result<int64_t> tid = ReadInt(event, where, "tid");
    if (!tid.ok()) return tid.error();
    key.pid = *pid;
    key.ts = *ts;
    key.dur = *dur;
    auto [it, inserted] = steps_of.emplace(key, std::vector<int64_t>{});
    if (inserted) order.push_back(key);
    it->second.push_back(*tid);
  }
  if (order.empty()) {
    return TraceError(*root, "no memory_allocation events");
  }

  Plan plan;
  std::map<int64_t, Offset> buffer_end;  // pid -> max(offset + size).
  std::map<std::string, int> runs_of_name;
  std::unordered_set<std::string> ids;
  TimeValue end_time = 0;
  for (const Key& key : order) {
    std::vector<int64_t>& steps = steps_of[key];
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    size_t run_start = 0;
    for (size_t s = 1; s <= steps.size(); ++s) {
      if (s < steps.size() && steps[s] == steps[s - 1] + 1) continue;
      Allocation a;
      int run = ++runs_of_name[key.name];
      a.id = run == 1 ? key.name : key.name + "#" + std::to_string(run);
      while (!ids.insert(a.id).second) a.id += "'";
      a.mem_id = key.pid;
      a.offset = key.ts;
      a.size = key.dur;
      a.lifetime = {steps[run_start], steps[s - 1]};
      a.device = options.device;
      a.alignment = options.alignment;
      end_time = std::max(end_time, a.lifetime.last);
      Offset& end = buffer_end[key.pid];
      end = std::max(end, AllocationEnd(a));
      plan.allocations.push_back(std::move(a));
      run_start = s;
    }
  }
  for (const auto& [pid, end] : buffer_end) {
    plan.buffers.push_back({pid, std::max<Offset>(end, 0), options.device});
  }
  plan.end_time = end_time;
  return plan;
}

}  // namespace properties
}  // namespace memplan
