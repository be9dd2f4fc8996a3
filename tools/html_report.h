// The HTML report of `memplan check --report DIR`: the table, then per
// input its findings and an SVG picture of each plan.
#pragma once

#include <string>
#include <vector>

#include "runtime/core/error.h"
#include "tools/check_pipeline.h"

namespace memplan {
namespace cli {

struct HtmlOptions {
  bool times = true;  // The table's time column.
  // Plans emitted and re-read from program bytes are drawn only when the
  // oracle found something in them (they repeat the planner's picture).
  bool draw_clean_emitted_plans = false;
};

// A self-contained page: SVGs inline, so their <title> tooltips work.
std::string RenderHtmlReport(const std::vector<InputReport>& reports,
                             const std::vector<std::string>& algorithms,
                             const HtmlOptions& options = {});

// Writes DIR/index.html and each drawn plan as DIR/plans/NNN.svg (created
// as needed); the error names the path that failed.
Error WriteHtmlReport(const std::string& dir,
                      const std::vector<InputReport>& reports,
                      const std::vector<std::string>& algorithms,
                      const HtmlOptions& options = {});

}  // namespace cli
}  // namespace memplan
