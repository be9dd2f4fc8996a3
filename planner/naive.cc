#include "planner/naive.h"

#include "planner/lower_bound.h"
#include "runtime/core/checked_math.h"

namespace memplan {
namespace planner {

Result<Placement> NaiveAlgorithm::Place(const std::vector<PlanItem>& items,
                                        const AlgorithmOptions&) const {
  MEMPLAN_RETURN_IF_ERROR(ValidatePlanItems(items));
  Placement placement;
  placement.offsets.reserve(items.size());
  // ValidatePlanItems bounded sum(size + alignment - 1), so no step overflows.
  uint64_t cursor = 0;
  for (const PlanItem& item : items) {
    uint64_t offset = 0;
    CheckedAlignUp(cursor, item.alignment, &offset);
    placement.offsets.push_back(offset);
    cursor = offset + item.size;
  }
  placement.height = PlacementHeight(items, placement.offsets);
  return placement;
}

}  // namespace planner
}  // namespace memplan
