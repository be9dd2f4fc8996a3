#include "planner/graph.h"

#include <limits>

#include "runtime/core/checked_math.h"

namespace memplan {
namespace planner {

TensorSpec TensorSpec::Owning(std::string name, SpecKind kind, ScalarType dtype,
                              std::vector<int64_t> shape, Device device) {
  TensorSpec spec(kind, device);
  spec.name = std::move(name);
  spec.dtype = dtype;
  spec.shape = std::move(shape);
  return spec;
}

TensorSpec TensorSpec::Alias(std::string name, SpecKind kind, ScalarType dtype,
                             std::vector<int64_t> shape, ValueId base) {
  TensorSpec spec(kind, base);
  spec.name = std::move(name);
  spec.dtype = dtype;
  spec.shape = std::move(shape);
  return spec;
}

std::optional<ValueId> TensorSpec::base() const {
  if (const ValueId* base = std::get_if<ValueId>(&storage_)) return *base;
  return std::nullopt;
}

std::optional<Device> TensorSpec::own_device() const {
  if (const Device* device = std::get_if<Device>(&storage_)) return *device;
  return std::nullopt;
}

Result<uint64_t> ComputeNumBytes(const std::string& name, ScalarType dtype,
                                 const std::vector<int64_t>& shape) {
  uint64_t bytes = ScalarTypeSize(dtype);
  if (bytes == 0) {
    return Error(ErrorCode::kInvalidArgument, "tensor '" + name + "': dtype " +
                                                  ScalarTypeName(dtype) +
                                                  " has no byte size");
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) {
      return Error(ErrorCode::kInvalidArgument,
                   "tensor '" + name + "': shape[" + std::to_string(i) +
                       "] = " + std::to_string(shape[i]) + ", must be >= 0");
    }
    if (!CheckedMul(bytes, static_cast<uint64_t>(shape[i]), &bytes) ||
        bytes > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Error(ErrorCode::kInvalidArgument,
                   "tensor '" + name +
                       "': size in bytes overflows 64 bits at "
                       "shape[" +
                       std::to_string(i) + "] = " + std::to_string(shape[i]));
    }
  }
  return bytes;
}

Result<ValueId> Graph::AddTensor(TensorSpec spec) {
  const std::string& name = spec.name;
  if (name.empty()) {
    return Error(ErrorCode::kInvalidArgument, "tensor name is empty");
  }
  if (by_name_.count(name) != 0) {
    return Error(ErrorCode::kAlreadyExists,
                 "duplicate tensor name '" + name + "'");
  }
  if (IsAlias(spec.kind()) != spec.is_alias()) {
    return Error(
        ErrorCode::kInvalidArgument,
        "tensor '" + name + "': kind " + SpecKindName(spec.kind()) +
            (spec.is_alias() ? " cannot have a base" : " needs a base"));
  }
  if (spec.alignment != 0 && !IsPowerOfTwo(spec.alignment)) {
    return Error(ErrorCode::kInvalidArgument,
                 "tensor '" + name + "': alignment " +
                     std::to_string(spec.alignment) + " is not a power of two");
  }
  if (spec.mem_id.has_value() && *spec.mem_id == 0) {
    return Error(ErrorCode::kInvalidArgument,
                 "tensor '" + name + "': mem_id 0 is reserved for constants");
  }
  if (spec.mem_id.has_value() && *spec.mem_id > kMaxMemId) {
    return Error(ErrorCode::kInvalidArgument,
                 "tensor '" + name + "': mem_id " +
                     std::to_string(*spec.mem_id) + " is above " +
                     std::to_string(kMaxMemId) +
                     " (every id up to the highest gets a buffer)");
  }
  Result<uint64_t> bytes = ComputeNumBytes(name, spec.dtype, spec.shape);
  if (!bytes.ok()) return bytes.error();
  if (std::optional<ValueId> base = spec.base()) {
    if (*base < 0 || static_cast<size_t>(*base) >= tensors_.size()) {
      return Error(ErrorCode::kNotFound,
                   "tensor '" + name + "': base id " + std::to_string(*base) +
                       " is not a tensor added before it (" +
                       std::to_string(tensors_.size()) + " so far)");
    }
    if (spec.mem_id.has_value()) {
      return Error(ErrorCode::kInvalidArgument,
                   "tensor '" + name +
                       "': an alias uses its base's pool, "
                       "it cannot set mem_id");
    }
    uint64_t base_bytes = num_bytes_[*base];
    if (*bytes > base_bytes) {
      return Error(ErrorCode::kInvalidArgument,
                   "tensor '" + name + "': " + std::to_string(*bytes) +
                       " bytes, larger than its base '" + tensors_[*base].name +
                       "' (" + std::to_string(base_bytes) + " bytes)");
    }
  }
  ValueId id = static_cast<ValueId>(tensors_.size());
  SpecKind kind = spec.kind();
  by_name_.emplace(name, id);
  // Bases always precede their aliases: a root is known once, not walked
  // to on every RootOf (a chain of 40,000 views took 12 s to plan).
  roots_.push_back(spec.base() ? roots_[*spec.base()] : id);
  tensors_.push_back(std::move(spec));
  num_bytes_.push_back(*bytes);
  available_.push_back(kind == SpecKind::kInput ||
                       kind == SpecKind::kConstant ||
                       kind == SpecKind::kMutableBuffer);
  return id;
}

bool Graph::MarkAvailable(ValueId id) {
  // An alias no node defines is available as soon as its base is: down the
  // chain in a loop, which a chain of any length cannot overflow. Found
  // available, it stays so (nothing is undefined again), and so do the
  // aliases walked on the way: each is walked once, not once per reader.
  ValueId at = id;
  while (!available_[at]) {
    const TensorSpec& spec = tensors_[at];
    if (!spec.is_alias()) return false;
    at = *spec.base();
  }
  for (ValueId x = id; x != at; x = *tensors_[x].base()) available_[x] = true;
  return true;
}

Error Graph::AddNode(Node node) {
  auto where = [&](const char* field, size_t i) {
    return "node " + std::to_string(nodes_.size()) + " '" + node.name +
           "': " + field + "[" + std::to_string(i) + "]";
  };
  auto check_ids = [&](const std::vector<ValueId>& ids,
                       const char* field) -> Error {
    for (size_t i = 0; i < ids.size(); ++i) {
      if (ids[i] < 0 || static_cast<size_t>(ids[i]) >= tensors_.size()) {
        return Error(ErrorCode::kNotFound,
                     where(field, i) + " = " + std::to_string(ids[i]) +
                         ", must be < " + std::to_string(tensors_.size()));
      }
      bool is_scratch = tensors_[ids[i]].kind() == SpecKind::kScratch;
      if (is_scratch != (std::string_view(field) == "scratch")) {
        return Error(ErrorCode::kInvalidArgument,
                     where(field, i) + " = '" + tensors_[ids[i]].name +
                         (is_scratch ? "' is scratch: list it in scratch="
                                     : "' is not a scratch tensor"));
      }
    }
    return Error::Ok();
  };
  MEMPLAN_RETURN_IF_ERROR(check_ids(node.inputs, "in"));
  MEMPLAN_RETURN_IF_ERROR(check_ids(node.outputs, "out"));
  MEMPLAN_RETURN_IF_ERROR(check_ids(node.scratch, "scratch"));
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    if (!MarkAvailable(node.inputs[i])) {
      return Error(ErrorCode::kInvalidArgument,
                   where("in", i) + " = '" + tensors_[node.inputs[i]].name +
                       "' is used before any node defines it");
    }
  }
  for (ValueId out : node.outputs) available_[out] = true;
  for (ValueId s : node.scratch) available_[s] = true;
  nodes_.push_back(std::move(node));
  return Error::Ok();
}

std::optional<ValueId> Graph::Find(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

ValueId Graph::RootOf(ValueId id) const { return roots_[id]; }

Device Graph::DeviceOf(ValueId id) const {
  return *tensors_[RootOf(id)].own_device();
}

}  // namespace planner
}  // namespace memplan
