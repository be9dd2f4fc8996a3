#include "properties/overlap_reference.h"

namespace memplan {
namespace properties {

OverlapFindings FindOverlapsReference(const std::vector<OverlapItem>& items,
                                      size_t max_pairs) {
  OverlapFindings findings;
  for (size_t a = 0; a < items.size(); ++a) {
    for (size_t b = a + 1; b < items.size(); ++b) {
      if (!ItemsConflict(items[a], items[b])) continue;
      ++findings.count;
      if (findings.pairs.size() < max_pairs) findings.pairs.push_back({a, b});
    }
  }
  return findings;
}

}  // namespace properties
}  // namespace memplan
