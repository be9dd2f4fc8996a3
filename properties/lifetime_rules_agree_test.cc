// The two lifetime rule sets, compared on the same programs: the planner's
// (planner/lifetimes.cc, on the graph IR) and the oracle's deliberately
// independent one (properties/program_plan.cc, re-derived from the emitted
// instruction chains). Each graph here is planned, emitted and read back;
// every planned value must then get the same lifetime from both, in nodes:
// - a value that is no alias root and no mutable buffer: the nodes of the
//   first and last instruction that name it in the file;
// - an alias root: the hull of its own and its aliases' file lifetimes
//   (the planner stretches a root over its aliases; the file shows each);
// - a mutable buffer: the whole program for both where the file shows it
//   is state (program_plan.h: updated in place where first accessed, as
//   transformer_block's KV cache, or written back by aten::copy_ after a
//   read, as corners' `cache`). One that is only read (corners' `state`)
//   is where they disagree, pinned below: the planner keeps it for the
//   whole program, but the emitter writes no initial data, so nothing in
//   the file says the value outlives a run and the oracle sees it plain.
// The oracle's storage groups must also be the planner's alias roots.
//
// Real programs (../shared/data/pte) have no graph IR, so the planner's
// rules cannot run on them; the oracle's rules meet them in
// real_programs_verify_test and program_mutation_test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "planner/emitter.h"
#include "planner/graph.h"
#include "planner/graph_format.h"
#include "planner/lifetimes.h"
#include "planner/memory_planner.h"
#include "properties/program_plan.h"
#include "runtime/program.h"

namespace memplan {
namespace properties {
namespace {

namespace fs = std::filesystem;

struct Subject {
  std::string name;
  std::string text;  // Graph text format (planner/GRAPH_FORMAT.md).
};

void PrintTo(const Subject& subject, std::ostream* os) { *os << subject.name; }

// Kinds and corners of the rules: an input nothing reads, an output
// nothing reads, a view of a view read after its root's last own use, an
// in-place output that is a graph output, a mutable buffer only read and
// one written back, scratch, and a dynamic_bound value.
constexpr char kCorners[] = R"(graph corners
tensor x      float [8] input
tensor idle   float [8] input
tensor w      float [8] const
tensor state  float [8] mutable
tensor cache  float [8] mutable
tensor cache2 float [8] in_place_of=cache
tensor next   float [8]
tensor a      float [8]
tensor av     float [2,4] view_of=a
tensor avv    float [8] view_of=av
tensor b      float [8] dynamism=dynamic_bound
tensor s      uint8 [64] scratch
tensor c      float [8]
tensor y      float [8] in_place_of=c
tensor z      float [8] output
tensor spare  float [8] output
node n0 relu       in=x out=a
node n1 view       in=a out=av
node n2 mul        in=w,state out=b scratch=s
node n3 view       in=av out=avv
node n4 add        in=b,avv out=c
node n5 relu_      in=c out=y
node n6 add        in=y,x out=z
node n7 add        in=cache,x out=next
node n8 aten::copy_ in=cache,next out=cache2
)";

// Mutable buffers the file cannot show to be state (see above).
bool OnlyRead(const std::string& subject, const std::string& tensor) {
  return subject == "builder/corners" && tensor == "state";
}

// An alias defined by a node and never read again, and a root read long
// after its alias.
constexpr char kLateRoot[] = R"(graph late_root
tensor x   float [16] input
tensor r   float [16]
tensor rv  float [4,4] view_of=r
tensor t   float [16]
tensor u   float [16]
tensor y   float [16] output
node n0 relu in=x out=r
node n1 view in=r out=rv
node n2 relu in=x out=t
node n3 relu in=t out=u
node n4 add  in=r,u out=y
)";

fs::path Runfile(const std::string& path) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  return fs::path(srcdir ? srcdir : ".") / (workspace ? workspace : "") / path;
}

std::vector<Subject> Subjects() {
  std::vector<Subject> subjects = {{"builder/corners", kCorners},
                                   {"builder/late_root", kLateRoot}};
  const fs::path graphs = Runfile("examples/graphs");
  if (fs::is_directory(graphs)) {
    for (const auto& entry : fs::directory_iterator(graphs)) {
      if (entry.path().extension() != ".graph") continue;
      std::ifstream in(entry.path());
      subjects.push_back({"graph/" + entry.path().filename().string(),
                          {std::istreambuf_iterator<char>(in),
                           std::istreambuf_iterator<char>()}});
    }
  }
  return subjects;
}

std::string Show(const Lifetime& l) {
  return "[" + std::to_string(l.first) + "," + std::to_string(l.last) + "]";
}

Lifetime Hull(const Lifetime& a, const Lifetime& b) {
  return {std::min(a.first, b.first), std::max(a.last, b.last)};
}

class LifetimeRulesAgreeTest : public ::testing::TestWithParam<Subject> {};

TEST_P(LifetimeRulesAgreeTest, PlannerAndOracleGiveEveryValueOneLifetime) {
  Result<planner::Graph> graph = planner::ParseGraph(GetParam().text);
  ASSERT_TRUE(graph.ok()) << graph.error().ToString();
  Result<planner::PlanResult> plan =
      planner::PlanGraph(*graph, planner::PlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  Result<std::vector<uint8_t>> bytes = planner::EmitProgram(*graph, *plan);
  ASSERT_TRUE(bytes.ok()) << bytes.error().ToString();
  Result<Program> program = Program::Read(bytes->data(), bytes->size());
  ASSERT_TRUE(program.ok()) << program.error().ToString();
  Result<Plan> file_plan = PlanFromProgram(*program, 0);
  ASSERT_TRUE(file_plan.ok()) << file_plan.error().ToString();

  // File positions to nodes: node n's instructions are (kernel[n-1],
  // kernel[n]] (its et_view declarations, then its own KernelCall).
  const std::vector<TimeValue> kernel = planner::KernelPositions(*graph);
  auto node_of = [&](TimeValue position) -> TimeValue {
    auto it = std::lower_bound(kernel.begin(), kernel.end(), position);
    return static_cast<TimeValue>(it - kernel.begin());
  };
  const TimeValue end = static_cast<TimeValue>(graph->nodes().size()) - 1;
  std::map<std::string, const Allocation*> in_file;
  for (const Allocation& a : file_plan->allocations) in_file[a.id] = &a;
  auto file_nodes = [&](const std::string& id) -> Lifetime {
    const Lifetime& l = in_file.at(id)->lifetime;
    return {node_of(l.first), node_of(l.last)};
  };

  const std::vector<planner::ValueLifetime> planner_lifetimes =
      planner::ComputeLifetimes(*graph);
  const std::vector<planner::TensorSpec>& tensors = graph->tensors();
  // What the file says each planned root's lifetime is: its own uses and
  // every alias's.
  std::map<planner::ValueId, Lifetime> root_from_file;
  for (size_t v = 0; v < tensors.size(); ++v) {
    const std::string id = ProgramAllocationId(static_cast<uint32_t>(v));
    ASSERT_EQ(planner_lifetimes[v].planned, in_file.count(id) == 1)
        << GetParam().name << " " << tensors[v].name
        << ": planned by one rule set only";
    if (!planner_lifetimes[v].planned) continue;
    const planner::ValueId root =
        graph->RootOf(static_cast<planner::ValueId>(v));
    auto [it, inserted] = root_from_file.emplace(root, file_nodes(id));
    if (!inserted) it->second = Hull(it->second, file_nodes(id));
    // The oracle finds storage groups from operators, not from the graph.
    const Allocation& a = *in_file.at(id);
    const std::string root_id =
        ProgramAllocationId(static_cast<uint32_t>(root));
    if (tensors[v].is_alias()) {
      EXPECT_EQ(a.alias_of.value_or("none"), root_id)
          << GetParam().name << " " << tensors[v].name;
    } else {
      EXPECT_FALSE(a.alias_of.has_value())
          << GetParam().name << " " << tensors[v].name << " is a root, but "
          << "the oracle made it an alias of " << *a.alias_of;
    }
  }

  for (size_t v = 0; v < tensors.size(); ++v) {
    if (!planner_lifetimes[v].planned) continue;
    const std::string id = ProgramAllocationId(static_cast<uint32_t>(v));
    const Lifetime planner_nodes = planner_lifetimes[v];
    Lifetime expected = file_nodes(id);
    if (tensors[v].kind() == SpecKind::kMutableBuffer) {
      EXPECT_EQ(Show(planner_nodes), Show(Lifetime{0, end}))
          << GetParam().name << " " << tensors[v].name;
      if (OnlyRead(GetParam().name, tensors[v].name)) {
        EXPECT_EQ(in_file.at(id)->kind, SpecKind::kPlain)
            << GetParam().name << " " << tensors[v].name;
      } else {
        EXPECT_EQ(in_file.at(id)->kind, SpecKind::kMutableBuffer)
            << GetParam().name << " " << tensors[v].name;
        EXPECT_EQ(Show(file_nodes(id)), Show(planner_nodes))
            << GetParam().name << " " << tensors[v].name;
      }
      continue;
    }
    if (!tensors[v].is_alias()) {
      expected = root_from_file.at(static_cast<planner::ValueId>(v));
    }
    EXPECT_EQ(Show(planner_nodes), Show(expected))
        << GetParam().name << " " << tensors[v].name << " ("
        << SpecKindName(tensors[v].kind()) << ", " << id
        << "): planner's lifetime in nodes vs the oracle's, file "
        << Show(in_file.at(id)->lifetime);
  }
}

INSTANTIATE_TEST_SUITE_P(Programs, LifetimeRulesAgreeTest,
                         ::testing::ValuesIn(Subjects()),
                         [](const ::testing::TestParamInfo<Subject>& info) {
                           std::string name = info.param.name;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace properties
}  // namespace memplan
