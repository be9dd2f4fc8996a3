#include "planner/memory_planner.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <memory>

#include "planner/lower_bound.h"
#include "runtime/core/checked_math.h"

namespace memplan {
namespace planner {
namespace {

// The items of one buffer: one custom pool (or the automatic pool 0) on
// one device.
struct Partition {
  uint32_t pool = 0;
  Device device;
  uint32_t mem_id = 0;
  std::vector<ValueId> roots;  // Item i is the root tensor roots[i].
  std::vector<PlanItem> items;
};

struct Candidate {
  std::vector<Placement> placements;  // One per partition.
  AlgorithmStats stats;
  // Why it failed, when stats.error is set: an input the algorithm refused
  // keeps the algorithm's code, so the caller is not told memplan broke.
  ErrorCode error_code = ErrorCode::kOk;
};

// A root's offset alignment: the global one, raised by the spec's own and by
// its element size, so that a double never lands at offset 4 when the global
// alignment is smaller than 8.
// widest_element: the largest element size among the root and its aliases
// (a double view of an int16 root must still land 8-aligned).
uint64_t RootAlignment(const TensorSpec& root, uint64_t widest_element,
                       const PlanOptions& options) {
  return std::max({uint64_t{1}, options.alignment, root.alignment,
                   ScalarTypeSize(root.dtype), widest_element});
}

// Largest element size over each root's family, indexed by root id.
std::vector<uint64_t> WidestElementPerRoot(const Graph& graph) {
  std::vector<uint64_t> widest(graph.tensors().size(), 1);
  for (size_t i = 0; i < graph.tensors().size(); ++i) {
    ValueId id = static_cast<ValueId>(i);
    uint64_t& w = widest[graph.RootOf(id)];
    w = std::max(w, ScalarTypeSize(graph.tensor(id).dtype));
  }
  return widest;
}

Result<std::vector<Partition>> BuildPartitions(
    const Graph& graph, const std::vector<ValueLifetime>& lifetimes,
    const std::vector<uint64_t>& widest, const PlanOptions& options) {
  std::map<std::pair<uint32_t, Device>, size_t> index;
  std::map<uint32_t, ValueId> pool_owner;  // First tensor seen in a pool.
  std::vector<Partition> partitions;
  for (size_t i = 0; i < graph.tensors().size(); ++i) {
    ValueId id = static_cast<ValueId>(i);
    const TensorSpec& spec = graph.tensor(id);
    if (spec.is_alias() || !lifetimes[i].planned) continue;
    Device device =
        options.device_planning ? graph.DeviceOf(id) : Device::Cpu();
    uint32_t pool = spec.mem_id.value_or(0);
    if (pool != 0) {
      auto [owner, inserted] = pool_owner.emplace(pool, id);
      Device owner_device = options.device_planning
                                ? graph.DeviceOf(owner->second)
                                : Device::Cpu();
      if (!inserted && owner_device != device) {
        return Error(ErrorCode::kInvalidArgument,
                     "custom pool mem_id=" + std::to_string(pool) + " holds '" +
                         graph.tensor(owner->second).name + "' on " +
                         owner_device.ToString() + " and '" + spec.name +
                         "' on " + device.ToString() +
                         ": a buffer cannot span two devices");
      }
    }
    uint64_t alignment = RootAlignment(spec, widest[id], options);
    uint64_t size = 0;
    if (!CheckedAlignUp(graph.NumBytes(id), alignment, &size)) {
      return Error(ErrorCode::kInvalidArgument,
                   "tensor '" + spec.name +
                       "': " + std::to_string(graph.NumBytes(id)) +
                       " bytes aligned to " + std::to_string(alignment) +
                       " overflow 64 bits");
    }
    auto [it, inserted] =
        index.emplace(std::make_pair(pool, device), partitions.size());
    if (inserted) {
      partitions.push_back(Partition{pool, device, 0, {}, {}});
    }
    Partition& partition = partitions[it->second];
    partition.roots.push_back(id);
    partition.items.push_back(
        PlanItem{size, alignment, lifetimes[i].first, lifetimes[i].last});
  }
  // Custom pools keep their id; automatic buffers follow the highest one.
  uint32_t next_id = 1;
  for (const auto& [pool, owner] : pool_owner) next_id = pool + 1;
  std::vector<Partition*> automatic;
  for (Partition& partition : partitions) {
    if (partition.pool != 0) {
      partition.mem_id = partition.pool;
    } else {
      automatic.push_back(&partition);
    }
  }
  std::sort(automatic.begin(), automatic.end(),
            [](const Partition* a, const Partition* b) {
              return a->device < b->device;
            });
  for (Partition* partition : automatic) {
    if (next_id == 0) {
      return Error(ErrorCode::kInvalidArgument,
                   "buffer ids overflow 32 bits after the custom pools");
    }
    partition->mem_id = next_id++;
  }
  return partitions;
}

Candidate RunAlgorithm(const Algorithm& algorithm,
                       const std::vector<Partition>& partitions,
                       const PlanOptions& options) {
  Candidate candidate;
  candidate.stats.name = algorithm.name();
  candidate.stats.proven_optimal = true;
  auto start = std::chrono::steady_clock::now();
  for (const Partition& partition : partitions) {
    Result<Placement> placement =
        algorithm.Place(partition.items, options.algorithm_options);
    if (!placement.ok()) {
      candidate.stats.error = "mem_id " + std::to_string(partition.mem_id) +
                              " (" + partition.device.ToString() +
                              "): " + placement.error().ToString();
      candidate.error_code = placement.error().code();
      break;
    }
    if (placement->offsets.size() != partition.items.size()) {
      candidate.error_code = ErrorCode::kInternal;
      candidate.stats.error =
          "returned " + std::to_string(placement->offsets.size()) +
          " offsets for " + std::to_string(partition.items.size()) + " items";
      break;
    }
    uint64_t size = 0;
    if (!CheckedAdd(placement->height, options.buffer_padding, &size) ||
        !CheckedAdd(candidate.stats.total_bytes, size,
                    &candidate.stats.total_bytes)) {
      // Sizes and padding are the caller's.
      candidate.error_code = ErrorCode::kInvalidArgument;
      candidate.stats.error = "total bytes overflow 64 bits";
      break;
    }
    candidate.stats.proven_optimal &= placement->proven_optimal;
    candidate.placements.push_back(std::move(*placement));
  }
  candidate.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!candidate.stats.error.empty()) candidate.stats.proven_optimal = false;
  return candidate;
}

Error CheckCapacity(const PlanResult& result, const PlanOptions& options) {
  std::map<Device, uint64_t> needed;
  for (const BufferInfo& buffer : result.buffers) {
    uint64_t& total = needed[buffer.device];
    if (!CheckedAdd(total, buffer.size, &total)) total = UINT64_MAX;
  }
  for (const auto& [device, capacity] : options.capacity) {
    auto it = needed.find(device);
    if (it == needed.end() || it->second <= capacity) continue;
    return Error(ErrorCode::kResourceExhausted,
                 "device " + device.ToString() + " needs " +
                     std::to_string(it->second) + " bytes, capacity is " +
                     std::to_string(capacity) + " bytes (algorithm " +
                     result.algorithm + ")");
  }
  return Error::Ok();
}

}  // namespace

Result<PlanResult> PlanGraph(const Graph& graph, const PlanOptions& options) {
  if (!IsPowerOfTwo(options.alignment)) {
    return Error(ErrorCode::kInvalidArgument,
                 "alignment " + std::to_string(options.alignment) +
                     " is not a power of two");
  }
  if (options.algorithms.empty()) {
    return Error(ErrorCode::kInvalidArgument, "no algorithm given");
  }
  std::vector<std::unique_ptr<Algorithm>> algorithms;
  for (const std::string& name : options.algorithms) {
    algorithms.push_back(MakeAlgorithm(name));
    if (algorithms.back() == nullptr) {
      std::string known;
      for (const std::string& n : AlgorithmNames()) {
        known += (known.empty() ? "" : ", ") + n;
      }
      return Error(ErrorCode::kNotFound,
                   "unknown algorithm '" + name + "' (known: " + known + ")");
    }
  }
  std::vector<ValueLifetime> lifetimes =
      ComputeLifetimes(graph, options.lifetimes);
  const std::vector<uint64_t> widest = WidestElementPerRoot(graph);
  Result<std::vector<Partition>> partitions =
      BuildPartitions(graph, lifetimes, widest, options);
  if (!partitions.ok()) return partitions.error();

  PlanResult result;
  result.graph_name = graph.name();
  std::vector<Candidate> candidates;
  int best = -1;
  for (const std::unique_ptr<Algorithm>& algorithm : algorithms) {
    candidates.push_back(RunAlgorithm(*algorithm, *partitions, options));
    result.algorithms.push_back(candidates.back().stats);
    const AlgorithmStats& stats = candidates.back().stats;
    if (stats.error.empty() &&
        (best < 0 || stats.total_bytes < candidates[best].stats.total_bytes)) {
      best = static_cast<int>(candidates.size()) - 1;
    }
  }
  if (best < 0) {
    return Error(candidates[0].error_code,
                 "every algorithm failed; first: " + result.algorithms[0].name +
                     ": " + result.algorithms[0].error);
  }
  const Candidate& chosen = candidates[best];
  result.algorithm = chosen.stats.name;

  uint32_t num_buffers = 0;
  for (const Partition& p : *partitions)
    num_buffers = std::max(num_buffers, p.mem_id);
  result.buffers.resize(num_buffers);
  for (uint32_t i = 0; i < num_buffers; ++i) result.buffers[i].mem_id = i + 1;

  // Where each root landed: (mem_id, offset, alignment).
  std::vector<const Partition*> root_partition(graph.tensors().size());
  std::vector<uint64_t> root_offset(graph.tensors().size());
  for (size_t p = 0; p < partitions->size(); ++p) {
    const Partition& partition = (*partitions)[p];
    BufferInfo& buffer = result.buffers[partition.mem_id - 1];
    buffer.device = partition.device;
    buffer.size = chosen.placements[p].height + options.buffer_padding;
    buffer.aligned_lower_bound = LiveBytesLowerBound(partition.items);
    for (size_t i = 0; i < partition.roots.size(); ++i) {
      root_partition[partition.roots[i]] = &partition;
      root_offset[partition.roots[i]] = chosen.placements[p].offsets[i];
    }
  }
  for (size_t i = 0; i < graph.tensors().size(); ++i) {
    ValueId id = static_cast<ValueId>(i);
    const TensorSpec& spec = graph.tensor(id);
    ValueId root = graph.RootOf(id);
    TensorAllocation t;
    t.name = spec.name;
    t.value_id = id;
    t.kind = spec.kind();
    t.size = graph.NumBytes(id);
    t.lifetime = lifetimes[i];  // Its Lifetime part.
    t.device = options.device_planning ? graph.DeviceOf(id) : Device::Cpu();
    t.alignment = RootAlignment(graph.tensor(root), widest[root], options);
    if (root != id) t.alias_of = graph.tensor(root).name;
    if (const Partition* partition = root_partition[root]) {
      t.planned = true;
      t.mem_id = partition->mem_id;
      t.offset = root_offset[root];
    }
    result.tensors.push_back(std::move(t));
  }
  MEMPLAN_RETURN_IF_ERROR(CheckCapacity(result, options));
  return result;
}

Result<std::pair<Device, uint64_t>> ParseCapacity(std::string_view text) {
  size_t eq = text.find('=');
  if (eq == std::string_view::npos) {
    return Error(ErrorCode::kInvalidArgument,
                 "capacity '" + std::string(text) +
                     "' is not DEVICE=BYTES (e.g. cuda:0=1048576)");
  }
  std::optional<Device> device = ParseDevice(text.substr(0, eq));
  if (!device) {
    return Error(ErrorCode::kInvalidArgument,
                 "capacity '" + std::string(text) + "': unknown device '" +
                     std::string(text.substr(0, eq)) + "'");
  }
  std::string_view digits = text.substr(eq + 1);
  uint64_t bytes = 0;
  auto [end, ec] =
      std::from_chars(digits.data(), digits.data() + digits.size(), bytes);
  if (digits.empty() || ec != std::errc() ||
      end != digits.data() + digits.size()) {
    return Error(ErrorCode::kInvalidArgument,
                 "capacity '" + std::string(text) + "': bytes '" +
                     std::string(digits) +
                     "' is not an integer that fits in 64 bits");
  }
  return std::make_pair(*device, bytes);
}

}  // namespace planner
}  // namespace memplan
