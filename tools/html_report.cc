#include "tools/html_report.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "runtime/core/result.h"
#include "tools/check_table.h"
#include "tools/svg_plan.h"

namespace memplan {
namespace cli {
namespace {

constexpr char kStyle[] = R"(
body { font-family: sans-serif; margin: 24px; color: #222; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th { background: #eee; }
td:first-child, th:first-child { text-align: left; }
td.FAIL, td.UNREADABLE { background: #fdd; color: #900; font-weight: bold; }
td.ok { color: #070; }
section { margin-top: 32px; border-top: 2px solid #ddd; padding-top: 8px; }
ul.findings li { color: #900; }
div.plans { display: flex; flex-wrap: wrap; gap: 12px; }
svg { border: 1px solid #ddd; background: #fff; }
)";

struct DrawnPlan {
  size_t report_index = 0;
  std::string label;
  std::string svg;
};

std::vector<DrawnPlan> DrawPlans(const std::vector<InputReport>& reports,
                                 const HtmlOptions& options) {
  std::vector<DrawnPlan> drawn;
  for (size_t r = 0; r < reports.size(); ++r) {
    for (const CheckedPlan& checked : reports[r].plans) {
      bool emitted = checked.label.find("/emitted") != std::string::npos;
      if (emitted && checked.report.ok() && !options.draw_clean_emitted_plans)
        continue;
      SvgOptions svg_options;
      // Two plans side by side on a laptop screen.
      svg_options.plot_width = 540;
      svg_options.plot_height = 150;
      std::string base = reports[r].name.substr(reports[r].name.rfind('/') + 1);
      svg_options.title = checked.label + " · " + base;
      drawn.push_back(
          {r, checked.label,
           RenderPlanSvg(checked.plan, checked.report, svg_options)});
    }
  }
  return drawn;
}

std::string Cell(const std::string& tag, const std::string& text,
                 const std::string& inner_html = "") {
  std::string cls = (text == "FAIL" || text == "UNREADABLE" || text == "ok")
                        ? " class=\"" + text + "\""
                        : "";
  return "<" + tag + cls + ">" +
         (inner_html.empty() ? XmlEscape(text) : inner_html) + "</" + tag + ">";
}

std::string Page(const std::vector<InputReport>& reports,
                 const std::vector<std::string>& algorithms,
                 const HtmlOptions& options,
                 const std::vector<DrawnPlan>& drawn) {
  size_t failing = 0;
  for (const InputReport& report : reports) failing += report.ok() ? 0 : 1;
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>memplan check</title>\n<style>" +
      std::string(kStyle) +
      "</style>\n</head>\n<body>\n<h1>memplan check</h1>\n";
  html += "<p>" + std::to_string(reports.size()) + " input(s); " +
          (failing == 0 ? std::string("every invariant holds and every plan "
                                      "loads.")
                        : std::to_string(failing) + " with findings.") +
          " Algorithm columns: planned bytes against the oracle's lower "
          "bound (most bytes live at one time, summed over buffers); "
          "<i>given</i>: the plan a file brought.</p>\n";
  html += "<table>\n<tr>";
  for (const std::string& heading : TableHeader(algorithms, options.times)) {
    html += Cell("th", heading);
  }
  html += "</tr>\n";
  for (size_t r = 0; r < reports.size(); ++r) {
    std::vector<std::string> row =
        TableRow(reports[r], algorithms, options.times);
    html += "<tr>";
    for (size_t c = 0; c < row.size(); ++c) {
      html += c == 0 ? Cell("td", row[c],
                            "<a href=\"#input-" + std::to_string(r) + "\">" +
                                XmlEscape(row[c]) + "</a>")
                     : Cell("td", row[c]);
    }
    html += "</tr>\n";
  }
  html += "</table>\n";

  size_t next = 0;
  for (size_t r = 0; r < reports.size(); ++r) {
    const InputReport& report = reports[r];
    html += "<section id=\"input-" + std::to_string(r) + "\">\n<h2>" +
            XmlEscape(report.name) + "</h2>\n";
    if (!report.readable) {
      html += "<p class=\"findings\">unreadable: " + XmlEscape(report.error) +
              "</p>\n";
    }
    if (!report.load_detail.empty()) {
      html += "<p>loaded on: " + XmlEscape(report.load_detail) + "</p>\n";
    }
    std::string savings = SavingsText(report);
    if (!savings.empty()) {
      html += "<p>re-planned: " + XmlEscape(savings) + "</p>\n";
    }
    if (!report.findings.empty()) {
      html += "<ul class=\"findings\">\n";
      for (const std::string& finding : report.findings) {
        html += "<li>" + XmlEscape(finding) + "</li>\n";
      }
      html += "</ul>\n";
    }
    html += "<div class=\"plans\">\n";
    for (; next < drawn.size() && drawn[next].report_index == r; ++next) {
      html += drawn[next].svg;
    }
    html += "</div>\n";
    html += "</section>\n";
  }
  html += "</body>\n</html>\n";
  return html;
}

Error WriteText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) {
    return Error(ErrorCode::kIo, "cannot write '" + path.string() + "'");
  }
  return Error::Ok();
}

}  // namespace

std::string RenderHtmlReport(const std::vector<InputReport>& reports,
                             const std::vector<std::string>& algorithms,
                             const HtmlOptions& options) {
  return Page(reports, algorithms, options, DrawPlans(reports, options));
}

Error WriteHtmlReport(const std::string& dir,
                      const std::vector<InputReport>& reports,
                      const std::vector<std::string>& algorithms,
                      const HtmlOptions& options) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::create_directories(fs::path(dir) / "plans", error);
  if (error) {
    return Error(ErrorCode::kIo,
                 "cannot create '" + dir + "/plans': " + error.message());
  }
  std::vector<DrawnPlan> drawn = DrawPlans(reports, options);
  for (size_t i = 0; i < drawn.size(); ++i) {
    char name[32];
    std::snprintf(name, sizeof(name), "%03zu.svg", i);
    MEMPLAN_RETURN_IF_ERROR(
        WriteText(fs::path(dir) / "plans" / name, drawn[i].svg));
  }
  return WriteText(fs::path(dir) / "index.html",
                   Page(reports, algorithms, options, drawn));
}

}  // namespace cli
}  // namespace memplan
