// The oracle against planted plan faults in whole programs: the real
// ExecuTorch programs of ../shared/data/pte, builder programs with a loop,
// views, devices, two methods sharing state and two conds, and the example
// graphs as
// memplan plans and emits them. Each fault kind is planted at every place
// it can go; every mutant must be judged invalid with the fault's code (the
// kill rate must be 100%), and every unmutated program must be valid (no
// false positive). One mutant of each kind also goes through the
// `memplan verify` (text and --json) and `memplan check` commands.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "planner/emitter.h"
#include "planner/graph_format.h"
#include "planner/memory_planner.h"
#include "properties/alias_ops.h"
#include "properties/program_plans.h"
#include "runtime/program.h"
#include "runtime/testing/program_builder.h"

namespace memplan {
namespace properties {
namespace {

namespace fb = executorch_flatbuffer;
namespace fs = std::filesystem;
using testing::ProgramBuilder;

constexpr auto kFloat = fb::ScalarType::FLOAT;

struct Subject {
  std::string name;
  std::vector<uint8_t> bytes;
};

struct Mutant {
  std::string kind;
  std::string place;
  ViolationCode code;
  size_t method;
  // The loader (Program::Load) must refuse it too.
  bool loader_refuses;
  std::function<void(fb::ProgramT&)> plant;
};

fs::path Runfile(const std::string& path) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  return fs::path(srcdir ? srcdir : ".") / (workspace ? workspace : "") / path;
}

std::vector<uint8_t> ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void SetName(ProgramBuilder& b, int32_t value, const std::string& name) {
  fb::TensorT& tensor = *b.method().values[value]->val.AsTensor();
  if (!tensor.extra_tensor_info) {
    tensor.extra_tensor_info = std::make_unique<fb::ExtraTensorInfoT>();
  }
  tensor.extra_tensor_info->fully_qualified_name = name;
}

// Loop [1, 4]: w lives across it; t1, t2 live inside one iteration.
Subject LoopProgram() {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(384);
  int32_t w = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  int32_t t1 = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 128);
  int32_t u = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 192);
  int32_t t2 = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 256);
  int32_t cond = b.AddPlannedTensor(fb::ScalarType::BOOL, {}, cpu, 320);
  int32_t op = b.AddOperator("aten::mul");
  b.AddKernelCall(op, {x, x, w});       // 0
  b.AddKernelCall(op, {w, x, u});       // 1: loop head reads w.
  b.AddKernelCall(op, {u, u, t1});      // 2
  b.AddKernelCall(op, {t1, t1, t2});    // 3
  b.AddKernelCall(op, {t2, t2, cond});  // 4
  b.AddJumpFalse(cond, 1);              // 5: back to 1.
  b.AddKernelCall(op, {x, u, u});       // 6
  b.SetInputs({x});
  b.SetOutputs({u});
  return {"builder/loop", b.Build()};
}

Subject ViewsProgram() {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(256);
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t h = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  int32_t hv = b.AddPlannedTensor(kFloat, {16}, cpu, 64);  // View of h.
  int32_t g = b.AddPlannedTensor(kFloat, {16}, cpu, 64);   // In place.
  int32_t y = b.AddPlannedTensor(kFloat, {16}, cpu, 128);
  b.AddKernelCall(b.AddOperator("aten::relu"), {x, h});
  b.AddKernelCall(b.AddOperator("executorch_prim::et_view", "default"),
                  {h, b.AddInt(16), hv});
  b.AddKernelCall(b.AddOperator("aten::sigmoid_", ""), {hv, g});
  b.AddKernelCall(b.AddOperator("aten::mul"), {g, g, y});
  b.SetInputs({x});
  b.SetOutputs({y});
  return {"builder/views", b.Build()};
}

Subject DevicesProgram() {
  ProgramBuilder b;
  uint32_t cpu = b.AddBuffer(128);
  uint32_t gpu0 = b.AddBuffer(128, Device::Cuda(0));
  uint32_t gpu1 = b.AddBuffer(128, Device::Cuda(1));
  int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
  int32_t a = b.AddPlannedTensor(kFloat, {4, 4}, gpu0, 0, Device::Cuda(0));
  int32_t c = b.AddPlannedTensor(kFloat, {4, 4}, gpu1, 64, Device::Cuda(1));
  int32_t y = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
  int32_t copy = b.AddOperator("aten::_to_copy");
  b.AddKernelCall(copy, {x, a});
  b.AddKernelCall(copy, {a, c});
  b.AddKernelCall(copy, {c, y});
  b.SetInputs({x});
  b.SetOutputs({y});
  return {"builder/devices", b.Build()};
}

// Two methods sharing a KV cache by its fully qualified name.
Subject SharedStateProgram() {
  ProgramBuilder b;
  for (const char* name : {"prefill", "decode"}) {
    b.AddMethod(name);
    uint32_t cpu = b.AddBuffer(192);
    int32_t x = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 0);
    int32_t cache = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 64);
    int32_t y = b.AddPlannedTensor(kFloat, {4, 4}, cpu, 128);
    SetName(b, cache, "layers.0.attn.k_cache");
    b.AddKernelCall(b.AddOperator("aten::index_put_"), {cache, x, cache});
    b.AddKernelCall(b.AddOperator("aten::mul"), {cache, x, y});
    b.SetInputs({x});
    b.SetOutputs({y});
  }
  return {"builder/shared_state", b.Build()};
}

std::vector<Subject> Subjects() {
  std::vector<Subject> subjects = {
      LoopProgram(),
      ViewsProgram(),
      DevicesProgram(),
      SharedStateProgram(),
      // Two conds as ExecuTorch emits them, the first's output moved on.
      {"builder/conds",
       testing::CondsProgram(/*two*/ true, /*apart*/ 320, /*chained*/ true)
           .Build()},
      // The first cond's true output apart from its false output.
      {"builder/conds_apart",
       testing::CondsProgram(/*two*/ true, /*apart*/ 320, /*chained*/ false,
                             /*first_true_at*/ 128)
           .Build()},
      // Nested conds as ExecuTorch emits them, each output apart.
      {"builder/nested_conds",
       testing::NestedCondsProgram(/*t_at*/ 448, /*t_in_outer_false*/ false)
           .Build()}};
  for (const auto& entry : fs::directory_iterator(Runfile("examples/graphs"))) {
    std::ifstream in(entry.path());
    std::string text{std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>()};
    Result<planner::Graph> graph = planner::ParseGraph(text);
    EXPECT_TRUE(graph.ok()) << entry.path();
    if (!graph.ok()) continue;
    planner::PlanOptions options;
    options.algorithms = {"greedy"};
    Result<planner::PlanResult> plan = planner::PlanGraph(*graph, options);
    EXPECT_TRUE(plan.ok()) << entry.path();
    if (!plan.ok()) continue;
    Result<std::vector<uint8_t>> bytes = planner::EmitProgram(*graph, *plan);
    EXPECT_TRUE(bytes.ok()) << entry.path();
    if (bytes.ok()) {
      subjects.push_back(
          {"graph/" + entry.path().filename().string(), std::move(*bytes)});
    }
  }
  const char* srcdir = std::getenv("TEST_SRCDIR");
  fs::path real = fs::path(srcdir ? srcdir : ".") / "shared_data/data/pte";
  if (fs::exists(real)) {
    for (const auto& entry : fs::directory_iterator(real)) {
      subjects.push_back(
          {"pte/" + entry.path().filename().string(), ReadBytes(entry.path())});
    }
  }
  return subjects;
}

fb::TensorT& TensorOf(fb::ProgramT& p, size_t m, int64_t v) {
  return *p.execution_plan[m]->values[static_cast<size_t>(v)]->val.AsTensor();
}

int64_t ValueOf(const Allocation& a) { return std::stoll(a.id.substr(1)); }

void SetOffset(fb::TensorT& t, uint64_t offset) {
  t.allocation_info->memory_offset_low = static_cast<uint32_t>(offset);
  t.allocation_info->memory_offset_high = static_cast<uint32_t>(offset >> 32);
}

void SetDevice(fb::TensorT& t, Device device) {
  if (!t.extra_tensor_info) {
    t.extra_tensor_info = std::make_unique<fb::ExtraTensorInfoT>();
  }
  t.extra_tensor_info->device_type = static_cast<fb::DeviceType>(device.type);
  t.extra_tensor_info->device_index = device.index;
}

// Places `moved` on `onto`'s bytes.
std::function<void(fb::ProgramT&)> MoveOnto(size_t m, const Allocation& moved,
                                            const Allocation& onto) {
  int64_t v = ValueOf(moved);
  uint32_t mem_id = static_cast<uint32_t>(onto.mem_id);
  uint64_t offset = static_cast<uint64_t>(onto.offset);
  return [=](fb::ProgramT& p) {
    fb::TensorT& t = TensorOf(p, m, v);
    t.allocation_info->memory_id = mem_id;
    SetOffset(t, offset);
  };
}

bool Movable(const Allocation& a) {
  return !a.alias_of && a.size > 0 && a.kind != SpecKind::kMutableBuffer;
}

// Every place each fault kind can go in `program`, whose plans are `plans`.
std::vector<Mutant> MutantsOf(const fb::ProgramT& program,
                              const std::vector<MethodPlan>& plans) {
  std::vector<Mutant> mutants;
  const AliasOps alias_ops;
  std::map<std::string, std::vector<std::pair<size_t, const Allocation*>>>
      shared;
  for (size_t m = 0; m < plans.size(); ++m) {
    const fb::ExecutionPlanT& method = *program.execution_plan[m];
    const Plan& plan = plans[m].plan;
    std::map<int64_t, const Allocation*> by_value;
    std::set<std::string> aliased;  // Bases and members of alias families.
    for (const Allocation& a : plan.allocations) {
      by_value[ValueOf(a)] = &a;
      if (a.alias_of) {
        aliased.insert(a.id);
        aliased.insert(*a.alias_of);
      }
      if (a.shared_name) shared[*a.shared_name].push_back({m, &a});
    }
    auto planned = [&](int64_t v) -> const Allocation* {
      auto it = by_value.find(v);
      return it == by_value.end() ? nullptr : it->second;
    };
    std::vector<std::string> op_names;
    for (const auto& op : method.operators) op_names.push_back(op->name);

    // Linear last naming of each value (before loops widen anything).
    std::map<int64_t, int64_t> first_named, last_named;
    std::vector<std::pair<int64_t, int64_t>> loops;
    // Moves (from, to, position), and where forward jumps land.
    std::vector<std::tuple<int64_t, int64_t, int64_t>> moves;
    std::set<int64_t> landings;
    // Jumps on a constant false: position to destination; and the other
    // forward jumps: destination to position.
    std::map<int64_t, int64_t> forward_jump_to, jump_landing_at;
    int64_t position = 0;
    for (const auto& chain : method.chains) {
      const int64_t chain_start = position;
      for (const auto& instruction : chain->instructions) {
        if (const auto* move = instruction->instr_args.AsMoveCall()) {
          moves.emplace_back(move->move_from, move->move_to, position);
        }
        if (const auto* call = instruction->instr_args.AsKernelCall()) {
          for (int32_t arg : call->args) {
            first_named.emplace(arg, position);
            last_named[arg] = position;
          }
        }
        if (const auto* jump = instruction->instr_args.AsJumpFalseCall()) {
          first_named.emplace(jump->cond_value_index, position);
          last_named[jump->cond_value_index] = position;
          if (chain_start + jump->destination_instruction <= position) {
            loops.emplace_back(chain_start + jump->destination_instruction,
                               position);
          } else {
            landings.insert(chain_start + jump->destination_instruction);
            const auto* cond =
                method.values[jump->cond_value_index]->val.AsBool();
            if (cond != nullptr && !cond->bool_val) {  // Always jumps.
              forward_jump_to[position] =
                  chain_start + jump->destination_instruction;
            } else {
              jump_landing_at[chain_start + jump->destination_instruction] =
                  position;
            }
          }
        }
        ++position;
      }
    }

    // The slots moves go into: each names the moved tensor's bytes, not its
    // own, from its move on.
    std::set<int64_t> destinations;
    for (const auto& [from, to, at] : moves) destinations.insert(to);

    // Output over its own input; and every instruction that makes an
    // alias of a tensor, per tensor.
    std::map<int64_t, std::vector<std::pair<size_t, size_t>>> aliasing;
    position = 0;
    for (size_t c = 0; c < method.chains.size(); ++c) {
      const auto& chain = method.chains[c];
      for (size_t k = 0; k < chain->instructions.size(); ++k, ++position) {
        const fb::KernelCallT* call =
            chain->instructions[k]->instr_args.AsKernelCall();
        if (call == nullptr || call->args.empty()) continue;
        const std::string& op = op_names[call->op_index];
        const Allocation* out = planned(call->args.back());
        if (out == nullptr || out->size == 0) continue;
        if (alias_ops.RuleOf(op) != AliasRule::kNone) {
          aliasing[call->args.back()].emplace_back(c, k);
          continue;
        }
        if (!Movable(*out) || aliased.count(out->id)) continue;
        for (size_t i = 0; i + 1 < call->args.size(); ++i) {
          // A slot moved into is read at the bytes the move made it name,
          // not its own.
          if (destinations.count(call->args[i])) continue;
          const Allocation* in = planned(call->args[i]);
          if (in == nullptr || in == out || !Movable(*in) ||
              aliased.count(in->id) || out->size > in->size) {
            continue;
          }
          mutants.push_back(
              {"output over its own input",
               plans[m].name + " " + op + " at " + std::to_string(position) +
                   ": " + out->id + " onto " + in->id,
               ViolationCode::kOverlap, m, false, MoveOnto(m, *out, *in)});
        }
      }
    }
    // A planner that takes a copy for a view: every instruction that made
    // this alias runs a copy instead, and the alias overlaps its base.
    for (const auto& [value, instructions] : aliasing) {
      const Allocation* out = planned(value);
      if (out == nullptr || !out->alias_of) continue;
      mutants.push_back(
          {"a \"view\" that is not a view operator",
           plans[m].name + " " + out->id, ViolationCode::kOverlap, m, false,
           [m, instructions = instructions](fb::ProgramT& p) {
             fb::ExecutionPlanT& meth = *p.execution_plan[m];
             auto copy = std::make_unique<fb::OperatorT>();
             copy->name = "aten::clone";
             copy->overload = "out";
             meth.operators.push_back(std::move(copy));
             for (const auto& [c, k] : instructions) {
               meth.chains[c]
                   ->instructions[k]
                   ->instr_args.AsKernelCall()
                   ->op_index = static_cast<int32_t>(meth.operators.size() - 1);
             }
           }});
    }

    // Lifetime end off by one: a tensor first named where another is last
    // named, on its bytes (what a planner with half-open lifetimes does).
    // Not at a move: it writes no bytes, and the slot it moves into
    // names the source's bytes, not its own.
    for (const Allocation& a : plan.allocations) {
      if (!Movable(a) || aliased.count(a.id) || a.first_named < 0) continue;
      if (plan.instruction_kinds[plan.instruction_kind_of[static_cast<size_t>(
              a.first_named)]] == "move") {
        continue;
      }
      for (const Allocation& dying : plan.allocations) {
        if (&dying == &a || !Movable(dying) || aliased.count(dying.id) ||
            dying.lifetime.last != a.first_named || a.size > dying.size) {
          continue;
        }
        mutants.push_back({"lifetime end off by one",
                           plans[m].name + ": " + a.id + " onto " + dying.id,
                           ViolationCode::kOverlap, m, false,
                           MoveOnto(m, a, dying)});
        break;
      }
    }

    // A cond's output overwritten: the move just before a cond's join (its
    // false branch's, or any move a jump lands right after) makes the
    // destination, and every slot it is moved on to, name the source's
    // bytes up to their last kernel naming; a tensor named only between
    // the move and then, placed on those bytes, overwrites them while they
    // are read (ExecuTorch issue 21490). Found from the instructions alone.
    // A move's destination is left out: its own tensor is dropped there;
    // so is a source that is one (it names the bytes moved into it).
    // Plants, as `kind`, each plain tensor no larger than `source` and
    // named only within [from, to] onto the bytes of `source`, except one
    // named only inside a false branch (from a jump on a constant false to
    // where it lands) whose true branch (from the jump that lands just past
    // it) holds the move at `at`: the two never run together.
    auto in_skipped_branch = [&](int64_t v, int64_t at) {
      for (const auto& [skip, join] : forward_jump_to) {
        auto entry = jump_landing_at.find(skip + 1);
        if (entry != jump_landing_at.end() && entry->second < at && at < skip &&
            skip < first_named[v] && last_named[v] < join) {
          return true;
        }
      }
      return false;
    };
    auto overwrite = [&](const char* kind, const Allocation& source,
                         int64_t from, int64_t to, int64_t at) {
      for (const Allocation& b : plan.allocations) {
        const int64_t v = ValueOf(b);
        if (&b == &source || !Movable(b) || b.kind != SpecKind::kPlain ||
            destinations.count(v) || b.size > source.size ||
            !first_named.count(v) || first_named[v] < from ||
            last_named[v] > to || in_skipped_branch(v, at)) {
          continue;
        }
        mutants.push_back(
            {kind, plans[m].name + ": " + b.id + " onto " + source.id,
             ViolationCode::kOverlap, m, false, MoveOnto(m, b, source)});
      }
    };
    // The last kernel naming of `to` and of every slot it is moved on to
    // after `at`, or -1.
    auto reach_from = [&](int64_t to, int64_t at) {
      std::set<int64_t> slots = {to};
      int64_t reach = last_named.count(to) ? last_named[to] : -1;
      for (const auto& [later_from, later_to, later_at] : moves) {
        if (later_at > at && slots.count(later_from)) {
          slots.insert(later_to);
          if (last_named.count(later_to)) {
            reach = std::max(reach, last_named[later_to]);
          }
        }
      }
      return reach;
    };
    for (const auto& [from, to, at] : moves) {
      const Allocation* source = planned(from);
      if (!landings.count(at + 1) || source == nullptr ||
          destinations.count(from) || !Movable(*source)) {
        continue;
      }
      overwrite("a cond's output overwritten", *source, at + 1,
                reach_from(to, at), at);
    }

    // A cond's true output overwritten: a move followed by a jump on a
    // constant false (a true branch's, over the false branch to the join)
    // makes the destination, and every slot it is moved on to, name the
    // source's bytes on the path through the true branch; a tensor named
    // only between the join and their last kernel naming, placed on them,
    // overwrites them while they are read. Found from the instructions
    // alone.
    for (const auto& [from, to, at] : moves) {
      const Allocation* source = planned(from);
      auto skip = forward_jump_to.find(at + 1);
      if (skip == forward_jump_to.end() || source == nullptr ||
          destinations.count(from) || !Movable(*source)) {
        continue;
      }
      overwrite("a cond's true output overwritten", *source, skip->second,
                reach_from(to, at), at);
    }

    // A loop-carried value overwritten by a tensor of the loop body that,
    // in straight-line order, starts after its last use. Found from the
    // instructions alone, not from the lifetimes under test.
    for (const auto& [head, tail] : loops) {
      for (const Allocation& carried : plan.allocations) {
        const int64_t c = ValueOf(carried);
        if (!Movable(carried) || !first_named.count(c) ||
            first_named[c] >= head || last_named[c] < head ||
            last_named[c] >= tail) {
          continue;
        }
        for (const Allocation& body : plan.allocations) {
          const int64_t b = ValueOf(body);
          if (!Movable(body) || body.size > carried.size ||
              body.kind != SpecKind::kPlain || !first_named.count(b) ||
              first_named[b] <= last_named[c] || last_named[b] > tail) {
            continue;
          }
          mutants.push_back(
              {"loop-carried value overwritten",
               plans[m].name + ": " + body.id + " onto " + carried.id,
               ViolationCode::kOverlap, m, false, MoveOnto(m, body, carried)});
        }
      }
    }

    for (const Allocation& a : plan.allocations) {
      const int64_t v = ValueOf(a);
      const std::string where = plans[m].name + " " + a.id;
      mutants.push_back(
          {"offset high bits", where, ViolationCode::kBounds, m, true,
           [m, v](fb::ProgramT& p) {
             TensorOf(p, m, v).allocation_info->memory_offset_high |= 1;
           }});
      if (a.size > 0) {
        const uint64_t end = static_cast<uint64_t>(
            method.non_const_buffer_sizes[static_cast<size_t>(a.mem_id)]);
        mutants.push_back({"past the end", where, ViolationCode::kBounds, m,
                           true, [m, v, end](fb::ProgramT& p) {
                             SetOffset(TensorOf(p, m, v), end);
                           }});
      }
      if (a.alignment > 1 && a.size > 0 && !a.alias_of &&
          !aliased.count(a.id)) {
        const uint64_t offset = static_cast<uint64_t>(a.offset) + 1;
        mutants.push_back({"misaligned", where, ViolationCode::kAlignment, m,
                           false, [m, v, offset](fb::ProgramT& p) {
                             SetOffset(TensorOf(p, m, v), offset);
                           }});
      }
      if (!a.device) continue;
      if (a.device->is_cpu()) {
        mutants.push_back({"device mismatch: cuda tensor in a cpu buffer",
                           where, ViolationCode::kCrossDevice, m, true,
                           [m, v](fb::ProgramT& p) {
                             SetDevice(TensorOf(p, m, v), Device::Cuda(0));
                           }});
      } else {
        Device other = *a.device;
        other.index = static_cast<DeviceIndex>(other.index + 1);
        mutants.push_back({"device mismatch: cpu tensor in a cuda buffer",
                           where, ViolationCode::kCrossDevice, m, true,
                           [m, v](fb::ProgramT& p) {
                             SetDevice(TensorOf(p, m, v), Device::Cpu());
                           }});
        mutants.push_back({"device mismatch: other cuda index", where,
                           ViolationCode::kCrossDevice, m, true,
                           [m, v, other](fb::ProgramT& p) {
                             SetDevice(TensorOf(p, m, v), other);
                           }});
      }
    }

    // Device map faults, on each entry and on added ones.
    const int32_t num_sizes =
        static_cast<int32_t>(method.non_const_buffer_sizes.size());
    auto add_entry = [m](int32_t index, fb::DeviceType type) {
      return [m, index, type](fb::ProgramT& p) {
        auto entry = std::make_unique<fb::NonConstBufferDeviceT>();
        entry->buffer_idx = index;
        entry->device_type = type;
        p.execution_plan[m]->non_const_buffer_device.push_back(
            std::move(entry));
      };
    };
    const std::string name = plans[m].name;
    if (num_sizes >= 2) {
      mutants.push_back({"device map: entry for index 0", name,
                         ViolationCode::kBufferMap, m, true,
                         add_entry(0, fb::DeviceType::CUDA)});
      mutants.push_back({"device map: index out of range", name,
                         ViolationCode::kBufferMap, m, true,
                         add_entry(num_sizes, fb::DeviceType::CUDA)});
      mutants.push_back({"device map: unknown device type", name,
                         ViolationCode::kBufferMap, m, true,
                         add_entry(1, static_cast<fb::DeviceType>(9))});
      mutants.push_back({"huge buffer", name, ViolationCode::kBounds, m, true,
                         [m](fb::ProgramT& p) {
                           p.execution_plan[m]->non_const_buffer_sizes[1] =
                               INT64_MAX;
                         }});
    }
    for (size_t e = 0; e < method.non_const_buffer_device.size(); ++e) {
      const int32_t index = method.non_const_buffer_device[e]->buffer_idx;
      mutants.push_back(
          {"device map: duplicated entry", name + " entry " + std::to_string(e),
           ViolationCode::kBufferMap, m, true,
           add_entry(index, method.non_const_buffer_device[e]->device_type)});
      mutants.push_back(
          {"device map: unknown device type",
           name + " entry " + std::to_string(e), ViolationCode::kBufferMap, m,
           true, [m, e](fb::ProgramT& p) {
             p.execution_plan[m]->non_const_buffer_device[e]->device_type =
                 static_cast<fb::DeviceType>(9);
           }});
    }
  }

  // Shared state moved in one method.
  for (const auto& [state, places] : shared) {
    if (places.size() < 2) continue;
    for (size_t i = 1; i < places.size(); ++i) {
      // Not a structured binding: clang's C++17 cannot capture one.
      const size_t m = places[i].first;
      const Allocation* a = places[i].second;
      const int64_t v = ValueOf(*a);
      const uint64_t offset = static_cast<uint64_t>(a->offset + a->size);
      mutants.push_back({"shared state moved in one method",
                         plans[m].name + " " + state,
                         ViolationCode::kSharedState, m, false,
                         [m, v, offset](fb::ProgramT& p) {
                           SetOffset(TensorOf(p, m, v), offset);
                         }});
    }
  }
  return mutants;
}

Result<std::vector<uint8_t>> Plant(const Subject& subject,
                                   const Mutant& mutant) {
  Result<ProgramBuilder> builder =
      ProgramBuilder::FromProgram(subject.bytes.data(), subject.bytes.size());
  if (!builder.ok()) return builder.error();
  mutant.plant(builder->program());
  return builder->Build();
}

bool LoadRefuses(const std::vector<uint8_t>& bytes) {
  std::vector<uint64_t> aligned((bytes.size() + 7) / 8);
  std::memcpy(aligned.data(), bytes.data(), bytes.size());
  return !Program::Load(reinterpret_cast<const uint8_t*>(aligned.data()),
                        bytes.size())
              .ok();
}

struct Command {
  int exit_code;
  std::string output;
};

Command RunCommand(const std::string& command) {
  Command result{-1, ""};
  std::FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  char chunk[4096];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), pipe)) > 0) {
    result.output.append(chunk, n);
  }
  int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

TEST(ProgramMutationTest,
     EveryPlantedFaultIsKilledAndNoProgramIsAccusedFalsely) {
  const std::vector<Subject> subjects = Subjects();
  ASSERT_GE(subjects.size(), 9u);  // 4 builder programs + 5 graphs.
  std::map<std::string, std::pair<int, int>> kills;  // kind -> killed, total.
  std::map<std::string, std::pair<std::vector<uint8_t>, ViolationCode>> sample;
  int clean = 0;
  for (const Subject& subject : subjects) {
    SCOPED_TRACE(subject.name);
    Result<std::vector<MethodPlan>> plans =
        ReadProgramPlans(subject.bytes.data(), subject.bytes.size());
    ASSERT_TRUE(plans.ok()) << plans.error().ToString();
    bool valid = true;
    for (const Report& report : CheckMethods(*plans)) {
      EXPECT_TRUE(report.ok()) << "false positive:\n" << FormatText(report);
      valid = valid && report.ok();
    }
    clean += valid;
    Result<ProgramBuilder> original =
        ProgramBuilder::FromProgram(subject.bytes.data(), subject.bytes.size());
    ASSERT_TRUE(original.ok()) << original.error().ToString();
    for (const Mutant& mutant : MutantsOf(original->program(), *plans)) {
      Result<std::vector<uint8_t>> bytes = Plant(subject, mutant);
      ASSERT_TRUE(bytes.ok()) << bytes.error().ToString();
      auto& [killed, total] = kills[mutant.kind];
      ++total;
      Result<std::vector<MethodPlan>> mutated =
          ReadProgramPlans(bytes->data(), bytes->size());
      if (!mutated.ok()) {
        ADD_FAILURE() << mutant.kind << " at " << mutant.place
                      << ": unreadable, " << mutated.error().ToString();
        continue;
      }
      std::vector<Report> reports = CheckMethods(*mutated);
      const bool found = reports[mutant.method].count(mutant.code) > 0;
      EXPECT_TRUE(found) << mutant.kind << " at " << mutant.place << " not "
                         << ViolationCodeName(mutant.code) << ":\n"
                         << FormatText(reports[mutant.method]);
      if (mutant.loader_refuses) {
        EXPECT_TRUE(LoadRefuses(*bytes))
            << mutant.kind << " at " << mutant.place;
      }
      killed += found;
      if (found && sample.count(mutant.kind) == 0) {
        sample[mutant.kind] = {*bytes, mutant.code};
      }
    }
  }
  int killed_all = 0, total_all = 0;
  for (const auto& [kind, counts] : kills) {
    std::printf("%-48s %4d / %4d killed\n", kind.c_str(), counts.first,
                counts.second);
    killed_all += counts.first;
    total_all += counts.second;
    EXPECT_GT(counts.second, 0) << kind;
  }
  std::printf("kill rate %d / %d; unmutated programs valid: %d / %zu\n",
              killed_all, total_all, clean, subjects.size());
  EXPECT_EQ(killed_all, total_all);
  EXPECT_EQ(kills.size(), 18u);  // Every kind has a place somewhere.

  // The commands give the same verdicts.
  const std::string memplan = Runfile("tools/memplan").string();
  const char* tmp = std::getenv("TEST_TMPDIR");
  const fs::path dir = tmp ? tmp : fs::temp_directory_path().string();
  int n = 0;
  for (const auto& [kind, mutant] : sample) {
    SCOPED_TRACE(kind);
    const fs::path file = dir / ("mutant" + std::to_string(n++) + ".pte");
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(mutant.first.data()),
               static_cast<std::streamsize>(mutant.first.size()));
    const std::string code = ViolationCodeName(mutant.second);
    Command text = RunCommand(memplan + " verify " + file.string());
    EXPECT_EQ(text.exit_code, 1) << text.output;
    EXPECT_THAT(text.output, ::testing::HasSubstr(code + ": ")) << text.output;
    Command json = RunCommand(memplan + " verify --json " + file.string());
    EXPECT_EQ(json.exit_code, 1) << json.output;
    EXPECT_THAT(json.output, ::testing::HasSubstr("\"code\":\"" + code + "\""));
    Command check =
        RunCommand(memplan + " check --no-gpu --algos greedy " + file.string());
    EXPECT_EQ(check.exit_code, 1) << check.output;
    EXPECT_THAT(check.output, ::testing::HasSubstr("FAIL")) << check.output;
  }
  const fs::path garbage = dir / "garbage.pte";
  std::ofstream(garbage) << "this is not a program, only some text";
  EXPECT_EQ(RunCommand(memplan + " verify " + garbage.string()).exit_code, 2);
}

}  // namespace
}  // namespace properties
}  // namespace memplan
