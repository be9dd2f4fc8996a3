#include "planner/emitter.h"

#include <map>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/graph_format.h"
#include "planner/lifetimes.h"
#include "planner/memory_planner.h"
#include "planner/plan_test_util.h"
#include "runtime/core/error_matchers.h"
#include "runtime/program.h"
#include "schema/program_generated.h"

namespace memplan {
namespace planner {
namespace {

using ::memplan::testing::IsError;
namespace fb = executorch_flatbuffer;
using ::testing::ElementsAre;
using testing::Find;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::MustParse;

constexpr char kMixed[] = R"(graph mixed
tensor x  float [2,3] input device=cuda:1
tensor w  float [3,3] const
tensor h  half [2,3] device=cuda:1
tensor hv half [6] view_of=h
tensor c  int32 [2,3]
tensor y  float [2,3] output
node mm aten::mm.out in=x,w out=h
node v aten::view in=h out=hv
node cp aten::_to_copy.out in=hv out=c
node add aten::add.Tensor in=c,x out=y
)";

struct Emitted {
  PlanResult plan;
  std::vector<uint8_t> bytes;
  std::unique_ptr<fb::ProgramT> program;  // Unpacked after verification.
};

Emitted PlanAndEmit(const Graph& graph, PlanOptions options = {}) {
  Emitted out;
  Result<PlanResult> plan = PlanGraph(graph, options);
  EXPECT_TRUE(plan.ok()) << plan.error().ToString();
  if (!plan.ok()) return out;
  out.plan = *plan;
  Result<std::vector<uint8_t>> bytes = EmitProgram(graph, out.plan);
  EXPECT_TRUE(bytes.ok()) << bytes.error().ToString();
  if (!bytes.ok()) return out;
  out.bytes = *bytes;
  flatbuffers::Verifier verifier(out.bytes.data(), out.bytes.size());
  EXPECT_TRUE(fb::VerifyProgramBuffer(verifier));
  out.program.reset(fb::GetProgram(out.bytes.data())->UnPack());
  return out;
}

TEST(EmitterTest, WritesOneExecutionPlanMatchingThePlan) {
  Graph graph = MustParse(kMixed);
  Emitted e = PlanAndEmit(graph);
  ASSERT_NE(e.program, nullptr);
  EXPECT_TRUE(fb::ProgramBufferHasIdentifier(e.bytes.data()));
  EXPECT_THAT(e.program->segments, IsEmpty());
  ASSERT_EQ(e.program->execution_plan.size(), 1u);
  const fb::ExecutionPlanT& method = *e.program->execution_plan[0];
  EXPECT_EQ(method.name, "mixed");
  ASSERT_EQ(method.values.size(), graph.tensors().size());
  EXPECT_THAT(method.inputs, ElementsAre(*graph.Find("x")));
  EXPECT_THAT(method.outputs, ElementsAre(*graph.Find("y")));

  for (size_t i = 0; i < method.values.size(); ++i) {
    const fb::TensorT* tensor = method.values[i]->val.AsTensor();
    ASSERT_NE(tensor, nullptr) << i;
    const TensorSpec& spec = graph.tensors()[i];
    const TensorAllocation& allocation = e.plan.tensors[i];
    EXPECT_EQ(tensor->scalar_type, spec.dtype) << spec.name;
    ASSERT_EQ(tensor->sizes.size(), spec.shape.size());
    for (size_t d = 0; d < spec.shape.size(); ++d) {
      EXPECT_EQ(tensor->sizes[d], spec.shape[d]);
      EXPECT_EQ(tensor->dim_order[d], d);
    }
    EXPECT_EQ(tensor->data_buffer_idx, 0u);
    ASSERT_NE(tensor->extra_tensor_info, nullptr) << spec.name;
    EXPECT_EQ(static_cast<int>(tensor->extra_tensor_info->device_type),
              static_cast<int>(graph.DeviceOf(static_cast<ValueId>(i)).type));
    EXPECT_EQ(tensor->extra_tensor_info->device_index,
              graph.DeviceOf(static_cast<ValueId>(i)).index);
    EXPECT_EQ(tensor->allocation_info != nullptr, allocation.planned)
        << spec.name;
    if (tensor->allocation_info) {
      EXPECT_EQ(tensor->allocation_info->memory_id, allocation.mem_id);
      EXPECT_EQ(tensor->allocation_info->memory_offset_low, allocation.offset);
      EXPECT_EQ(tensor->allocation_info->memory_offset_high, 0u);
    }
  }
  EXPECT_EQ(method.values[*graph.Find("h")]->val.AsTensor()->scalar_type,
            fb::ScalarType::HALF);
  EXPECT_EQ(method.values[*graph.Find("w")]->val.AsTensor()->allocation_info,
            nullptr);

  // Buffers: index 0 reserved, CPU (mem_id 1) then cuda:1 (mem_id 2).
  ASSERT_EQ(method.non_const_buffer_sizes.size(), 3u);
  EXPECT_EQ(method.non_const_buffer_sizes[0], 0);
  EXPECT_EQ(method.non_const_buffer_sizes[1],
            static_cast<int64_t>(e.plan.buffers[0].size));
  EXPECT_EQ(method.non_const_buffer_sizes[2],
            static_cast<int64_t>(e.plan.buffers[1].size));
  ASSERT_EQ(method.non_const_buffer_device.size(), 1u);
  EXPECT_EQ(method.non_const_buffer_device[0]->buffer_idx, 2);
  EXPECT_EQ(method.non_const_buffer_device[0]->device_type,
            fb::DeviceType::CUDA);
  EXPECT_EQ(method.non_const_buffer_device[0]->device_index, 1);
}

TEST(EmitterTest, ChainNamesEveryValueANodeTouches) {
  Graph graph = MustParse(kMixed);
  Emitted e = PlanAndEmit(graph);
  ASSERT_NE(e.program, nullptr);
  const fb::ExecutionPlanT& method = *e.program->execution_plan[0];
  ASSERT_EQ(method.chains.size(), 1u);
  const fb::ChainT& chain = *method.chains[0];
  // One KernelCall per node, each alias declared by et_view just before
  // the node that defines it: hv (view_of=h) before node v.
  const std::vector<TimeValue> kernel = KernelPositions(graph);
  EXPECT_THAT(kernel, ElementsAre(0, 2, 3, 4));
  ASSERT_EQ(chain.instructions.size(), 5u);
  std::vector<std::string> op_names;
  for (const auto& op : method.operators) {
    op_names.push_back(op->name +
                       (op->overload.empty() ? "" : "." + op->overload));
  }
  EXPECT_THAT(op_names, ElementsAre("aten::mm.out", kViewOperator, "aten::view",
                                    "aten::_to_copy.out", "aten::add.Tensor"));
  const fb::KernelCallT* view =
      chain.instructions[1]->instr_args.AsKernelCall();
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(op_names[view->op_index], kViewOperator);
  EXPECT_THAT(view->args, ElementsAre(*graph.Find("h"), *graph.Find("hv")));
  // Lifetimes re-derived from the chain (first to last instruction naming
  // a value, inputs from 0, outputs to the end) equal the planner's, in
  // instruction positions, for every value that is not an alias root
  // (roots also cover their aliases).
  std::map<int32_t, std::pair<int, int>> derived;
  for (size_t pos = 0; pos < chain.instructions.size(); ++pos) {
    const fb::KernelCallT* call =
        chain.instructions[pos]->instr_args.AsKernelCall();
    ASSERT_NE(call, nullptr);
    for (int32_t arg : call->args) {
      auto [it, inserted] = derived.emplace(arg, std::make_pair(pos, pos));
      if (!inserted) it->second.second = static_cast<int>(pos);
    }
  }
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const fb::KernelCallT* call =
        chain.instructions[kernel[n]]->instr_args.AsKernelCall();
    EXPECT_EQ(op_names[call->op_index], graph.nodes()[n].op);
  }
  for (int32_t in : method.inputs) derived[in].first = 0;
  for (int32_t out : method.outputs) {
    derived[out].second = static_cast<int>(chain.instructions.size()) - 1;
  }
  EXPECT_EQ(derived[*graph.Find("hv")].first, 1);  // Its et_view.
  for (const char* name : {"x", "c", "y"}) {
    const TensorAllocation& t = Find(e.plan, name);
    EXPECT_EQ(derived[t.value_id].first,
              t.lifetime.first == 0 ? 0 : kernel[t.lifetime.first])
        << name;
    EXPECT_EQ(derived[t.value_id].second, kernel[t.lifetime.last]) << name;
  }
}

TEST(EmitterTest, CpuOnlyProgramHasNoDeviceMap) {
  Graph graph = MustParse(kMixed);
  PlanOptions legacy;
  legacy.device_planning = false;
  Emitted e = PlanAndEmit(graph, legacy);
  ASSERT_NE(e.program, nullptr);
  const fb::ExecutionPlanT& method = *e.program->execution_plan[0];
  EXPECT_THAT(method.non_const_buffer_device, IsEmpty());
  EXPECT_EQ(method.non_const_buffer_sizes.size(), 2u);
  // The raw table lacks the vector entirely, not just an empty one.
  EXPECT_EQ(fb::GetProgram(e.bytes.data())
                ->execution_plan()
                ->Get(0)
                ->non_const_buffer_device(),
            nullptr);
  for (const auto& value : method.values) {
    EXPECT_EQ(value->val.AsTensor()->extra_tensor_info->device_type,
              fb::DeviceType::CPU);
  }
}

TEST(EmitterTest, OffsetsAbove4GiBAreSplitLowHigh) {
  // Two 4 GiB tensors live together: naive puts the second at 2^32.
  Graph graph = MustParse(
      "tensor a float [1073741824] input\ntensor b float [1073741824] "
      "output\nnode n relu in=a out=b\n");
  PlanOptions options;
  options.algorithms = {"naive"};
  Emitted e = PlanAndEmit(graph, options);
  ASSERT_NE(e.program, nullptr);
  const TensorAllocation& high =
      Find(e.plan, "b").offset != 0 ? Find(e.plan, "b") : Find(e.plan, "a");
  ASSERT_EQ(high.offset, uint64_t{1} << 32);
  const fb::TensorT* tensor =
      e.program->execution_plan[0]->values[high.value_id]->val.AsTensor();
  EXPECT_EQ(tensor->allocation_info->memory_offset_low, 0u);
  EXPECT_EQ(tensor->allocation_info->memory_offset_high, 1u);
  EXPECT_EQ(e.program->execution_plan[0]->non_const_buffer_sizes[1],
            int64_t{1} << 33);
}

TEST(EmitterTest, RefusesDimsThatDoNotFitTheSchema) {
  Graph graph =
      MustParse("tensor a int8 [3000000000] input\nnode n relu in=a\n");
  Result<PlanResult> plan = PlanGraph(graph, PlanOptions{});
  ASSERT_TRUE(plan.ok());
  Result<std::vector<uint8_t>> bytes = EmitProgram(graph, *plan);
  EXPECT_THAT(bytes, IsError(ErrorCode::kInvalidArgument,
                             HasSubstr("tensor 'a': shape[0] = 3000000000")));
}

TEST(EmitterTest, RefusesAPlanOfAnotherGraph) {
  Result<PlanResult> plan = PlanGraph(MustParse(kMixed), PlanOptions{});
  ASSERT_TRUE(plan.ok());
  Graph other = MustParse("tensor a float [4] input\nnode n relu in=a\n");
  EXPECT_THAT(EmitProgram(other, *plan),
              IsError(ErrorCode::kInvalidArgument,
                      HasSubstr("plan has 6 tensors, graph 'forward' has 1")));
}

// Loads an emitted program with the runtime and checks that MethodMeta
// reports exactly the planner's buffers and tensor placements.
void ExpectRuntimeSeesThePlan(const std::vector<uint8_t>& bytes,
                              const PlanResult& plan) {
  Result<Program> program = Program::Load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok()) << program.error().ToString();
  ASSERT_EQ(program->num_methods(), 1u);
  Result<MethodMeta> meta = program->method_meta(plan.graph_name);
  ASSERT_TRUE(meta.ok()) << meta.error().ToString();
  ASSERT_EQ(meta->num_memory_planned_buffers(), plan.buffers.size());
  for (size_t b = 0; b < plan.buffers.size(); ++b) {
    Result<uint64_t> size = meta->memory_planned_buffer_size(b);
    Result<Device> device = meta->memory_planned_buffer_device(b);
    ASSERT_TRUE(size.ok() && device.ok());
    EXPECT_EQ(*size, plan.buffers[b].size) << "buffer " << b + 1;
    EXPECT_EQ(*device, plan.buffers[b].device) << "buffer " << b + 1;
  }
  size_t planned = 0;
  for (const PlannedTensor& t : meta->planned_tensors()) {
    const TensorAllocation& expected = plan.tensors.at(t.value_index);
    ASSERT_TRUE(expected.planned) << expected.name;
    EXPECT_EQ(t.memory_id, expected.mem_id) << expected.name;
    EXPECT_EQ(t.offset, expected.offset) << expected.name;
    EXPECT_EQ(t.nbytes, expected.size) << expected.name;
    EXPECT_EQ(t.device, expected.device) << expected.name;
    ++planned;
  }
  size_t expected_planned = 0;
  for (const TensorAllocation& t : plan.tensors) expected_planned += t.planned;
  EXPECT_EQ(planned, expected_planned);
}

TEST(EmitterTest, RuntimeLoadsEmittedPrograms) {
  Graph graph = MustParse(kMixed);
  for (bool device_planning : {true, false}) {
    PlanOptions options;
    options.device_planning = device_planning;
    Emitted e = PlanAndEmit(graph, options);
    ExpectRuntimeSeesThePlan(e.bytes, e.plan);
  }
}

class ExampleGraphTest : public ::testing::TestWithParam<const char*> {};

TEST_P(ExampleGraphTest, PlansEmitsAndLoads) {
  std::string path = std::string("examples/graphs/") + GetParam() + ".graph";
  Result<Graph> graph = ReadGraphFile(path);
  ASSERT_TRUE(graph.ok()) << graph.error().ToString();
  PlanOptions options;
  options.algorithms = {"naive", "greedy", "best_fit"};
  Emitted e = PlanAndEmit(*graph, options);
  ASSERT_NE(e.program, nullptr);
  EXPECT_THAT(testing::PlanViolations(e.plan), IsEmpty());
  EXPECT_EQ(e.program->execution_plan[0]->name, graph->name());
  ExpectRuntimeSeesThePlan(e.bytes, e.plan);
  for (const BufferInfo& buffer : e.plan.buffers) {
    EXPECT_GE(buffer.size, buffer.aligned_lower_bound);
    std::printf("%s: mem_id %u %s %llu bytes (lower bound %llu)\n", GetParam(),
                buffer.mem_id, buffer.device.ToString().c_str(),
                static_cast<unsigned long long>(buffer.size),
                static_cast<unsigned long long>(buffer.aligned_lower_bound));
  }
  for (const AlgorithmStats& stats : e.plan.algorithms) {
    std::printf("%s: %s total %llu bytes\n", GetParam(), stats.name.c_str(),
                static_cast<unsigned long long>(stats.total_bytes));
  }
}

INSTANTIATE_TEST_SUITE_P(Examples, ExampleGraphTest,
                         ::testing::Values("small_cnn", "transformer_block",
                                           "views_inplace", "multi_device",
                                           "control_flow"));

TEST(ExampleGraphTest, MultiDeviceExampleUsesThreeDeviceBuffers) {
  Result<Graph> graph = ReadGraphFile("examples/graphs/multi_device.graph");
  ASSERT_TRUE(graph.ok()) << graph.error().ToString();
  Result<PlanResult> plan = PlanGraph(*graph, PlanOptions{});
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->buffers.size(), 3u);
  EXPECT_EQ(plan->buffers[0].device, Device::Cpu());
  EXPECT_EQ(plan->buffers[1].device, Device::Cuda(0));
  EXPECT_EQ(plan->buffers[2].device, Device::Cuda(1));
  EXPECT_EQ(Find(*plan, "a0v").device, Device::Cuda(0));
  EXPECT_EQ(Find(*plan, "a1r").mem_id, 3u);
}

}  // namespace
}  // namespace planner
}  // namespace memplan
