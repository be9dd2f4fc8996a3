#include "planner/graph_format.h"

#include <charconv>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "runtime/core/checked_math.h"

namespace memplan {
namespace planner {
namespace {

struct TensorLine {
  int line = 0;
  std::string name;
  ScalarType dtype = ScalarType::FLOAT;
  std::vector<int64_t> shape;
  SpecKind kind = SpecKind::kPlain;
  std::optional<Device> device;
  std::string base;  // Non-empty for view_of= / in_place_of=.
  Dynamism dynamism = Dynamism::kStatic;
  uint64_t alignment = 0;
  std::optional<uint32_t> mem_id;
};

struct NodeLine {
  int line = 0;
  std::string name;
  std::string op;
  std::vector<std::string> in, out, scratch;
};

Error LineError(int line, const std::string& field, const std::string& what) {
  return Error(
      ErrorCode::kInvalidArgument,
      "line " + std::to_string(line) + ": field '" + field + "': " + what);
}

std::vector<std::string> Tokenize(std::string_view line) {
  std::vector<std::string> tokens;
  std::istringstream in{std::string(line)};
  std::string token;
  while (in >> token) {
    // "[1, 128]" may contain spaces: glue the pieces back together.
    if (!tokens.empty() && tokens.back().front() == '[' &&
        tokens.back().back() != ']') {
      tokens.back() += token;
    } else {
      tokens.push_back(token);
    }
  }
  return tokens;
}

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    if (comma > start) items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

template <typename Int>
bool ParseInt(const std::string& text, Int* out) {
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

Result<std::vector<int64_t>> ParseShape(int line, const std::string& token) {
  if (token.size() < 2 || token.front() != '[' || token.back() != ']') {
    return LineError(line, "shape", "'" + token + "' is not [d0,d1,...]");
  }
  std::vector<int64_t> shape;
  for (const std::string& dim : SplitList(token.substr(1, token.size() - 2))) {
    int64_t value = 0;
    if (!ParseInt(dim, &value)) {
      return LineError(line, "shape",
                       "dim '" + dim +
                           "' is not an integer that fits in 64 "
                           "bits");
    }
    if (value < 0) {
      return LineError(line, "shape", "dim " + dim + " is negative");
    }
    shape.push_back(value);
  }
  return shape;
}

Result<TensorLine> ParseTensorLine(int line,
                                   const std::vector<std::string>& tokens) {
  if (tokens.size() < 4) {
    return LineError(line, "tensor", "expected 'tensor NAME DTYPE [dims] ...'");
  }
  TensorLine t;
  t.line = line;
  t.name = tokens[1];
  std::optional<ScalarType> dtype = ParseScalarType(tokens[2]);
  if (!dtype)
    return LineError(line, "dtype", "unknown dtype '" + tokens[2] + "'");
  t.dtype = *dtype;
  Result<std::vector<int64_t>> shape = ParseShape(line, tokens[3]);
  if (!shape.ok()) return shape.error();
  t.shape = std::move(*shape);
  bool kind_set = false;
  for (size_t i = 4; i < tokens.size(); ++i) {
    const std::string& token = tokens[i];
    size_t eq = token.find('=');
    if (eq == std::string::npos) {
      std::string word = token == "const" ? "constant" : token;
      std::optional<SpecKind> kind = ParseSpecKind(word);
      if (!kind || IsAlias(*kind)) {
        return LineError(line, "kind",
                         "unknown kind '" + token +
                             "' (view and in_place "
                             "are written view_of=BASE / in_place_of=BASE)");
      }
      if (kind_set) return LineError(line, "kind", "kind given twice");
      t.kind = *kind;
      kind_set = true;
      continue;
    }
    std::string key = token.substr(0, eq);
    std::string value = token.substr(eq + 1);
    if (key == "device") {
      t.device = ParseDevice(value);
      if (!t.device)
        return LineError(line, key, "unknown device '" + value + "'");
    } else if (key == "view_of" || key == "in_place_of") {
      if (kind_set) return LineError(line, key, "kind given twice");
      if (value.empty()) return LineError(line, key, "empty base name");
      t.kind = key == "view_of" ? SpecKind::kView : SpecKind::kInPlace;
      t.base = value;
      kind_set = true;
    } else if (key == "dynamism") {
      std::optional<Dynamism> dynamism = ParseDynamism(value);
      if (!dynamism) {
        return LineError(line, key, "unknown dynamism '" + value + "'");
      }
      t.dynamism = *dynamism;
    } else if (key == "align") {
      if (!ParseInt(value, &t.alignment) || !IsPowerOfTwo(t.alignment)) {
        return LineError(line, key,
                         "'" + value + "' is not a power of two >= 1");
      }
    } else if (key == "mem_id") {
      uint32_t mem_id = 0;
      if (!ParseInt(value, &mem_id) || mem_id == 0) {
        return LineError(line, key,
                         "'" + value + "' is not a pool id in [1, 2^32)");
      }
      t.mem_id = mem_id;
    } else {
      return LineError(line, key, "unknown attribute");
    }
  }
  if (IsAlias(t.kind) && t.device) {
    return LineError(line, "device",
                     "a view / in-place tensor takes its base's device; "
                     "remove device=");
  }
  if (IsAlias(t.kind) && t.mem_id) {
    return LineError(line, "mem_id",
                     "a view / in-place tensor takes its base's pool; "
                     "remove mem_id=");
  }
  return t;
}

Result<NodeLine> ParseNodeLine(int line,
                               const std::vector<std::string>& tokens) {
  if (tokens.size() < 3) {
    return LineError(line, "node", "expected 'node NAME OP in=.. out=..'");
  }
  NodeLine n;
  n.line = line;
  n.name = tokens[1];
  n.op = tokens[2];
  for (size_t i = 3; i < tokens.size(); ++i) {
    size_t eq = tokens[i].find('=');
    std::string key = tokens[i].substr(0, eq);
    std::string value = eq == std::string::npos ? "" : tokens[i].substr(eq + 1);
    if (key == "in") {
      n.in = SplitList(value);
    } else if (key == "out") {
      n.out = SplitList(value);
    } else if (key == "scratch") {
      n.scratch = SplitList(value);
    } else {
      return LineError(line, key, "unknown node attribute");
    }
  }
  return n;
}

// Adds tensors so that every base precedes its aliases; reports cycles.
// A chain of aliases is followed in a loop (a file may declare each base
// after its alias, thousands deep), and an error inside it is reported
// once, at the tensor that started the chain.
class TensorAdder {
 public:
  TensorAdder(std::vector<TensorLine>& lines, Graph& graph)
      : lines_(lines), graph_(graph), state_(lines.size(), kNew) {
    for (size_t i = 0; i < lines.size(); ++i) index_[lines[i].name] = i;
  }

  Error AddAll() {
    for (size_t i = 0; i < lines_.size(); ++i) {
      MEMPLAN_RETURN_IF_ERROR(Add(i));
    }
    return Error::Ok();
  }

 private:
  enum State { kNew, kVisiting, kDone };

  static const char* BaseField(const TensorLine& t) {
    return t.kind == SpecKind::kView ? "view_of" : "in_place_of";
  }

  // Tensor i and, before it, the chain of bases it needs.
  Error Add(size_t i) {
    std::vector<size_t> chain;  // i, its base, that one's base, ...
    // An error at the chain's k-th tensor, as the chain's first reports it.
    auto from_first = [&](size_t k, Error error) {
      if (k == 0) return error;
      const TensorLine& first = lines_[chain[0]];
      return LineError(
          first.line, BaseField(first),
          "base '" + first.base + "' is invalid: " + error.message());
    };
    for (size_t at = i; state_[at] != kDone;) {
      const TensorLine& t = lines_[at];
      if (state_[at] == kVisiting) {
        return LineError(t.line, IsAlias(t.kind) ? "view_of" : "tensor",
                         "alias cycle through '" + t.name + "'");
      }
      state_[at] = kVisiting;
      chain.push_back(at);
      if (!IsAlias(t.kind)) break;
      auto it = index_.find(t.base);
      if (it == index_.end()) {
        return from_first(
            chain.size() - 1,
            LineError(t.line, BaseField(t), "unknown base '" + t.base + "'"));
      }
      at = it->second;
    }
    for (size_t k = chain.size(); k-- > 0;) {
      Error error = AddOne(lines_[chain[k]]);
      if (!error.ok()) return from_first(k, std::move(error));
      state_[chain[k]] = kDone;
    }
    return Error::Ok();
  }

  // One tensor, its base (if an alias) already added.
  Error AddOne(const TensorLine& t) {
    std::optional<TensorSpec> spec;
    if (IsAlias(t.kind)) {
      spec = TensorSpec::Alias(t.name, t.kind, t.dtype, t.shape,
                               *graph_.Find(t.base));
    } else {
      spec = TensorSpec::Owning(t.name, t.kind, t.dtype, t.shape,
                                t.device.value_or(Device::Cpu()));
    }
    spec->dynamism = t.dynamism;
    spec->alignment = t.alignment;
    spec->mem_id = t.mem_id;
    Result<ValueId> id = graph_.AddTensor(std::move(*spec));
    if (!id.ok()) return LineError(t.line, "tensor", id.error().message());
    return Error::Ok();
  }

  std::vector<TensorLine>& lines_;
  Graph& graph_;
  std::vector<State> state_;
  std::unordered_map<std::string, size_t> index_;
};

Result<std::vector<ValueId>> ResolveNames(
    const Graph& graph, int line, const char* field,
    const std::vector<std::string>& names) {
  std::vector<ValueId> ids;
  for (const std::string& name : names) {
    std::optional<ValueId> id = graph.Find(name);
    if (!id) return LineError(line, field, "unknown tensor '" + name + "'");
    ids.push_back(*id);
  }
  return ids;
}

}  // namespace

Result<Graph> ParseGraph(std::string_view text) {
  std::string graph_name = "forward";
  std::vector<TensorLine> tensors;
  std::vector<NodeLine> nodes;
  std::unordered_map<std::string, int> tensor_lines;
  int line_number = 0;
  size_t start = 0;
  bool saw_graph = false;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    size_t hash = line.find('#');
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    std::vector<std::string> tokens = Tokenize(line);
    if (tokens.empty()) continue;
    if (tokens[0] == "graph") {
      if (tokens.size() != 2) {
        return LineError(line_number, "graph", "expected 'graph NAME'");
      }
      if (saw_graph) return LineError(line_number, "graph", "given twice");
      saw_graph = true;
      graph_name = tokens[1];
    } else if (tokens[0] == "tensor") {
      Result<TensorLine> t = ParseTensorLine(line_number, tokens);
      if (!t.ok()) return t.error();
      auto [it, inserted] = tensor_lines.emplace(t->name, line_number);
      if (!inserted) {
        return LineError(line_number, "tensor",
                         "duplicate name '" + t->name + "' (first on line " +
                             std::to_string(it->second) + ")");
      }
      tensors.push_back(std::move(*t));
    } else if (tokens[0] == "node") {
      Result<NodeLine> n = ParseNodeLine(line_number, tokens);
      if (!n.ok()) return n.error();
      nodes.push_back(std::move(*n));
    } else {
      return LineError(line_number, "statement",
                       "unknown statement '" + tokens[0] +
                           "' (expected graph, tensor or node)");
    }
  }
  Graph graph(graph_name);
  MEMPLAN_RETURN_IF_ERROR(TensorAdder(tensors, graph).AddAll());
  for (const NodeLine& n : nodes) {
    Node node;
    node.name = n.name;
    node.op = n.op;
    Result<std::vector<ValueId>> in = ResolveNames(graph, n.line, "in", n.in);
    if (!in.ok()) return in.error();
    Result<std::vector<ValueId>> out =
        ResolveNames(graph, n.line, "out", n.out);
    if (!out.ok()) return out.error();
    Result<std::vector<ValueId>> scratch =
        ResolveNames(graph, n.line, "scratch", n.scratch);
    if (!scratch.ok()) return scratch.error();
    node.inputs = std::move(*in);
    node.outputs = std::move(*out);
    node.scratch = std::move(*scratch);
    Error error = graph.AddNode(std::move(node));
    if (!error.ok()) return LineError(n.line, "node", error.message());
  }
  return graph;
}

Result<Graph> ReadGraphFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Error(ErrorCode::kIo, "cannot open graph file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Error(ErrorCode::kIo, "cannot read '" + path + "'");
  Result<Graph> graph = ParseGraph(text.str());
  if (!graph.ok()) {
    return Error(graph.error().code(), path + ": " + graph.error().message());
  }
  return graph;
}

std::string FormatGraph(const Graph& graph) {
  std::ostringstream out;
  out << "graph " << graph.name() << "\n";
  for (const TensorSpec& t : graph.tensors()) {
    out << "tensor " << t.name << " " << ScalarTypeName(t.dtype) << " [";
    for (size_t i = 0; i < t.shape.size(); ++i) {
      out << (i ? "," : "") << t.shape[i];
    }
    out << "]";
    if (std::optional<ValueId> base = t.base()) {
      out << (t.kind() == SpecKind::kView ? " view_of=" : " in_place_of=")
          << graph.tensor(*base).name;
    } else {
      if (t.kind() != SpecKind::kPlain) out << " " << SpecKindName(t.kind());
      if (*t.own_device() != Device::Cpu()) {
        out << " device=" << t.own_device()->ToString();
      }
    }
    if (t.dynamism != Dynamism::kStatic) {
      out << " dynamism=" << DynamismName(t.dynamism);
    }
    if (t.alignment != 0) out << " align=" << t.alignment;
    if (t.mem_id) out << " mem_id=" << *t.mem_id;
    out << "\n";
  }
  auto names = [&](const std::vector<ValueId>& ids) {
    std::string text;
    for (size_t i = 0; i < ids.size(); ++i) {
      text += (i ? "," : "") + graph.tensor(ids[i]).name;
    }
    return text;
  };
  for (const Node& node : graph.nodes()) {
    out << "node " << node.name << " " << node.op;
    if (!node.inputs.empty()) out << " in=" << names(node.inputs);
    if (!node.outputs.empty()) out << " out=" << names(node.outputs);
    if (!node.scratch.empty()) out << " scratch=" << names(node.scratch);
    out << "\n";
  }
  return out.str();
}

}  // namespace planner
}  // namespace memplan
