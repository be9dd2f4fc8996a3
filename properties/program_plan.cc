#include "properties/program_plan.h"

#include <algorithm>
#include <memory>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "properties/alias_ops.h"
#include "properties/control_flow.h"

namespace memplan {
namespace properties {
namespace {

namespace fb = executorch_flatbuffer;

constexpr size_t kNotPlanned = static_cast<size_t>(-1);

// The most parts after holes an allocation gets (Allocation::resumed),
// those past it dropped: a cond nested this deep is far past any exported
// model's, and a hostile file nesting N conds would otherwise make N^2
// parts (4,000 deep, a 737 KB file: 8M parts, 56 s in memplan verify).
constexpr size_t kMaxResumedParts = 16;

// The most true outputs a slot carries on (the latest moved first), those
// past it dropped the same way: a slot moved on through N conds in a row,
// each true branch moving the one before's output on, may name any of N
// outputs, and carrying them all took N^2 steps (4,000 conds, a 1 MB
// file: 9.7 s in memplan verify).
constexpr size_t kMaxCarriedOutputs = 16;

using Items = flatbuffers::Vector<int32_t>;

// Value indices an instruction names; lists expanded to their items, or,
// where a caller gives somewhere to put them, listed as lists.
class NamedValues {
 public:
  explicit NamedValues(const fb::ExecutionPlan& plan) : plan_(plan) {}

  // The values an instruction names; with lists, the item tables of the
  // lists among them go there instead of their items into out.
  void Collect(const fb::Instruction& instruction, std::vector<int64_t>* out,
               std::vector<const Items*>* lists = nullptr) {
    if (lists != nullptr) lists->clear();
    out->clear();
    switch (instruction.instr_args_type()) {
      case fb::InstructionArguments::KernelCall:
        if (const auto* call = instruction.instr_args_as_KernelCall()) {
          AddList(call->args(), out, lists);
        }
        break;
      case fb::InstructionArguments::DelegateCall:
        if (const auto* call = instruction.instr_args_as_DelegateCall()) {
          AddList(call->args(), out, lists);
        }
        break;
      case fb::InstructionArguments::MoveCall:
        if (const auto* call = instruction.instr_args_as_MoveCall()) {
          Add(call->move_from(), out, lists);
          Add(call->move_to(), out, lists);
        }
        break;
      case fb::InstructionArguments::FreeCall:
        if (const auto* call = instruction.instr_args_as_FreeCall()) {
          Add(call->value_index(), out, lists);
        }
        break;
      case fb::InstructionArguments::JumpFalseCall:
        if (const auto* call = instruction.instr_args_as_JumpFalseCall()) {
          Add(call->cond_value_index(), out, lists);
        }
        break;
      default:
        break;
    }
  }

  void AddList(const flatbuffers::Vector<int32_t>* list,
               std::vector<int64_t>* out,
               std::vector<const Items*>* lists = nullptr) const {
    if (list == nullptr) return;
    for (int32_t index : *list) Add(index, out, lists);
  }

  // Adds the value and, for a tensor list, its items (one level: lists
  // hold tensors, never lists), or with lists, its item table there.
  void Add(int64_t index, std::vector<int64_t>* out,
           std::vector<const Items*>* lists = nullptr) const {
    const auto* values = plan_.values();
    if (values == nullptr || index < 0 ||
        static_cast<uint64_t>(index) >= values->size()) {
      return;
    }
    out->push_back(index);
    const Items* items = ItemsOf(index);
    if (items == nullptr) return;
    if (lists != nullptr) {
      lists->push_back(items);
      return;
    }
    ForEachItem(items, [&](int64_t item) { out->push_back(item); });
  }

  // The item table of a tensor list or optional tensor list value, else
  // null.
  const Items* ItemsOf(int64_t index) const {
    const auto* values = plan_.values();
    if (values == nullptr || index < 0 ||
        static_cast<uint64_t>(index) >= values->size()) {
      return nullptr;
    }
    const fb::EValue* value = values->Get(static_cast<uint32_t>(index));
    if (const auto* list = value->val_as_TensorList()) return list->items();
    if (const auto* list = value->val_as_OptionalTensorList()) {
      return list->items();
    }
    return nullptr;
  }

  // Calls f(item) for each item that is a value (an optional list's -1 is
  // none).
  template <typename F>
  void ForEachItem(const Items* items, F f) const {
    const uint64_t num_values = plan_.values() ? plan_.values()->size() : 0;
    for (int32_t item : *items) {
      if (item >= 0 && static_cast<uint64_t>(item) < num_values) f(item);
    }
  }

 private:
  const fb::ExecutionPlan& plan_;
};

struct UnionFind {
  std::vector<size_t> parent;
  explicit UnionFind(size_t n) : parent(n) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  size_t Find(size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void Union(size_t a, size_t b) { parent[Find(a)] = Find(b); }
};

}  // namespace

std::string ProgramAllocationId(uint32_t value_index) {
  return "v" + std::to_string(value_index);
}

namespace {

// "aten::mul.out" from an Operator entry.
std::string OperatorLabel(const fb::Operator* op) {
  if (op == nullptr || op->name() == nullptr) return "<unnamed operator>";
  std::string label = op->name()->str();
  if (op->overload() != nullptr && op->overload()->size() > 0) {
    label += "." + op->overload()->str();
  }
  return label;
}

// What an instruction runs, as Plan::instruction_kinds indexes it: the
// operators first (index = op_index), then the other kinds.
uint32_t InstructionKind(const fb::Instruction& instruction,
                         size_t num_operators) {
  switch (instruction.instr_args_type()) {
    case fb::InstructionArguments::KernelCall:
      return static_cast<uint32_t>(
          instruction.instr_args_as_KernelCall()->op_index());
    case fb::InstructionArguments::DelegateCall:
      return static_cast<uint32_t>(num_operators);
    case fb::InstructionArguments::MoveCall:
      return static_cast<uint32_t>(num_operators + 1);
    case fb::InstructionArguments::JumpFalseCall:
      return static_cast<uint32_t>(num_operators + 2);
    case fb::InstructionArguments::FreeCall:
      return static_cast<uint32_t>(num_operators + 3);
    default:
      return static_cast<uint32_t>(num_operators + 4);
  }
}

}  // namespace

Result<Plan> PlanFromProgram(const Program& program, size_t method_index,
                             const ProgramPlanOptions& options) {
  Result<MethodMeta> meta = program.method_meta(method_index);
  if (!meta.ok()) return meta.error();
  const fb::ExecutionPlan& method = *meta->plan();
  Plan plan;

  // Buffers as the file states them: a negative size or a broken device
  // map is the oracle's to report, not a reason to stop reading.
  const std::vector<Device> devices = meta->memory_planned_buffer_devices();
  for (size_t b = 0; b < meta->num_memory_planned_buffers(); ++b) {
    plan.buffers.push_back(
        {static_cast<MemId>(b + 1),
         method.non_const_buffer_sizes()->Get(static_cast<uint32_t>(b + 1)),
         devices[b]});
  }
  if (const auto* entries = method.non_const_buffer_device()) {
    for (const fb::NonConstBufferDevice* entry : *entries) {
      plan.device_map.push_back({entry->buffer_idx(),
                                 static_cast<int>(entry->device_type()),
                                 entry->device_index()});
    }
  }

  const AliasOps alias_ops(options.alias_ops);
  std::vector<std::string> operator_labels;
  std::vector<AliasRule> operator_rules;
  // aten::copy_, the write-back ExecuTorch adds for a mutated buffer, and
  // the in-place ops that read self (most; see OverwritesSelf).
  std::vector<bool> operator_copies, operator_reads_self;
  if (const auto* operators = method.operators()) {
    for (const fb::Operator* op : *operators) {
      operator_labels.push_back(OperatorLabel(op));
      const bool named = op != nullptr && op->name() != nullptr;
      operator_rules.push_back(named
                                   ? alias_ops.RuleOf(op->name()->string_view())
                                   : AliasRule::kNone);
      operator_copies.push_back(named &&
                                op->name()->string_view() == "aten::copy_");
      operator_reads_self.push_back(operator_rules.back() ==
                                        AliasRule::kInPlace &&
                                    !OverwritesSelf(op->name()->string_view()));
    }
  }

  // Position of every instruction naming each value.
  const uint64_t num_values = method.values() ? method.values()->size() : 0;
  std::vector<TimeValue> first(num_values, INT64_MAX), last(num_values, -1);
  std::vector<size_t> planned_of(num_values, kNotPlanned);
  std::vector<PlannedTensor> tensors = meta->planned_tensors();
  for (size_t p = 0; p < tensors.size(); ++p) {
    if (tensors[p].value_index < num_values) {
      planned_of[tensors[p].value_index] = p;
    }
  }
  UnionFind storage(tensors.size());
  // How each planned tensor became an alias (kNone: it did not): by the
  // last instruction that made it one, at related_at.
  std::vector<AliasRule> aliased_by(tensors.size(), AliasRule::kNone);
  std::vector<TimeValue> related_at(tensors.size(), -1);
  auto mark_alias = [&](int64_t alias, AliasRule rule, TimeValue at) {
    const size_t p = planned_of[alias];
    if (at >= related_at[p]) {
      aliased_by[p] = rule;
      related_at[p] = at;
    }
  };
  auto relate = [&](int64_t alias, int64_t base, AliasRule rule, TimeValue at) {
    if (alias == base || planned_of[alias] == kNotPlanned ||
        planned_of[base] == kNotPlanned) {
      return;
    }
    storage.Union(planned_of[alias], planned_of[base]);
    mark_alias(alias, rule, at);
  };
  auto is_tensor = [&](int64_t v) {
    return method.values()->Get(static_cast<uint32_t>(v))->val_type() ==
           fb::KernelTypes::Tensor;
  };

  NamedValues named(method);
  std::vector<int64_t> names;
  std::vector<const Items*> lists;
  // Where each value's bytes are first accessed: the first naming by an
  // instruction other than a view op (a view only says what aliases what),
  // whether that is certainly a write (the out argument of a kernel call,
  // the last one or its list's items, or the self of copy_, fill_ and the
  // like; not the self of an in-place op that reads it), and whether it is
  // the self of an in-place op that reads it.
  std::vector<TimeValue> first_access(num_values, INT64_MAX);
  std::vector<uint8_t> first_written(num_values, 0);
  std::vector<uint8_t> first_read_in_place(num_values, 0);
  // The last instruction at which each value is the self of aten::copy_.
  std::vector<TimeValue> copied_into_at(num_values, -1);
  // Marks an instruction's outs while its namings are read.
  std::vector<uint8_t> is_out(num_values, 0);
  // A tensor list's items are visited at most twice however many
  // instructions name it (visiting them at each was O(instructions x
  // items) for an O(instructions + items) file): at its first naming, which
  // sets their first, and at its first naming by other than a view op,
  // which sets their first access; later namings move the list's last,
  // given to its items after the loop. Lists are told apart by their item
  // tables, which values may share.
  struct ListUse {
    TimeValue last = -1;  // The latest naming; -1: not named yet.
    bool accessed = false;
    // The latest two instructions making the items aliases of a planned
    // base, with different bases (an item that is the latest's base takes
    // the one before).
    struct Relation {
      TimeValue at = -1;
      int64_t base = -1;
      AliasRule rule = AliasRule::kNone;
    } latest, before;
    int64_t planned_item = -1;  // One planned item, once related.
  };
  std::unordered_map<const Items*, ListUse> list_uses;
  // A MoveCall makes its destination slot refer to the source's tensor (a
  // pointer, not a copy; it persists across runs), so the destination's
  // later namings read the bytes of whichever planned tensor the source
  // slot refers to then: `holder` (-1: a slot's own tensor).
  struct Move {
    int64_t storage;  // The value whose planned bytes `to` now names.
    int64_t from;
    int64_t to;
    TimeValue at;
  };
  std::vector<Move> moves;
  std::vector<int64_t> holder(num_values, -1);
  // Jumps with their condition values, and the values kernel or delegate
  // calls name: a jump on a Bool false that no call names always jumps (see
  // TrueBranches).
  std::vector<Jump> jumps;
  std::vector<int64_t> jump_conditions;
  // Slots first named by a move into them, and where each is named after:
  // where every path moves a tensor in before any other naming, the slot's
  // own tensor is never named (ExecuTorch's cond outputs, which each
  // branch's last instructions move into).
  std::vector<int64_t> slot_of(num_values, -1);
  std::vector<SlotNamings> slot_namings;
  std::vector<int64_t> slot_value;
  std::vector<uint8_t> slot_named_otherwise;  // By a list, a view, itself.
  std::vector<uint8_t> named_by_call(num_values, 0);
  std::vector<std::pair<TimeValue, TimeValue>> loop_spans;
  TimeValue time = 0;
  if (const auto* chains = method.chains()) {
    for (size_t c = 0; c < chains->size(); ++c) {
      const auto* instructions =
          chains->Get(static_cast<uint32_t>(c))->instructions();
      if (instructions == nullptr) continue;
      const TimeValue chain_start = time;
      plan.chain_starts.push_back(chain_start);
      for (size_t k = 0; k < instructions->size(); ++k, ++time) {
        const fb::Instruction& instruction =
            *instructions->Get(static_cast<uint32_t>(k));
        plan.instruction_kind_of.push_back(
            InstructionKind(instruction, operator_labels.size()));
        named.Collect(instruction, &names, &lists);
        const fb::MoveCall* move_call = instruction.instr_args_as_MoveCall();
        if (move_call != nullptr) {
          const int64_t to = move_call->move_to();
          if (first[to] == INT64_MAX && planned_of[to] != kNotPlanned &&
              slot_of[to] < 0) {
            slot_of[to] = static_cast<int64_t>(slot_namings.size());
            slot_namings.emplace_back();
            slot_value.push_back(to);
            slot_named_otherwise.push_back(0);
          }
        }
        if (instruction.instr_args_type() ==
                fb::InstructionArguments::KernelCall ||
            instruction.instr_args_type() ==
                fb::InstructionArguments::DelegateCall) {
          for (int64_t v : names) named_by_call[v] = 1;
        }
        const fb::KernelCall* call = instruction.instr_args_as_KernelCall();
        const AliasRule rule =
            call != nullptr
                ? operator_rules[static_cast<size_t>(call->op_index())]
                : AliasRule::kNone;
        const flatbuffers::Vector<int32_t>* args =
            call != nullptr ? call->args() : nullptr;
        // The first tensor argument: a view's or in-place op's base.
        int64_t base = -1;
        if (args != nullptr) {
          for (int32_t arg : *args) {
            if (is_tensor(arg)) {
              base = arg;
              break;
            }
          }
        }
        const int64_t self = rule == AliasRule::kInPlace ? base : -1;
        const bool reads_self =
            self >= 0 &&
            operator_reads_self[static_cast<size_t>(call->op_index())];
        const int64_t out = args != nullptr && args->size() > 0
                                ? args->Get(args->size() - 1)
                                : -1;
        const Items* out_items = named.ItemsOf(out);
        // Outs matter only to values accessed here for the first time; an
        // out list's items all were if the list was accessed before.
        const bool mark_out_items = out_items != nullptr &&
                                    rule != AliasRule::kView &&
                                    !list_uses[out_items].accessed;
        auto mark_outs = [&](uint8_t mark) {
          if (out >= 0 && static_cast<uint64_t>(out) < num_values) {
            is_out[out] = mark;
          }
          if (mark_out_items) {
            named.ForEachItem(out_items, [&](int64_t v) { is_out[v] = mark; });
          }
        };
        mark_outs(1);
        auto name = [&](int64_t v, bool access) {
          if (access && first_access[v] == INT64_MAX) {
            first_access[v] = time;
            first_read_in_place[v] = v == self && reads_self;
            first_written[v] = v == self ? !reads_self : is_out[v] != 0;
          }
          first[v] = std::min(first[v], time);
          last[v] = std::max(last[v], time);
        };
        const bool access = rule != AliasRule::kView;
        for (int64_t v : names) {
          name(v, access);
          if (slot_of[v] < 0) continue;
          const size_t k = static_cast<size_t>(slot_of[v]);
          if (move_call != nullptr && v == move_call->move_to() &&
              v != move_call->move_from()) {
            slot_namings[k].moves_in.push_back(time);
          } else {
            slot_namings[k].others.push_back(time);
            if (rule != AliasRule::kNone) slot_named_otherwise[k] = 1;
          }
        }
        for (const Items* items : lists) {
          ListUse& use = list_uses[items];
          if ((access && !use.accessed) || use.last < 0) {
            named.ForEachItem(items, [&](int64_t v) {
              name(v, access);
              if (slot_of[v] >= 0) slot_named_otherwise[slot_of[v]] = 1;
            });
            use.accessed = use.accessed || access;
          }
          use.last = time;
        }
        mark_outs(0);
        if (self >= 0 &&
            operator_copies[static_cast<size_t>(call->op_index())]) {
          copied_into_at[self] = time;
        }
        switch (instruction.instr_args_type()) {
          case fb::InstructionArguments::KernelCall: {
            if (rule == AliasRule::kNone || args == nullptr ||
                args->size() < 2) {
              break;
            }
            if (base < 0 || out == base) break;
            const fb::EValue* out_value =
                method.values()->Get(static_cast<uint32_t>(out));
            if (out_value->val_type() == fb::KernelTypes::TensorList) {
              if (out_items == nullptr || planned_of[base] == kNotPlanned) {
                break;
              }
              ListUse& use = list_uses[out_items];
              if (use.latest.base < 0) {
                // The first base joins the list's planned items; a later
                // one joins any of them, which joins the same sets as
                // joining each.
                named.ForEachItem(out_items, [&](int64_t v) {
                  if (planned_of[v] == kNotPlanned) return;
                  if (use.planned_item < 0) use.planned_item = v;
                  if (v != base) storage.Union(planned_of[v], planned_of[base]);
                });
              } else if (use.planned_item >= 0) {
                storage.Union(planned_of[use.planned_item], planned_of[base]);
              }
              // Which rule made each item an alias is settled after the
              // loop, from the latest two relations.
              if (use.latest.base != base) use.before = use.latest;
              use.latest = {time, base, rule};
            } else if (is_tensor(out)) {
              relate(out, base, rule, time);
            }
            break;
          }
          case fb::InstructionArguments::MoveCall: {
            // The destination names the source's bytes from here on,
            // wherever each was planned (ExecuTorch plans a cond's output
            // apart from its branches' outputs): those bytes live through
            // the destination's later namings (after the loop). Its own
            // tensor is not related to them by where either is planned:
            // where no naming can reach it, it is never accessed (below).
            const int64_t from = move_call->move_from();
            const int64_t to = move_call->move_to();
            const int64_t storage = holder[from] >= 0 ? holder[from] : from;
            if (to != storage) {
              holder[to] = storage;
              moves.push_back({storage, from, to, time});
            } else {
              holder[to] = -1;  // Back to its own tensor.
              if (slot_of[to] >= 0) slot_named_otherwise[slot_of[to]] = 1;
            }
            break;
          }
          case fb::InstructionArguments::JumpFalseCall: {
            const auto* jump = instruction.instr_args_as_JumpFalseCall();
            const TimeValue destination =
                chain_start + jump->destination_instruction();
            if (destination <= time) loop_spans.emplace_back(destination, time);
            jumps.push_back({time, destination, false});
            jump_conditions.push_back(jump->cond_value_index());
            break;
          }
          default:
            break;
        }
      }
    }
  }
  for (const auto& entry : list_uses) {
    const ListUse& use = entry.second;  // (Lambdas cannot capture bindings.)
    named.ForEachItem(entry.first, [&](int64_t v) {
      last[v] = std::max(last[v], use.last);
      if (planned_of[v] == kNotPlanned) return;
      const ListUse::Relation& r =
          v != use.latest.base ? use.latest : use.before;
      if (r.base >= 0 && v != r.base) mark_alias(v, r.rule, r.at);
    });
  }
  const TimeValue end_time = std::max<TimeValue>(time - 1, 0);
  plan.end_time = end_time;
  plan.instruction_kinds = std::move(operator_labels);
  for (const char* kind :
       {"delegate call", "move", "jump_false", "free", "instruction"}) {
    plan.instruction_kinds.push_back(kind);
  }
  const Loops loops(std::move(loop_spans), time);
  for (size_t j = 0; j < jumps.size(); ++j) {
    const int64_t condition = jump_conditions[j];
    const fb::Bool* value =
        method.values()->Get(static_cast<uint32_t>(condition))->val_as_Bool();
    jumps[j].always =
        value != nullptr && !value->bool_val() && !named_by_call[condition];
  }
  // Slots whose own tensor no naming reaches.
  std::vector<uint8_t> own_unnamed(num_values, 0);
  {
    const std::vector<bool> moved =
        MovedInBeforeEveryNaming(time, jumps, slot_namings);
    for (size_t k = 0; k < moved.size(); ++k) {
      if (moved[k] && !slot_named_otherwise[k]) own_unnamed[slot_value[k]] = 1;
    }
  }

  std::vector<bool> is_input(num_values, false), is_output(num_values, false);
  names.clear();
  named.AddList(method.inputs(), &names);
  for (int64_t v : names) is_input[v] = true;
  names.clear();
  named.AddList(method.outputs(), &names);
  for (int64_t v : names) is_output[v] = true;

  plan.allocations.reserve(tensors.size());
  std::vector<TimeValue> slot_named_until;
  slot_named_until.reserve(tensors.size());
  // One string per name table in the file (tensors may share one).
  std::unordered_map<const flatbuffers::String*,
                     std::shared_ptr<const std::string>>
      names_by_offset;
  for (const PlannedTensor& t : tensors) {
    const uint32_t v = t.value_index;
    Allocation a;
    a.id = ProgramAllocationId(v);
    a.mem_id = t.memory_id;
    // Unsigned in the file; one at or above 2^63 reads negative and is
    // reported as out of bounds.
    a.offset = static_cast<Offset>(t.offset);
    a.size = static_cast<Offset>(t.nbytes);
    a.device = t.device;
    const fb::Tensor* tensor = method.values()->Get(v)->val_as_Tensor();
    a.alignment = std::max<Offset>(
        static_cast<Offset>(ScalarTypeSize(tensor->scalar_type())),
        options.min_alignment);
    if (const auto* extra = tensor->extra_tensor_info()) {
      const flatbuffers::String* name = extra->fully_qualified_name();
      if (name != nullptr && name->size() > 0) {
        std::shared_ptr<const std::string>& interned = names_by_offset[name];
        if (!interned) {
          interned = std::make_shared<const std::string>(name->str());
        }
        a.shared_name = interned;
      }
    }
    const bool named_somewhere = last[v] >= 0;
    if (named_somewhere) {
      a.lifetime = {first[v], last[v]};
      a.first_named = first[v];
    } else if (is_input[v] || is_output[v]) {
      // An input no instruction reads is needed only as the method starts
      // (an unnamed output only as it ends); the rules below widen these.
      a.lifetime = is_input[v] ? Lifetime{0, 0} : Lifetime{end_time, end_time};
    } else {
      // Nothing says when it is used: assume the whole program.
      a.lifetime = {0, end_time};
    }
    if (is_input[v]) {
      a.kind = SpecKind::kInput;
      a.lifetime.first = 0;
    } else if (is_output[v]) {
      a.kind = SpecKind::kOutput;
    }
    if (is_output[v]) a.lifetime.last = end_time;
    if (t.data_buffer_idx > 0) {
      a.kind = SpecKind::kMutableBuffer;
      a.lifetime = {0, end_time};
    }
    a.lifetime = loops.Widen(a.lifetime);
    // How long the slot names what it holds, which a move into it extends
    // its source to (below).
    slot_named_until.push_back(a.lifetime.last);
    if (own_unnamed[v] && !is_input[v] && t.data_buffer_idx == 0) {
      // Every path moves another tensor into its slot before any other
      // naming: its bytes are never read or written, and meet nothing.
      a.accessed = false;
      a.lifetime = {first[v], first[v]};
    }
    plan.allocations.push_back(std::move(a));
  }

  // A cond's true branch runs instead of its false branch, which lies
  // between the true branch's skip jump and the join: where the slot moved
  // into is named past the join, the true branch's output is live up to
  // its skip jump and again from the join (Allocation::resumed), not over
  // the false branch, whose tensors ExecuTorch plans on the same bytes;
  // and the resumed part may share bytes with the false branch's output
  // moved into the same slot, which never lives in the same run. A move
  // inside several true branches (nested conds) whose slot is named past
  // their ends gets a hole over each of their false branches, each part
  // after one sharing with that branch's output. Where the innermost false
  // output holds all its bytes (as ExecuTorch plans them) its own parts
  // already judge them, and none is added. Where the slot's namings end
  // inside a false branch (its own move), or no move into the slot is
  // found in one, the parts end before it; where that is the innermost,
  // the move is left as the interval model can judge it, without the
  // extension.
  const std::vector<TrueBranch> true_branches = TrueBranches(jumps);
  // Moves are in position order: the true branches the move lies in, as
  // (skip, join), innermost (least skip) first.
  using SkipJoin = std::pair<TimeValue, TimeValue>;
  std::set<SkipJoin> open_branches;
  size_t next_branch = 0;
  // The moves into each slot, in position order; the last one into `to`
  // within (skip, join): its storage, or -1.
  std::unordered_map<int64_t, std::vector<size_t>> moves_into;
  for (size_t k = 0; k < moves.size(); ++k)
    moves_into[moves[k].to].push_back(k);
  auto false_twin = [&](int64_t to, TimeValue skip, TimeValue join) {
    const std::vector<size_t>& into = moves_into[to];
    auto it = std::lower_bound(
        into.begin(), into.end(), join,
        [&](size_t k, TimeValue at) { return moves[k].at < at; });
    if (it == into.begin()) return int64_t{-1};
    const Move& twin = moves[*std::prev(it)];
    return twin.at > skip ? twin.storage : int64_t{-1};
  };
  // Loops widen each part; parts that come to meet become one (one that
  // meets the first part, or two with different false outputs, shares
  // bytes with nothing). Parts past kMaxResumedParts are dropped, as
  // parts past a false branch that moves nothing into the slot are: a
  // fault shown only there is missed, none invented; and the allocation
  // is not extended again (its last part would span the holes after it).
  std::vector<bool> saturated(plan.allocations.size(), false);
  auto widen = [&](size_t p) {
    Allocation& held = plan.allocations[p];
    held.lifetime = loops.Widen(held.lifetime);
    if (held.resumed.empty()) return;
    for (ResumedPart& part : held.resumed) {
      part.lifetime = loops.Widen(part.lifetime);
    }
    std::sort(held.resumed.begin(), held.resumed.end(),
              [](const ResumedPart& x, const ResumedPart& y) {
                return x.lifetime.first < y.lifetime.first;
              });
    std::vector<ResumedPart> parts;
    for (ResumedPart& part : held.resumed) {
      Lifetime& before = parts.empty() ? held.lifetime : parts.back().lifetime;
      if (part.lifetime.first > before.last + 1) {
        parts.push_back(std::move(part));
        continue;
      }
      before.first = std::min(before.first, part.lifetime.first);
      before.last = std::max(before.last, part.lifetime.last);
      if (!parts.empty() && parts.back().with != part.with) {
        parts.back().with.reset();
      }
    }
    if (parts.size() > kMaxResumedParts) {
      parts.resize(kMaxResumedParts);
      saturated[p] = true;
    }
    held.resumed = std::move(parts);
  };
  // Slots that name true-branch outputs on the paths through their
  // branches, with resumed parts: the slot they were moved into, and every
  // slot moved on from there after the innermost join (the slot itself
  // follows the false branch's move, the last one in position order).
  // Latest first, at most kMaxCarriedOutputs a slot.
  struct TrueOutput {
    size_t allocation;
    // The false branches its holes are over, as (skip, join): a move into
    // the slot there is one its paths skip, which does not replace it.
    std::vector<SkipJoin> holes;
  };
  using TrueOutputs = std::vector<TrueOutput>;
  std::unordered_map<int64_t, TrueOutputs> true_outputs_of;  // By slot.
  // Adds `outputs` to what `slot` names, before what it named already.
  auto add_true_outputs = [&](int64_t slot, TrueOutputs outputs) {
    TrueOutputs& named = true_outputs_of[slot];
    for (TrueOutput& before : named) {
      if (outputs.size() == kMaxCarriedOutputs) break;
      if (std::none_of(outputs.begin(), outputs.end(),
                       [&](const TrueOutput& output) {
                         return output.allocation == before.allocation;
                       })) {
        outputs.push_back(std::move(before));
      }
    }
    named = std::move(outputs);
  };
  // A moved-from tensor's bytes live as long as a slot moved to names them
  // (its own lifetime's end, or a method output's: the run's end).
  for (const Move& m : moves) {
    // A move from a slot that names true outputs on their paths carries
    // them on too; a move into a slot replaces what it named.
    auto carried_it = true_outputs_of.find(m.from);
    const std::optional<TrueOutputs> carried =
        carried_it == true_outputs_of.end()
            ? std::nullopt
            : std::optional<TrueOutputs>(carried_it->second);
    auto replaced = true_outputs_of.find(m.to);
    if (replaced != true_outputs_of.end()) {
      TrueOutputs& outputs = replaced->second;
      outputs.erase(
          std::remove_if(outputs.begin(), outputs.end(),
                         [&](const TrueOutput& output) {
                           return std::none_of(
                               output.holes.begin(), output.holes.end(),
                               [&](const SkipJoin& hole) {
                                 return hole.first < m.at && m.at < hole.second;
                               });
                         }),
          outputs.end());
      if (outputs.empty()) true_outputs_of.erase(replaced);
    }
    while (next_branch < true_branches.size() &&
           true_branches[next_branch].entry < m.at) {
      const TrueBranch& branch = true_branches[next_branch++];
      open_branches.insert({branch.skip, branch.join});
    }
    open_branches.erase(open_branches.begin(),
                        open_branches.lower_bound(
                            {m.at + 1, std::numeric_limits<TimeValue>::min()}));
    if (planned_of[m.storage] == kNotPlanned) continue;
    TimeValue reach = last[m.to];
    if (planned_of[m.to] != kNotPlanned) {
      reach = slot_named_until[planned_of[m.to]];
    } else if (is_output[m.to]) {
      reach = end_time;
    }
    // What the slot names from here on: the moved storage, and on the paths
    // through true branches, the outputs carried with it.
    std::vector<size_t> named = {planned_of[m.storage]};
    if (carried) {
      for (const TrueOutput& output : *carried) {
        if (output.allocation != named.front()) {
          named.push_back(output.allocation);
        }
      }
    }
    // The true branches whose ends the namings pass, innermost first: up
    // to one past kMaxResumedParts (the parts end before the next one's
    // false branch).
    std::vector<SkipJoin> passed;
    for (auto it = open_branches.begin();
         it != open_branches.end() && it->first < reach &&
         passed.size() <= kMaxResumedParts;
         ++it) {
      passed.push_back(*it);
    }
    if (!passed.empty()) {
      // A hole over each false branch passed, innermost first, while the
      // namings reach its join and a move into the slot is found in it.
      const size_t max_holes = std::min(passed.size(), kMaxResumedParts);
      std::vector<const Allocation*> twins;
      while (twins.size() < max_holes) {
        const auto [skip, join] = passed[twins.size()];
        if (reach < join) break;
        const int64_t twin = false_twin(m.to, skip, join);
        if (twin < 0 || planned_of[twin] == kNotPlanned) break;
        twins.push_back(&plan.allocations[planned_of[twin]]);
      }
      if (twins.empty()) continue;
      const std::vector<SkipJoin> holes(passed.begin(),
                                        passed.begin() + twins.size());
      TrueOutputs outputs;
      for (size_t p : named) {
        if (saturated[p]) continue;
        Allocation& held = plan.allocations[p];
        const Allocation& inner = *twins.front();
        if (inner.mem_id == held.mem_id && inner.offset <= held.offset &&
            static_cast<__int128>(held.offset) + held.size <=
                static_cast<__int128>(inner.offset) + inner.size) {
          continue;
        }
        Lifetime& tail = held.last_part();
        tail.last = std::max(tail.last, passed.front().first);
        for (size_t k = 0; k < twins.size(); ++k) {
          // Up to the next branch's end, or where the namings end once
          // every branch passed has its hole.
          const TimeValue end =
              k + 1 < passed.size() ? passed[k + 1].first : reach;
          // Branches that cross rather than nest (only a crafted file has
          // them) would give a part that ends before it begins: none then.
          if (end < passed[k].second) break;
          held.resumed.push_back({{passed[k].second, end}, twins[k]->id});
        }
        widen(p);
        held.kept_by_move = m.at;
        if (outputs.size() < kMaxCarriedOutputs) {
          outputs.push_back({p, holes});
        }
      }
      // Carried on past a branch's end with no hole over its false branch,
      // they would span it.
      if (twins.size() == passed.size() && !outputs.empty()) {
        add_true_outputs(m.to, std::move(outputs));
      }
      continue;
    }
    // The last part lives on.
    for (size_t p : named) {
      if (saturated[p]) continue;
      Allocation& held = plan.allocations[p];
      Lifetime& tail = held.last_part();
      if (reach > tail.last) {
        tail.last = reach;
        widen(p);
        held.kept_by_move = m.at;
      }
    }
    if (carried) add_true_outputs(m.to, *carried);
  }

  // The base of each storage group: a member no operator made an alias,
  // then the largest, the earliest, the lowest value index.
  std::unordered_map<size_t, size_t> base_of_group;
  auto rank = [&](size_t p) {
    const Allocation& a = plan.allocations[p];
    return std::make_tuple(aliased_by[p] != AliasRule::kNone, -a.size,
                           a.lifetime.first, p);
  };
  for (size_t p = 0; p < tensors.size(); ++p) {
    auto [it, inserted] = base_of_group.emplace(storage.Find(p), p);
    if (!inserted && rank(p) < rank(it->second)) it->second = p;
  }
  // State without initial data, as ExecuTorch emits a mutated buffer by
  // default: a storage group that no method input or output is in, and
  // - whose first naming is as the self of an in-place op that reads it (an
  //   update made in place, as reinplacing leaves index_put_ on a KV
  //   cache): what it reads an earlier execution left; or
  // - whose last instruction copies into it (aten::copy_, the write-back
  //   insert_write_back_for_buffers_pass adds) and whose first naming is
  //   not certainly a write: what the copy leaves only a later execution
  //   can read, and what the first read sees an earlier one left.
  // Its base lives for the whole program. An in-place update that is the
  // last write but not the first naming is not taken as state: in the file
  // it cannot be told from a dead write.
  // group_first: the group's first access (INT64_MAX: only views name it).
  std::unordered_map<size_t, TimeValue> group_first, group_last;
  std::unordered_map<size_t, bool> group_io;
  for (size_t p = 0; p < tensors.size(); ++p) {
    const uint32_t v = tensors[p].value_index;
    const size_t g = storage.Find(p);
    group_io[g] = group_io[g] || is_input[v] || is_output[v];
    if (last[v] < 0) continue;
    auto [f, f_new] = group_first.emplace(g, first_access[v]);
    if (!f_new) f->second = std::min(f->second, first_access[v]);
    auto [l, l_new] = group_last.emplace(g, last[v]);
    if (!l_new) l->second = std::max(l->second, last[v]);
  }
  std::unordered_map<size_t, bool> writes_last, may_read_first,
      reads_earlier_run;
  for (size_t p = 0; p < tensors.size(); ++p) {
    const uint32_t v = tensors[p].value_index;
    const size_t g = storage.Find(p);
    if (last[v] < 0) continue;
    writes_last[g] = writes_last[g] || copied_into_at[v] == group_last.at(g);
    may_read_first[g] =
        may_read_first[g] ||
        (first_access[v] == group_first.at(g) && !first_written[v]);
    reads_earlier_run[g] =
        reads_earlier_run[g] ||
        (first_access[v] == group_first.at(g) && first_read_in_place[v]);
  }
  for (const auto& [g, base] : base_of_group) {
    if (group_io[g] ||
        !(reads_earlier_run[g] || (writes_last[g] && may_read_first[g]))) {
      continue;
    }
    Allocation& a = plan.allocations[base];
    a.kind = SpecKind::kMutableBuffer;
    a.lifetime = {0, end_time};
  }

  for (size_t p = 0; p < tensors.size(); ++p) {
    size_t base = base_of_group[storage.Find(p)];
    if (base == p) continue;
    Allocation& a = plan.allocations[p];
    a.alias_of = plan.allocations[base].id;
    if (a.kind != SpecKind::kMutableBuffer) {
      a.kind = aliased_by[p] == AliasRule::kInPlace ? SpecKind::kInPlace
                                                    : SpecKind::kView;
    }
  }
  return plan;
}

}  // namespace properties
}  // namespace memplan
