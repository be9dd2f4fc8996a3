#include "tools/replan.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "flatbuffers/flatbuffers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "properties/check.h"
#include "properties/program_plans.h"
#include "runtime/bundled_program.h"
#include "runtime/core/error_matchers.h"
#include "runtime/program.h"
#include "runtime/testing/program_builder.h"

namespace memplan {
namespace tools {
namespace {

namespace fb = executorch_flatbuffer;
namespace fs = std::filesystem;
using ::memplan::testing::IsError;
using ::testing::HasSubstr;
using testing::ProgramBuilder;

constexpr auto kFloat = fb::ScalarType::FLOAT;

struct Placed {
  uint32_t mem_id = 0;
  uint64_t offset = 0;
  uint64_t nbytes = 0;
};

// Loads `bytes` with the runtime (full validation) and returns every planned
// tensor of method `m` by value index, and the buffer sizes.
struct Loaded {
  std::map<uint32_t, Placed> tensors;
  std::vector<uint64_t> buffer_sizes;  // By mem_id - 1.
  std::vector<Device> devices;
};

Loaded Load(const std::vector<uint8_t>& bytes, size_t m = 0) {
  Loaded loaded;
  Result<ProgramBytes> unwrapped = UnwrapProgram(bytes.data(), bytes.size());
  EXPECT_TRUE(unwrapped.ok());
  if (!unwrapped.ok()) return loaded;
  Result<Program> program = Program::Load(unwrapped->data(), unwrapped->size);
  EXPECT_TRUE(program.ok()) << program.error().ToString();
  if (!program.ok()) return loaded;
  Result<MethodMeta> meta = program->method_meta(m);
  EXPECT_TRUE(meta.ok());
  if (!meta.ok()) return loaded;
  for (const PlannedTensor& t : meta->planned_tensors()) {
    loaded.tensors[t.value_index] = {t.memory_id, t.offset, t.nbytes};
  }
  for (size_t b = 0; b < meta->num_memory_planned_buffers(); ++b) {
    loaded.buffer_sizes.push_back(*meta->memory_planned_buffer_size(b));
  }
  loaded.devices = meta->memory_planned_buffer_devices();
  return loaded;
}

// The oracle's verdict on every method of `bytes`.
uint64_t Violations(const std::vector<uint8_t>& bytes) {
  Result<std::vector<properties::MethodPlan>> methods =
      properties::ReadProgramPlans(bytes.data(), bytes.size());
  EXPECT_TRUE(methods.ok()) << methods.error().ToString();
  if (!methods.ok()) return UINT64_MAX;
  uint64_t total = 0;
  for (const properties::Report& r : properties::CheckMethods(*methods)) {
    total += r.total_violations();
  }
  return total;
}

bool Overlap(const Placed& a, const Placed& b) {
  return a.mem_id == b.mem_id && a.offset < b.offset + b.nbytes &&
         b.offset < a.offset + a.nbytes;
}

// The program with its plan taken out (allocation_info and buffer sizes
// zeroed), packed: two programs that differ only in their plans agree.
std::vector<uint8_t> WithoutPlan(const std::vector<uint8_t>& bytes) {
  Result<ProgramBytes> unwrapped = UnwrapProgram(bytes.data(), bytes.size());
  EXPECT_TRUE(unwrapped.ok());
  Result<Program> program = Program::Read(unwrapped->data(), unwrapped->size);
  EXPECT_TRUE(program.ok());
  if (!program.ok()) return {};
  fb::ProgramT tree;
  program->flatbuffer()->UnPackTo(&tree);
  for (auto& plan : tree.execution_plan) {
    for (int64_t& s : plan->non_const_buffer_sizes) s = 0;
    for (auto& value : plan->values) {
      fb::TensorT* tensor = value->val.AsTensor();
      if (tensor != nullptr && tensor->allocation_info != nullptr) {
        *tensor->allocation_info = fb::AllocationDetailsT();
      }
    }
  }
  flatbuffers::FlatBufferBuilder fbb;
  fb::FinishProgramBuffer(fbb, fb::Program::Pack(fbb, &tree));
  return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

// Gives value `v` of the builder's current method a fully qualified name,
// as ExecuTorch's emitter does for state (and memplan's for every tensor).
void SetName(ProgramBuilder& b, int32_t v, const std::string& name) {
  fb::TensorT& tensor = *b.method().values[v]->val.AsTensor();
  if (tensor.extra_tensor_info == nullptr) {
    tensor.extra_tensor_info = std::make_unique<fb::ExtraTensorInfoT>();
  }
  tensor.extra_tensor_info->fully_qualified_name = name;
}

// x -> h -> y, 64 bytes each: x [0,0], h [0,1], y [1,1]; the optimum is
// 128 bytes (x and y may share). `y_offset` 128 wastes 64 bytes.
ProgramBuilder Chain(uint64_t y_offset, int64_t buffer_size) {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(buffer_size);
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t h = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  int32_t y = b.AddPlannedTensor(kFloat, {4, 4}, cpu, y_offset);
  int32_t op = b.AddOperator("aten::relu");
  b.AddKernelCall(op, {x, h});
  b.AddKernelCall(op, {h, y});
  b.SetInputs({x});
  b.SetOutputs({y});
  return b;
}

TEST(ReplanTest, AWastefulPlanShrinksToTheOptimumAndNothingElseChanges) {
  std::vector<uint8_t> given = Chain(128, 192).Build();
  Result<ReplanResult> result = ReplanProgram(given.data(), given.size());
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  EXPECT_EQ(result->refusal, "");
  EXPECT_EQ(result->input_violations, 0u);
  ASSERT_EQ(result->buffers.size(), 1u);
  const ReplannedBuffer& buffer = result->buffers[0];
  EXPECT_EQ(buffer.method, "forward");
  EXPECT_EQ(buffer.mem_id, 1);
  EXPECT_EQ(buffer.tensors, 3u);
  EXPECT_EQ(buffer.old_size, 192u);
  EXPECT_EQ(buffer.new_size, 128u);
  EXPECT_EQ(buffer.lower_bound, 128u);
  EXPECT_EQ(buffer.algorithm, "multi_fit");
  EXPECT_EQ(result->old_total(), 192u);
  EXPECT_EQ(result->new_total(), 128u);

  Loaded loaded = Load(result->bytes);
  EXPECT_EQ(loaded.buffer_sizes, std::vector<uint64_t>({128}));
  EXPECT_FALSE(Overlap(loaded.tensors[0], loaded.tensors[1]));
  EXPECT_FALSE(Overlap(loaded.tensors[1], loaded.tensors[2]));
  for (const auto& [value, placed] : loaded.tensors) {
    EXPECT_EQ(placed.offset % 16, 0u) << "value " << value;
  }
  EXPECT_EQ(Violations(result->bytes), 0u);
  EXPECT_EQ(WithoutPlan(result->bytes), WithoutPlan(given));
}

TEST(ReplanTest, ALargerPlanIsRefusedUnlessAsked) {
  std::vector<uint8_t> given = Chain(0, 128).Build();  // Already optimal.
  ReplanOptions options;
  options.algorithms = {"naive"};  // One place per tensor: 192 bytes.
  Result<ReplanResult> refused =
      ReplanProgram(given.data(), given.size(), options);
  ASSERT_TRUE(refused.ok()) << refused.error().ToString();
  EXPECT_TRUE(refused->bytes.empty());
  EXPECT_THAT(refused->refusal,
              HasSubstr("buffer 1 of method 'forward' would grow from 128 to "
                        "192 bytes"));
  ASSERT_EQ(refused->buffers.size(), 1u);
  EXPECT_EQ(refused->buffers[0].new_size, 192u);

  options.allow_larger = true;
  Result<ReplanResult> written =
      ReplanProgram(given.data(), given.size(), options);
  ASSERT_TRUE(written.ok()) << written.error().ToString();
  EXPECT_EQ(written->refusal, "");
  EXPECT_EQ(Load(written->bytes).buffer_sizes, std::vector<uint64_t>({192}));
  EXPECT_EQ(Violations(written->bytes), 0u);
}

TEST(ReplanTest, TheBoundIsWhatExactProvesAtTheAlignment) {
  // z = x + y, one float each, all live at the add: 12 live bytes, but at
  // 16-byte offsets no plan is under 16 + 16 + 4.
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(48);
  int32_t x = b.AddPlannedTensor(kFloat, {1}, cpu, 0);
  int32_t y = b.AddPlannedTensor(kFloat, {1}, cpu, 16);
  int32_t z = b.AddPlannedTensor(kFloat, {1}, cpu, 32);
  b.AddKernelCall(b.AddOperator("aten::add"), {x, y, z});
  b.SetInputs({x, y});
  b.SetOutputs({z});
  std::vector<uint8_t> given = b.Build();

  Result<ReplanResult> heuristic = ReplanProgram(given.data(), given.size());
  ASSERT_TRUE(heuristic.ok()) << heuristic.error().ToString();
  ASSERT_EQ(heuristic->buffers.size(), 1u);
  EXPECT_EQ(heuristic->buffers[0].new_size, 36u);
  EXPECT_EQ(heuristic->buffers[0].lower_bound, 12u);  // The live bytes.
  EXPECT_FALSE(heuristic->buffers[0].proven_optimal);

  ReplanOptions options;
  options.algorithms = {"multi_fit", "exact"};
  Result<ReplanResult> proven =
      ReplanProgram(given.data(), given.size(), options);
  ASSERT_TRUE(proven.ok()) << proven.error().ToString();
  ASSERT_EQ(proven->buffers.size(), 1u);
  EXPECT_EQ(proven->buffers[0].new_size, 36u);
  EXPECT_EQ(proven->buffers[0].lower_bound, 36u);
  // multi_fit's plan, the earlier of two of one height, proven by exact.
  EXPECT_EQ(proven->buffers[0].algorithm, "multi_fit");
  EXPECT_TRUE(proven->buffers[0].proven_optimal);
}

TEST(ReplanTest, ABrokenPlanIsReplannedIntoAValidOne) {
  // y over h while both are live: the oracle reports an overlap.
  std::vector<uint8_t> given = Chain(64, 128).Build();
  ASSERT_GT(Violations(given), 0u);
  Result<ReplanResult> result = ReplanProgram(given.data(), given.size());
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  EXPECT_GT(result->input_violations, 0u);
  EXPECT_EQ(result->refusal, "");  // 128 bytes do fit when planned well.
  EXPECT_EQ(Violations(result->bytes), 0u);
}

TEST(ReplanTest, EachBufferKeepsItsDeviceAndTensors) {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(256);
  uint32_t gpu = b.AddBuffer(256, Device::Cuda(0));
  const Device cuda = Device::Cuda(0);
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t dx = b.AddPlannedTensor(kFloat, {4, 4}, gpu, 0, cuda);
  int32_t dh = b.AddPlannedTensor(kFloat, {4, 4}, gpu, 128, cuda);
  int32_t dy = b.AddPlannedTensor(kFloat, {4, 4}, gpu, 192, cuda);
  int32_t y = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 128);
  int32_t copy = b.AddOperator("aten::_to_copy");
  int32_t relu = b.AddOperator("aten::relu");
  b.AddKernelCall(copy, {x, dx});
  b.AddKernelCall(relu, {dx, dh});
  b.AddKernelCall(relu, {dh, dy});
  b.AddKernelCall(copy, {dy, y});
  b.SetInputs({x});
  b.SetOutputs({y});
  std::vector<uint8_t> given = b.Build();
  ASSERT_EQ(Violations(given), 0u);

  Result<ReplanResult> result = ReplanProgram(given.data(), given.size());
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  ASSERT_EQ(result->buffers.size(), 2u);
  EXPECT_EQ(result->buffers[0].device, Device::Cpu());
  EXPECT_EQ(result->buffers[1].device, cuda);
  // x [0,0] and y [3,3] share; dx, dh, dy chain as x, h, y above.
  EXPECT_EQ(result->buffers[0].new_size, 64u);
  EXPECT_EQ(result->buffers[1].new_size, 128u);
  Loaded loaded = Load(result->bytes);
  EXPECT_EQ(loaded.devices, std::vector<Device>({Device::Cpu(), cuda}));
  EXPECT_EQ(loaded.tensors[x].mem_id, cpu);
  EXPECT_EQ(loaded.tensors[y].mem_id, cpu);
  for (int32_t v : {dx, dh, dy}) EXPECT_EQ(loaded.tensors[v].mem_id, gpu);
  EXPECT_EQ(Violations(result->bytes), 0u);
  EXPECT_EQ(WithoutPlan(result->bytes), WithoutPlan(given));
}

// testing::LoopProgram: w is read at the loop head
// in every iteration, so t (live inside one iteration) must not take its
// bytes, though the straight-line positions say they never meet.
TEST(ReplanTest, ALoopCarriedValueKeepsItsBytesThroughTheLoop) {
  const int32_t w = 0, t = 2, cond = 4;
  ProgramBuilder b = testing::LoopProgram(/*t apart*/ 128);
  std::vector<uint8_t> given = b.Build();
  ASSERT_EQ(Violations(given), 0u);
  Result<ReplanResult> result = ReplanProgram(given.data(), given.size());
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  Loaded loaded = Load(result->bytes);
  EXPECT_FALSE(Overlap(loaded.tensors[w], loaded.tensors[t]));
  EXPECT_FALSE(Overlap(loaded.tensors[w], loaded.tensors[cond]));
  EXPECT_EQ(Violations(result->bytes), 0u);
  EXPECT_LT(result->buffers[0].new_size, 320u);
}

// testing::CondsProgram: the first cond's output names its false branch's
// bytes (a pointer move) until the last instruction, so the second cond's
// branches must not take them, though that output's own namings end at
// the move.
TEST(ReplanTest, AMovedFromTensorKeepsItsBytesWhileTheMovedToIsRead) {
  const int32_t first_false = 8, second_true = 9, second_false = 10;
  for (bool chained : {false, true}) {
    std::vector<uint8_t> given =
        testing::CondsProgram(/*two*/ true, 64, chained).Build();
    ASSERT_GT(Violations(given), 0u);
    Result<ReplanResult> result = ReplanProgram(given.data(), given.size());
    ASSERT_TRUE(result.ok()) << result.error().ToString();
    Loaded loaded = Load(result->bytes);
    for (int32_t v : {second_true, second_false}) {
      EXPECT_FALSE(Overlap(loaded.tensors[first_false], loaded.tensors[v]));
    }
    EXPECT_EQ(Violations(result->bytes), 0u);
  }
}

// The first cond's true output apart from its false one (on y1's own
// bytes, which nothing uses): the second cond's branches must not take its
// bytes either, since y1 names them after the join when the true branch
// ran; the re-plan keeps them apart and verifies valid.
TEST(ReplanTest, ACondsTrueOutputKeepsItsBytesPastTheJoin) {
  const int32_t first_true = 7, second_true = 9, second_false = 10;
  std::vector<uint8_t> given =
      testing::CondsProgram(/*two*/ true, 320, /*chained*/ false,
                            /*first_true_at*/ 128)
          .Build();
  ASSERT_EQ(Violations(given), 0u);
  Result<ReplanResult> result = ReplanProgram(given.data(), given.size());
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  Loaded loaded = Load(result->bytes);
  for (int32_t v : {second_true, second_false}) {
    EXPECT_FALSE(Overlap(loaded.tensors[first_true], loaded.tensors[v]));
  }
  EXPECT_EQ(Violations(result->bytes), 0u);
}

TEST(ReplanTest, StateKeepsItsBytesForEveryRun) {
  // A KV-cache-like state: updated in place by index_put_ (instruction 2,
  // its first access), read at 3, neither input nor output. tmp lives over
  // [0,1], before the update; on the state's bytes it would clobber what the
  // last run left there, so the new plan must keep the two apart however
  // much it could save.
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(320);
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t tmp = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  int32_t y = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 128);
  int32_t state = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 192);
  int32_t read = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 256);
  int32_t relu = b.AddOperator("aten::relu");
  int32_t add = b.AddOperator("aten::add");
  b.AddKernelCall(relu, {x, tmp});                               // 0
  b.AddKernelCall(add, {tmp, x, y});                             // 1
  b.AddKernelCall(b.AddOperator("aten::index_put_", "default"),  // 2
                  {state, x, y, state});
  b.AddKernelCall(add, {state, x, read});  // 3
  b.SetInputs({x});
  b.SetOutputs({y, read});
  std::vector<uint8_t> given = b.Build();
  ASSERT_EQ(Violations(given), 0u);
  Result<ReplanResult> result = ReplanProgram(given.data(), given.size());
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  Loaded loaded = Load(result->bytes);
  for (int32_t other : {x, tmp, y, read}) {
    EXPECT_FALSE(Overlap(loaded.tensors[state], loaded.tensors[other]))
        << "value " << other;
  }
  EXPECT_EQ(Violations(result->bytes), 0u);
}

TEST(ReplanTest, AViewStaysOnItsBase) {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(256);
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t base = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 128);
  int32_t view = b.AddPlannedTensor(kFloat, {16}, cpu, 128);
  int32_t y = b.AddPlannedTensor(kFloat, {16}, cpu, 192);
  int32_t relu = b.AddOperator("aten::relu");
  int32_t et_view = b.AddOperator("executorch_prim::et_view", "default");
  b.AddKernelCall(relu, {x, base});        // 0
  b.AddKernelCall(et_view, {base, view});  // 1
  b.AddKernelCall(relu, {view, y});        // 2
  b.SetInputs({x});
  b.SetOutputs({y});
  // Names one method alone uses bind nothing, though two share storage.
  SetName(b, base, "base");
  SetName(b, view, "base_view");
  std::vector<uint8_t> given = b.Build();
  ASSERT_EQ(Violations(given), 0u);
  Result<ReplanResult> result = ReplanProgram(given.data(), given.size());
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  Loaded loaded = Load(result->bytes);
  EXPECT_EQ(loaded.tensors[view].offset, loaded.tensors[base].offset);
  EXPECT_FALSE(Overlap(loaded.tensors[view], loaded.tensors[y]));
  EXPECT_EQ(result->buffers[0].new_size, 128u);
  EXPECT_EQ(Violations(result->bytes), 0u);
}

TEST(ReplanTest, SegmentsAndTheExtendedHeaderStay) {
  ProgramBuilder b = Chain(128, 192);
  std::vector<uint8_t> payload(100);
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = i * 7 + 1;
  uint32_t segment = b.AddSegment(payload);
  std::vector<uint8_t> given = b.Build();
  Result<ReplanResult> result = ReplanProgram(given.data(), given.size());
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  Result<Program> program =
      Program::Load(result->bytes.data(), result->bytes.size());
  ASSERT_TRUE(program.ok()) << program.error().ToString();
  EXPECT_TRUE(program->extended_header().present);
  Result<std::pair<const uint8_t*, uint64_t>> data = program->segment(segment);
  ASSERT_TRUE(data.ok()) << data.error().ToString();
  EXPECT_EQ(std::vector<uint8_t>(data->first, data->first + data->second),
            payload);
  EXPECT_EQ(WithoutPlan(result->bytes), WithoutPlan(given));
}

TEST(ReplanTest, SharedStateKeepsOnePlaceInEveryMethod) {
  ProgramBuilder b;
  for (const char* name : {"forward", "reset"}) {
    if (std::string(name) != "forward") b.AddMethod(name);
    uint32_t cpu = b.AddBuffer(512);
    int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
    // In "reset" the state sits elsewhere in the given plan than in
    // "forward": a fault the oracle reports and re-planning repairs.
    int32_t state = b.AddPlannedTensor(
        kFloat, {8, 4}, cpu, name == std::string("forward") ? 64 : 256);
    int32_t y = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 384);
    SetName(b, state, "cache");
    int32_t add = b.AddOperator("aten::add");
    b.AddKernelCall(add, {x, state, y});
    b.SetInputs({x});
    b.SetOutputs({y});
  }
  std::vector<uint8_t> given = b.Build();
  ASSERT_GT(Violations(given), 0u);
  Result<ReplanResult> result = ReplanProgram(given.data(), given.size());
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  EXPECT_EQ(Violations(result->bytes), 0u);
  Loaded forward = Load(result->bytes, 0);
  Loaded reset = Load(result->bytes, 1);
  EXPECT_EQ(forward.tensors[1].offset, reset.tensors[1].offset);
  EXPECT_EQ(forward.tensors[1].offset, 0u);  // At the bottom.
}

// Shared state in buffer 1 of one method and buffer 2 of the other cannot
// be re-planned; the message names the state, cut where the name is long.
TEST(ReplanTest, SharedStateInAnotherBufferIsRefusedWithItsNameCut) {
  const std::string name(5000, 'c');
  ProgramBuilder b;
  for (const char* method : {"forward", "reset"}) {
    if (std::string(method) != "forward") b.AddMethod(method);
    uint32_t first = b.AddBuffer(512);
    uint32_t second = b.AddBuffer(512);
    int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, first, 0);
    int32_t state = b.AddPlannedTensor(
        kFloat, {8, 4}, std::string(method) == "forward" ? first : second, 128);
    int32_t y = b.AddPlannedTensor(kFloat, {4, 4}, first, 384);
    SetName(b, state, name);
    b.AddKernelCall(b.AddOperator("aten::add"), {x, state, y});
    b.SetInputs({x});
    b.SetOutputs({y});
  }
  std::vector<uint8_t> given = b.Build();
  Result<ReplanResult> result = ReplanProgram(given.data(), given.size());
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.error().message(), HasSubstr("is in buffer 2 here"));
  EXPECT_THAT(result.error().message(), HasSubstr("...' (5000 bytes)"));
  EXPECT_LT(result.error().message().size(), 1000u);
}

// 70 tensors sharing one 1 MiB name: a 1 MiB file whose object tree would
// hold 70 MiB of names. Refused before the tree is built; 60 such tensors
// (59 MiB of copies) are re-planned.
TEST(ReplanTest, NamesSharedInTheFileAreNotCopiedPastALimit) {
  const std::string name(size_t{1} << 20, 'n');
  std::vector<uint8_t> given = testing::TensorsSharingOneName(70, name);
  EXPECT_THAT(ReplanProgram(given.data(), given.size()),
              IsError(ErrorCode::kInvalidProgram,
                      HasSubstr("share fully_qualified_name")));
  given = testing::TensorsSharingOneName(60, name);
  // One name at 60 places is shared_state already: re-planning keeps it.
  EXPECT_THAT(ReplanProgram(given.data(), given.size()),
              IsError(ErrorCode::kInvalidProgram, HasSubstr("shared_state")));
}

TEST(ReplanTest, UnreadableAndUnplannableInputsAreErrors) {
  const std::vector<uint8_t> junk = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_THAT(
      ReplanProgram(junk.data(), junk.size()),
      IsError(ErrorCode::kInvalidProgram, HasSubstr("file_identifier")));
  EXPECT_THAT(
      ReplanProgram(nullptr, 0),
      IsError(ErrorCode::kInvalidArgument, HasSubstr("program data is null")));

  std::vector<uint8_t> given = Chain(128, 192).Build();
  ReplanOptions options;
  options.alignment = 24;
  Result<ReplanResult> bad_align =
      ReplanProgram(given.data(), given.size(), options);
  EXPECT_THAT(bad_align,
              IsError(ErrorCode::kInvalidArgument, HasSubstr("power of two")));

  options = {};
  options.algorithms = {"no_such_algorithm"};
  EXPECT_THAT(
      ReplanProgram(given.data(), given.size(), options),
      IsError(
          ErrorCode::kNotFound,
          HasSubstr("names[0] = \"no_such_algorithm\" is not an algorithm")));

  ProgramBuilder b = Chain(128, 192);
  b.method().values[1]->val.AsTensor()->allocation_info->memory_id = 3;
  given = b.Build();
  Result<ReplanResult> missing = ReplanProgram(given.data(), given.size());
  EXPECT_THAT(
      missing,
      IsError(ErrorCode::kInvalidProgram,
              HasSubstr("v1 is in buffer 3, which the method does not have")));
}

fs::path DataDir() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  if (srcdir == nullptr) return {};
  return fs::path(srcdir) / "shared_data" / "data" / "pte";
}

TEST(ReplanTest, RealProgramsReplanValidAndNoLarger) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(DataDir(), ec)) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".pte" || ext == ".bpte") files.push_back(entry.path());
  }
  if (files.empty()) GTEST_SKIP() << "no ../shared/data/pte here";
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    std::ifstream in(path, std::ios::binary);
    std::vector<uint8_t> given{std::istreambuf_iterator<char>(in),
                               std::istreambuf_iterator<char>()};
    Result<ReplanResult> result = ReplanProgram(given.data(), given.size());
    ASSERT_TRUE(result.ok()) << result.error().ToString();
    EXPECT_EQ(result->refusal, "");
    EXPECT_EQ(result->bundled_input, path.extension() == ".bpte");
    EXPECT_LE(result->new_total(), result->old_total());
    for (const ReplannedBuffer& buffer : result->buffers) {
      EXPECT_GE(buffer.new_size, buffer.lower_bound);
    }
    EXPECT_EQ(Violations(result->bytes), 0u);
    Load(result->bytes);
    EXPECT_EQ(WithoutPlan(result->bytes), WithoutPlan(given));
    // Segments stay where the program says they are, byte for byte.
    Result<ProgramBytes> before = UnwrapProgram(given.data(), given.size());
    ASSERT_TRUE(before.ok());
    Result<Program> old_program = Program::Read(before->data(), before->size);
    Result<Program> new_program =
        Program::Read(result->bytes.data(), result->bytes.size());
    ASSERT_TRUE(old_program.ok() && new_program.ok());
    EXPECT_EQ(old_program->extended_header().present,
              new_program->extended_header().present);
    const auto* segments = old_program->flatbuffer()->segments();
    for (size_t s = 0; segments != nullptr && s < segments->size(); ++s) {
      auto a = old_program->segment(s);
      auto b = new_program->segment(s);
      ASSERT_TRUE(a.ok() && b.ok());
      EXPECT_EQ(std::vector<uint8_t>(a->first, a->first + a->second),
                std::vector<uint8_t>(b->first, b->first + b->second));
    }
  }
}

}  // namespace
}  // namespace tools
}  // namespace memplan
