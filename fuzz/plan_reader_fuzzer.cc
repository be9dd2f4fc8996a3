// Bytes -> the oracle's untrusted input: every input is read as a JSON plan
// (PlanFromJson) and as a MiniMalloc CSV plan (PlanFromCsv). A refused input
// must say why ("json L:C: ..." / "csv ..."). Every accepted plan goes
// through Check and is checked again by an all-pairs reference written here
// (O(n^2), independent of check.cc's maps and of the overlap sweep): every
// violation count but overlap must be equal, overlap must be zero exactly
// when the reference finds no conflicting pair and never above their number
// (the sweep keeps a conflicting allocation out of its active set, so it
// does not enumerate pairs hidden behind it); per-buffer lower bound, high
// water and allocation count must agree; messages are kept up to the limit.
// An accepted plan also survives PlanToJson -> PlanFromJson unchanged. A
// text the planner's MiniMalloc reader accepts gives one PlanItem per row and
// survives WriteMinimallocCsv (new offsets) -> ParseMinimallocCsv.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/minimalloc_csv.h"
#include "properties/check.h"
#include "properties/csv_plan.h"
#include "properties/json.h"
#include "properties/json_plan.h"
#include "properties/plan.h"
#include "properties/report.h"

namespace {

using memplan::Device;
using memplan::DeviceType;
using memplan::properties::Allocation;
using memplan::properties::Buffer;
using memplan::properties::CheckOptions;
using memplan::properties::Plan;
using memplan::properties::Report;
using memplan::properties::ViolationCode;
using memplan::properties::ViolationCodeName;

constexpr size_t kNoIndex = static_cast<size_t>(-1);

[[noreturn]] void Fail(const char* reader, const std::string& what) {
  std::fprintf(stderr, "plan_reader_fuzzer (%s): %s\n", reader, what.c_str());
  std::abort();
}

bool KnownType(const Device& d) {
  return static_cast<int>(d.type) >= 0 && static_cast<int>(d.type) <= 1;
}

// What the reference expects of one canonical buffer.
struct BufferFacts {
  uint64_t live_bytes_lower_bound = 0;
  uint64_t high_water = 0;
  uint64_t num_allocations = 0;
};

struct ReferenceResult {
  std::array<uint64_t, memplan::properties::kNumViolationCodes> counts{};
  uint64_t conflicting_pairs = 0;    // All cross-family pairs sharing bytes.
  std::vector<BufferFacts> buffers;  // Canonical buffers, in order.
  void Add(ViolationCode code) { ++counts[static_cast<int>(code)]; }
};

// The invariants of DESIGN.md's table, one allocation or one pair at a time.
ReferenceResult Reference(const Plan& plan, const CheckOptions& options) {
  ReferenceResult r;
  const size_t nb = plan.buffers.size();
  const size_t n = plan.allocations.size();

  // Buffers: the first one of each positive mem_id is the canonical one.
  std::vector<bool> canonical(nb, false);
  __int128 total = 0;
  bool over_budget = false;
  for (size_t b = 0; b < nb; ++b) {
    const Buffer& buffer = plan.buffers[b];
    if (buffer.mem_id <= 0) {
      r.Add(ViolationCode::kBufferMap);
      continue;
    }
    bool duplicate = false;
    for (size_t e = 0; e < b; ++e) {
      duplicate = duplicate || plan.buffers[e].mem_id == buffer.mem_id;
    }
    if (duplicate) {
      r.Add(ViolationCode::kBufferMap);
      continue;
    }
    canonical[b] = true;
    if (!KnownType(buffer.device)) r.Add(ViolationCode::kBufferMap);
    if (buffer.size < 0) {
      r.Add(ViolationCode::kBounds);
    } else if (!over_budget) {
      total += buffer.size;
      if (total > static_cast<__int128>(options.max_planned_bytes)) {
        over_budget = true;
        r.Add(ViolationCode::kBounds);
      }
    }
  }
  auto buffer_of = [&](int64_t mem_id) {
    for (size_t b = 0; b < nb; ++b) {
      if (canonical[b] && plan.buffers[b].mem_id == mem_id) return b;
    }
    return kNoIndex;
  };

  // Alias bases by name (ids are unique in a plan a reader accepted).
  std::vector<size_t> base(n, kNoIndex);
  for (size_t i = 0; i < n; ++i) {
    const Allocation& a = plan.allocations[i];
    if (!a.alias_of) continue;
    for (size_t j = 0; j < n; ++j) {
      if (plan.allocations[j].id == *a.alias_of) {
        base[i] = j;
        break;
      }
    }
    if (base[i] == kNoIndex) r.Add(ViolationCode::kAlias);
  }
  // On a cycle: the base chain from i comes back to i within n steps.
  std::vector<bool> on_cycle(n, false);
  for (size_t i = 0; i < n; ++i) {
    size_t node = base[i];
    for (size_t step = 0; step < n && node != kNoIndex; ++step) {
      if (node == i) {
        on_cycle[i] = true;
        break;
      }
      node = base[node];
    }
  }
  // One report per cycle: at its smallest member.
  for (size_t i = 0; i < n; ++i) {
    if (!on_cycle[i]) continue;
    bool smallest = true;
    for (size_t node = base[i]; node != i; node = base[node]) {
      smallest = smallest && node > i;
    }
    if (smallest) r.Add(ViolationCode::kAlias);
  }
  // Family: the root of the chain, or the first member of a cycle on it
  // (cycle members are their own family).
  std::vector<size_t> family(n);
  for (size_t i = 0; i < n; ++i) {
    size_t node = i;
    while (!on_cycle[node] && base[node] != kNoIndex) node = base[node];
    family[i] = node;
  }

  // One allocation on its own.
  std::vector<bool> placed(n, false);
  std::vector<size_t> in_buffer(n, kNoIndex);
  for (size_t i = 0; i < n; ++i) {
    const Allocation& a = plan.allocations[i];
    bool lifetime_ok = true;
    if (a.lifetime.first > a.lifetime.last || a.lifetime.first < 0 ||
        (plan.end_time && a.lifetime.last > *plan.end_time)) {
      r.Add(ViolationCode::kLifetime);
      lifetime_ok = false;
    }
    if (!a.device || !KnownType(*a.device) || a.device->index < 0) {
      r.Add(ViolationCode::kDeviceInfo);
    }
    bool power_of_two = false;
    for (int bit = 0; bit < 63; ++bit) {
      power_of_two = power_of_two || a.alignment == (int64_t{1} << bit);
    }
    if (!power_of_two || (a.offset >= 0 && a.offset % a.alignment != 0)) {
      r.Add(ViolationCode::kAlignment);
    }
    const size_t b = buffer_of(a.mem_id);
    if (b == kNoIndex) {
      r.Add(ViolationCode::kBounds);
      continue;
    }
    in_buffer[i] = b;
    const Buffer& buffer = plan.buffers[b];
    if (a.device && KnownType(*a.device) && *a.device != buffer.device) {
      r.Add(ViolationCode::kCrossDevice);
    }
    const __int128 end = static_cast<__int128>(a.offset) + a.size;
    if (a.offset < 0 || a.size < 0 || end > INT64_MAX ||
        end > std::max<int64_t>(buffer.size, 0)) {
      // Non-negative int64s cannot overflow 64 unsigned bits: one count.
      r.Add(ViolationCode::kBounds);
      continue;
    }
    placed[i] = lifetime_ok;
  }

  // A view or in-place output against its base.
  for (size_t i = 0; i < n; ++i) {
    if (base[i] == kNoIndex || on_cycle[i]) continue;
    const Allocation& a = plan.allocations[i];
    const Allocation& root = plan.allocations[base[i]];
    if (a.device && root.device && *a.device != *root.device) {
      r.Add(ViolationCode::kDeviceInfo);
    }
    if (a.mem_id != root.mem_id) {
      r.Add(ViolationCode::kAlias);
      continue;
    }
    if (a.offset < root.offset ||
        static_cast<__int128>(a.offset) + a.size >
            static_cast<__int128>(root.offset) + root.size) {
      r.Add(ViolationCode::kAlias);
    }
  }

  // Every pair of placed allocations of one buffer, and its live bytes.
  for (size_t b = 0; b < nb; ++b) {
    if (!canonical[b]) continue;
    BufferFacts facts;
    for (size_t i = 0; i < n; ++i) {
      if (in_buffer[i] != b) continue;
      ++facts.num_allocations;
      if (!placed[i]) continue;
      const Allocation& a = plan.allocations[i];
      facts.high_water =
          std::max<uint64_t>(facts.high_water, a.offset + a.size);
      __int128 live = 0;
      for (size_t j = 0; j < n; ++j) {
        if (in_buffer[j] != b || !placed[j]) continue;
        const Allocation& c = plan.allocations[j];
        if (base[j] == kNoIndex && c.lifetime.first <= a.lifetime.first &&
            a.lifetime.first <= c.lifetime.last) {
          live += c.size;
        }
        if (j > i && family[i] != family[j] && a.size > 0 && c.size > 0 &&
            a.lifetime.first <= c.lifetime.last &&
            c.lifetime.first <= a.lifetime.last &&
            a.offset < c.offset + c.size && c.offset < a.offset + a.size) {
          ++r.conflicting_pairs;
        }
      }
      if (base[i] == kNoIndex) {
        facts.live_bytes_lower_bound = std::max<uint64_t>(
            facts.live_bytes_lower_bound,
            live > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(live));
      }
    }
    r.buffers.push_back(facts);
  }
  return r;
}

void CheckAgainstReference(const char* reader, const Plan& plan,
                           const CheckOptions& options) {
  // Reader contracts: ids unique, no device map outside programs.
  for (size_t i = 0; i < plan.allocations.size(); ++i) {
    for (size_t j = i + 1; j < plan.allocations.size(); ++j) {
      if (plan.allocations[i].id == plan.allocations[j].id) {
        Fail(reader, "accepted a repeated id " + plan.allocations[i].id);
      }
    }
  }
  if (!plan.device_map.empty()) Fail(reader, "a device map outside a program");

  const Report report = memplan::properties::Check(plan, options);
  const ReferenceResult expected = Reference(plan, options);
  for (int c = 0; c < memplan::properties::kNumViolationCodes; ++c) {
    const auto code = static_cast<ViolationCode>(c);
    const uint64_t got = report.counts[c];
    uint64_t kept = 0;
    for (const auto& v : report.violations) kept += v.code == code;
    if (kept != std::min<uint64_t>(got, options.max_violations_per_code)) {
      Fail(reader, std::string(ViolationCodeName(code)) + ": " +
                       std::to_string(kept) + " messages for " +
                       std::to_string(got) + " violations");
    }
    if (code == ViolationCode::kOverlap) {
      const uint64_t pairs = expected.conflicting_pairs;
      if ((got == 0) != (pairs == 0) || got > pairs) {
        Fail(reader, "overlap: sweep " + std::to_string(got) + ", all pairs " +
                         std::to_string(pairs) + "\n" + FormatText(report));
      }
    } else if (got != expected.counts[c]) {
      Fail(reader, std::string(ViolationCodeName(code)) + ": check " +
                       std::to_string(got) + ", reference " +
                       std::to_string(expected.counts[c]) + "\n" +
                       FormatText(report));
    }
  }
  if (report.ok() != (report.total_violations() == 0)) {
    Fail(reader, "ok() disagrees with the counts");
  }
  if (report.buffers.size() != expected.buffers.size()) {
    Fail(reader, "buffers judged: " + std::to_string(report.buffers.size()) +
                     ", canonical " + std::to_string(expected.buffers.size()));
  }
  for (size_t b = 0; b < expected.buffers.size(); ++b) {
    const auto& got = report.buffers[b];
    const BufferFacts& want = expected.buffers[b];
    if (got.live_bytes_lower_bound != want.live_bytes_lower_bound ||
        got.high_water != want.high_water ||
        got.num_allocations != want.num_allocations) {
      Fail(reader, "buffer " + std::to_string(got.mem_id) + ": lower bound " +
                       std::to_string(got.live_bytes_lower_bound) + "/" +
                       std::to_string(want.live_bytes_lower_bound) +
                       ", high water " + std::to_string(got.high_water) + "/" +
                       std::to_string(want.high_water) + ", allocations " +
                       std::to_string(got.num_allocations) + "/" +
                       std::to_string(want.num_allocations));
    }
  }
  if (!memplan::properties::ParseJson(FormatJson(report)).ok()) {
    Fail(reader, "FormatJson wrote JSON that does not parse");
  }
  (void)FormatText(report);
}

bool SameDevice(const std::optional<Device>& a,
                const std::optional<Device>& b) {
  return a.has_value() == b.has_value() && (!a || *a == *b);
}

// A JSON string is Unicode text: bytes that are not UTF-8 (a CSV id may
// hold any) are written as U+FFFD, so they cannot come back.
bool SurvivesJson(const std::string& text) {
  auto read =
      memplan::properties::ParseJson(memplan::properties::JsonQuote(text));
  return read.ok() && read->text() == text;
}

// PLAN_FORMAT: PlanFromJson(PlanToJson(p)) reproduces p (whose strings are
// UTF-8).
void CheckRoundTrip(const char* reader, const Plan& plan) {
  for (const Allocation& a : plan.allocations) {
    if (!SurvivesJson(a.id) || (a.alias_of && !SurvivesJson(*a.alias_of))) {
      return;
    }
  }
  const std::string json = memplan::properties::PlanToJson(plan);
  auto again = memplan::properties::PlanFromJson(json);
  if (!again.ok()) {
    Fail(reader, "PlanToJson wrote a plan PlanFromJson refuses: " +
                     again.error().message() + "\n" + json);
  }
  const Plan& p = *again;
  bool same = p.end_time == plan.end_time &&
              p.buffers.size() == plan.buffers.size() &&
              p.allocations.size() == plan.allocations.size();
  for (size_t b = 0; same && b < p.buffers.size(); ++b) {
    same = p.buffers[b].mem_id == plan.buffers[b].mem_id &&
           p.buffers[b].size == plan.buffers[b].size &&
           p.buffers[b].device == plan.buffers[b].device;
  }
  for (size_t i = 0; same && i < p.allocations.size(); ++i) {
    const Allocation& x = p.allocations[i];
    const Allocation& y = plan.allocations[i];
    same = x.id == y.id && x.kind == y.kind && x.mem_id == y.mem_id &&
           x.offset == y.offset && x.size == y.size &&
           x.lifetime.first == y.lifetime.first &&
           x.lifetime.last == y.lifetime.last &&
           SameDevice(x.device, y.device) && x.alignment == y.alignment &&
           x.alias_of == y.alias_of;
  }
  if (!same)
    Fail(reader, "PlanToJson -> PlanFromJson changed the plan\n" + json);
}

void CheckRefusal(const char* reader, const memplan::Error& error,
                  std::string_view prefix) {
  if (error.message().compare(0, prefix.size(), prefix) != 0) {
    Fail(reader, "error without the reader's prefix: " + error.message());
  }
}

// The planner's side of the CSV reader: items as the rows say, and the
// writer's output reads back as the same rows with the offsets written.
void CheckMinimallocRoundTrip(std::string_view text, uint64_t alignment) {
  namespace planner = memplan::planner;
  planner::MinimallocCsvOptions options;
  options.alignment = alignment;
  auto problem = planner::ParseMinimallocCsv(text, options);
  if (!problem.ok()) {
    CheckRefusal("minimalloc", problem.error(), "line ");
    return;
  }
  const std::vector<memplan::planner::PlanItem> items =
      planner::ToPlanItems(*problem);
  if (items.size() != problem->buffers.size()) Fail("minimalloc", "item count");
  std::vector<uint64_t> offsets;
  for (size_t i = 0; i < items.size(); ++i) {
    const planner::MinimallocBuffer& b = problem->buffers[i];
    if (items[i].size != b.size || items[i].alignment != b.alignment ||
        items[i].lifetime.first != b.lower ||
        items[i].lifetime.last != b.upper - 1) {
      Fail("minimalloc", "item " + std::to_string(i) + " differs from its row");
    }
    offsets.push_back((i & 1) *
                      b.alignment);  // Never wraps: alignment <= 2^63.
  }
  if (planner::WriteMinimallocCsv(*problem, {1}).ok() != (items.size() == 1)) {
    Fail("minimalloc", "an offsets list of another length was written");
  }
  auto written = planner::WriteMinimallocCsv(*problem, offsets);
  if (!written.ok()) Fail("minimalloc", "write: " + written.error().ToString());
  auto again = planner::ParseMinimallocCsv(*written, options);
  if (!again.ok()) {
    Fail("minimalloc",
         "written text refused: " + again.error().ToString() + "\n" + *written);
  }
  if (!again->has_offset_column ||
      again->buffers.size() != problem->buffers.size()) {
    Fail("minimalloc", "written text has other rows");
  }
  for (size_t i = 0; i < items.size(); ++i) {
    const planner::MinimallocBuffer& a = problem->buffers[i];
    const planner::MinimallocBuffer& b = again->buffers[i];
    if (a.id != b.id || a.lower != b.lower || a.upper != b.upper ||
        a.size != b.size || a.alignment != b.alignment ||
        b.offset != offsets[i]) {
      Fail("minimalloc", "row " + std::to_string(i) + " changed in the writer");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  CheckOptions options;
  // Sometimes one message per code, so that the counting beyond it is tested.
  if (size % 3 == 0) options.max_violations_per_code = 1;

  auto json = memplan::properties::PlanFromJson(text);
  if (json.ok()) {
    CheckAgainstReference("json", *json, options);
    CheckRoundTrip("json", *json);
  } else {
    CheckRefusal("json", json.error(), "json ");
  }

  // The CSV reader's options from the last byte: alignment, device, size.
  memplan::properties::CsvPlanOptions csv_options;
  const uint8_t knob = size > 0 ? data[size - 1] : 0;
  csv_options.alignment = int64_t{1} << (knob & 7);
  if (knob & 8) csv_options.device = Device::Cuda((knob >> 4) & 1);
  if (knob & 0x20) csv_options.buffer_size = (knob & 0xc0) * 4;
  auto csv = memplan::properties::PlanFromCsv(text, csv_options);
  if (csv.ok()) {
    CheckAgainstReference("csv", *csv, options);
    CheckRoundTrip("csv", *csv);
  } else {
    CheckRefusal("csv", csv.error(), "csv ");
  }
  CheckMinimallocRoundTrip(text, uint64_t{1} << (knob & 7));
  return 0;
}
