#include "tools/check_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "nlohmann/json.hpp"

namespace memplan {
namespace cli {
namespace {

const AlgorithmOutcome* FindOutcome(const InputReport& report,
                                    const std::string& name) {
  for (const AlgorithmOutcome& outcome : report.algorithms) {
    if (outcome.name == name) return &outcome;
  }
  return nullptr;
}

std::string DevicesText(const InputReport& report) {
  std::string text;
  for (const Device& device : report.devices) {
    if (!text.empty()) text += ",";
    text += device.ToString();
  }
  return text.empty() ? "-" : text;
}

std::string SecondsText(double seconds) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3fs", seconds);
  return text;
}

const char* KindName(InputKind kind) {
  switch (kind) {
    case InputKind::kGraph:
      return "graph";
    case InputKind::kProgram:
      return "program";
    case InputKind::kCsv:
      return "csv";
    case InputKind::kJsonPlan:
      return "json";
    case InputKind::kUnknown:
      break;
  }
  return "unknown";
}

}  // namespace

std::string RatioText(uint64_t bytes, uint64_t lower_bound) {
  if (lower_bound == 0) return bytes == 0 ? "1.00x" : "-";
  char text[32];
  std::snprintf(text, sizeof(text), "%.2fx",
                static_cast<double>(bytes) / static_cast<double>(lower_bound));
  return text;
}

std::vector<std::string> TableHeader(const std::vector<std::string>& algorithms,
                                     bool times) {
  std::vector<std::string> header = {"input",   "tensors",     "devices",
                                     "buffers", "lower bound", "given"};
  header.insert(header.end(), algorithms.begin(), algorithms.end());
  header.push_back("oracle");
  header.push_back("load");
  if (times) header.push_back("time");
  return header;
}

std::vector<std::string> TableRow(const InputReport& report,
                                  const std::vector<std::string>& algorithms,
                                  bool times) {
  std::vector<std::string> row = {report.name};
  if (!report.readable) {
    row.resize(6 + algorithms.size(), "-");
    row.push_back("UNREADABLE");
    row.push_back("-");
  } else {
    row.push_back(std::to_string(report.num_tensors));
    row.push_back(DevicesText(report));
    row.push_back(std::to_string(report.num_buffers));
    row.push_back(std::to_string(report.live_bytes_lower_bound) + " B");
    row.push_back(report.given_bytes ? RatioText(*report.given_bytes,
                                                 report.live_bytes_lower_bound)
                                     : "-");
    for (const std::string& name : algorithms) {
      const AlgorithmOutcome* outcome = FindOutcome(report, name);
      if (!outcome) {
        row.push_back("-");
      } else if (!outcome->total_bytes) {
        row.push_back("error");
      } else {
        row.push_back(
            RatioText(*outcome->total_bytes, report.live_bytes_lower_bound));
      }
    }
    row.push_back(VerdictName(report.oracle));
    row.push_back(VerdictName(report.load));
  }
  if (times) row.push_back(SecondsText(report.seconds));
  return row;
}

std::string SavingsText(const InputReport& report) {
  if (!report.given_bytes) return "";
  std::string text;
  for (const AlgorithmOutcome& outcome : report.algorithms) {
    if (!outcome.total_bytes) continue;
    if (!text.empty()) text += ", ";
    uint64_t given = *report.given_bytes;
    uint64_t total = *outcome.total_bytes;
    char line[160];
    if (total <= given) {
      double percent = given == 0 ? 0.0 : 100.0 * (given - total) / given;
      std::snprintf(line, sizeof(line), "%s saves %llu B (%.1f%%)",
                    outcome.name.c_str(),
                    static_cast<unsigned long long>(given - total), percent);
    } else {
      std::snprintf(line, sizeof(line), "%s needs %llu B more",
                    outcome.name.c_str(),
                    static_cast<unsigned long long>(total - given));
    }
    text += line;
  }
  return text;
}

std::string FormatTable(const std::vector<InputReport>& reports,
                        const std::vector<std::string>& algorithms,
                        bool times) {
  std::vector<std::vector<std::string>> rows = {TableHeader(algorithms, times)};
  for (const InputReport& report : reports) {
    rows.push_back(TableRow(report, algorithms, times));
  }
  std::vector<size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size() && c < widths.size(); ++c) {
      widths[c] = std::max(widths[c], row[c].size());
    }
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      std::string cell = row[c];
      // The input name reads left-aligned, numbers right-aligned.
      if (c == 0) {
        cell.resize(widths[c], ' ');
      } else {
        cell.insert(0, widths[c] - std::min(widths[c], cell.size()), ' ');
      }
      line += (c == 0 ? "" : "  ") + cell;
    }
    out += line + "\n";
  }
  std::string findings, savings;
  for (const InputReport& report : reports) {
    if (!report.readable) {
      findings += "  " + report.name + ": unreadable: " + report.error + "\n";
    }
    for (const std::string& finding : report.findings) {
      findings += "  " + report.name + ": " + finding + "\n";
    }
    std::string saved = SavingsText(report);
    if (!saved.empty()) savings += "  " + report.name + ": " + saved + "\n";
  }
  if (!savings.empty()) out += "\nre-planned with our algorithms:\n" + savings;
  if (!findings.empty()) out += "\nfindings:\n" + findings;
  return out;
}

std::string FormatReportsJson(const std::vector<InputReport>& reports,
                              const std::vector<std::string>& algorithms,
                              bool times) {
  using nlohmann::ordered_json;
  ordered_json inputs = ordered_json::array();
  for (const InputReport& r : reports) {
    ordered_json input = {
        {"name", r.name}, {"kind", KindName(r.kind)}, {"readable", r.readable}};
    if (!r.readable) input["error"] = r.error;
    input["tensors"] = r.num_tensors;
    ordered_json& devices = input["devices"] = ordered_json::array();
    for (const Device& device : r.devices) devices.push_back(device.ToString());
    input["buffers"] = r.num_buffers;
    input["lower_bound"] = r.live_bytes_lower_bound;
    if (r.given_bytes) input["given_bytes"] = *r.given_bytes;
    ordered_json& outcomes = input["algorithms"] = ordered_json::array();
    for (const std::string& name : algorithms) {
      const AlgorithmOutcome* outcome = FindOutcome(r, name);
      if (!outcome) continue;
      ordered_json item = {{"name", name}};
      if (outcome->total_bytes) {
        item["bytes"] = *outcome->total_bytes;
        item["optimal"] = outcome->proven_optimal;
      } else {
        item["error"] = outcome->error;
      }
      outcomes.push_back(std::move(item));
    }
    input["oracle"] = VerdictName(r.oracle);
    input["load"] = VerdictName(r.load);
    input["findings"] = r.findings;
    // Microseconds, as the text table prints them.
    if (times) input["seconds"] = std::round(r.seconds * 1e6) / 1e6;
    inputs.push_back(std::move(input));
  }
  ordered_json out = {{"inputs", std::move(inputs)},
                      {"exit_code", ExitCode(reports)}};
  return out.dump(-1, ' ', false, ordered_json::error_handler_t::replace) +
         "\n";
}

}  // namespace cli
}  // namespace memplan
