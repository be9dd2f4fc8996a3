#include "tools/svg_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "properties/check.h"
#include "properties/json_plan.h"
#include "pugixml.hpp"

namespace memplan {
namespace cli {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

// Well-formedness by pugixml, plus what pugixml lets through: exactly one
// root element, and in text and attribute values only the five predefined
// entities or numeric references after '&', and no '<' in an attribute
// (entities are kept raw, parse_escapes off, to see them). Returns "" or
// what is wrong.
std::string EntityProblem(const char* text) {
  for (const char* at = std::strchr(text, '&'); at != nullptr;
       at = std::strchr(at + 1, '&')) {
    const char* end = std::strchr(at, ';');
    if (end == nullptr) return std::string("bare '&' in '") + text + "'";
    const std::string entity(at + 1, end);
    const bool named = entity == "lt" || entity == "gt" || entity == "amp" ||
                       entity == "quot" || entity == "apos";
    const bool numeric =
        entity.size() > 1 && entity[0] == '#' &&
        entity.find_first_not_of(
            entity[1] == 'x' ? "0123456789abcdefABCDEF" : "0123456789",
            entity[1] == 'x' ? 2 : 1) == std::string::npos;
    if (!named && !numeric) return "unknown entity &" + entity + ";";
  }
  return "";
}

std::string XmlProblem(const std::string& xml) {
  pugi::xml_document doc;
  pugi::xml_parse_result parsed =
      doc.load_string(xml.c_str(), pugi::parse_default & ~pugi::parse_escapes);
  if (!parsed) {
    return std::string(parsed.description()) + " at byte " +
           std::to_string(parsed.offset);
  }
  int roots = 0;
  for (pugi::xml_node node : doc.children()) {
    roots += node.type() == pugi::node_element;
  }
  if (roots != 1) return std::to_string(roots) + " root elements";
  struct Walker : pugi::xml_tree_walker {
    std::string problem;
    bool for_each(pugi::xml_node& node) override {
      if (node.type() == pugi::node_pcdata)
        problem = EntityProblem(node.value());
      for (pugi::xml_attribute attr : node.attributes()) {
        if (!problem.empty()) break;
        if (std::strchr(attr.value(), '<') != nullptr) {
          problem = "'<' in an attribute of <" + std::string(node.name()) + ">";
        } else {
          problem = EntityProblem(attr.value());
        }
      }
      return problem.empty();
    }
  } walker;
  doc.traverse(walker);
  return walker.problem;
}

properties::Plan ParsePlan(const std::string& json) {
  Result<properties::Plan> plan = properties::PlanFromJson(json);
  EXPECT_TRUE(plan.ok()) << plan.error().ToString();
  return plan.ok() ? *plan : properties::Plan{};
}

constexpr char kThreeDevices[] = R"({
  "end_time": 4,
  "buffers": [{"mem_id": 1, "size": 128, "device": "cpu"},
              {"mem_id": 2, "size": 256, "device": "cuda:0"},
              {"mem_id": 3, "size": 64, "device": "cuda:1"}],
  "allocations": [
    {"id": "x", "mem_id": 1, "offset": 0, "size": 64, "first": 0, "last": 1,
     "device": "cpu"},
    {"id": "y", "mem_id": 1, "offset": 64, "size": 64, "first": 1, "last": 4,
     "device": "cpu"},
    {"id": "h", "mem_id": 2, "offset": 0, "size": 256, "first": 1, "last": 3,
     "device": "cuda:0"},
    {"id": "hv", "kind": "view", "mem_id": 2, "offset": 128, "size": 128,
     "first": 2, "last": 3, "device": "cuda:0", "alias_of": "h"},
    {"id": "z", "mem_id": 3, "offset": 0, "size": 64, "first": 3, "last": 4,
     "device": "cuda:1"}]})";

// "a<&b" shares bytes with "c" while both live, and "stray" is a CPU tensor
// in the CUDA buffer.
constexpr char kBroken[] = R"({
  "buffers": [{"mem_id": 1, "size": 160},
              {"mem_id": 2, "size": 64, "device": "cuda:0"}],
  "allocations": [
    {"id": "a<&b", "mem_id": 1, "offset": 0, "size": 64, "first": 0,
     "last": 1, "device": "cpu"},
    {"id": "c", "mem_id": 1, "offset": 32, "size": 64, "first": 1, "last": 4,
     "device": "cpu"},
    {"id": "ok", "mem_id": 1, "offset": 96, "size": 64, "first": 0,
     "last": 4, "device": "cpu"},
    {"id": "stray", "mem_id": 2, "offset": 0, "size": 64, "first": 0,
     "last": 0, "device": "cpu"}]})";

// The <rect> element whose tooltip starts with `id`.
std::string RectOf(const std::string& svg, const std::string& id) {
  size_t title = svg.find("<title>" + id + " (");
  if (title == std::string::npos) return "";
  size_t start = svg.rfind("<rect", title);
  return svg.substr(start, svg.find("</rect>", title) - start);
}

TEST(SvgPlanTest, ValidPlanIsWellFormedWithAPanelPerBuffer) {
  properties::Plan plan = ParsePlan(kThreeDevices);
  properties::Report report = properties::Check(plan);
  ASSERT_TRUE(report.ok()) << properties::FormatText(report);
  std::string svg = RenderPlanSvg(plan, report, {"three devices"});
  EXPECT_EQ(XmlProblem(svg), "");
  EXPECT_THAT(svg, AllOf(HasSubstr("buffer 1 · cpu · 128 B"),
                         HasSubstr("buffer 2 · cuda:0 · 256 B"),
                         HasSubstr("buffer 3 · cuda:1 · 64 B")));
  // Only the legend's swatch is red; no allocation is.
  EXPECT_THAT(svg, Not(HasSubstr(std::string("fill=\"") + kViolationFill +
                                 "\" stroke=\"" + kViolationStroke +
                                 "\" stroke-width")));
  // Tooltips carry id, bytes and lifetime; colours follow the device.
  EXPECT_THAT(RectOf(svg, "y"), AllOf(HasSubstr("64 B at [64, 128)"),
                                      HasSubstr("lifetime [1, 4]"),
                                      HasSubstr(DeviceColor(Device::Cpu()))));
  EXPECT_THAT(RectOf(svg, "h"), HasSubstr(DeviceColor(Device::Cuda(0))));
  EXPECT_THAT(RectOf(svg, "z"), HasSubstr(DeviceColor(Device::Cuda(1))));
  EXPECT_THAT(RectOf(svg, "hv"),
              AllOf(HasSubstr("alias of h"), HasSubstr("stroke-dasharray")));
}

TEST(SvgPlanTest, DeviceColoursAreDistinctAndNeverRed) {
  std::vector<std::string> colors = {DeviceColor(Device::Cpu())};
  for (int i = 0; i < 8; ++i) colors.push_back(DeviceColor(Device::Cuda(i)));
  for (size_t a = 0; a < colors.size(); ++a) {
    EXPECT_NE(colors[a], kViolationFill);
    for (size_t b = a + 1; b < colors.size(); ++b) {
      EXPECT_NE(colors[a], colors[b]) << a << " vs " << b;
    }
  }
}

TEST(SvgPlanTest, ViolationsAreDrawnInRedAndListed) {
  properties::Plan plan = ParsePlan(kBroken);
  properties::Report report = properties::Check(plan);
  ASSERT_EQ(report.count(properties::ViolationCode::kOverlap), 1u);
  ASSERT_EQ(report.count(properties::ViolationCode::kCrossDevice), 1u);
  auto violators = ViolationsByAllocation(plan, report);
  EXPECT_EQ(violators.count("a<&b"), 1u);
  EXPECT_EQ(violators.count("c"), 1u);
  EXPECT_EQ(violators.count("stray"), 1u);
  EXPECT_EQ(violators.count("ok"), 0u);

  std::string svg = RenderPlanSvg(plan, report);
  EXPECT_EQ(XmlProblem(svg), "");
  std::string red = std::string("fill=\"") + kViolationFill + "\" stroke=\"" +
                    kViolationStroke + "\"";
  EXPECT_THAT(RectOf(svg, "a&lt;&amp;b"),
              AllOf(HasSubstr(red), HasSubstr("violations: overlap")));
  EXPECT_THAT(RectOf(svg, "c"), HasSubstr(red));
  EXPECT_THAT(RectOf(svg, "stray"),
              AllOf(HasSubstr(red), HasSubstr("violations: cross_device")));
  EXPECT_THAT(RectOf(svg, "ok"), Not(HasSubstr(red)));
  // The codes are listed under the panels.
  EXPECT_THAT(svg, AllOf(HasSubstr(">overlap: a&lt;&amp;b"),
                         HasSubstr(">cross_device: stray")));
}

TEST(SvgPlanTest, SameInputGivesTheSameBytes) {
  properties::Plan plan = ParsePlan(kBroken);
  properties::Report report = properties::Check(plan);
  EXPECT_EQ(RenderPlanSvg(plan, report), RenderPlanSvg(plan, report));
}

TEST(SvgPlanTest, HostileValuesStayWellFormed) {
  properties::Plan plan;
  plan.buffers.push_back({1, -5, Device{static_cast<DeviceType>(9), 3}});
  properties::Allocation a;
  a.id = std::string("bad\x01\xff id\"'>", 11);
  a.offset = INT64_MAX;
  a.size = INT64_MAX;
  a.lifetime = {INT64_MAX, INT64_MIN};
  plan.allocations.push_back(a);
  properties::Allocation orphan = a;
  orphan.id = "orphan";
  orphan.mem_id = 42;
  orphan.lifetime = {INT64_MIN, INT64_MAX};
  plan.allocations.push_back(orphan);
  properties::Report report = properties::Check(plan);
  EXPECT_FALSE(report.ok());
  std::string svg = RenderPlanSvg(plan, report);
  EXPECT_EQ(XmlProblem(svg), "");
  EXPECT_THAT(svg, HasSubstr("plan-level violations"));
}

TEST(SvgPlanTest, ManyAllocationsAreCappedButViolatorsStay) {
  properties::Plan plan;
  plan.buffers.push_back({1, 1000 * 8, Device::Cpu()});
  for (int i = 0; i < 1000; ++i) {
    properties::Allocation a;
    a.id = "t" + std::to_string(i);
    a.offset = 8 * i;
    a.size = 8;
    a.lifetime = {i, i + 1};
    a.device = Device::Cpu();
    plan.allocations.push_back(a);
  }
  plan.allocations.back().offset = 8 * 998;  // Overlaps t998 at time 999.
  properties::Report report = properties::Check(plan);
  ASSERT_EQ(report.count(properties::ViolationCode::kOverlap), 1u);
  SvgOptions options;
  options.max_rects_per_panel = 100;
  std::string svg = RenderPlanSvg(plan, report, options);
  EXPECT_EQ(XmlProblem(svg), "");
  EXPECT_THAT(svg, HasSubstr("898 more allocation(s) not drawn"));
  EXPECT_THAT(RectOf(svg, "t999"), HasSubstr(kViolationFill));
}

TEST(SvgPlanTest, CheckerRejectsMalformedXml) {
  EXPECT_NE(XmlProblem("<svg><rect></svg>"), "");
  EXPECT_NE(XmlProblem("<svg a=b></svg>"), "");
  EXPECT_NE(XmlProblem("<svg>a & b</svg>"), "");
  EXPECT_NE(XmlProblem("<svg></svg><svg></svg>"), "");
  EXPECT_NE(XmlProblem("<svg>&bogus;</svg>"), "");
  EXPECT_NE(XmlProblem("<svg a=\"<\"/>"), "");
  EXPECT_NE(XmlProblem("<svg a=\"&x\"/>"), "");
  EXPECT_EQ(XmlProblem("<svg x=\"1\"><g/><text>&lt;&#955;</text></svg>\n"), "");
}

}  // namespace
}  // namespace cli
}  // namespace memplan
