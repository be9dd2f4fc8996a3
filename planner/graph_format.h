// Reader and writer of the graph text format (planner/GRAPH_FORMAT.md).
#pragma once

#include <string>
#include <string_view>

#include "planner/graph.h"
#include "runtime/core/result.h"

namespace memplan {
namespace planner {

// Parses the text format; errors name the line and the field
// ("line 4: field 'view_of': unknown base 'q'").
Result<Graph> ParseGraph(std::string_view text);
// Reads and parses a file; I/O errors name the path.
Result<Graph> ReadGraphFile(const std::string& path);
// Writes a graph in the text format; ParseGraph(FormatGraph(g)) equals g.
std::string FormatGraph(const Graph& graph);

}  // namespace planner
}  // namespace memplan
