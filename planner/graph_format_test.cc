#include "planner/graph_format.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace memplan {
namespace planner {
namespace {

using ::testing::HasSubstr;

constexpr char kBlock[] = R"(# a transformer-ish block
graph block
tensor x  float [1, 128, 768] input device=cuda:0
tensor w  float [768,768] const
tensor kv float [1,16,128,64] mutable device=cuda:0
tensor h  float [1,128,768] device=cuda:0 align=64
tensor hv float [128,768] view_of=h
tensor y  float [1,128,768] output device=cuda:0 dynamism=dynamic_bound
tensor p  int64 [4] input mem_id=3
node matmul0 aten::matmul in=x,w out=h
node cache aten::index_put in=kv,hv,p out=kv
node add0 aten::add.Tensor in=hv,x out=y
)";

Result<Graph> Parse(const std::string& text) { return ParseGraph(text); }

TEST(GraphFormatTest, ParsesEveryField) {
  Result<Graph> graph = Parse(kBlock);
  ASSERT_TRUE(graph.ok()) << graph.error().ToString();
  EXPECT_EQ(graph->name(), "block");
  ASSERT_EQ(graph->tensors().size(), 7u);
  ASSERT_EQ(graph->nodes().size(), 3u);

  ValueId x = *graph->Find("x");
  EXPECT_EQ(graph->tensor(x).kind(), SpecKind::kInput);
  EXPECT_THAT(graph->tensor(x).shape, ::testing::ElementsAre(1, 128, 768));
  EXPECT_EQ(graph->DeviceOf(x), Device::Cuda(0));
  EXPECT_EQ(graph->NumBytes(x), 4u * 128 * 768);

  EXPECT_EQ(graph->tensor(*graph->Find("w")).kind(), SpecKind::kConstant);
  EXPECT_EQ(graph->DeviceOf(*graph->Find("w")), Device::Cpu());
  EXPECT_EQ(graph->tensor(*graph->Find("kv")).kind(), SpecKind::kMutableBuffer);
  EXPECT_EQ(graph->tensor(*graph->Find("h")).alignment, 64u);
  const TensorSpec& hv = graph->tensor(*graph->Find("hv"));
  EXPECT_EQ(hv.kind(), SpecKind::kView);
  EXPECT_EQ(hv.base(), graph->Find("h"));
  EXPECT_EQ(graph->tensor(*graph->Find("y")).dynamism, Dynamism::kDynamicBound);
  EXPECT_EQ(graph->tensor(*graph->Find("p")).mem_id, 3u);
  EXPECT_EQ(graph->tensor(*graph->Find("p")).dtype, ScalarType::LONG);

  const Node& add = graph->nodes()[2];
  EXPECT_EQ(add.op, "aten::add.Tensor");
  EXPECT_THAT(add.inputs, ::testing::ElementsAre(*graph->Find("hv"), x));
  EXPECT_THAT(add.outputs, ::testing::ElementsAre(*graph->Find("y")));
}

TEST(GraphFormatTest, RoundTripsThroughTheWriter) {
  Result<Graph> first = Parse(kBlock);
  ASSERT_TRUE(first.ok());
  std::string text = FormatGraph(*first);
  Result<Graph> second = Parse(text);
  ASSERT_TRUE(second.ok()) << second.error().ToString() << "\n" << text;
  EXPECT_EQ(FormatGraph(*second), text);
  ASSERT_EQ(second->tensors().size(), first->tensors().size());
  for (size_t i = 0; i < first->tensors().size(); ++i) {
    ValueId id = static_cast<ValueId>(i);
    EXPECT_EQ(second->tensor(id).name, first->tensor(id).name);
    EXPECT_EQ(second->tensor(id).kind(), first->tensor(id).kind());
    EXPECT_EQ(second->DeviceOf(id), first->DeviceOf(id));
    EXPECT_EQ(second->NumBytes(id), first->NumBytes(id));
  }
}

TEST(GraphFormatTest, ViewsMayNameALaterBase) {
  Result<Graph> graph = Parse(
      "tensor v float [4] view_of=b\n"
      "tensor b float [4] input device=cuda:1\n");
  ASSERT_TRUE(graph.ok()) << graph.error().ToString();
  EXPECT_EQ(graph->name(), "forward");
  EXPECT_EQ(graph->DeviceOf(*graph->Find("v")), Device::Cuda(1));
}

// `views` views in a chain over an input: t0 views t1, which views t2, ...
// Listed base first (forward) or each base after the view of it.
std::string ViewChain(int views, bool base_first, const std::string& root) {
  std::string lines =
      "tensor t" + std::to_string(views) + " float [1] " + root + "\n";
  for (int k = views - 1; k >= 0; --k) {
    lines += "tensor t" + std::to_string(k) + " float [1] view_of=t" +
             std::to_string(k + 1) + "\n";
  }
  if (base_first) return lines;
  // The same lines, last first: each view before its base.
  std::string reversed;
  size_t end = lines.size();
  while (end > 0) {
    const size_t begin = lines.rfind('\n', end - 2);
    const size_t from = begin == std::string::npos ? 0 : begin + 1;
    reversed += lines.substr(from, end - from);
    end = from;
  }
  return reversed;
}

TEST(GraphFormatTest, ParsesViewChainsOfAnyDepth) {
  // 20,000 views, each listed before its base: the tensors were added by
  // a recursion as deep as the chain, which overflowed the stack (~7,000
  // deep at -O0, ~4,000 under ASan).
  Result<Graph> graph = Parse(ViewChain(20'000, false, "input"));
  ASSERT_TRUE(graph.ok()) << graph.error().ToString();
  EXPECT_EQ(graph->tensors().size(), 20'001u);
  EXPECT_EQ(graph->tensor(*graph->Find("t0")).base(), graph->Find("t1"));
  EXPECT_EQ(graph->RootOf(*graph->Find("t0")), *graph->Find("t20000"));
}

TEST(GraphFormatTest, ReportsABadBaseDeepInAChainOnce) {
  // The chain ends in an unknown base: the first view of the chain reports
  // it, once (each view wrapped its base's message, 800 KB at 15,000).
  std::string text = ViewChain(20'000, false, "input");
  text.replace(text.find("tensor t20000 float [1] input"),
               std::string("tensor t20000 float [1] input").size(),
               "tensor t20000 float [1] view_of=nope");
  Result<Graph> graph = Parse(text);
  ASSERT_FALSE(graph.ok());
  EXPECT_THAT(graph.error().message(),
              HasSubstr("line 1: field 'view_of': base 't1' is invalid: "
                        "line 20001: field 'view_of': unknown base 'nope'"));
  EXPECT_LT(graph.error().message().size(), 200u);
}

TEST(GraphFormatTest, ANodeReadsTheEndOfALongViewChain) {
  // 300,000 views listed base first, and a node reading the last: whether
  // it is available was asked down the chain by a recursion (over 170,000
  // deep at -O0, 26,000 under ASan).
  std::string text = ViewChain(300'000, true, "input");
  text += "tensor out float [1] output\nnode n relu in=t0 out=out\n";
  Result<Graph> graph = Parse(text);
  ASSERT_TRUE(graph.ok()) << graph.error().ToString();
  EXPECT_EQ(graph->nodes().size(), 1u);
}

struct BadInput {
  const char* label;
  const char* text;
  const char* message;  // Must appear in the error.
};

class GraphFormatErrorTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(GraphFormatErrorTest, NamesLineAndField) {
  Result<Graph> graph = Parse(GetParam().text);
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.error().code(), ErrorCode::kInvalidArgument);
  EXPECT_THAT(graph.error().message(), HasSubstr(GetParam().message));
}

INSTANTIATE_TEST_SUITE_P(
    Errors, GraphFormatErrorTest,
    ::testing::Values(
        BadInput{"unknown_base", "graph g\ntensor v float [4] view_of=nope\n",
                 "line 2: field 'view_of': unknown base 'nope'"},
        BadInput{"view_cycle",
                 "tensor a float [4] view_of=b\ntensor b float [4] view_of=a\n",
                 "alias cycle"},
        BadInput{"self_view", "tensor a float [4] view_of=a\n", "alias cycle"},
        BadInput{"unknown_device", "tensor a float [4] device=tpu:0\n",
                 "line 1: field 'device': unknown device 'tpu:0'"},
        BadInput{"dim_overflows_int64",
                 "tensor a float [99999999999999999999]\n",
                 "line 1: field 'shape'"},
        BadInput{"bytes_overflow", "tensor a float [4294967296,4294967296]\n",
                 "overflows 64 bits"},
        BadInput{
            "duplicate_name", "tensor a float [4]\n\ntensor a int8 [2]\n",
            "line 3: field 'tensor': duplicate name 'a' (first on line 1)"},
        BadInput{"use_before_define",
                 "tensor a float [4]\ntensor b float [4]\n"
                 "node n0 relu in=b out=a\nnode n1 relu in=a out=b\n",
                 "line 3: field 'node'"},
        BadInput{"device_on_view",
                 "tensor b float [4] device=cuda:1\n"
                 "tensor v float [4] view_of=b device=cuda:1\n",
                 "line 2: field 'device'"},
        BadInput{"mem_id_too_large",
                 "tensor x float [4] input mem_id=4000000000\n",
                 "line 1: field 'tensor': tensor 'x': mem_id 4000000000 is "
                 "above 65535"},
        BadInput{"mem_id_on_view",
                 "tensor b float [4]\ntensor v float [4] view_of=b mem_id=2\n",
                 "line 2: field 'mem_id'"},
        BadInput{"view_larger_than_base",
                 "tensor b float [4]\ntensor v float [8] view_of=b\n",
                 "larger than its base"},
        BadInput{"unknown_dtype", "tensor a float128 [4]\n",
                 "line 1: field 'dtype'"},
        BadInput{"unknown_tensor_in_node",
                 "tensor a float [4] input\nnode n relu in=a out=zz\n",
                 "line 2: field 'out': unknown tensor 'zz'"},
        BadInput{"scratch_as_input",
                 "tensor s uint8 [64] scratch\nnode n cond in=s\n",
                 "is scratch"},
        BadInput{"bad_alignment", "tensor a float [4] align=24\n",
                 "line 1: field 'align'"},
        BadInput{"unknown_statement", "tensr a float [4]\n",
                 "line 1: field 'statement'"}),
    [](const ::testing::TestParamInfo<BadInput>& info) {
      return std::string(info.param.label);
    });

TEST(GraphFormatTest, ReadGraphFileNamesMissingPath) {
  Result<Graph> graph = ReadGraphFile("/nonexistent/dir/model.graph");
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.error().code(), ErrorCode::kIo);
  EXPECT_THAT(graph.error().message(),
              HasSubstr("/nonexistent/dir/model.graph"));
}

}  // namespace
}  // namespace planner
}  // namespace memplan
