// Which operators make their output share storage with an input, so that
// the oracle takes the two tensors as one allocation (an alias) instead of
// two that overlap. Only these make an alias in a program file; two tensors
// at the same place are otherwise two allocations, whatever instruction
// names them (see program_plan.h for MoveCall and same-value in-place).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace memplan {
namespace properties {

enum class AliasRule : uint8_t {
  kNone = 0,
  kView,     // A view: the output is a window of the input's bytes.
  kInPlace,  // An in-place ATen op (name ends in one '_'): output is self.
};

struct AliasOp {
  const char* name;    // Operator.name as stored, without the overload.
  const char* source;  // Where the fact comes from.
};

// The documented table (properties/README.md lists it): ExecuTorch's view
// and PyTorch's view operators. In-place ops are matched by name instead.
const std::vector<AliasOp>& KnownViewOps();

// In-place ATen ops that write every byte of self without reading it
// (copy_, fill_, zero_ and the random fills): the rest read self, so an
// in-place op that first names a tensor reads what was there before.
bool OverwritesSelf(std::string_view name);

class AliasOps {
 public:
  // The known table plus `extra`: a backend's own view operators, named
  // as Operator.name ("my_backend::reinterpret"), with or without an
  // ".overload" suffix, which is ignored.
  explicit AliasOps(std::vector<std::string> extra = {});

  // For an instruction running operator `name` (overload not included):
  // its output (the last argument, or the items of the last argument when
  // that is a tensor list) aliases its first tensor argument unless kNone.
  AliasRule RuleOf(std::string_view name) const;

 private:
  std::vector<std::string> extra_;
};

}  // namespace properties
}  // namespace memplan
