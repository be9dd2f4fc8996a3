#include "planner/lifetimes.h"

#include <algorithm>

namespace memplan {
namespace planner {
namespace {

bool KindIsPlanned(SpecKind kind, const LifetimeOptions& options) {
  switch (kind) {
    case SpecKind::kInput:
      return options.plan_inputs;
    case SpecKind::kOutput:
      return options.plan_outputs;
    case SpecKind::kMutableBuffer:
      return options.plan_mutable_buffers;
    case SpecKind::kConstant:
      return false;
    default:
      return true;
  }
}

struct Span {
  bool touched = false;
  TimeValue first = 0;
  TimeValue last = 0;

  void Cover(TimeValue a, TimeValue b) {
    if (!touched) {
      first = a;
      last = b;
      touched = true;
      return;
    }
    first = std::min(first, a);
    last = std::max(last, b);
  }
};

}  // namespace

std::vector<ValueLifetime> ComputeLifetimes(const Graph& graph,
                                            const LifetimeOptions& options) {
  const std::vector<TensorSpec>& tensors = graph.tensors();
  const TimeValue end =
      std::max<TimeValue>(0, static_cast<TimeValue>(graph.nodes().size()) - 1);
  std::vector<Span> own(tensors.size());
  for (size_t pos = 0; pos < graph.nodes().size(); ++pos) {
    const Node& node = graph.nodes()[pos];
    TimeValue t = static_cast<TimeValue>(pos);
    for (ValueId id : node.inputs) own[id].Cover(t, t);
    for (ValueId id : node.outputs) own[id].Cover(t, t);
    for (ValueId id : node.scratch) own[id].Cover(t, t);
  }
  // Kind rules apply to the value's own span, before aliases fold in.
  for (size_t id = 0; id < tensors.size(); ++id) {
    switch (tensors[id].kind()) {
      case SpecKind::kInput:
        own[id].Cover(0, own[id].touched ? own[id].last : 0);
        break;
      case SpecKind::kOutput:
        own[id].Cover(own[id].touched ? own[id].first : end, end);
        break;
      case SpecKind::kMutableBuffer:
        own[id].Cover(0, end);
        break;
      default:
        break;
    }
  }
  // A root must hold its bytes for as long as any alias of it is live.
  std::vector<Span> root_span = own;
  for (size_t id = 0; id < tensors.size(); ++id) {
    if (!tensors[id].is_alias() || !own[id].touched) continue;
    ValueId root = graph.RootOf(static_cast<ValueId>(id));
    root_span[root].Cover(own[id].first, own[id].last);
  }
  std::vector<ValueLifetime> lifetimes(tensors.size());
  for (size_t id = 0; id < tensors.size(); ++id) {
    ValueId root = graph.RootOf(static_cast<ValueId>(id));
    const TensorSpec& root_spec = tensors[root];
    const Span& span = tensors[id].is_alias() ? own[id] : root_span[id];
    const Span& fallback = root_span[root];
    ValueLifetime& lifetime = lifetimes[id];
    lifetime.planned = root_span[root].touched &&
                       root_spec.dynamism != Dynamism::kDynamicUnbound &&
                       KindIsPlanned(root_spec.kind(), options);
    const Span& chosen = span.touched ? span : fallback;
    lifetime.first = chosen.first;
    lifetime.last = chosen.last;
  }
  return lifetimes;
}

}  // namespace planner
}  // namespace memplan
