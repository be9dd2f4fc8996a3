// Reading a 1M-allocation JSON plan: the JSON reader alone, and the whole
// PlanFromJson (read + field checks). The text is fixed here, not produced
// by PlanToJson, so a writer change cannot move the numbers.
#include <map>
#include <string>
#include <string_view>

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

// One text per size, built once.
const std::string& Text(size_t n) {
  static auto* texts = new std::map<size_t, std::string>();
  auto [it, inserted] = texts->emplace(n, std::string());
  if (inserted) it->second = PlanText(n);
  return it->second;
}

// `read` is ParseJson or PlanFromJson: one body, two readers.
template <typename Read>
void BM_Read(benchmark::State& state, Read read) {
  const std::string& text = Text(state.range(0));
  for (auto _ : state) {
    auto result = read(text);
    if (!result.ok()) state.SkipWithError(result.error().ToString().c_str());
    benchmark::DoNotOptimize(result);
  }
  state.SetBytesProcessed(state.iterations() * text.size());
}
BENCHMARK_CAPTURE(BM_Read, ParseJson,
                  [](std::string_view text) { return ParseJson(text); })
    ->Arg(1 << 20)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Read, PlanFromJson,
                  [](std::string_view text) { return PlanFromJson(text); })
    ->Arg(1 << 20)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace properties
}  // namespace memplan
