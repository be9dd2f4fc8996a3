#include "runtime/loader.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/core/error_matchers.h"
#include "runtime/cpu_allocator.h"
#include "runtime/load_check.h"
#include "runtime/program.h"
#include "runtime/simulated_device_allocator.h"
#include "runtime/testing/program_builder.h"

namespace memplan {
namespace {

namespace fb = executorch_flatbuffer;
using ::memplan::testing::IsError;
using ::testing::HasSubstr;
using testing::ProgramBuilder;
using testing::TensorSpec;

// Sizes of the three planned buffers of ThreeDeviceProgram().
constexpr uint64_t kCpuBytes = 64;
constexpr uint64_t kCuda0Bytes = 128;
constexpr uint64_t kCuda1Bytes = 256;

// A CPU buffer, a cuda:0 buffer and a cuda:1 buffer, two tensors in each;
// the second tensor on cuda:1 is mutable with an initial state.
std::vector<uint8_t> ThreeDeviceProgram(std::vector<uint8_t>* initial_state) {
  ProgramBuilder b;
  b.AddMethod("forward");
  uint32_t cpu = b.AddBuffer(kCpuBytes);
  uint32_t cuda0 = b.AddBuffer(kCuda0Bytes, Device::Cuda(0));
  uint32_t cuda1 = b.AddBuffer(kCuda1Bytes, Device::Cuda(1));
  const auto kFloat = fb::ScalarType::FLOAT;
  int32_t a = b.AddPlannedTensor(kFloat, {4, 2}, cpu, 0);
  int32_t c = b.AddPlannedTensor(kFloat, {8}, cpu, 32);
  int32_t d = b.AddPlannedTensor(kFloat, {16}, cuda0, 0, Device::Cuda(0));
  int32_t e = b.AddPlannedTensor(kFloat, {16}, cuda0, 64, Device::Cuda(0));
  int32_t f = b.AddPlannedTensor(kFloat, {32}, cuda1, 0, Device::Cuda(1));
  TensorSpec state;
  state.scalar_type = fb::ScalarType::INT;
  state.sizes = {4, 8};
  state.memory_id = cuda1;
  state.offset = 128;
  state.device = Device::Cuda(1);
  state.data_buffer_idx = 1;
  int32_t g = b.AddTensor(state);
  std::vector<uint8_t> payload(128);
  for (size_t i = 0; i < payload.size(); ++i) {
    payload[i] = static_cast<uint8_t>(3 * i + 1);
  }
  *initial_state = payload;
  uint32_t segment = b.AddSegment(payload);
  auto offsets = std::make_unique<fb::SubsegmentOffsetsT>();
  offsets->segment_index = segment;
  offsets->offsets = {0, 0};  // Entry 0 is the "no data" placeholder.
  b.program().mutable_data_segments.push_back(std::move(offsets));
  int32_t op = b.AddOperator("aten::add");
  b.AddKernelCall(op, {a, c, d, e, f, g});
  b.SetInputs({a});
  b.SetOutputs({g});
  return b.Build();
}

class LoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bytes_ = ThreeDeviceProgram(&initial_state_);
    Result<Program> program = Program::Load(bytes_.data(), bytes_.size());
    ASSERT_TRUE(program.ok()) << program.error().ToString();
    program_ = std::make_unique<Program>(std::move(*program));
  }

  std::vector<uint8_t> bytes_;
  std::vector<uint8_t> initial_state_;
  std::unique_ptr<Program> program_;
};

// A program read for the oracle (plan unchecked) is never loaded.
TEST_F(LoaderTest, RefusesAProgramReadForJudging) {
  Result<Program> read = Program::Read(bytes_.data(), bytes_.size());
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  DeviceAllocatorRegistry registry;
  ASSERT_TRUE(registry.Register(std::make_shared<CpuAllocator>()).ok());
  Result<LoadedMethod> loaded = LoadMethod(*read, "forward", registry);
  EXPECT_THAT(loaded,
              IsError(ErrorCode::kInvalidArgument, HasSubstr("Program::Read")));
}

TEST_F(LoaderTest, LoadsEachBufferOnItsDevice) {
  DeviceAllocatorRegistry registry;
  auto cpu = std::make_shared<CpuAllocator>();
  auto cuda = std::make_shared<SimulatedDeviceAllocator>();
  ASSERT_TRUE(registry.Register(cpu).ok());
  ASSERT_TRUE(registry.Register(cuda).ok());
  {
    Result<LoadedMethod> loaded = LoadMethod(*program_, "forward", registry);
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    const std::vector<DeviceMemoryBuffer>& buffers = loaded->buffers();
    ASSERT_EQ(buffers.size(), 3u);
    EXPECT_EQ(buffers[0].device(), Device::Cpu());
    EXPECT_EQ(buffers[1].device(), Device::Cuda(0));
    EXPECT_EQ(buffers[2].device(), Device::Cuda(1));
    EXPECT_EQ(buffers[0].size(), kCpuBytes);
    EXPECT_EQ(buffers[1].size(), kCuda0Bytes);
    EXPECT_EQ(buffers[2].size(), kCuda1Bytes);
    EXPECT_NE(buffers[0].data(), buffers[1].data());
    EXPECT_NE(buffers[1].data(), buffers[2].data());
    for (const DeviceMemoryBuffer& buffer : buffers) {
      EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer.data()) % 64, 0u);
    }
    // Each device's memory came from its own allocator.
    EXPECT_EQ(cpu->live_bytes(), kCpuBytes);
    EXPECT_EQ(cuda->live_bytes(0), kCuda0Bytes);
    EXPECT_EQ(cuda->live_bytes(1), kCuda1Bytes);

    ASSERT_EQ(loaded->tensors().size(), 6u);
    for (const LoadedTensor& tensor : loaded->tensors()) {
      const DeviceMemoryBuffer& own = buffers[tensor.memory_id - 1];
      EXPECT_EQ(tensor.device, own.device()) << tensor.value_index;
      EXPECT_EQ(static_cast<char*>(tensor.data),
                static_cast<char*>(own.data()) + tensor.offset);
      EXPECT_LE(tensor.offset + tensor.nbytes, own.size());
    }
    EXPECT_TRUE(loaded->CheckTensorsInOwnBuffers().ok());
    EXPECT_EQ(loaded->tensors()[5].device, Device::Cuda(1));
    EXPECT_EQ(loaded->tensors()[5].nbytes, 128u);
    EXPECT_TRUE(loaded->tensors()[5].initialized);
    EXPECT_FALSE(loaded->tensors()[4].initialized);
    EXPECT_TRUE(cuda->CheckCanaries().ok());
  }
  EXPECT_TRUE(cuda->CheckNoLeaks().ok());
  EXPECT_EQ(cpu->live_allocations(), 0u);
}

TEST_F(LoaderTest, CopiesInitialStateToTheDevice) {
  DeviceAllocatorRegistry registry;
  auto cuda = std::make_shared<SimulatedDeviceAllocator>();
  ASSERT_TRUE(registry.Register(std::make_shared<CpuAllocator>()).ok());
  ASSERT_TRUE(registry.Register(cuda).ok());
  Result<LoadedMethod> loaded = LoadMethod(*program_, "forward", registry);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(cuda->stats().copy_host_to_device_calls, 1u);
  const LoadedTensor& state = loaded->tensors()[5];
  std::vector<uint8_t> on_device(state.nbytes);
  ASSERT_TRUE(loaded->buffers()[2]
                  .CopyToHost(state.offset, on_device.data(), state.nbytes)
                  .ok());
  EXPECT_EQ(on_device, initial_state_);

  LoaderOptions no_data;
  no_data.load_initial_data = false;
  Result<LoadedMethod> bare =
      LoadMethod(*program_, "forward", registry, no_data);
  ASSERT_TRUE(bare.ok());
  EXPECT_FALSE(bare->tensors()[5].initialized);
  EXPECT_EQ(cuda->stats().copy_host_to_device_calls, 1u);
}

TEST_F(LoaderTest, TamperedTensorPointerIsCaught) {
  DeviceAllocatorRegistry registry;
  ASSERT_TRUE(registry.Register(std::make_shared<CpuAllocator>()).ok());
  ASSERT_TRUE(
      registry.Register(std::make_shared<SimulatedDeviceAllocator>()).ok());
  Result<LoadedMethod> loaded = LoadMethod(*program_, "forward", registry);
  ASSERT_TRUE(loaded.ok());
  // The check must be able to fail: move one tensor into a foreign buffer.
  LoadedTensor& d = const_cast<LoadedTensor&>(loaded->tensors()[2]);
  d.data = loaded->buffers()[2].data();
  Error check = loaded->CheckTensorsInOwnBuffers();
  EXPECT_EQ(check.code(), ErrorCode::kInternal);
  EXPECT_THAT(check.message(), HasSubstr("values[2]"));
}

// For each allocator and each k, the k-th fallible call fails: the load
// fails cleanly and every allocation made before is freed exactly once.
TEST_F(LoaderTest, FailureAtEveryCallLeavesNothingBehind) {
  SimulatedDeviceOptions cpu_options;
  cpu_options.device_type = DeviceType::kCpu;
  cpu_options.num_devices = 1;
  uint64_t calls[2] = {0, 0};
  {
    DeviceAllocatorRegistry registry;
    auto cpu = std::make_shared<SimulatedDeviceAllocator>(cpu_options);
    auto cuda = std::make_shared<SimulatedDeviceAllocator>();
    ASSERT_TRUE(registry.Register(cpu).ok());
    ASSERT_TRUE(registry.Register(cuda).ok());
    ASSERT_TRUE(LoadMethod(*program_, "forward", registry).ok());
    calls[0] = cpu->fallible_calls();
    calls[1] = cuda->fallible_calls();
  }
  // One CPU buffer; two CUDA buffers and one initial-state copy.
  ASSERT_EQ(calls[0], 1u);
  ASSERT_EQ(calls[1], 3u);
  int failures = 0;
  for (int target = 0; target < 2; ++target) {
    for (uint64_t k = 1; k <= calls[target]; ++k) {
      DeviceAllocatorRegistry registry;
      auto cpu = std::make_shared<SimulatedDeviceAllocator>(cpu_options);
      auto cuda = std::make_shared<SimulatedDeviceAllocator>();
      ASSERT_TRUE(registry.Register(cpu).ok());
      ASSERT_TRUE(registry.Register(cuda).ok());
      (target == 0 ? cpu : cuda)->SetFaults(0, k);
      Result<LoadedMethod> loaded = LoadMethod(*program_, "forward", registry);
      // The CUDA side's third call is the initial-state copy; others allocate.
      const ErrorCode injected = target == 1 && k == 3
                                     ? ErrorCode::kUnavailable
                                     : ErrorCode::kOutOfMemory;
      EXPECT_THAT(loaded, IsError(injected, HasSubstr("injected fault")))
          << "target " << target << " k " << k;
      EXPECT_THAT(loaded.error().message(), HasSubstr("method 'forward'"));
      ++failures;
      for (const auto& allocator : {cpu, cuda}) {
        EXPECT_TRUE(allocator->CheckNoLeaks().ok())
            << allocator->CheckNoLeaks().ToString();
        EXPECT_TRUE(allocator->CheckCanaries().ok());
        SimulatedDeviceAllocator::Stats stats = allocator->stats();
        EXPECT_EQ(stats.rejected_deallocations, 0u);
        EXPECT_EQ(stats.deallocate_calls,
                  stats.allocate_calls - stats.failed_allocations)
            << "target " << target << " k " << k;
      }
    }
  }
  EXPECT_EQ(failures, 4);
}

TEST_F(LoaderTest, BudgetIsCheckedBeforeAnyAllocation) {
  DeviceAllocatorRegistry registry;
  SimulatedDeviceOptions cpu_options;
  cpu_options.device_type = DeviceType::kCpu;
  auto cpu = std::make_shared<SimulatedDeviceAllocator>(cpu_options);
  auto cuda = std::make_shared<SimulatedDeviceAllocator>();
  ASSERT_TRUE(registry.Register(cpu).ok());
  ASSERT_TRUE(registry.Register(cuda).ok());
  constexpr uint64_t kTotal = kCpuBytes + kCuda0Bytes + kCuda1Bytes;
  LoaderOptions options;
  options.max_planned_bytes = kTotal - 1;
  Result<LoadedMethod> refused =
      LoadMethod(*program_, "forward", registry, options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code(), ErrorCode::kResourceExhausted);
  EXPECT_THAT(refused.error().message(),
              HasSubstr(std::to_string(kTotal) +
                        " bytes, must be <= max_planned_bytes " +
                        std::to_string(kTotal - 1)));
  EXPECT_EQ(cpu->stats().allocate_calls, 0u);
  EXPECT_EQ(cuda->stats().allocate_calls, 0u);

  options.max_planned_bytes = kTotal;
  EXPECT_TRUE(LoadMethod(*program_, "forward", registry, options).ok());
}

TEST_F(LoaderTest, MissingAllocatorFreesWhatWasAllocated) {
  DeviceAllocatorRegistry registry;
  SimulatedDeviceOptions cpu_options;
  cpu_options.device_type = DeviceType::kCpu;
  auto cpu = std::make_shared<SimulatedDeviceAllocator>(cpu_options);
  ASSERT_TRUE(registry.Register(cpu).ok());
  Result<LoadedMethod> loaded = LoadMethod(*program_, "forward", registry);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().code(), ErrorCode::kNotFound);
  EXPECT_THAT(loaded.error().message(), HasSubstr("memory_id 2"));
  EXPECT_EQ(cpu->stats().allocate_calls, 1u);
  EXPECT_TRUE(cpu->CheckNoLeaks().ok());
}

TEST_F(LoaderTest, SimulatedCapacityExceededIsOutOfMemory) {
  DeviceAllocatorRegistry registry;
  SimulatedDeviceOptions small;
  small.capacity_bytes = kCuda1Bytes - 1;
  auto cuda = std::make_shared<SimulatedDeviceAllocator>(small);
  ASSERT_TRUE(registry.Register(std::make_shared<CpuAllocator>()).ok());
  ASSERT_TRUE(registry.Register(cuda).ok());
  Result<LoadedMethod> loaded = LoadMethod(*program_, "forward", registry);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().code(), ErrorCode::kOutOfMemory);
  EXPECT_THAT(loaded.error().message(), HasSubstr("cuda:1"));
  EXPECT_TRUE(cuda->CheckNoLeaks().ok());
}

TEST_F(LoaderTest, UnknownMethodAndBadAlignment) {
  DeviceAllocatorRegistry registry;
  EXPECT_EQ(LoadMethod(*program_, "backward", registry).error().code(),
            ErrorCode::kNotFound);
  LoaderOptions options;
  options.alignment = 48;
  EXPECT_EQ(LoadMethod(*program_, "forward", registry, options).error().code(),
            ErrorCode::kInvalidArgument);
}

// A mutable tensor with initial data but no mutable_data_segments table:
// the loader cannot find the bytes and says so.
TEST(LoaderLayoutTest, InitialDataWithoutMutableSegmentsIsAClearError) {
  ProgramBuilder b;
  b.AddMethod("forward");
  uint32_t buffer = b.AddBuffer(16, Device::Cuda(0));
  TensorSpec spec;
  spec.sizes = {4};
  spec.memory_id = buffer;
  spec.device = Device::Cuda(0);
  spec.data_buffer_idx = 1;
  b.AddTensor(spec);
  std::vector<uint8_t> bytes = b.Build();
  Result<Program> program = Program::Load(bytes.data(), bytes.size());
  if (!program.ok()) {
    GTEST_SKIP() << "Program::Load refuses this layout already: "
                 << program.error().ToString();
  }
  DeviceAllocatorRegistry registry;
  auto cuda = std::make_shared<SimulatedDeviceAllocator>();
  ASSERT_TRUE(registry.Register(cuda).ok());
  Result<LoadedMethod> loaded = LoadMethod(*program, "forward", registry);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().code(), ErrorCode::kInvalidProgram);
  EXPECT_THAT(loaded.error().message(),
              HasSubstr("values[0].tensor.data_buffer_idx = 1"));
  EXPECT_THAT(loaded.error().message(), HasSubstr("mutable_data_segments"));
  EXPECT_TRUE(cuda->CheckNoLeaks().ok());
}

// Two methods named "forward": the first has initial data the loader cannot
// find (as above, which Program::Load lets through), the second loads.
std::vector<uint8_t> TwoMethodsOfOneName() {
  ProgramBuilder b;
  b.AddMethod("forward");
  TensorSpec spec;
  spec.sizes = {4};
  spec.memory_id = b.AddBuffer(16, Device::Cuda(0));
  spec.device = Device::Cuda(0);
  spec.data_buffer_idx = 1;
  b.AddTensor(spec);
  b.AddMethod("forward");
  uint32_t cpu = b.AddBuffer(128);
  int32_t x =
      b.AddPlannedTensor(executorch_flatbuffer::ScalarType::FLOAT, {4}, cpu, 0);
  b.SetInputs({x});
  b.SetOutputs({x});
  return b.Build();
}

// By name the first method of that name loads, as in ExecuTorch; by index
// each one does, whatever its name.
TEST(LoaderLayoutTest, LoadMethodAtLoadsTheMethodAtItsIndex) {
  const std::vector<uint8_t> bytes = TwoMethodsOfOneName();
  Result<Program> program = Program::Load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok()) << program.error().ToString();
  ASSERT_EQ(program->num_methods(), 2u);
  DeviceAllocatorRegistry registry;
  ASSERT_TRUE(registry.Register(std::make_shared<CpuAllocator>()).ok());
  ASSERT_TRUE(
      registry.Register(std::make_shared<SimulatedDeviceAllocator>()).ok());
  EXPECT_THAT(
      LoadMethod(*program, "forward", registry),
      IsError(ErrorCode::kInvalidProgram, HasSubstr("mutable_data_segments")));
  EXPECT_THAT(
      LoadMethodAt(*program, 0, registry),
      IsError(ErrorCode::kInvalidProgram, HasSubstr("mutable_data_segments")));
  Result<LoadedMethod> second = LoadMethodAt(*program, 1, registry);
  ASSERT_TRUE(second.ok()) << second.error().ToString();
  EXPECT_EQ(second->name(), "forward");
  ASSERT_EQ(second->buffers().size(), 1u);
  EXPECT_EQ(second->buffers()[0].size(), 128u);
  EXPECT_EQ(second->buffers()[0].device(), Device::Cpu());
  EXPECT_THAT(
      LoadMethodAt(*program, 2, registry),
      IsError(ErrorCode::kNotFound, HasSubstr("execution_plan index 2")));
  // `memplan check` loads each method by its index.
  EXPECT_FALSE(LoadAndCheckMethod(*program, 0).ok());
  Error checked = LoadAndCheckMethod(*program, 1);
  EXPECT_TRUE(checked.ok()) << checked.ToString();
}

}  // namespace
}  // namespace memplan
