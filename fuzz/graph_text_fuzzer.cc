// Bytes -> the graph text format (planner/GRAPH_FORMAT.md), what `memplan
// plan X.graph` and `memplan check` read from users. ParseGraph accepts the
// text or refuses it with an InvalidArgument error that names a line and a
// field; whatever the text, it never crashes (views listed before their
// bases, thousands deep, once overflowed the stack). An accepted graph
// survives FormatGraph -> ParseGraph: the same tensors and nodes, the same
// text when formatted again; and ComputeLifetimes gives one lifetime per
// tensor. planner_fuzzer takes graphs built in code on through planning.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "planner/graph_format.h"
#include "planner/lifetimes.h"

namespace {

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "graph_text_fuzzer: %s\n", what.c_str());
  __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using memplan::planner::FormatGraph;
  using memplan::planner::Graph;
  using memplan::planner::ParseGraph;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  memplan::Result<Graph> graph = ParseGraph(text);
  if (!graph.ok()) {
    const memplan::Error& error = graph.error();
    if (error.code() != memplan::ErrorCode::kInvalidArgument) {
      Fail("refused with another code: " + error.ToString());
    }
    if (error.message().rfind("line ", 0) != 0 ||
        error.message().find(": field '") == std::string::npos) {
      Fail("the error names no line and field: " + error.message());
    }
    return 0;
  }
  const std::string formatted = FormatGraph(*graph);
  memplan::Result<Graph> again = ParseGraph(formatted);
  if (!again.ok()) {
    Fail("its own text refused: " + again.error().ToString() + "\n" +
         formatted);
  }
  if (again->tensors().size() != graph->tensors().size() ||
      again->nodes().size() != graph->nodes().size()) {
    Fail("FormatGraph -> ParseGraph changed the tensors or nodes:\n" +
         formatted);
  }
  if (FormatGraph(*again) != formatted) {
    Fail("FormatGraph -> ParseGraph -> FormatGraph changed the text:\n" +
         formatted);
  }
  if (memplan::planner::ComputeLifetimes(*graph).size() !=
      graph->tensors().size()) {
    Fail("not one lifetime per tensor");
  }
  return 0;
}
