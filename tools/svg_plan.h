// An SVG picture of one plan: a panel per buffer (time on x, offset on y),
// a rectangle per allocation coloured by device, violations in red.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "properties/plan.h"
#include "properties/report.h"
#include "runtime/core/device.h"

namespace memplan {
namespace cli {

struct SvgOptions {
  std::string title;     // Drawn above the first panel when set.
  int plot_width = 900;  // Pixels of each panel's plot area.
  int plot_height = 180;
  // Rectangles drawn per panel; allocations named by a violation are
  // always drawn, the rest in plan order up to this many.
  size_t max_rects_per_panel = 4000;
  size_t max_violation_lines = 12;  // Listed under each panel.
};

// Fill colour of a device's allocations: cpu, cuda:0, cuda:1... get
// distinct hues, none of them red (red marks violations).
std::string DeviceColor(const Device& device);
// Red fill and stroke of allocations named by a violation.
inline constexpr char kViolationFill[] = "#d62728";
inline constexpr char kViolationStroke[] = "#7f0000";

// Allocation id -> codes of the violations about it (their allocation_ids).
std::map<std::string, std::vector<properties::ViolationCode>>
ViolationsByAllocation(const properties::Plan& plan,
                       const properties::Report& report);

// Deterministic: the same plan and report give the same bytes. Ids and
// messages are XML-escaped.
std::string RenderPlanSvg(const properties::Plan& plan,
                          const properties::Report& report,
                          const SvgOptions& options = {});

// & < > " ' as entities.
std::string XmlEscape(const std::string& text);

}  // namespace cli
}  // namespace memplan
