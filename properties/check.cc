#include "properties/check.h"

#include <algorithm>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "properties/lower_bound.h"
#include "properties/overlap_sweep.h"
#include "runtime/core/checked_math.h"
#include "runtime/core/plan_rules.h"

namespace memplan {
namespace properties {
namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

class Checker {
 public:
  Checker(const Plan& plan, const CheckOptions& options)
      : plan_(plan), options_(options) {}

  Report Run() {
    CheckBuffers();
    CheckDeviceMap();
    ResolveBases();
    std::vector<std::vector<size_t>> per_buffer(plan_.buffers.size());
    placed_.assign(plan_.allocations.size(), false);
    for (size_t i = 0; i < plan_.allocations.size(); ++i) {
      size_t buffer = CheckAllocation(i);
      if (buffer != kNone) per_buffer[buffer].push_back(i);
    }
    ResolveFamilies();
    for (size_t i = 0; i < plan_.allocations.size(); ++i) CheckAlias(i);
    for (size_t b = 0; b < plan_.buffers.size(); ++b) {
      if (buffer_is_canonical_[b]) CheckBuffer(b, per_buffer[b]);
    }
    return std::move(report_);
  }

 private:
  // `facts`: the violation's structured fields; code and message are set
  // here.
  void Add(ViolationCode code, const std::string& message,
           Violation facts = {}) {
    uint64_t& count = report_.counts[static_cast<int>(code)];
    ++count;
    if (count <= options_.max_violations_per_code) {
      facts.code = code;
      facts.message = message;
      report_.violations.push_back(std::move(facts));
    }
  }

  static Violation OfBuffer(MemId mem_id) {
    Violation facts;
    facts.mem_id = mem_id;
    return facts;
  }

  // The facts of a violation about allocation `a` (and its alias base).
  static Violation About(const Allocation& a,
                         const Allocation* base = nullptr) {
    Violation facts;
    facts.allocation_ids.push_back(a.id);
    if (base) facts.allocation_ids.push_back(base->id);
    facts.mem_id = a.mem_id;
    facts.bytes = ByteRange{a.offset, AllocationEnd(a)};
    facts.lifetime = a.lifetime;
    return facts;
  }

  std::string BufferName(size_t b) const {
    const Buffer& buffer = plan_.buffers[b];
    return "buffer " + std::to_string(buffer.mem_id) + " (" +
           buffer.device.ToString() + ")";
  }

  void CheckBuffers() {
    buffer_is_canonical_.assign(plan_.buffers.size(), false);
    uint64_t total = 0;
    bool over_budget = false;
    for (size_t b = 0; b < plan_.buffers.size(); ++b) {
      const Buffer& buffer = plan_.buffers[b];
      std::string where = "buffers[" + std::to_string(b) + "]";
      if (buffer.mem_id <= 0) {
        Add(ViolationCode::kBufferMap,
            "buffer_map: " + where +
                ".mem_id = " + std::to_string(buffer.mem_id) +
                ", must be >= 1 (0 is reserved for constants)",
            OfBuffer(buffer.mem_id));
        continue;
      }
      auto [it, inserted] = buffer_by_mem_id_.emplace(buffer.mem_id, b);
      if (!inserted) {
        Add(ViolationCode::kBufferMap,
            "buffer_map: " + where + " duplicates mem_id " +
                std::to_string(buffer.mem_id) + " of buffers[" +
                std::to_string(it->second) + "]",
            OfBuffer(buffer.mem_id));
        continue;
      }
      buffer_is_canonical_[b] = true;
      if (!IsKnownDeviceType(static_cast<int>(buffer.device.type))) {
        Add(ViolationCode::kBufferMap,
            "buffer_map: " + where + " (mem_id " +
                std::to_string(buffer.mem_id) + ") has unknown device type " +
                std::to_string(static_cast<int>(buffer.device.type)) +
                ", must be < " + std::to_string(kNumDeviceTypes),
            OfBuffer(buffer.mem_id));
      }
      if (buffer.size < 0) {
        Add(ViolationCode::kBounds,
            "bounds: " + where + ".size = " + std::to_string(buffer.size) +
                ", must be >= 0",
            OfBuffer(buffer.mem_id));
      } else if (!over_budget &&
                 !AddPlannedBytes(static_cast<uint64_t>(buffer.size),
                                  options_.max_planned_bytes, &total)) {
        over_budget = true;
        Add(ViolationCode::kBounds,
            "bounds: planned buffers exceed " +
                std::to_string(options_.max_planned_bytes) +
                " bytes in all at " + BufferName(b) + " of size " +
                std::to_string(buffer.size),
            OfBuffer(buffer.mem_id));
      }
    }
  }

  void CheckDeviceMap() {
    std::unordered_map<int64_t, size_t> seen;
    for (size_t e = 0; e < plan_.device_map.size(); ++e) {
      const BufferDeviceEntry& entry = plan_.device_map[e];
      std::string where = "non_const_buffer_device[" + std::to_string(e) + "]";
      auto [it, inserted] = seen.emplace(entry.buffer_index, e);
      switch (CheckDeviceMapEntry(
          entry.buffer_index, buffer_by_mem_id_.count(entry.buffer_index) > 0,
          !inserted, entry.raw_device_type, entry.device_index)) {
        case DeviceMapFault::kReservedIndex:
          Add(ViolationCode::kBufferMap,
              "buffer_map: " + where +
                  ".buffer_idx = 0, the reserved constant buffer",
              OfBuffer(entry.buffer_index));
          break;
        case DeviceMapFault::kNoSuchBuffer:
          Add(ViolationCode::kBufferMap,
              "buffer_map: " + where + ".buffer_idx = " +
                  std::to_string(entry.buffer_index) + ", must be in [1, " +
                  std::to_string(plan_.buffers.size()) + "]",
              OfBuffer(entry.buffer_index));
          break;
        case DeviceMapFault::kDuplicate:
          Add(ViolationCode::kBufferMap,
              "buffer_map: " + where + " duplicates buffer_idx " +
                  std::to_string(entry.buffer_index) +
                  " of non_const_buffer_device[" + std::to_string(it->second) +
                  "]",
              OfBuffer(entry.buffer_index));
          break;
        case DeviceMapFault::kUnknownType:
          Add(ViolationCode::kBufferMap,
              "buffer_map: " + where +
                  ".device_type = " + std::to_string(entry.raw_device_type) +
                  ", must be < " + std::to_string(kNumDeviceTypes),
              OfBuffer(entry.buffer_index));
          break;
        case DeviceMapFault::kNegativeIndex:
          Add(ViolationCode::kBufferMap,
              "buffer_map: " + where + ".device_index = " +
                  std::to_string(entry.device_index) + ", must be >= 0",
              OfBuffer(entry.buffer_index));
          break;
        case DeviceMapFault::kNone:
          break;
      }
    }
  }

  // base_[i]: index of allocation i's alias base, kNone when it has none.
  void ResolveBases() {
    const auto& allocations = plan_.allocations;
    base_.assign(allocations.size(), kNone);
    bool any_alias = false;
    for (const Allocation& a : allocations) any_alias |= a.alias_of.has_value();
    if (!any_alias) return;
    const std::unordered_map<std::string, size_t>& by_id = ById();
    for (size_t i = 0; i < allocations.size(); ++i) {
      const Allocation& a = allocations[i];
      if (!a.alias_of) continue;
      auto it = by_id.find(*a.alias_of);
      if (it == by_id.end()) {
        Add(ViolationCode::kAlias,
            "alias: " + a.id + " is an alias of " + *a.alias_of +
                ", which does not exist",
            About(a));
      } else {
        base_[i] = it->second;
      }
    }
  }

  // The family a resumed part of allocation i belongs to: that of the
  // allocation it may share bytes with, where that exists, else i's own.
  size_t ResumedFamily(size_t i, const ResumedPart& part) {
    if (!part.with) return family_[i];
    auto it = ById().find(*part.with);
    return it == ById().end() ? family_[i] : family_[it->second];
  }

  // Each allocation's index by its id (the first of a duplicated id), built
  // once, on first use: only plans with aliases or resumed parts need it.
  const std::unordered_map<std::string, size_t>& ById() {
    if (by_id_.empty()) {
      for (size_t k = 0; k < plan_.allocations.size(); ++k) {
        by_id_.emplace(plan_.allocations[k].id, k);
      }
    }
    return by_id_;
  }

  // family_[i]: the root of i's alias chain; members of a cycle are their
  // own roots (the cycle is reported once).
  void ResolveFamilies() {
    const size_t n = plan_.allocations.size();
    family_.assign(n, kNone);
    std::vector<uint8_t> state(n, 0);  // 0 new, 1 on the current chain, 2 done
    std::vector<size_t> chain;
    for (size_t start = 0; start < n; ++start) {
      if (state[start] == 2) continue;
      chain.clear();
      size_t node = start;
      size_t root = kNone;
      while (true) {
        if (state[node] == 2) {
          root = family_[node];
          break;
        }
        if (state[node] == 1) {
          ReportCycle(chain, node);
          break;
        }
        state[node] = 1;
        chain.push_back(node);
        if (base_[node] == kNone) {
          root = node;
          break;
        }
        node = base_[node];
      }
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        if (family_[*it] == kNone) {
          family_[*it] = root == kNone ? *it : root;
        }
        root = family_[*it];
        state[*it] = 2;
      }
    }
  }

  void ReportCycle(const std::vector<size_t>& chain, size_t entry) {
    std::string path;
    Violation facts;
    bool in_cycle = false;
    for (size_t node : chain) {
      in_cycle = in_cycle || node == entry;
      if (!in_cycle) continue;
      family_[node] = node;
      path += plan_.allocations[node].id + " -> ";
      facts.allocation_ids.push_back(plan_.allocations[node].id);
    }
    path += plan_.allocations[entry].id;
    Add(ViolationCode::kAlias, "alias: cycle " + path, std::move(facts));
  }

  // Checks one allocation on its own; returns its buffer's index when its
  // bytes and lifetime are sound enough for the overlap sweep.
  size_t CheckAllocation(size_t i) {
    const Allocation& a = plan_.allocations[i];
    bool lifetime_ok = true;
    if (a.lifetime.first > a.lifetime.last) {
      Add(ViolationCode::kLifetime,
          "lifetime: " + DescribeAllocation(a) + " starts after it ends",
          About(a));
      lifetime_ok = false;
    } else if (a.lifetime.first < 0 ||
               (plan_.end_time && a.lifetime.last > *plan_.end_time)) {
      Add(ViolationCode::kLifetime,
          "lifetime: " + DescribeAllocation(a) +
              " lies outside the program [0," +
              (plan_.end_time ? std::to_string(*plan_.end_time) : "...") + "]",
          About(a));
      lifetime_ok = false;
    }
    // Each part after a hole of at least one position (the difference
    // taken unsigned: no overflow at the ends of the int64 range).
    TimeValue last = a.lifetime.last;
    for (const ResumedPart& part : a.resumed) {
      if (!lifetime_ok) break;
      if (part.lifetime.first <= last ||
          static_cast<uint64_t>(part.lifetime.first) -
                  static_cast<uint64_t>(last) <
              2 ||
          part.lifetime.first > part.lifetime.last ||
          (plan_.end_time && part.lifetime.last > *plan_.end_time)) {
        Add(ViolationCode::kLifetime,
            "lifetime: " + DescribeAllocation(a) +
                " resumes before its part before ends, or past the program",
            About(a));
        lifetime_ok = false;
      }
      last = part.lifetime.last;
    }

    if (!a.device) {
      Add(ViolationCode::kDeviceInfo,
          "device_info: " + a.id + " (" + SpecKindName(a.kind) +
              ") carries no device",
          About(a));
    } else if (CheckDeviceFields(static_cast<int>(a.device->type),
                                 a.device->index) != DeviceFault::kNone) {
      Add(ViolationCode::kDeviceInfo,
          "device_info: " + a.id + " has unknown device type " +
              std::to_string(static_cast<int>(a.device->type)) +
              " or negative index " + std::to_string(a.device->index),
          About(a));
    }

    bool alignment_ok =
        a.alignment >= 1 && IsPowerOfTwo(static_cast<uint64_t>(a.alignment));
    if (!alignment_ok) {
      Add(ViolationCode::kAlignment,
          "alignment: " + a.id + " alignment " + std::to_string(a.alignment) +
              " is not a power of two >= 1",
          About(a));
    } else if (a.offset >= 0 && a.offset % a.alignment != 0) {
      Add(ViolationCode::kAlignment,
          "alignment: " + DescribeAllocation(a) + " offset " +
              std::to_string(a.offset) + " is not a multiple of " +
              std::to_string(a.alignment),
          About(a));
    }

    auto found = buffer_by_mem_id_.find(a.mem_id);
    if (found == buffer_by_mem_id_.end()) {
      Add(ViolationCode::kBounds,
          "bounds: " + DescribeAllocation(a) + " names buffer " +
              std::to_string(a.mem_id) + ", which does not exist",
          About(a));
      return kNone;
    }
    const size_t b = found->second;
    const Buffer& buffer = plan_.buffers[b];
    if (a.device && IsKnownDeviceType(static_cast<int>(a.device->type)) &&
        *a.device != buffer.device) {
      Add(ViolationCode::kCrossDevice,
          "cross_device: " + a.id + " on " + a.device->ToString() + " in " +
              BufferName(b),
          About(a));
    }
    if (a.offset < 0 || a.size < 0) {
      // Program offsets are unsigned 64-bit: one at or above 2^63 reads
      // negative here, and is past every buffer's end either way.
      Add(ViolationCode::kBounds,
          "bounds: " + DescribeAllocation(a) + " in " + BufferName(b) +
              " has a negative offset or size (offset as unsigned " +
              std::to_string(static_cast<uint64_t>(a.offset)) + ")",
          About(a));
      return b;
    }
    switch (CheckSpan(
        static_cast<uint64_t>(a.offset), static_cast<uint64_t>(a.size),
        static_cast<uint64_t>(std::max<Offset>(buffer.size, 0)))) {
      case SpanFault::kOverflow:
        Add(ViolationCode::kBounds,
            "bounds: " + DescribeAllocation(a) + " in " + BufferName(b) +
                ": offset + size overflows 64 bits",
            About(a));
        return b;
      case SpanFault::kPastEnd:
        Add(ViolationCode::kBounds,
            "bounds: " + DescribeAllocation(a) + " ends past " + BufferName(b) +
                " of size " + std::to_string(buffer.size),
            About(a));
        return b;
      case SpanFault::kNone:
        break;
    }
    placed_[i] = lifetime_ok;
    return b;
  }

  void CheckAlias(size_t i) {
    const size_t base_index = base_[i];
    if (base_index == kNone || family_[i] == i) return;  // None, or a cycle.
    const Allocation& a = plan_.allocations[i];
    const Allocation& base = plan_.allocations[base_index];
    if (a.device && base.device && *a.device != *base.device) {
      Add(ViolationCode::kDeviceInfo,
          "device_info: " + std::string(SpecKindName(a.kind)) + " " + a.id +
              " on " + a.device->ToString() + ", its base " + base.id + " on " +
              base.device->ToString(),
          About(a, &base));
    }
    if (a.mem_id != base.mem_id) {
      Add(ViolationCode::kAlias,
          "alias: " + a.id + " in buffer " + std::to_string(a.mem_id) +
              " aliases " + base.id + " in buffer " +
              std::to_string(base.mem_id),
          About(a, &base));
      return;
    }
    // 128-bit ends: the bounds check reports overflow, this one must not
    // misjudge it.
    __int128 a_end = static_cast<__int128>(a.offset) + a.size;
    __int128 base_end = static_cast<__int128>(base.offset) + base.size;
    if (a.offset < base.offset || a_end > base_end) {
      Add(ViolationCode::kAlias,
          "alias: " + DescribeAllocation(a) + " lies outside its base " +
              DescribeAllocation(base),
          About(a, &base));
    }
  }

  void CheckBuffer(size_t b, const std::vector<size_t>& members) {
    const Buffer& buffer = plan_.buffers[b];
    BufferQuality quality;
    quality.mem_id = buffer.mem_id;
    quality.device = buffer.device;
    quality.size = buffer.size;
    quality.num_allocations = members.size();
    std::vector<OverlapItem> items;
    std::vector<size_t> item_allocation;
    std::vector<LiveInterval> live;
    items.reserve(members.size());
    item_allocation.reserve(members.size());
    live.reserve(members.size());
    for (size_t i : members) {
      if (!placed_[i]) continue;
      const Allocation& a = plan_.allocations[i];
      uint64_t begin = static_cast<uint64_t>(a.offset);
      uint64_t end = begin + static_cast<uint64_t>(a.size);
      quality.high_water = std::max(quality.high_water, end);
      if (!a.accessed) continue;  // Its bytes are never read or written.
      // Each part of the lifetime on its own (a resumed one after a hole,
      // which may share bytes with the allocation it names).
      for (size_t k = 0; k <= a.resumed.size(); ++k) {
        const Lifetime& part = k == 0 ? a.lifetime : a.resumed[k - 1].lifetime;
        if (base_[i] == kNone) {
          live.push_back(
              {part.first, part.last, static_cast<uint64_t>(a.size)});
        }
        if (a.size == 0) continue;
        items.push_back(
            {begin, end, part.first, part.last,
             k == 0 ? family_[i] : ResumedFamily(i, a.resumed[k - 1])});
        item_allocation.push_back(i);
      }
    }
    quality.live_bytes_lower_bound = MaxLiveBytes(live);
    report_.buffers.push_back(quality);

    OverlapFindings findings =
        FindOverlapsSweep(items, options_.max_violations_per_code);
    // Two parts of one allocation may meet one other: one report.
    std::set<std::pair<size_t, size_t>> reported;
    for (const OverlapPair& pair : findings.pairs) {
      const size_t x = item_allocation[pair.a], y = item_allocation[pair.b];
      if (!reported.insert({std::min(x, y), std::max(x, y)}).second) continue;
      const Allocation& first = plan_.allocations[x];
      const Allocation& second = plan_.allocations[y];
      Violation facts;
      facts.allocation_ids = {first.id, second.id};
      facts.mem_id = buffer.mem_id;
      facts.bytes =
          ByteRange{std::max(first.offset, second.offset),
                    std::min(AllocationEnd(first), AllocationEnd(second))};
      facts.lifetime =
          Lifetime{std::max(items[pair.a].first, items[pair.b].first),
                   std::min(items[pair.a].last, items[pair.b].last)};
      Add(ViolationCode::kOverlap,
          "overlap: " + DescribeAllocation(first) +
              DescribeOrigin(plan_, first) + " and " +
              DescribeAllocation(second) + DescribeOrigin(plan_, second) +
              " in " + BufferName(b),
          std::move(facts));
    }
    // Pairs found beyond the kept messages still count.
    report_.counts[static_cast<int>(ViolationCode::kOverlap)] +=
        findings.count - findings.pairs.size();
  }

  const Plan& plan_;
  const CheckOptions& options_;
  Report report_;
  std::unordered_map<MemId, size_t> buffer_by_mem_id_;
  std::vector<bool> buffer_is_canonical_;
  std::vector<size_t> base_;
  std::vector<size_t> family_;
  std::vector<bool> placed_;
  std::unordered_map<std::string, size_t> by_id_;  // Built on first use.
};

}  // namespace

Report Check(const Plan& plan, const CheckOptions& options) {
  return Checker(plan, options).Run();
}

}  // namespace properties
}  // namespace memplan
