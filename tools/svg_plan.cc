#include "tools/svg_plan.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "runtime/core/checked_math.h"

namespace memplan {
namespace cli {
namespace {

using properties::Allocation;
using properties::Plan;
using properties::Report;
using properties::Violation;

constexpr int kLeft = 90;
constexpr int kRight = 20;
constexpr int kLineHeight = 14;
// Average width of a 12px sans-serif character, for cutting long lines.
constexpr double kCharWidth = 6.5;

std::string Num(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f", value);
  return text;
}

// Cuts at a character boundary so the result stays UTF-8.
std::string Truncate(const std::string& text, size_t max_chars) {
  if (text.size() <= max_chars) return text;
  size_t cut = max_chars - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) >> 6) == 0x2) {
    --cut;
  }
  return text.substr(0, cut) + "...";
}

std::string EndText(const Allocation& a) {
  int64_t end = 0;
  return CheckedAdd(a.offset, a.size, &end) ? std::to_string(end) : "overflow";
}

// Length of the well-formed UTF-8 sequence at text[i], or 0.
size_t Utf8Length(const std::string& text, size_t i) {
  unsigned char c = static_cast<unsigned char>(text[i]);
  size_t n = c < 0x80           ? 1
             : (c >> 5) == 0x6  ? 2
             : (c >> 4) == 0xe  ? 3
             : (c >> 3) == 0x1e ? 4
                                : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) return 0;
  }
  return n;
}

std::string DeviceName(const std::optional<Device>& device) {
  return device ? device->ToString() : "no device";
}

struct Layout {
  TimeValue first = 0;  // Leftmost time drawn.
  TimeValue last = 0;   // Rightmost time drawn.
  double span = 1;      // Time steps across the plot.
};

Layout TimeLayout(const Plan& plan) {
  bool any = false;
  TimeValue lo = 0, hi = 0;
  for (const Allocation& a : plan.allocations) {
    if (a.lifetime.first > a.lifetime.last) continue;
    lo = any ? std::min(lo, a.lifetime.first) : a.lifetime.first;
    hi = any ? std::max(hi, a.lifetime.last) : a.lifetime.last;
    any = true;
  }
  if (plan.end_time) {
    lo = any ? std::min<TimeValue>(lo, 0) : 0;
    hi = any ? std::max(hi, *plan.end_time) : *plan.end_time;
  }
  Layout layout;
  layout.first = lo;
  layout.last = hi;
  // Doubles: hostile lifetimes may span all of int64.
  layout.span = static_cast<double>(hi) - static_cast<double>(lo) + 1.0;
  if (layout.span < 1) layout.span = 1;
  return layout;
}

class SvgWriter {
 public:
  SvgWriter(const Plan& plan, const Report& report, const SvgOptions& options)
      : plan_(plan), report_(report), options_(options) {}

  std::string Render() {
    violators_ = ViolationsByAllocation(plan_, report_);
    layout_ = TimeLayout(plan_);
    AssignViolationsToBuffers();
    width_ = kLeft + options_.plot_width + kRight;
    if (!options_.title.empty()) {
      Text(10, y_ + 16, options_.title,
           "font-size=\"16\" font-weight=\"bold\"");
      y_ += 26;
    }
    Legend();
    for (size_t b = 0; b < plan_.buffers.size(); ++b) Panel(b);
    ViolationLines(unassigned_, "plan-level violations");
    if (plan_.buffers.empty()) {
      Text(10, y_ + 14, "no planned buffers", "fill=\"#555\"");
      y_ += 20;
    }
    y_ += 10;
    const std::string height = std::to_string(static_cast<int>(y_ + 0.5));
    std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                      std::to_string(width_) + "\" height=\"" + height +
                      "\" viewBox=\"0 0 " + std::to_string(width_) + " " +
                      height +
                      "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    svg += body_;
    svg += "</svg>\n";
    return svg;
  }

 private:
  void Text(double x, double y, const std::string& text,
            const std::string& attributes = "") {
    body_ += "<text x=\"" + Num(x) + "\" y=\"" + Num(y) + "\"" +
             (attributes.empty() ? "" : " " + attributes) + ">" +
             XmlEscape(text) + "</text>\n";
  }

  void Legend() {
    std::set<Device> devices;
    for (const properties::Buffer& buffer : plan_.buffers) {
      devices.insert(buffer.device);
    }
    for (const Allocation& a : plan_.allocations) {
      if (a.device) devices.insert(*a.device);
    }
    double x = 10;
    for (const Device& device : devices) {
      Swatch(x, DeviceColor(device), "#333", device.ToString());
      x += 90;
    }
    if (!violators_.empty() || !report_.ok()) {
      // The legend names every code found, shared_state included.
      std::string codes;
      for (int c = 0; c < properties::kNumViolationCodes; ++c) {
        const auto code = static_cast<properties::ViolationCode>(c);
        if (report_.count(code) == 0) continue;
        codes += (codes.empty() ? "" : ", ") +
                 std::string(properties::ViolationCodeName(code));
      }
      Swatch(x, kViolationFill, kViolationStroke,
             codes.empty() ? "violation" : "violation: " + codes);
    }
    y_ += 22;
  }

  void Swatch(double x, const std::string& fill, const std::string& stroke,
              const std::string& label) {
    body_ += "<rect x=\"" + Num(x) + "\" y=\"" + Num(y_ + 4) +
             "\" width=\"12\" height=\"12\" fill=\"" + fill + "\" stroke=\"" +
             stroke + "\"/>\n";
    Text(x + 16, y_ + 14, label);
  }

  // Each kept violation goes under the panel of the first buffer holding an
  // allocation it names; the others are listed at the end.
  void AssignViolationsToBuffers() {
    std::unordered_map<std::string, properties::MemId> buffer_of;
    for (const Allocation& a : plan_.allocations) {
      buffer_of.emplace(a.id, a.mem_id);
    }
    std::set<properties::MemId> buffer_ids;
    for (const properties::Buffer& buffer : plan_.buffers) {
      buffer_ids.insert(buffer.mem_id);
    }
    for (const Violation& v : report_.violations) {
      bool assigned = false;
      for (const std::string& id : v.allocation_ids) {
        auto found = buffer_of.find(id);
        if (found != buffer_of.end() && buffer_ids.count(found->second)) {
          by_buffer_[found->second].push_back(&v);
          assigned = true;
          break;
        }
      }
      if (!assigned) unassigned_.push_back(&v);
    }
  }

  void Panel(size_t b) {
    const properties::Buffer& buffer = plan_.buffers[b];
    std::vector<const Allocation*> members;
    uint64_t high_water = 0;
    for (const Allocation& a : plan_.allocations) {
      if (a.mem_id != buffer.mem_id) continue;
      members.push_back(&a);
      if (a.offset >= 0 && a.size >= 0) {
        high_water =
            std::max<uint64_t>(high_water, static_cast<uint64_t>(a.offset) +
                                               static_cast<uint64_t>(a.size));
      }
    }
    std::string header = "buffer " + std::to_string(buffer.mem_id) + " · " +
                         buffer.device.ToString() + " · " +
                         std::to_string(buffer.size) + " B · " +
                         std::to_string(members.size()) + " allocation(s)";
    for (const properties::BufferQuality& q : report_.buffers) {
      if (q.mem_id != buffer.mem_id) continue;
      header +=
          " · lower bound " + std::to_string(q.live_bytes_lower_bound) + " B";
      if (q.ratio()) {
        char ratio[32];
        std::snprintf(ratio, sizeof(ratio), " (%.3fx)", *q.ratio());
        header += ratio;
      }
      break;
    }
    Text(10, y_ + 14, header, "font-weight=\"bold\"");
    y_ += 20;

    const double x0 = kLeft, y0 = y_;
    const double w = options_.plot_width, h = options_.plot_height;
    double size = buffer.size > 0 ? static_cast<double>(buffer.size) : 0;
    double top = std::max<double>(size, static_cast<double>(high_water));
    if (top <= 0) top = 1;
    body_ += "<rect x=\"" + Num(x0) + "\" y=\"" + Num(y0) + "\" width=\"" +
             Num(w) + "\" height=\"" + Num(h) +
             "\" fill=\"#f7f7f7\" stroke=\"#999\"/>\n";
    if (static_cast<double>(high_water) > size) {
      // Allocations poke out of the buffer: mark where it really ends.
      double y = y0 + h - size / top * h;
      body_ += "<line x1=\"" + Num(x0) + "\" y1=\"" + Num(y) + "\" x2=\"" +
               Num(x0 + w) + "\" y2=\"" + Num(y) + "\" stroke=\"" +
               kViolationStroke + "\" stroke-dasharray=\"6,3\"/>\n";
    }
    DrawAllocations(members, x0, y0, w, h, top);
    Text(x0 - 6, y0 + 10,
         std::to_string(
             std::max<uint64_t>(buffer.size > 0 ? buffer.size : 0, high_water)),
         "text-anchor=\"end\" fill=\"#555\"");
    Text(x0 - 6, y0 + h, "0", "text-anchor=\"end\" fill=\"#555\"");
    Text(x0 - 6, y0 + h / 2, "offset", "text-anchor=\"end\" fill=\"#555\"");
    Text(x0, y0 + h + 13, "t=" + std::to_string(layout_.first),
         "fill=\"#555\"");
    Text(x0 + w / 2, y0 + h + 13, "time →",
         "text-anchor=\"middle\" fill=\"#555\"");
    Text(x0 + w, y0 + h + 13, "t=" + std::to_string(layout_.last),
         "text-anchor=\"end\" fill=\"#555\"");
    y_ += h + 20;
    auto found = by_buffer_.find(buffer.mem_id);
    if (found != by_buffer_.end()) ViolationLines(found->second, "");
    y_ += 8;
  }

  void DrawAllocations(const std::vector<const Allocation*>& members, double x0,
                       double y0, double w, double h, double top) {
    // Owners first, aliases over them, violators last so red stays visible.
    std::vector<const Allocation*> order;
    size_t plain_budget = options_.max_rects_per_panel;
    for (int pass = 0; pass < 3; ++pass) {
      for (const Allocation* a : members) {
        bool bad = violators_.count(a->id) > 0;
        bool alias = a->alias_of.has_value();
        int wanted = bad ? 2 : (alias ? 1 : 0);
        if (wanted != pass) continue;
        if (!bad) {
          if (plain_budget == 0) continue;
          --plain_budget;
        }
        order.push_back(a);
      }
    }
    for (const Allocation* a : order) DrawAllocation(*a, x0, y0, w, h, top);
    size_t hidden = members.size() - order.size();
    if (hidden > 0) {
      Text(x0 + w - 4, y0 + 12,
           std::to_string(hidden) + " more allocation(s) not drawn",
           "text-anchor=\"end\" fill=\"#555\"");
    }
  }

  void DrawAllocation(const Allocation& a, double x0, double y0, double w,
                      double h, double top) {
    auto clamp = [](double v, double lo, double hi) {
      return std::min(std::max(v, lo), hi);
    };
    double first = static_cast<double>(a.lifetime.first) -
                   static_cast<double>(layout_.first);
    double steps = static_cast<double>(a.lifetime.last) -
                   static_cast<double>(a.lifetime.first) + 1;
    double x = clamp(x0 + first / layout_.span * w, x0, x0 + w);
    double width = clamp(steps / layout_.span * w, 1, x0 + w - x);
    double bottom = clamp(static_cast<double>(a.offset), 0, top);
    double end = clamp(
        static_cast<double>(a.offset) + static_cast<double>(a.size), 0, top);
    double y = y0 + h - end / top * h;
    double height = std::max((end - bottom) / top * h, 1.0);
    if (y + height > y0 + h) y = y0 + h - height;

    auto bad = violators_.find(a.id);
    std::string fill, stroke, extra;
    if (bad != violators_.end()) {
      fill = kViolationFill;
      stroke = kViolationStroke;
      extra = " stroke-width=\"1.5\"";
    } else {
      fill = DeviceColor(a.device ? *a.device : Device::Cpu());
      stroke = "#222";
      extra = " stroke-width=\"0.5\"";
    }
    if (a.alias_of) extra += " fill-opacity=\"0.4\" stroke-dasharray=\"3,2\"";
    std::string tooltip =
        a.id + " (" + SpecKindName(a.kind) + ") · " + std::to_string(a.size) +
        " B at [" + std::to_string(a.offset) + ", " + EndText(a) +
        ") · lifetime [" + std::to_string(a.lifetime.first) + ", " +
        std::to_string(a.lifetime.last) + "] · " + DeviceName(a.device);
    if (a.alias_of) tooltip += " · alias of " + *a.alias_of;
    if (bad != violators_.end()) {
      tooltip += " · violations:";
      for (properties::ViolationCode code : bad->second) {
        tooltip += std::string(" ") + properties::ViolationCodeName(code);
      }
    }
    body_ += "<rect x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" width=\"" +
             Num(width) + "\" height=\"" + Num(height) + "\" fill=\"" + fill +
             "\" stroke=\"" + stroke + "\"" + extra + "><title>" +
             XmlEscape(tooltip) + "</title></rect>\n";
  }

  void ViolationLines(const std::vector<const Violation*>& violations,
                      const std::string& heading) {
    if (violations.empty()) return;
    if (!heading.empty()) {
      Text(10, y_ + 12, heading, "font-weight=\"bold\" fill=\"#7f0000\"");
      y_ += kLineHeight + 2;
    }
    size_t shown = std::min(violations.size(), options_.max_violation_lines);
    size_t max_chars = std::max<size_t>(
        20, static_cast<size_t>((width_ - kLeft - kRight) / kCharWidth));
    for (size_t i = 0; i < shown; ++i) {
      // The full message is the line's tooltip.
      body_ += "<text x=\"" + Num(kLeft) + "\" y=\"" + Num(y_ + 11) +
               "\" class=\"violation\" fill=\"" + kViolationFill + "\">" +
               XmlEscape(Truncate(violations[i]->message, max_chars)) +
               "<title>" + XmlEscape(violations[i]->message) +
               "</title></text>\n";
      y_ += kLineHeight;
    }
    if (shown < violations.size()) {
      Text(kLeft, y_ + 11,
           "... and " + std::to_string(violations.size() - shown) + " more",
           std::string("fill=\"") + kViolationFill + "\"");
      y_ += kLineHeight;
    }
    y_ += 4;
  }

  const Plan& plan_;
  const Report& report_;
  const SvgOptions& options_;
  std::map<std::string, std::vector<properties::ViolationCode>> violators_;
  std::map<properties::MemId, std::vector<const Violation*>> by_buffer_;
  std::vector<const Violation*> unassigned_;
  Layout layout_;
  int width_ = 0;
  double y_ = 0;
  std::string body_;
};

}  // namespace

std::string DeviceColor(const Device& device) {
  static constexpr const char* kCuda[] = {"#59a14f", "#f28e2b", "#b07aa1",
                                          "#76b7b2", "#edc948", "#9c755f",
                                          "#86bcb6", "#8cd17d"};
  if (device.type == DeviceType::kCpu) return "#4e79a7";
  if (device.type == DeviceType::kCuda) {
    int index = device.index < 0 ? -device.index : device.index;
    return kCuda[index % 8];
  }
  return "#bab0ac";
}

std::map<std::string, std::vector<properties::ViolationCode>>
ViolationsByAllocation(const Plan& plan, const Report& report) {
  std::unordered_set<std::string> ids;
  for (const Allocation& a : plan.allocations) ids.insert(a.id);
  std::map<std::string, std::vector<properties::ViolationCode>> result;
  for (const Violation& v : report.violations) {
    for (const std::string& id : v.allocation_ids) {
      if (!ids.count(id)) continue;
      std::vector<properties::ViolationCode>& codes = result[id];
      if (std::find(codes.begin(), codes.end(), v.code) == codes.end()) {
        codes.push_back(v.code);
      }
    }
  }
  return result;
}

std::string RenderPlanSvg(const Plan& plan, const Report& report,
                          const SvgOptions& options) {
  return SvgWriter(plan, report, options).Render();
}

std::string XmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"') {
      out += "&quot;";
    } else if (c == '\'') {
      out += "&apos;";
    } else if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') {
      out += '?';  // Control characters are not allowed in XML 1.0.
    } else if (size_t n = Utf8Length(text, i); n > 0) {
      out.append(text, i, n);
      i += n;
      continue;
    } else {
      out += '?';  // Bytes a file gave that are not UTF-8.
    }
    ++i;
  }
  return out;
}

}  // namespace cli
}  // namespace memplan
