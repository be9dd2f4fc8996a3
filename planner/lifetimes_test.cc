#include "planner/lifetimes.h"

#include "gtest/gtest.h"
#include "planner/plan_test_util.h"

namespace memplan {
namespace planner {
namespace {

using testing::MustParse;

// Positions: n0=0 .. n4=4.
constexpr char kChain[] = R"(graph chain
tensor x  float [8] input
tensor w  float [8] const
tensor a  float [8]
tensor av float [2,4] view_of=a
tensor b  float [8]
tensor bi float [8] in_place_of=b
tensor c  float [8]
tensor state float [8] mutable
tensor y  float [8] output
tensor unused float [8]
tensor dyn float [8] dynamism=dynamic_unbound
node n0 relu in=x out=a
node n1 view in=a out=av
node n2 mul in=w out=b,dyn
node n3 relu_ in=b out=bi
node n4 add in=bi,state out=c
node n5 add in=av,c out=y
)";

class LifetimesTest : public ::testing::Test {
 protected:
  ValueLifetime Of(const std::vector<ValueLifetime>& lifetimes,
                   const char* name) {
    return lifetimes[*graph_.Find(name)];
  }
  Graph graph_ = MustParse(kChain);
};

TEST_F(LifetimesTest, PlainValueSpansFirstToLastTouch) {
  std::vector<ValueLifetime> l = ComputeLifetimes(graph_);
  EXPECT_TRUE(Of(l, "c").planned);
  EXPECT_EQ(Of(l, "c").first, 4);
  EXPECT_EQ(Of(l, "c").last, 5);
}

TEST_F(LifetimesTest, InputsStartAtZeroOutputsEndAtLastNode) {
  std::vector<ValueLifetime> l = ComputeLifetimes(graph_);
  EXPECT_EQ(Of(l, "x").first, 0);
  EXPECT_EQ(Of(l, "x").last, 0);
  EXPECT_EQ(Of(l, "y").first, 5);
  EXPECT_EQ(Of(l, "y").last, 5);
  // An output defined early still lives to the end.
  Graph early = MustParse(
      "tensor i float [4] input\ntensor o float [4] output\n"
      "tensor t float [4]\n"
      "node a relu in=i out=o\nnode b relu in=i out=t\nnode c relu in=t\n");
  std::vector<ValueLifetime> e = ComputeLifetimes(early);
  EXPECT_EQ(e[*early.Find("o")].first, 0);
  EXPECT_EQ(e[*early.Find("o")].last, 2);
  EXPECT_EQ(e[*early.Find("i")].last, 1);
}

TEST_F(LifetimesTest, MutableBufferLivesForTheWholeProgram) {
  std::vector<ValueLifetime> l = ComputeLifetimes(graph_);
  EXPECT_TRUE(Of(l, "state").planned);
  EXPECT_EQ(Of(l, "state").first, 0);
  EXPECT_EQ(Of(l, "state").last, 5);
}

TEST_F(LifetimesTest, BaseCoversEveryAlias) {
  std::vector<ValueLifetime> l = ComputeLifetimes(graph_);
  // a is touched at 0 and 1 only; its view av is read at 5.
  EXPECT_EQ(Of(l, "a").first, 0);
  EXPECT_EQ(Of(l, "a").last, 5);
  EXPECT_EQ(Of(l, "av").first, 1);
  EXPECT_EQ(Of(l, "av").last, 5);
  // b is touched at 2 and 3; its in-place output bi is read at 4.
  EXPECT_EQ(Of(l, "b").first, 2);
  EXPECT_EQ(Of(l, "b").last, 4);
  EXPECT_TRUE(Of(l, "bi").planned);
}

TEST_F(LifetimesTest, ConstantsUnboundAndUnusedAreNotPlanned) {
  std::vector<ValueLifetime> l = ComputeLifetimes(graph_);
  EXPECT_FALSE(Of(l, "w").planned);
  EXPECT_FALSE(Of(l, "dyn").planned);
  EXPECT_FALSE(Of(l, "unused").planned);
}

TEST_F(LifetimesTest, OptionsTurnOffInputsOutputsAndMutableBuffers) {
  LifetimeOptions options;
  options.plan_inputs = false;
  options.plan_outputs = false;
  options.plan_mutable_buffers = false;
  std::vector<ValueLifetime> l = ComputeLifetimes(graph_, options);
  EXPECT_FALSE(Of(l, "x").planned);
  EXPECT_FALSE(Of(l, "y").planned);
  EXPECT_FALSE(Of(l, "state").planned);
  EXPECT_TRUE(Of(l, "c").planned);
}

TEST_F(LifetimesTest, AliasOfUnplannedInputIsNotPlanned) {
  Graph graph = MustParse(
      "tensor x float [4] input\ntensor xv float [4] view_of=x\n"
      "tensor y float [4]\nnode n relu in=xv out=y\nnode m relu in=y\n");
  LifetimeOptions options;
  options.plan_inputs = false;
  std::vector<ValueLifetime> l = ComputeLifetimes(graph, options);
  EXPECT_FALSE(l[*graph.Find("xv")].planned);
  EXPECT_TRUE(ComputeLifetimes(graph)[*graph.Find("xv")].planned);
}

TEST_F(LifetimesTest, ScratchLivesAtItsNodeOnly) {
  Graph graph = MustParse(
      "tensor x float [4] input\ntensor s uint8 [64] scratch\n"
      "tensor y float [4] output\n"
      "node a relu in=x out=x\nnode c cond in=x out=y scratch=s\n"
      "node d relu in=y\n");
  std::vector<ValueLifetime> l = ComputeLifetimes(graph);
  EXPECT_TRUE(l[*graph.Find("s")].planned);
  EXPECT_EQ(l[*graph.Find("s")].first, 1);
  EXPECT_EQ(l[*graph.Find("s")].last, 1);
}

}  // namespace
}  // namespace planner
}  // namespace memplan
