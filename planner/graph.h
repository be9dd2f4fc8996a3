// The planner's graph IR: tensor specs and nodes in execution order.
//
// A Graph is valid by construction: AddTensor and AddNode refuse duplicate
// names, unknown or later bases, sizes that overflow 64 bits and values used
// before any node defines them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "planner/spec.h"
#include "runtime/core/device.h"
#include "runtime/core/result.h"

namespace memplan {
namespace planner {

// Index of a tensor value in Graph::tensors().
using ValueId = int32_t;

// One tensor value. Owning kinds store a device; views and in-place outputs
// store only their base, so their device cannot disagree with it (the
// ExecuTorch _ViewSpec bug, where a view lost device_index, cannot happen).
class TensorSpec {
 public:
  static TensorSpec Owning(std::string name, SpecKind kind, ScalarType dtype,
                           std::vector<int64_t> shape,
                           Device device = Device::Cpu());
  // kind must be kView or kInPlace.
  static TensorSpec Alias(std::string name, SpecKind kind, ScalarType dtype,
                          std::vector<int64_t> shape, ValueId base);

  std::string name;
  ScalarType dtype = ScalarType::FLOAT;
  std::vector<int64_t> shape;
  Dynamism dynamism = Dynamism::kStatic;
  uint64_t alignment = 0;  // 0: the planner's global alignment.
  // Pre-assigned custom pool, 1 to kMaxMemId.
  std::optional<uint32_t> mem_id;

  SpecKind kind() const { return kind_; }
  bool is_alias() const { return std::holds_alternative<ValueId>(storage_); }
  // The base of a view / in-place output; nullopt for owning kinds.
  std::optional<ValueId> base() const;
  // The device of an owning kind; nullopt for aliases (ask the Graph).
  std::optional<Device> own_device() const;

 private:
  TensorSpec(SpecKind kind, std::variant<Device, ValueId> storage)
      : kind_(kind), storage_(storage) {}

  SpecKind kind_;
  std::variant<Device, ValueId> storage_;
};

struct Node {
  std::string name;
  std::string op;                // Operator name, e.g. "aten::matmul".
  std::vector<ValueId> inputs;   // Values the node reads.
  std::vector<ValueId> outputs;  // Values the node defines.
  std::vector<ValueId> scratch;  // kScratch values reserved for this node.
};

class Graph {
 public:
  explicit Graph(std::string name = "forward") : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  const std::vector<TensorSpec>& tensors() const { return tensors_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const TensorSpec& tensor(ValueId id) const { return tensors_[id]; }

  // Errors: duplicate name, alias base not yet added, non-alias kind with
  // a base, negative dims, bytes over INT64_MAX, alignment not a power of
  // two, a view larger than its base, mem_id 0 or above kMaxMemId.
  // Buffers are numbered up to the highest mem_id, one each: a mem_id of
  // 4e9 in a three-line graph made the planner allocate 4e9 buffers.
  static constexpr uint32_t kMaxMemId = 65535;
  Result<ValueId> AddTensor(TensorSpec spec);
  // Errors: unknown ids, an input used before any node defined it, a
  // scratch list naming a non-scratch value (or scratch used as in/out).
  Error AddNode(Node node);

  std::optional<ValueId> Find(std::string_view name) const;
  // Follows view / in-place chains to the value that owns the bytes.
  ValueId RootOf(ValueId id) const;
  // The device of any value; aliases read their root's.
  Device DeviceOf(ValueId id) const;
  // Element size * product of dims; checked when the tensor was added.
  uint64_t NumBytes(ValueId id) const { return num_bytes_[id]; }

 private:
  // Whether a node may read id: it or a base down its alias chain is
  // defined; marks it so when it is.
  bool MarkAvailable(ValueId id);

  std::string name_;
  std::vector<TensorSpec> tensors_;
  std::vector<uint64_t> num_bytes_;
  // Defined by a node so far (or a source), or an alias found to be of
  // one.
  std::vector<bool> available_;
  std::vector<ValueId> roots_;  // RootOf each, set as it is added.
  std::vector<Node> nodes_;
  std::unordered_map<std::string, ValueId> by_name_;
};

// Bytes of dtype * dims, or an error naming the tensor when a dim is
// negative, the type has no size, or the product overflows int64.
Result<uint64_t> ComputeNumBytes(const std::string& name, ScalarType dtype,
                                 const std::vector<int64_t>& shape);

}  // namespace planner
}  // namespace memplan
