// Reading a 1M-allocation JSON plan: the JSON reader alone, and the whole
// PlanFromJson (read + field checks). The text is fixed here, not produced
// by PlanToJson, so a writer change cannot move the numbers.
#include <string>

#include "benchmark/benchmark.h"
#include "properties/json.h"
#include "properties/json_plan.h"

namespace memplan {
namespace properties {
namespace {

constexpr int kSlots = 64;
constexpr int64_t kSlotBytes = 4096;

std::string PlanText(size_t n) {
  std::string out =
      "{\n  \"format\": \"memplan.plan.v1\",\n  \"buffers\": [\n"
      "    {\"mem_id\": 1, \"size\": " +
      std::to_string(kSlots * kSlotBytes) +
      ", \"device\": \"cpu\"}\n  ],\n  \"allocations\": [";
  for (size_t i = 0; i < n; ++i) {
    size_t first = (i / kSlots) * 2;
    out += i == 0 ? "\n" : ",\n";
    out += "    {\"id\": \"t" + std::to_string(i) +
           "\", \"kind\": \"plain\", \"mem_id\": 1, \"offset\": " +
           std::to_string((i % kSlots) * kSlotBytes) +
           ", \"size\": " + std::to_string(64 + (i * 7919) % 4000) +
           ", \"first\": " + std::to_string(first) +
           ", \"last\": " + std::to_string(first + 1) + ", \"alignment\": 16}";
  }
  out += "\n  ]\n}\n";
  return out;
}

const std::string& Text(size_t n) {
  static const std::string* text = new std::string(PlanText(n));
  return *text;
}

void BM_ParseJson(benchmark::State& state) {
  const std::string& text = Text(state.range(0));
  for (auto _ : state) {
    Result<JsonValue> value = ParseJson(text);
    if (!value.ok()) state.SkipWithError(value.error().ToString().c_str());
    benchmark::DoNotOptimize(value);
  }
  state.SetBytesProcessed(state.iterations() * text.size());
}
BENCHMARK(BM_ParseJson)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

void BM_PlanFromJson(benchmark::State& state) {
  const std::string& text = Text(state.range(0));
  for (auto _ : state) {
    Result<Plan> plan = PlanFromJson(text);
    if (!plan.ok()) state.SkipWithError(plan.error().ToString().c_str());
    benchmark::DoNotOptimize(plan);
  }
  state.SetBytesProcessed(state.iterations() * text.size());
}
BENCHMARK(BM_PlanFromJson)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace properties
}  // namespace memplan
