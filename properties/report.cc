#include "properties/report.h"

#include <cmath>
#include <cstdio>

namespace memplan {
namespace properties {

const char* ViolationCodeName(ViolationCode code) {
  switch (code) {
    case ViolationCode::kOverlap:
      return "overlap";
    case ViolationCode::kCrossDevice:
      return "cross_device";
    case ViolationCode::kDeviceInfo:
      return "device_info";
    case ViolationCode::kBounds:
      return "bounds";
    case ViolationCode::kAlignment:
      return "alignment";
    case ViolationCode::kBufferMap:
      return "buffer_map";
    case ViolationCode::kLifetime:
      return "lifetime";
    case ViolationCode::kAlias:
      return "alias";
    case ViolationCode::kSharedState:
      return "shared_state";
  }
  return "unknown";
}

std::optional<double> BufferQuality::ratio() const {
  if (live_bytes_lower_bound == 0) return std::nullopt;
  return static_cast<double>(size) /
         static_cast<double>(live_bytes_lower_bound);
}

bool Report::ok() const { return total_violations() == 0; }

uint64_t Report::total_violations() const {
  uint64_t total = 0;
  for (uint64_t n : counts) total += n;
  return total;
}

namespace {

std::string FormatRatio(const BufferQuality& q) {
  std::optional<double> ratio = q.ratio();
  if (!ratio) return "n/a";
  char text[32];
  std::snprintf(text, sizeof(text), "%.3f", *ratio);
  return text;
}

}  // namespace

std::string FormatText(const Report& report) {
  std::string out;
  if (report.ok()) {
    out += "valid: no violations\n";
  } else {
    out += "INVALID: " + std::to_string(report.total_violations()) +
           " violation(s)\n";
    for (int c = 0; c < kNumViolationCodes; ++c) {
      auto code = static_cast<ViolationCode>(c);
      uint64_t shown = 0;
      for (const Violation& v : report.violations) {
        if (v.code != code) continue;
        out += "  " + v.message + "\n";
        ++shown;
      }
      if (report.counts[c] > shown) {
        out += "  ... and " + std::to_string(report.counts[c] - shown) +
               " more " + ViolationCodeName(code) + " violation(s)\n";
      }
    }
  }
  out += "buffers:\n";
  for (const BufferQuality& q : report.buffers) {
    out += "  buffer " + std::to_string(q.mem_id) + " (" + q.device.ToString() +
           "): size " + std::to_string(q.size) + ", lower bound " +
           std::to_string(q.live_bytes_lower_bound) + ", ratio " +
           FormatRatio(q) + ", high water " + std::to_string(q.high_water) +
           ", " + std::to_string(q.num_allocations) + " allocation(s)\n";
  }
  return out;
}

nlohmann::ordered_json ReportJson(const Report& report) {
  using nlohmann::ordered_json;
  ordered_json out = ordered_json::object();
  out["valid"] = report.ok();
  ordered_json& counts = out["counts"] = ordered_json::object();
  for (int c = 0; c < kNumViolationCodes; ++c) {
    counts[ViolationCodeName(static_cast<ViolationCode>(c))] = report.counts[c];
  }
  ordered_json& violations = out["violations"] = ordered_json::array();
  for (const Violation& v : report.violations) {
    ordered_json item = {{"code", ViolationCodeName(v.code)},
                         {"message", v.message}};
    if (!v.allocation_ids.empty()) item["allocations"] = v.allocation_ids;
    if (v.mem_id) item["mem_id"] = *v.mem_id;
    if (v.bytes) item["bytes"] = {v.bytes->begin, v.bytes->end};
    if (v.lifetime) item["lifetime"] = {v.lifetime->first, v.lifetime->last};
    violations.push_back(std::move(item));
  }
  ordered_json& buffers = out["buffers"] = ordered_json::array();
  for (const BufferQuality& q : report.buffers) {
    std::optional<double> ratio = q.ratio();
    // Three decimals, as the text report prints it.
    ordered_json ratio_json = nullptr;
    if (ratio) ratio_json = std::round(*ratio * 1000) / 1000;
    buffers.push_back({{"mem_id", q.mem_id},
                       {"device", q.device.ToString()},
                       {"size", q.size},
                       {"lower_bound", q.live_bytes_lower_bound},
                       {"high_water", q.high_water},
                       {"allocations", q.num_allocations},
                       {"ratio", std::move(ratio_json)}});
  }
  return out;
}

std::string FormatJson(const Report& report) {
  return ReportJson(report).dump(
      -1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace properties
}  // namespace memplan
