#include "properties/report.h"

#include <cstdio>

#include "properties/json.h"

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
  if (lower_bound == 0) return std::nullopt;
  return static_cast<double>(size) / static_cast<double>(lower_bound);
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
           std::to_string(q.lower_bound) + ", ratio " + FormatRatio(q) +
           ", high water " + std::to_string(q.high_water) + ", " +
           std::to_string(q.num_allocations) + " allocation(s)\n";
  }
  return out;
}

std::string FormatJson(const Report& report) {
  std::string out = "{\"valid\":";
  out += report.ok() ? "true" : "false";
  out += ",\"counts\":{";
  for (int c = 0; c < kNumViolationCodes; ++c) {
    if (c > 0) out += ",";
    out += JsonQuote(ViolationCodeName(static_cast<ViolationCode>(c))) + ":" +
           std::to_string(report.counts[c]);
  }
  out += "},\"violations\":[";
  for (size_t i = 0; i < report.violations.size(); ++i) {
    const Violation& v = report.violations[i];
    if (i > 0) out += ",";
    out += "{\"code\":" + JsonQuote(ViolationCodeName(v.code)) +
           ",\"message\":" + JsonQuote(v.message);
    if (!v.allocation_ids.empty()) {
      out += ",\"allocations\":[";
      for (size_t k = 0; k < v.allocation_ids.size(); ++k) {
        if (k > 0) out += ",";
        out += JsonQuote(v.allocation_ids[k]);
      }
      out += "]";
    }
    if (v.mem_id) out += ",\"mem_id\":" + std::to_string(*v.mem_id);
    if (v.bytes) {
      out += ",\"bytes\":[" + std::to_string(v.bytes->begin) + "," +
             std::to_string(v.bytes->end) + "]";
    }
    if (v.lifetime) {
      out += ",\"lifetime\":[" + std::to_string(v.lifetime->first) + "," +
             std::to_string(v.lifetime->last) + "]";
    }
    out += "}";
  }
  out += "],\"buffers\":[";
  for (size_t i = 0; i < report.buffers.size(); ++i) {
    const BufferQuality& q = report.buffers[i];
    if (i > 0) out += ",";
    std::optional<double> ratio = q.ratio();
    out += "{\"mem_id\":" + std::to_string(q.mem_id) +
           ",\"device\":" + JsonQuote(q.device.ToString()) +
           ",\"size\":" + std::to_string(q.size) +
           ",\"lower_bound\":" + std::to_string(q.lower_bound) +
           ",\"high_water\":" + std::to_string(q.high_water) +
           ",\"allocations\":" + std::to_string(q.num_allocations) +
           ",\"ratio\":" + (ratio ? FormatRatio(q) : "null") + "}";
  }
  out += "]}";
  return out;
}

}  // namespace properties
}  // namespace memplan
