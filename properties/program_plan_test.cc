#include "properties/program_plan.h"

#include <functional>
#include <memory>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "properties/check.h"
#include "properties/program_plans.h"
#include "runtime/core/error_matchers.h"
#include "runtime/testing/program_builder.h"

namespace memplan {
namespace properties {

// For gtest's messages (found by argument-dependent lookup).
void PrintTo(const ResumedPart& part, std::ostream* out) {
  *out << "[" << part.lifetime.first << "," << part.lifetime.last << "] with "
       << part.with.value_or("nothing");
}

namespace {

namespace fb = executorch_flatbuffer;
using ::memplan::testing::IsError;
using ::testing::AnyOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::ProgramBuilder;

constexpr auto kFloat = fb::ScalarType::FLOAT;

// Loads the builder's program and returns method 0's plan; the bytes live
// in *bytes so that the Program may point into them.
Result<Plan> PlanOf(const ProgramBuilder& builder, std::vector<uint8_t>* bytes,
                    const ProgramPlanOptions& options = {}) {
  *bytes = builder.Build();
  // Read, as `memplan verify` does: plan faults reach the oracle.
  Result<Program> program = Program::Read(bytes->data(), bytes->size());
  if (!program.ok()) return program.error();
  return PlanFromProgram(*program, 0, options);
}

const Allocation& Find(const Plan& plan, int32_t value) {
  for (const Allocation& a : plan.allocations) {
    if (a.id == ProgramAllocationId(value)) return a;
  }
  ADD_FAILURE() << "no allocation for value " << value;
  return plan.allocations.front();
}

TEST(ProgramPlanTest, LifetimesKindsAndAlignmentFromTheChain) {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(192);
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t h = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  int32_t y = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 128);
  int32_t op = b.AddOperator("aten::relu");
  b.AddKernelCall(op, {x, h});  // 0
  b.AddKernelCall(op, {h, h});  // 1
  b.AddKernelCall(op, {h, y});  // 2
  b.AddKernelCall(op, {y, y});  // 3
  b.SetInputs({x});
  b.SetOutputs({y});
  std::vector<uint8_t> bytes;
  Result<Plan> plan = PlanOf(b, &bytes);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  EXPECT_EQ(plan->end_time, 3);
  ASSERT_EQ(plan->buffers.size(), 1u);
  EXPECT_EQ(plan->buffers[0].mem_id, 1);
  EXPECT_EQ(plan->buffers[0].size, 192);
  EXPECT_EQ(Find(*plan, x).kind, SpecKind::kInput);
  EXPECT_EQ(Find(*plan, x).lifetime.first, 0);
  EXPECT_EQ(Find(*plan, x).lifetime.last, 0);
  EXPECT_EQ(Find(*plan, h).lifetime.first, 0);
  EXPECT_EQ(Find(*plan, h).lifetime.last, 2);
  EXPECT_EQ(Find(*plan, y).kind, SpecKind::kOutput);
  EXPECT_EQ(Find(*plan, y).lifetime.first, 2);
  EXPECT_EQ(Find(*plan, y).lifetime.last, 3);
  EXPECT_EQ(Find(*plan, y).alignment, 4);  // sizeof(float).
  EXPECT_EQ(Find(*plan, h).device, Device::Cpu());
  Report report = Check(*plan);
  EXPECT_TRUE(report.ok()) << FormatText(report);
  EXPECT_EQ(report.buffers[0].live_bytes_lower_bound, 128u);
}

TEST(ProgramPlanTest, ReuseAfterDeathIsValidButStackingLiveTensorsIsAnOverlap) {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(128);
  int32_t a = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t c = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);  // a's bytes.
  int32_t d = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  int32_t op = b.AddOperator("aten::relu");
  b.AddKernelCall(op, {a, d});  // 0: a dies here.
  b.AddKernelCall(op, {d, c});  // 1: c reuses a's bytes.
  std::vector<uint8_t> bytes;
  Result<Plan> plan = PlanOf(b, &bytes);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  EXPECT_FALSE(Find(*plan, c).alias_of.has_value());
  EXPECT_TRUE(Check(*plan).ok());

  b.AddKernelCall(op, {a, d});  // 2: a is used again while c is live.
  plan = PlanOf(b, &bytes);
  ASSERT_TRUE(plan.ok());
  Report report = Check(*plan);
  EXPECT_EQ(report.count(ViolationCode::kOverlap), 1u);
  EXPECT_THAT(
      FormatText(report),
      HasSubstr(
          "overlap: v0 [0,2] bytes [0,64) (first named by aten::relu.out at "
          "chains[0].instructions[0]) and v1 [1,1] bytes [0,64) (first "
          "named by aten::relu.out at chains[0].instructions[1])"));
}

TEST(ProgramPlanTest, ViewOperatorsMakeAliases) {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(64);
  int32_t base = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t view = b.AddPlannedTensor(kFloat, {16}, cpu, 0);
  int32_t half = b.AddPlannedTensor(kFloat, {8}, cpu, 0);
  int32_t moved = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t op = b.AddOperator("executorch_prim::et_view", "default");
  b.AddKernelCall(op, {base, view});   // 0
  b.AddKernelCall(op, {view, half});   // 1
  b.AddMove(view, moved);              // 2: relates nothing by itself.
  b.AddKernelCall(op, {base, moved});  // 3
  std::vector<uint8_t> bytes;
  Result<Plan> plan = PlanOf(b, &bytes);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  EXPECT_FALSE(Find(*plan, base).alias_of.has_value());
  EXPECT_EQ(Find(*plan, view).alias_of, ProgramAllocationId(base));
  EXPECT_EQ(Find(*plan, view).kind, SpecKind::kView);
  EXPECT_EQ(Find(*plan, half).alias_of, ProgramAllocationId(base));
  EXPECT_EQ(Find(*plan, moved).kind, SpecKind::kView);
  Report report = Check(*plan);
  EXPECT_TRUE(report.ok()) << FormatText(report);
  EXPECT_EQ(report.buffers[0].live_bytes_lower_bound,
            64u);  // Only the base counts.
}

TEST(ProgramPlanTest, TensorListItemsAreLiveWhereTheListIsNamed) {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(256);
  int32_t p = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t q = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  int32_t out = b.AddPlannedTensor(kFloat, {4, 8}, cpu, 128);
  int32_t list = b.AddTensorList({p, q});
  int32_t optional = b.AddOptionalTensorList({-1, q});
  int32_t op = b.AddOperator("aten::cat");
  b.AddKernelCall(op, {p, p});           // 0
  b.AddKernelCall(op, {list, out});      // 1
  b.AddKernelCall(op, {optional, out});  // 2
  std::vector<uint8_t> bytes;
  Result<Plan> plan = PlanOf(b, &bytes);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  EXPECT_EQ(Find(*plan, p).lifetime.last, 1);
  EXPECT_EQ(Find(*plan, q).lifetime.first, 1);
  EXPECT_EQ(Find(*plan, q).lifetime.last, 2);
  EXPECT_TRUE(Check(*plan).ok());
}

// A list's items are visited only at its first namings; later ones still
// move their last use.
TEST(ProgramPlanTest, TheItemsOfAListNamedAgainLiveToItsLastNaming) {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(256);
  int32_t p = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t q = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  int32_t out = b.AddPlannedTensor(kFloat, {4, 8}, cpu, 128);
  int32_t list = b.AddTensorList({p, q});
  int32_t cat = b.AddOperator("aten::cat");
  b.AddKernelCall(cat, {list, out});  // 0
  b.AddKernelCall(cat, {out, out});   // 1
  b.AddKernelCall(cat, {list, out});  // 2
  b.AddKernelCall(cat, {out, out});   // 3
  std::vector<uint8_t> bytes;
  Result<Plan> plan = PlanOf(b, &bytes);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  for (int32_t item : {p, q}) {
    EXPECT_EQ(Find(*plan, item).lifetime.first, 0);
    EXPECT_EQ(Find(*plan, item).lifetime.last, 2);
  }
}

// A view op's list output makes its items aliases of the op's base, each by
// the last op that did so: an item that is that op's own base keeps what
// the op before made it.
TEST(ProgramPlanTest, AnAliasOpsListOutputAliasesItsItems) {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(256);
  int32_t a = b.AddPlannedTensor(kFloat, {4, 8}, cpu, 0);
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t y = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  int32_t list = b.AddTensorList({a, x, y});
  b.AddKernelCall(b.AddOperator("aten::split"), {a, list});  // 0
  b.AddKernelCall(b.AddOperator("aten::add_"), {x, list});   // 1
  std::vector<uint8_t> bytes;
  Result<Plan> plan = PlanOf(b, &bytes);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  // a: the largest; aliased by op 1 (in place), so it ranks as an alias;
  // x: op 1's base, so op 0 made it a view; y: op 1 made it in place.
  EXPECT_FALSE(Find(*plan, a).alias_of.has_value());
  EXPECT_EQ(Find(*plan, x).alias_of, ProgramAllocationId(a));
  EXPECT_EQ(Find(*plan, x).kind, SpecKind::kView);
  EXPECT_EQ(Find(*plan, y).alias_of, ProgramAllocationId(a));
  EXPECT_EQ(Find(*plan, y).kind, SpecKind::kInPlace);
}

// A name the file holds once is held once, however many tensors carry it
// (a copy per tensor made 1.6 GB of a 1.3 MB file), and messages show at
// most 200 bytes of it.
TEST(ProgramPlanTest, TensorsSharingANameShareOneStringAndShortMessages) {
  const std::string name(5000, 'k');
  std::vector<uint8_t> bytes = testing::TensorsSharingOneName(3, name);
  Result<Program> program = Program::Read(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok()) << program.error().ToString();
  Result<Plan> plan = PlanFromProgram(*program, 0);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  ASSERT_EQ(plan->allocations.size(), 3u);
  ASSERT_NE(plan->allocations[0].shared_name, nullptr);
  EXPECT_EQ(*plan->allocations[0].shared_name, name);
  for (const Allocation& a : plan->allocations) {
    EXPECT_EQ(a.shared_name.get(), plan->allocations[0].shared_name.get());
  }
  // One name at three places: shared_state, with the name cut.
  Result<std::vector<MethodPlan>> methods =
      ReadProgramPlans(bytes.data(), bytes.size());
  ASSERT_TRUE(methods.ok()) << methods.error().ToString();
  std::vector<Report> reports = CheckMethods(*methods);
  ASSERT_EQ(reports[0].count(ViolationCode::kSharedState), 2u);
  for (const Violation& v : reports[0].violations) {
    EXPECT_LT(v.message.size(), 400u) << v.message;
    EXPECT_THAT(v.message, HasSubstr("...' (5000 bytes)"));
  }
}

TEST(ProgramPlanTest, DevicesAndTheBufferDeviceMap) {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(64);
  uint32_t gpu = b.AddBuffer(128, Device::Cuda(1));
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t y = b.AddPlannedTensor(kFloat, {4, 4}, gpu, 64, Device::Cuda(1));
  b.AddKernelCall(b.AddOperator("aten::to_copy"), {x, y});
  std::vector<uint8_t> bytes;
  Result<Plan> plan = PlanOf(b, &bytes);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  ASSERT_EQ(plan->buffers.size(), 2u);
  EXPECT_EQ(plan->buffers[1].device, Device::Cuda(1));
  EXPECT_EQ(Find(*plan, y).device, Device::Cuda(1));
  ASSERT_EQ(plan->device_map.size(), 1u);
  EXPECT_EQ(plan->device_map[0].buffer_index, 2);
  EXPECT_EQ(plan->device_map[0].raw_device_type, 1);
  EXPECT_EQ(plan->device_map[0].device_index, 1);
  Report report = Check(*plan);
  EXPECT_TRUE(report.ok()) << FormatText(report);
  EXPECT_EQ(report.buffers[1].device, Device::Cuda(1));
}

TEST(ProgramPlanTest, AlignOptionRaisesTheAlignment) {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(128);
  int32_t x = b.AddPlannedTensor(kFloat, {2}, cpu, 0);
  int32_t y = b.AddPlannedTensor(kFloat, {2}, cpu, 8);
  b.AddKernelCall(b.AddOperator("aten::relu"), {x, y});
  std::vector<uint8_t> bytes;
  Result<Plan> plan = PlanOf(b, &bytes);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(Check(*plan).ok());
  ProgramPlanOptions options;
  options.min_alignment = 16;
  plan = PlanOf(b, &bytes, options);
  ASSERT_TRUE(plan.ok());
  Report report = Check(*plan);
  EXPECT_EQ(report.count(ViolationCode::kAlignment), 1u);
  EXPECT_THAT(FormatText(report),
              HasSubstr("offset 8 is not a multiple of 16"));
}

TEST(ProgramPlanTest, UnnamedTensorsLiveThroughout) {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(128);
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t idle = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  int32_t op = b.AddOperator("aten::relu");
  b.AddKernelCall(op, {x, x});
  b.AddKernelCall(op, {x, x});
  std::vector<uint8_t> bytes;
  Result<Plan> plan = PlanOf(b, &bytes);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(Find(*plan, idle).lifetime.first, 0);
  EXPECT_EQ(Find(*plan, idle).lifetime.last, 1);
}

TEST(ProgramPlanTest, MissingMethodIsAnError) {
  ProgramBuilder b;
  b.AddBuffer(8);
  std::vector<uint8_t> bytes = b.Build();
  Result<Program> program = Program::Load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok()) << program.error().ToString();
  EXPECT_THAT(PlanFromProgram(*program, 5),
              IsError(ErrorCode::kNotFound,
                      HasSubstr("execution_plan index 5, must be < 1")));
}

// The textbook planner bug: a kernel's output on its own live input's
// bytes. Only a view or in-place operator may do that.
TEST(ProgramPlanTest, OutputOverItsOwnInputIsAnOverlapUnlessTheOpAliases) {
  for (const char* name :
       {"aten::mul", "aten::sigmoid", "cortex_m::quantize_per_tensor"}) {
    SCOPED_TRACE(name);
    ProgramBuilder b;
    uint32_t cpu = b.AddBuffer(64);
    int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
    int32_t y = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);  // x's bytes.
    b.AddKernelCall(b.AddOperator(name), {x, x, y});
    b.SetInputs({x});
    b.SetOutputs({y});
    std::vector<uint8_t> bytes;
    Result<Plan> plan = PlanOf(b, &bytes);
    ASSERT_TRUE(plan.ok()) << plan.error().ToString();
    EXPECT_FALSE(Find(*plan, y).alias_of.has_value());
    Report report = Check(*plan);
    EXPECT_EQ(report.count(ViolationCode::kOverlap), 1u) << FormatText(report);
    EXPECT_THAT(FormatText(report),
                HasSubstr(std::string("first named by ") + name +
                          ".out at chains[0].instructions[0]"));
  }
  // An in-place ATen op, a view op, and a user-declared view op alias.
  for (const char* name : {"aten::add_", "aten::view", "my_npu::reinterpret"}) {
    SCOPED_TRACE(name);
    ProgramBuilder b;
    uint32_t cpu = b.AddBuffer(64);
    int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
    int32_t y = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
    b.AddKernelCall(b.AddOperator(name, "Tensor"), {x, x, y});
    b.SetInputs({x});
    b.SetOutputs({y});
    std::vector<uint8_t> bytes;
    ProgramPlanOptions options;
    options.alias_ops = {"my_npu::reinterpret.default"};
    Result<Plan> plan = PlanOf(b, &bytes, options);
    ASSERT_TRUE(plan.ok()) << plan.error().ToString();
    EXPECT_EQ(Find(*plan, y).alias_of, ProgramAllocationId(x));
    EXPECT_TRUE(Check(*plan).ok()) << FormatText(Check(*plan));
  }
}

TEST(ProgramPlanTest, AViewPlacedAwayFromItsBaseBreaksAlias) {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(128);
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t v = b.AddPlannedTensor(kFloat, {16}, cpu, 64);
  b.AddKernelCall(b.AddOperator("executorch_prim::et_view", "default"),
                  {x, b.AddInt(16), v});
  std::vector<uint8_t> bytes;
  Result<Plan> plan = PlanOf(b, &bytes);
  ASSERT_TRUE(plan.ok());
  Report report = Check(*plan);
  EXPECT_EQ(report.count(ViolationCode::kAlias), 1u) << FormatText(report);
}

TEST(ProgramPlanTest, SamePlaceTensorsAMoveDoesNotRelateStayApart) {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(128);
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t y = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  int32_t z = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);  // x's bytes.
  b.AddKernelCall(b.AddOperator("aten::relu"), {x, z});    // 0: z over live x.
  b.AddMove(x, y);  // 1: different places: two allocations.
  std::vector<uint8_t> bytes;
  Result<Plan> plan = PlanOf(b, &bytes);
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(Find(*plan, y).alias_of.has_value());
  EXPECT_EQ(Check(*plan).count(ViolationCode::kOverlap), 1u);
}

// A slot first named by a move into it names the moved tensor's bytes; its
// own tensor is never read or written, wherever it is planned: partly over
// the source (which the same-place rule this replaced reported) or over a
// tensor live then.
TEST(ProgramPlanTest, ASlotMovedIntoBeforeAnyNamingHasNoBytesInUse) {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(256);
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t t = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  int32_t s = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 96);  // Over t.
  int32_t u = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);   // x is dead.
  b.AddKernelCall(b.AddOperator("aten::relu"), {x, t});     // 0
  b.AddMove(t, s);                                          // 1
  b.AddKernelCall(b.AddOperator("aten::neg"), {s, u});  // 2: reads t's bytes.
  b.SetInputs({x});
  b.SetOutputs({u});
  std::vector<uint8_t> bytes;
  Result<Plan> plan = PlanOf(b, &bytes);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  EXPECT_FALSE(Find(*plan, s).accessed);
  EXPECT_TRUE(Find(*plan, t).accessed);
  EXPECT_EQ(Find(*plan, t).lifetime.last, 2);  // Read through s.
  Report report = Check(*plan);
  EXPECT_TRUE(report.ok()) << FormatText(report);
  // It still takes room in its buffer: bounds hold for it.
  EXPECT_EQ(report.buffers[0].high_water, 160u);
}

// Where a path reaches a naming of the slot without passing the move (a
// jump on a predicate over it), that naming reads the slot's own tensor,
// which then must not share bytes with a tensor live there.
TEST(ProgramPlanTest, ASlotNamedOnAPathThatSkipsTheMoveKeepsItsOwnBytes) {
  for (bool skippable : {true, false}) {
    SCOPED_TRACE(skippable ? "a jump over the move" : "a jump to it");
    ProgramBuilder b;
    uint32_t cpu = b.AddBuffer(256);
    int32_t pred = b.AddPlannedTensor(executorch_flatbuffer::ScalarType::BOOL,
                                      {}, cpu, 192);
    int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
    int32_t s = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);  // On x.
    int32_t u = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
    b.AddJumpFalse(pred, skippable ? 2 : 1);              // 0
    b.AddMove(x, s);                                      // 1
    b.AddKernelCall(b.AddOperator("aten::neg"), {s, u});  // 2
    b.SetInputs({pred, x});
    b.SetOutputs({u});
    std::vector<uint8_t> bytes;
    Result<Plan> plan = PlanOf(b, &bytes);
    ASSERT_TRUE(plan.ok()) << plan.error().ToString();
    EXPECT_EQ(Find(*plan, s).accessed, skippable);
    Report report = Check(*plan);
    EXPECT_EQ(report.count(ViolationCode::kOverlap), skippable ? 1u : 0u)
        << FormatText(report);
  }
}

// testing::CondsProgram: a cond's output names the bytes of the branch
// output moved into it (a pointer move) until its last use, so a second
// cond whose branches take them overwrites it while it is read (ExecuTorch
// issue 21490). Moves chain: a slot moved on passes the same bytes along.
TEST(ProgramPlanTest, AMovedFromTensorLivesWhileTheSlotMovedToNamesIt) {
  const int32_t first_false = 8;
  for (bool chained : {false, true}) {
    SCOPED_TRACE(chained ? "chained" : "one move");
    {
      ProgramBuilder b = testing::CondsProgram(/*two*/ true, 64, chained);
      std::vector<uint8_t> bytes;
      Result<Plan> plan = PlanOf(b, &bytes);
      ASSERT_TRUE(plan.ok()) << plan.error().ToString();
      const TimeValue read = chained ? 13 : 12;
      EXPECT_EQ(Find(*plan, first_false).lifetime.last, read);
      // y1's own tensor: every path moves a branch output into y1 first,
      // so nothing reads or writes it (nor w's, where y1 moves on).
      EXPECT_FALSE(Find(*plan, 2).alias_of.has_value());
      EXPECT_FALSE(Find(*plan, 2).accessed);
      EXPECT_EQ(Find(*plan, 2).lifetime.first, 2);
      EXPECT_EQ(Find(*plan, 2).lifetime.last, 2);
      EXPECT_EQ(Find(*plan, 5).accessed, !chained);
      Report report = Check(*plan);
      // The first cond's false output meets both of the second's.
      EXPECT_EQ(report.count(ViolationCode::kOverlap), 2u)
          << FormatText(report);
      // Why it is live: the move that kept it (the last one reaching the
      // read).
      EXPECT_THAT(FormatText(report),
                  HasSubstr("v8 [4," + std::to_string(read) +
                            "] bytes [64,128) (first named by aten::neg.out "
                            "at chains[0].instructions[4]; then read through "
                            "the move at chains[0].instructions[" +
                            std::to_string(chained ? 6 : 5) + "])"));
    }
    {
      ProgramBuilder b = testing::CondsProgram(/*two*/ true, 320, chained);
      std::vector<uint8_t> bytes;
      Result<Plan> plan = PlanOf(b, &bytes);
      ASSERT_TRUE(plan.ok());
      EXPECT_TRUE(Check(*plan).ok()) << FormatText(Check(*plan));
    }
  }
}

// One cond as ExecuTorch lays it out (0: jump on the predicate to 4; 1-2:
// the true branch, moving its output into y; 3: jump on a constant false
// to 6; 4-5: the false branch), its false output at 64 and its true output
// at `true_at`; then t = relu(x) at `t_at` (6) and z = add(y, t) (7).
// The values CondThenRead and NestedCondThenRead name, in one CPU buffer
// of 512 bytes: pred 0 (at 480), x 1 (0), y 2 (256), t 3 (t_at), z 4
// (384), a constant false 5, the true output 6 (true_at) and the false
// output 7 (64); the relu operator and the buffer.
struct CondValues {
  int32_t pred, x, y, t, z, always, on_true, on_false, relu;
  uint32_t cpu;
};

CondValues AddCondValues(ProgramBuilder* b, uint64_t true_at, uint64_t t_at) {
  CondValues v;
  const uint32_t cpu = v.cpu = b->AddBuffer(512);
  v.pred = b->AddPlannedTensor(executorch_flatbuffer::ScalarType::BOOL, {}, cpu,
                               480);
  v.x = b->AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  v.y = b->AddPlannedTensor(kFloat, {4, 4}, cpu, 256);
  v.t = b->AddPlannedTensor(kFloat, {4, 4}, cpu, t_at);
  v.z = b->AddPlannedTensor(kFloat, {4, 4}, cpu, 384);
  v.always = b->AddBool(false);
  v.on_true = b->AddPlannedTensor(kFloat, {4, 4}, cpu, true_at);
  v.on_false = b->AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  v.relu = b->AddOperator("aten::relu");
  return v;
}

ProgramBuilder CondThenRead(uint64_t true_at, uint64_t t_at) {
  ProgramBuilder b;
  const auto [pred, x, y, t, z, always, on_true, on_false, relu, cpu] =
      AddCondValues(&b, true_at, t_at);
  b.AddJumpFalse(pred, 4);
  b.AddKernelCall(relu, {x, on_true});
  b.AddMove(on_true, y);
  b.AddJumpFalse(always, 6);
  b.AddKernelCall(b.AddOperator("aten::neg"), {x, on_false});
  b.AddMove(on_false, y);
  b.AddKernelCall(relu, {x, t});
  b.AddKernelCall(b.AddOperator("aten::add"), {y, t, z});
  b.SetInputs({pred, x});
  b.SetOutputs({z});
  return b;
}

// The true branch's output is what y names after the join when the true
// branch ran: live up to its branch's end and again from the join, not
// over the false branch. Where it sits apart from the false output, a
// tensor written over it before y is read is caught; the false output may
// share its bytes (the two never live in one run); where it sits on the
// false output's bytes (ExecuTorch's plan), the false output's extension
// judges them and the true output gets no second part.
TEST(ProgramPlanTest, ACondsTrueOutputLivesAgainFromTheJoin) {
  struct Case {
    uint64_t true_at, t_at;
    size_t overlaps;
    bool resumed;
  };
  for (const Case& c : {Case{128, 128, 1, true}, Case{128, 320, 0, true},
                        Case{96, 320, 0, true}, Case{64, 64, 1, false},
                        Case{64, 320, 0, false}}) {
    SCOPED_TRACE("true output at " + std::to_string(c.true_at) + ", t at " +
                 std::to_string(c.t_at));
    ProgramBuilder b = CondThenRead(c.true_at, c.t_at);
    std::vector<uint8_t> bytes;
    Result<Plan> plan = PlanOf(b, &bytes);
    ASSERT_TRUE(plan.ok()) << plan.error().ToString();
    const Allocation& on_true = Find(*plan, 6);
    EXPECT_EQ(on_true.resumed.size(), c.resumed ? 1u : 0u);
    if (c.resumed) {
      EXPECT_EQ(on_true.lifetime.last, 3);  // Its skip jump.
      EXPECT_EQ(on_true.resumed[0],
                (ResumedPart{{6, 7}, ProgramAllocationId(7)}));  // Join, read.
    }
    EXPECT_EQ(Find(*plan, 7).lifetime.last, 7);
    Report report = Check(*plan);
    EXPECT_EQ(report.count(ViolationCode::kOverlap), c.overlaps)
        << FormatText(report);
    if (c.resumed && c.overlaps > 0) {
      EXPECT_THAT(FormatText(report), HasSubstr("v6 [1,3]+[6,7] bytes"));
    }
  }
}

// A cond nested in another's true branch, its output moved into y, which
// is read past the outer join: on the path through both true branches, y
// names the inner true output from its move (3) to the inner skip (4) and
// again from the inner join (7) to the outer skip (8), where t, written at
// 7 on its bytes (128), overwrites it; t elsewhere (320) meets nothing.
// Where the outer false branch moves its own output into y
// (outer_moves), the inner true output is live again from the outer join
// (11) to y's read, a second hole over that branch; where it writes y
// itself, no output shares y there, and the parts end before it.
ProgramBuilder NestedCondThenRead(uint64_t t_at, bool outer_moves) {
  ProgramBuilder b;
  const auto [pred, x, y, t, z, always, on_true, on_false, relu, cpu] =
      AddCondValues(&b, /*true_at*/ 128, t_at);
  int32_t of = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 192);
  int32_t neg = b.AddOperator("aten::neg");
  b.AddJumpFalse(pred, 9);                        // 0: outer cond.
  b.AddJumpFalse(pred, 5);                        // 1: inner cond.
  b.AddKernelCall(relu, {x, on_true});            // 2
  b.AddMove(on_true, y);                          // 3
  b.AddJumpFalse(always, 7);                      // 4: inner skip.
  b.AddKernelCall(neg, {x, on_false});            // 5
  b.AddMove(on_false, y);                         // 6
  b.AddKernelCall(relu, {x, t});                  // 7: inner join.
  b.AddJumpFalse(always, outer_moves ? 11 : 10);  // 8: outer skip.
  if (outer_moves) {
    b.AddKernelCall(neg, {x, of});  // 9: outer false branch.
    b.AddMove(of, y);               // 10
  } else {
    b.AddKernelCall(neg, {x, y});  // 9: outer false branch.
  }
  b.AddKernelCall(b.AddOperator("aten::add"), {y, x, z});  // The join.
  b.SetInputs({pred, x});
  b.SetOutputs({z});
  return b;
}

TEST(ProgramPlanTest, ANestedTrueOutputLivesAgainUpToTheOuterBranchsEnd) {
  for (bool outer_moves : {false, true}) {
    for (uint64_t t_at : {uint64_t{128}, uint64_t{320}}) {
      SCOPED_TRACE("t at " + std::to_string(t_at) +
                   (outer_moves ? ", the outer false branch moves" : ""));
      ProgramBuilder b = NestedCondThenRead(t_at, outer_moves);
      std::vector<uint8_t> bytes;
      Result<Plan> plan = PlanOf(b, &bytes);
      ASSERT_TRUE(plan.ok()) << plan.error().ToString();
      const Allocation& on_true = Find(*plan, 6);
      EXPECT_EQ(on_true.lifetime.last, 4);  // The inner skip.
      const ResumedPart inner_part{{7, 8}, ProgramAllocationId(7)};
      if (outer_moves) {
        EXPECT_THAT(on_true.resumed,
                    ElementsAre(inner_part,
                                ResumedPart{{11, 11}, ProgramAllocationId(8)}));
      } else {
        EXPECT_THAT(on_true.resumed, ElementsAre(inner_part));
      }
      Report report = Check(*plan);
      EXPECT_EQ(report.count(ViolationCode::kOverlap), t_at == 128 ? 1u : 0u)
          << FormatText(report);
    }
  }
}

// testing::NestedCondsProgram: `it` is live over [2,4] (to the inner
// skip), [7,8] (inner join to outer skip) and again from the outer join to
// u's read, with a hole over each false branch, each part sharing with
// that branch's output moved into the slot.
TEST(ProgramPlanTest, ANestedTrueOutputHasAHoleOverEachFalseBranch) {
  struct Case {
    uint64_t t_at;
    bool t_in_outer_false;
    size_t overlaps;
  };
  for (const Case& c :
       {Case{128, false, 1}, Case{448, false, 0}, Case{128, true, 0}}) {
    SCOPED_TRACE("t at " + std::to_string(c.t_at) +
                 (c.t_in_outer_false ? " in the outer false branch" : ""));
    ProgramBuilder b = testing::NestedCondsProgram(c.t_at, c.t_in_outer_false);
    std::vector<uint8_t> bytes;
    Result<Plan> plan = PlanOf(b, &bytes);
    ASSERT_TRUE(plan.ok()) << plan.error().ToString();
    const TimeValue join = c.t_in_outer_false ? 12 : 11;
    const Allocation& it = Find(*plan, 3);
    EXPECT_EQ(it.lifetime.first, 2);
    EXPECT_EQ(it.lifetime.last, 4);  // The inner skip.
    EXPECT_THAT(it.resumed,
                ElementsAre(ResumedPart{{7, 8}, ProgramAllocationId(4)},
                            ResumedPart{{join, 12}, ProgramAllocationId(2)}));
    // The inner false output: to the outer skip, and from the outer join.
    const Allocation& inner_false = Find(*plan, 4);
    EXPECT_EQ(inner_false.lifetime.last, 8);
    EXPECT_THAT(inner_false.resumed,
                ElementsAre(ResumedPart{{join, 12}, ProgramAllocationId(2)}));
    Report report = Check(*plan);
    EXPECT_EQ(report.count(ViolationCode::kOverlap), c.overlaps)
        << FormatText(report);
  }
}

// testing::DeeplyNestedCondsProgram: t (value 4) is live again after each
// false branch, up to 16 parts (kMaxResumedParts): deeper, they end before
// the 17th false branch, so that a file cannot make depth^2 parts.
TEST(ProgramPlanTest, ATrueOutputGetsAtMost16PartsAfterHoles) {
  for (int depth : {3, 16, 17, 40}) {
    SCOPED_TRACE("depth " + std::to_string(depth));
    ProgramBuilder b = testing::DeeplyNestedCondsProgram(depth);
    std::vector<uint8_t> bytes;
    Result<Plan> plan = PlanOf(b, &bytes);
    ASSERT_TRUE(plan.ok()) << plan.error().ToString();
    const TimeValue read = 4 * depth + 2;
    const Allocation& t = Find(*plan, 4);
    EXPECT_EQ(t.lifetime.last, depth + 2);  // The innermost skip.
    ASSERT_EQ(t.resumed.size(), static_cast<size_t>(std::min(depth, 16)));
    for (size_t k = 0; k + 1 < t.resumed.size(); ++k) {
      // From a join to the next skip, right after it.
      EXPECT_EQ(t.resumed[k].lifetime.first, depth + 5 + 3 * k);
      EXPECT_EQ(t.resumed[k].lifetime.last, depth + 5 + 3 * k);
    }
    EXPECT_EQ(t.resumed.back().lifetime.last,
              depth <= 16 ? read : depth + 5 + 3 * 15);
    EXPECT_TRUE(Check(*plan).ok()) << FormatText(Check(*plan));
  }
}

// Two true branches that cross rather than nest (entries 0 and 1, skips 4
// and 6, joins 10 and 9; no exporter emits this): t moved into y inside
// both, x moved into y in the first false branch only, y read at 10. The
// part after the first hole would end (at the second skip, 6) before it
// begins (at the first join, 10): no part then, and no lifetime fault.
TEST(ProgramPlanTest, CrossingTrueBranchesGiveNoInvertedPart) {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(512);
  int32_t pred =
      b.AddPlannedTensor(executorch_flatbuffer::ScalarType::BOOL, {}, cpu, 480);
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t y = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  int32_t t = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 128);
  int32_t g = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 192);
  int32_t z = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 256);
  int32_t always = b.AddBool(false);
  int32_t neg = b.AddOperator("aten::neg");
  b.AddJumpFalse(pred, 5);                                 // 0
  b.AddJumpFalse(pred, 7);                                 // 1
  b.AddKernelCall(neg, {x, t});                            // 2
  b.AddMove(t, y);                                         // 3
  b.AddJumpFalse(always, 10);                              // 4
  b.AddMove(x, y);                                         // 5
  b.AddJumpFalse(always, 9);                               // 6
  b.AddKernelCall(neg, {x, g});                            // 7
  b.AddKernelCall(neg, {x, g});                            // 8
  b.AddKernelCall(neg, {x, g});                            // 9
  b.AddKernelCall(b.AddOperator("aten::add"), {y, x, z});  // 10
  b.SetInputs({pred, x});
  b.SetOutputs({z});
  std::vector<uint8_t> bytes;
  Result<Plan> plan = PlanOf(b, &bytes);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  for (const Allocation& a : plan->allocations) {
    TimeValue last = a.lifetime.last;
    for (const ResumedPart& part : a.resumed) {
      EXPECT_LE(part.lifetime.first, part.lifetime.last) << a.id;
      EXPECT_GT(part.lifetime.first, last + 1) << a.id;
      last = part.lifetime.last;
    }
  }
  EXPECT_EQ(Check(*plan).count(ViolationCode::kLifetime), 0u)
      << FormatText(Check(*plan));
}

// testing::CondChainProgram(3): f[1] (value 9), moved into y[1] in the
// first cond's false branch (5), is what y[1] names when cond 2's true
// branch moves it on (7), and what y[2] carries when cond 3's does (12):
// live to cond 2's skip (8), again from its join to cond 3's skip
// ([11,13], sharing with f[2]) and from cond 3's join to the read ([16,16],
// sharing with f[3]).
TEST(ProgramPlanTest, AnOutputMovedOnThroughCondsInARowHasAHoleOverEach) {
  ProgramBuilder b = testing::CondChainProgram(3);
  std::vector<uint8_t> bytes;
  Result<Plan> plan = PlanOf(b, &bytes);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  const Allocation& f1 = Find(*plan, 9);
  EXPECT_EQ(f1.lifetime.first, 4);
  EXPECT_EQ(f1.lifetime.last, 8);
  EXPECT_THAT(f1.resumed,
              ElementsAre(ResumedPart{{11, 13}, ProgramAllocationId(10)},
                          ResumedPart{{16, 16}, ProgramAllocationId(11)}));
  EXPECT_TRUE(Check(*plan).ok()) << FormatText(Check(*plan));
}

// `conds` conds in a row, each inside another cond's true branch: at each
// step the inner true branch moves y[i-1] on into y[i], and each false
// branch writes an output and moves it into y[i]: the same f[i] in both
// (one_output), so that each move on adds two parts after holes but one
// output to carry, or g[i] in the inner and h[i] in the outer one.
// Iteration i (from 1) starts at 1 + 9 (i - 1): outer entry, inner entry,
// the move, the inner skip, the inner false output and its move, the outer
// skip (the inner join), the outer false output and its move; the next
// iteration is the outer join. Values: pred 0, x 1, z 2, false 3,
// y[0..conds] from 4, then f[1..conds] (or g[1..conds], h[1..conds]).
ProgramBuilder NestedCondChain(int conds, bool one_output) {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(4096);
  int32_t pred =
      b.AddPlannedTensor(executorch_flatbuffer::ScalarType::BOOL, {}, cpu, 0);
  int32_t x = b.AddPlannedTensor(kFloat, {4}, cpu, 16);
  int32_t z = b.AddPlannedTensor(kFloat, {4}, cpu, 32);
  int32_t always = b.AddBool(false);
  std::vector<int32_t> y, g, h;
  for (int i = 0; i <= conds; ++i) {
    y.push_back(b.AddPlannedTensor(kFloat, {4}, cpu, 48 + 16 * i));
  }
  for (int i = 1; i <= conds; ++i) {
    g.push_back(b.AddPlannedTensor(kFloat, {4}, cpu, 1024 + 16 * i));
  }
  for (int i = 1; i <= conds && !one_output; ++i) {
    h.push_back(b.AddPlannedTensor(kFloat, {4}, cpu, 2048 + 16 * i));
  }
  if (one_output) h = g;
  int32_t neg = b.AddOperator("aten::neg");
  b.AddKernelCall(neg, {x, y[0]});
  for (int i = 1; i <= conds; ++i) {
    const int32_t base = 1 + 9 * (i - 1);
    b.AddJumpFalse(pred, base + 7);  // Outer entry.
    b.AddJumpFalse(pred, base + 4);  // Inner entry.
    b.AddMove(y[i - 1], y[i]);
    b.AddJumpFalse(always, base + 6);  // Inner skip.
    b.AddKernelCall(neg, {x, g[i - 1]});
    b.AddMove(g[i - 1], y[i]);
    b.AddJumpFalse(always, base + 9);  // Outer skip.
    b.AddKernelCall(neg, {x, h[i - 1]});
    b.AddMove(h[i - 1], y[i]);
  }
  b.AddKernelCall(b.AddOperator("aten::add"), {y[conds], x, z});
  b.SetInputs({pred, x});
  b.SetOutputs({z});
  return b;
}

// With one false output a step, f[1] is carried on from iteration 2, two
// parts a step: it has 16 by iteration 9, and iteration 10 takes it past
// them. Its parts then stop where iteration 10's inner skip (85) left the
// last one; extended by the later steps, the last part would span their
// false branches (to 121 at 14 iterations). With two, h[1] is carried
// along with g[i] (each registered by its own move into y[i], inside the
// outer true branch, beside what y[i] already carries) and ends alike.
TEST(ProgramPlanTest, AnAllocationPastItsPartsIsNotExtendedAgain) {
  for (bool one_output : {true, false}) {
    SCOPED_TRACE(one_output ? "one false output a step" : "two");
    ProgramBuilder b = NestedCondChain(14, one_output);
    std::vector<uint8_t> bytes;
    Result<Plan> plan = PlanOf(b, &bytes);
    ASSERT_TRUE(plan.ok()) << plan.error().ToString();
    const Allocation& first = Find(*plan, one_output ? 19 : 33);
    EXPECT_EQ(first.lifetime.first, one_output ? 5 : 8);
    ASSERT_EQ(first.resumed.size(), 16u);
    EXPECT_EQ(first.resumed[0].lifetime.first, 16);
    EXPECT_EQ(first.resumed.back().lifetime.last, 85);
    EXPECT_TRUE(Check(*plan).ok()) << FormatText(Check(*plan));
  }
}

// testing::CondsProgram with the first cond's output moved on into w after
// the join: w names the true output's bytes on the path through the true
// branch, so the second cond's branches, on those bytes (128), overwrite
// them while w is read (13); elsewhere (320) they do not.
TEST(ProgramPlanTest, ATrueOutputMovedOnLivesWhileTheNextSlotIsRead) {
  for (uint64_t second_region : {uint64_t{128}, uint64_t{320}}) {
    SCOPED_TRACE("second cond at " + std::to_string(second_region));
    ProgramBuilder b = testing::CondsProgram(/*two*/ true, second_region,
                                             /*chained*/ true,
                                             /*first_true_at*/ 128);
    std::vector<uint8_t> bytes;
    Result<Plan> plan = PlanOf(b, &bytes);
    ASSERT_TRUE(plan.ok()) << plan.error().ToString();
    const Allocation& first_true = Find(*plan, 7);
    ASSERT_EQ(first_true.resumed.size(), 1u);
    EXPECT_EQ(first_true.resumed[0].lifetime.first, 6);
    EXPECT_EQ(first_true.resumed[0].lifetime.last, 13);
    Report report = Check(*plan);
    EXPECT_EQ(report.count(ViolationCode::kOverlap),
              second_region == 128 ? 2u : 0u)
        << FormatText(report);
  }
}

// The two branches of one cond never run in one run: the true branch's
// output, moved into the cond's output, does not carry its bytes over the
// false branch, whose output ExecuTorch plans on the same bytes.
TEST(ProgramPlanTest, TheBranchesOfOneCondMayShareTheirBytes) {
  ProgramBuilder b = testing::CondsProgram(/*two*/ false, 0, false);
  std::vector<uint8_t> bytes;
  Result<Plan> plan = PlanOf(b, &bytes);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  EXPECT_EQ(Find(*plan, 7).lifetime.last, 2);  // Its own move.
  EXPECT_EQ(Find(*plan, 8).lifetime.last, 6);  // The cond output's read.
  EXPECT_TRUE(Check(*plan).ok()) << FormatText(Check(*plan));
}

// A loop over instructions [1, 4] (JumpFalseCall at 4 back to 1): w is
// defined before it and read at the loop's first instruction in every
// iteration, so t, written later in the body, must not take its bytes.
TEST(ProgramPlanTest, ALoopCarriedValueLivesThroughTheWholeLoop) {
  {
    ProgramBuilder b = testing::LoopProgram(/*t over w*/ 0);
    std::vector<uint8_t> bytes;
    Result<Plan> plan = PlanOf(b, &bytes);
    ASSERT_TRUE(plan.ok()) << plan.error().ToString();
    EXPECT_EQ(Find(*plan, 0).lifetime.first, 0);
    EXPECT_EQ(Find(*plan, 0).lifetime.last, 4);   // Through the loop.
    EXPECT_EQ(Find(*plan, 2).lifetime.first, 2);  // Inside one iteration.
    EXPECT_EQ(Find(*plan, 2).lifetime.last, 3);
    Report report = Check(*plan);
    EXPECT_EQ(report.count(ViolationCode::kOverlap), 1u) << FormatText(report);
  }
  {
    ProgramBuilder b = testing::LoopProgram(/*t apart*/ 128);
    std::vector<uint8_t> bytes;
    Result<Plan> plan = PlanOf(b, &bytes);
    ASSERT_TRUE(plan.ok());
    EXPECT_TRUE(Check(*plan).ok()) << FormatText(Check(*plan));
  }
}

// Plan faults the loader refuses get their code from the oracle.
// A buffer ExecuTorch mutates: read (by `reads`, instruction 2) and written
// back at the end by aten::copy_ (instruction 3), no initial data. `tmp`
// lives over [0,1] on the state's bytes.
struct StateProgram {
  ProgramBuilder b;
  int32_t x, tmp, y, state, fresh;
};
StateProgram MakeStateProgram(bool reads_first) {
  StateProgram p;
  ProgramBuilder& b = p.b;
  uint32_t cpu = b.AddBuffer(256);
  p.x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  p.tmp = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  p.y = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 128);
  p.state = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);  // tmp's bytes.
  p.fresh = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 192);
  int32_t relu = b.AddOperator("aten::relu");
  int32_t add = b.AddOperator("aten::add");
  int32_t copy = b.AddOperator("aten::copy_", "default");
  b.AddKernelCall(relu, {p.x, p.tmp});      // 0
  b.AddKernelCall(add, {p.tmp, p.x, p.y});  // 1: tmp's last use.
  if (reads_first) {
    b.AddKernelCall(add, {p.state, p.x, p.fresh});  // 2: state is read.
  } else {
    b.AddKernelCall(relu, {p.x, p.state});  // 2: state is written first.
  }
  b.AddKernelCall(copy, {p.state, p.fresh, p.state});  // 3: write-back.
  b.SetInputs({p.x});
  b.SetOutputs({p.y});
  return p;
}

TEST(ProgramPlanTest, StateWrittenBackByCopyLivesForTheWholeProgram) {
  StateProgram p = MakeStateProgram(/*reads_first=*/true);
  std::vector<uint8_t> bytes;
  Result<Plan> plan = PlanOf(p.b, &bytes);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  const Allocation& state = Find(*plan, p.state);
  EXPECT_EQ(state.kind, SpecKind::kMutableBuffer);
  EXPECT_EQ(state.lifetime.first, 0);
  EXPECT_EQ(state.lifetime.last, 3);
  // tmp on the state's bytes before its first read clobbers what the last
  // execution left there.
  Report report = Check(*plan);
  EXPECT_EQ(report.count(ViolationCode::kOverlap), 1u) << FormatText(report);
  EXPECT_THAT(FormatText(report), HasSubstr("v1 [0,1] bytes [64,128)"));
}

TEST(ProgramPlanTest, StateUpdatedInPlaceWhereFirstAccessedIsState) {
  // index_put_ on the cache, then reads of it: no copy_, as reinplacing
  // leaves a KV cache update. The update reads what the last run left.
  StateProgram p = MakeStateProgram(/*reads_first=*/true);
  fb::KernelCallT& update =
      *p.b.method().chains[0]->instructions[2]->instr_args.AsKernelCall();
  update.op_index = p.b.AddOperator("aten::index_put_", "default");
  update.args = {p.state, p.x, p.fresh, p.state};
  fb::KernelCallT& read =
      *p.b.method().chains[0]->instructions[3]->instr_args.AsKernelCall();
  read.op_index = 1;  // aten::add.out
  read.args = {p.state, p.x, p.fresh};
  std::vector<uint8_t> bytes;
  Result<Plan> plan = PlanOf(p.b, &bytes);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  EXPECT_EQ(Find(*plan, p.state).kind, SpecKind::kMutableBuffer);
  EXPECT_EQ(Find(*plan, p.state).lifetime.first, 0);
  EXPECT_EQ(Check(*plan).count(ViolationCode::kOverlap), 1u);
}

TEST(ProgramPlanTest, ACopyIntoWhatThisRunWroteOrReadsAgainIsNoState) {
  // Written before any read: the last run's value is never seen.
  {
    StateProgram p = MakeStateProgram(/*reads_first=*/false);
    std::vector<uint8_t> bytes;
    Result<Plan> plan = PlanOf(p.b, &bytes);
    ASSERT_TRUE(plan.ok()) << plan.error().ToString();
    EXPECT_EQ(Find(*plan, p.state).kind, SpecKind::kPlain);
    EXPECT_EQ(Find(*plan, p.state).lifetime.first, 2);
    EXPECT_TRUE(Check(*plan).ok()) << FormatText(Check(*plan));
  }
  // Read after the copy: the copy feeds this run.
  {
    StateProgram p = MakeStateProgram(/*reads_first=*/true);
    p.b.AddKernelCall(p.b.AddOperator("aten::neg"), {p.state, p.y});  // 4
    std::vector<uint8_t> bytes;
    Result<Plan> plan = PlanOf(p.b, &bytes);
    ASSERT_TRUE(plan.ok()) << plan.error().ToString();
    EXPECT_EQ(Find(*plan, p.state).kind, SpecKind::kPlain);
    EXPECT_EQ(Find(*plan, p.state).lifetime.first, 2);
  }
  // An output, or an input, is the caller's, not state.
  for (bool as_output : {true, false}) {
    StateProgram p = MakeStateProgram(/*reads_first=*/true);
    if (as_output) {
      p.b.SetOutputs({p.y, p.state});
    } else {
      p.b.SetInputs({p.x, p.state});
    }
    std::vector<uint8_t> bytes;
    Result<Plan> plan = PlanOf(p.b, &bytes);
    ASSERT_TRUE(plan.ok()) << plan.error().ToString();
    EXPECT_NE(Find(*plan, p.state).kind, SpecKind::kMutableBuffer);
  }
  // Filled in place where first accessed: fill_ reads nothing of self.
  {
    StateProgram p = MakeStateProgram(/*reads_first=*/false);
    fb::KernelCallT& first =
        *p.b.method().chains[0]->instructions[2]->instr_args.AsKernelCall();
    first.op_index = p.b.AddOperator("aten::fill_", "Scalar");
    first.args = {p.state, p.b.AddInt(0), p.state};
    std::vector<uint8_t> bytes;
    Result<Plan> plan = PlanOf(p.b, &bytes);
    ASSERT_TRUE(plan.ok()) << plan.error().ToString();
    EXPECT_EQ(Find(*plan, p.state).kind, SpecKind::kPlain);
  }
  // An in-place update left as the last write is not told from a dead one.
  {
    StateProgram p = MakeStateProgram(/*reads_first=*/true);
    p.b.method().operators[2]->name = "aten::index_put_";
    std::vector<uint8_t> bytes;
    Result<Plan> plan = PlanOf(p.b, &bytes);
    ASSERT_TRUE(plan.ok()) << plan.error().ToString();
    EXPECT_EQ(Find(*plan, p.state).kind, SpecKind::kPlain);
  }
}

TEST(ProgramPlanTest, PlanFaultsAreJudgedNotUnreadable) {
  struct Fault {
    const char* name;
    ViolationCode code;
    std::function<void(ProgramBuilder&)> plant;
  };
  auto tensor = [](ProgramBuilder& b, int v) -> fb::TensorT& {
    return *b.method().values[v]->val.AsTensor();
  };
  const std::vector<Fault> faults = {
      {"offset high bits", ViolationCode::kBounds,
       [&](ProgramBuilder& b) {
         tensor(b, 0).allocation_info->memory_offset_high = 1;
       }},
      {"offset at or above 2^63", ViolationCode::kBounds,
       [&](ProgramBuilder& b) {
         tensor(b, 0).allocation_info->memory_offset_high = 0x80000000u;
       }},
      {"past the end", ViolationCode::kBounds,
       [&](ProgramBuilder& b) {
         tensor(b, 1).allocation_info->memory_offset_low = 56;
       }},
      {"memory_id out of range", ViolationCode::kBounds,
       [&](ProgramBuilder& b) { tensor(b, 1).allocation_info->memory_id = 7; }},
      {"memory_id 0", ViolationCode::kBounds,
       [&](ProgramBuilder& b) { tensor(b, 0).allocation_info->memory_id = 0; }},
      {"huge buffer", ViolationCode::kBounds,
       [&](ProgramBuilder& b) {
         b.method().non_const_buffer_sizes[1] = INT64_MAX;
       }},
      {"cpu tensor in a cuda buffer", ViolationCode::kCrossDevice,
       [&](ProgramBuilder& b) { tensor(b, 1).extra_tensor_info.reset(); }},
      {"cuda:1 tensor in a cuda:0 buffer", ViolationCode::kCrossDevice,
       [&](ProgramBuilder& b) {
         tensor(b, 1).extra_tensor_info->device_index = 1;
       }},
      {"cuda tensor in the cpu buffer", ViolationCode::kCrossDevice,
       [&](ProgramBuilder& b) {
         tensor(b, 0).extra_tensor_info =
             std::make_unique<fb::ExtraTensorInfoT>(
                 *tensor(b, 1).extra_tensor_info);
       }},
      {"device entry out of range", ViolationCode::kBufferMap,
       [&](ProgramBuilder& b) {
         b.method().non_const_buffer_device[0]->buffer_idx = 3;
       }},
      {"device entry for index 0", ViolationCode::kBufferMap,
       [&](ProgramBuilder& b) {
         b.method().non_const_buffer_device[0]->buffer_idx = 0;
       }},
      {"device entry duplicated", ViolationCode::kBufferMap,
       [&](ProgramBuilder& b) {
         b.method().non_const_buffer_device.push_back(
             std::make_unique<fb::NonConstBufferDeviceT>(
                 *b.method().non_const_buffer_device[0]));
       }},
      {"device entry of unknown type", ViolationCode::kBufferMap,
       [&](ProgramBuilder& b) {
         b.method().non_const_buffer_device[0]->device_type =
             static_cast<fb::DeviceType>(9);
       }},
      {"tensor of unknown device type", ViolationCode::kDeviceInfo,
       [&](ProgramBuilder& b) {
         tensor(b, 1).extra_tensor_info->device_type =
             static_cast<fb::DeviceType>(7);
       }},
  };
  for (const Fault& fault : faults) {
    SCOPED_TRACE(fault.name);
    ProgramBuilder b;
    b.AddBuffer(64);
    b.AddBuffer(64, Device::Cuda(0));
    b.AddPlannedTensor(kFloat, {4, 4}, 1, 0);
    b.AddPlannedTensor(kFloat, {4}, 2, 16, Device::Cuda(0));
    b.AddKernelCall(b.AddOperator("aten::to_copy"), {0, 1});
    b.SetInputs({0});
    b.SetOutputs({1});
    {
      std::vector<uint8_t> bytes;
      Result<Plan> plan = PlanOf(b, &bytes);
      ASSERT_TRUE(plan.ok());
      ASSERT_TRUE(Check(*plan).ok()) << FormatText(Check(*plan));
    }
    fault.plant(b);
    std::vector<uint8_t> bytes;
    Result<Plan> plan = PlanOf(b, &bytes);
    ASSERT_TRUE(plan.ok()) << plan.error().ToString();
    // Refused as a bad program (each refusal's wording is
    // program_hostile_test's), yet judged below.
    EXPECT_THAT(Program::Load(bytes.data(), bytes.size()),
                AnyOf(IsError(ErrorCode::kInvalidProgram),
                      IsError(ErrorCode::kResourceExhausted)));
    Report report = Check(*plan);
    EXPECT_GE(report.count(fault.code), 1u) << FormatText(report);
  }
}

}  // namespace
}  // namespace properties
}  // namespace memplan
