// The oracle on a whole program: a 100k-tensor ET12 program (a chain of
// kernels over 64 reused slots) read, derived into a plan and judged.
// BM_LoadDeriveCheck (Program::Load + PlanFromProgram + Check) is the path
// every version of memplan has, for before/after comparisons;
// BM_VerifyProgram is what `memplan verify` runs now (Program::Read, every
// method, shared state).
#include <vector>

#include "benchmark/benchmark.h"
#include "properties/check.h"
#include "properties/program_plan.h"
#include "properties/program_plans.h"
#include "runtime/program.h"
#include "runtime/testing/program_builder.h"

namespace memplan {
namespace properties {
namespace {

namespace fb = executorch_flatbuffer;

std::vector<uint8_t> ChainProgram(int tensors) {
  constexpr int kSlots = 64;
  constexpr uint64_t kSlotBytes = 256;
  testing::ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(kSlots * kSlotBytes);
  int32_t op = b.AddOperator("aten::add");
  std::vector<int32_t> values;
  values.reserve(tensors);
  for (int i = 0; i < tensors; ++i) {
    values.push_back(b.AddPlannedTensor(fb::ScalarType::FLOAT, {8, 8}, cpu,
                                        (i % kSlots) * kSlotBytes));
  }
  // Tensor i is read by the two next kernels, then its slot is reused.
  for (int i = 2; i < tensors; ++i) {
    b.AddKernelCall(op, {values[i - 2], values[i - 1], values[i]});
  }
  b.SetInputs({values[0], values[1]});
  b.SetOutputs({values.back()});
  return b.Build();
}

void BM_LoadDeriveCheck(benchmark::State& state) {
  std::vector<uint8_t> bytes = ChainProgram(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    Result<Program> program = Program::Load(bytes.data(), bytes.size());
    if (!program.ok()) state.SkipWithError("program refused");
    Result<Plan> plan = PlanFromProgram(*program, 0);
    if (!plan.ok()) state.SkipWithError("no plan");
    Report report = Check(*plan);
    if (!report.ok()) state.SkipWithError("plan is not valid");
    benchmark::DoNotOptimize(report);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_LoadDeriveCheck)->Arg(100'000)->Unit(benchmark::kMillisecond);

// What `memplan verify` runs on `bytes`, a valid program, per iteration.
void VerifyValid(benchmark::State& state, const std::vector<uint8_t>& bytes) {
  for (auto _ : state) {
    Result<std::vector<MethodPlan>> plans =
        ReadProgramPlans(bytes.data(), bytes.size());
    if (!plans.ok()) state.SkipWithError("program unreadable");
    std::vector<Report> reports = CheckMethods(*plans);
    if (!reports[0].ok()) state.SkipWithError("plan is not valid");
    benchmark::DoNotOptimize(reports);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_VerifyProgram(benchmark::State& state) {
  VerifyValid(state, ChainProgram(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_VerifyProgram)->Arg(100'000)->Unit(benchmark::kMillisecond);

// One list of n tensors, each in its own place, named by n kernel calls
// (every seventh a view op with the list as its output): O(n) bytes.
std::vector<uint8_t> SharedListProgram(int tensors) {
  testing::ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(int64_t{64} * tensors);
  std::vector<int32_t> values;
  values.reserve(tensors);
  for (int i = 0; i < tensors; ++i) {
    values.push_back(
        b.AddPlannedTensor(fb::ScalarType::FLOAT, {16}, cpu, uint64_t{64} * i));
  }
  const int32_t list = b.AddTensorList(values);
  const int32_t cat = b.AddOperator("aten::cat");
  const int32_t unbind = b.AddOperator("aten::unbind");
  for (int i = 0; i < tensors; ++i) {
    b.AddKernelCall(i % 7 == 3 ? unbind : cat, {values[i], list});
  }
  return b.Build();
}

void BM_VerifySharedList(benchmark::State& state) {
  std::vector<uint8_t> bytes =
      SharedListProgram(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    Result<std::vector<MethodPlan>> plans =
        ReadProgramPlans(bytes.data(), bytes.size());
    if (!plans.ok()) state.SkipWithError("program unreadable");
    benchmark::DoNotOptimize(CheckMethods(*plans));
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_VerifySharedList)
    ->Arg(10'000)
    ->Arg(40'000)
    ->Unit(benchmark::kMillisecond);

// n conds nested in each other's true branches, each moving its false
// output into the slot the innermost true output went into
// (testing::DeeplyNestedCondsProgram): without a bound on the parts after
// holes, the i-th false output would get i parts (n^2 / 2 in all).
void BM_VerifyNestedConds(benchmark::State& state) {
  VerifyValid(
      state, testing::DeeplyNestedCondsProgram(static_cast<int>(state.range(0)))
                 .Build());
}
BENCHMARK(BM_VerifyNestedConds)
    ->Arg(1'000)
    ->Arg(4'000)
    ->Arg(20'000)
    ->Unit(benchmark::kMillisecond);

// n conds in a row, each true branch moving the one before's output on
// (testing::CondChainProgram): the last output may name any of n tensors;
// without a bound on the outputs a slot carries on, carrying them all
// took n^2 / 2 steps.
void BM_VerifyCondChain(benchmark::State& state) {
  VerifyValid(
      state,
      testing::CondChainProgram(static_cast<int>(state.range(0))).Build());
}
BENCHMARK(BM_VerifyCondChain)
    ->Arg(1'000)
    ->Arg(4'000)
    ->Arg(20'000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace properties
}  // namespace memplan
