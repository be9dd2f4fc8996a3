#include "properties/plan.h"

#include <algorithm>

namespace memplan {
namespace properties {

Offset AllocationEnd(const Allocation& allocation) {
  Offset end = 0;
  if (__builtin_add_overflow(allocation.offset, allocation.size, &end)) {
    end = allocation.size < 0 ? INT64_MIN : INT64_MAX;
  }
  return end;
}

std::string DescribeAllocation(const Allocation& a) {
  // The end is printed as a 128-bit sum so that an overflowing range still
  // reads as the numbers the file gave.
  __int128 end = static_cast<__int128>(a.offset) + a.size;
  std::string end_text;
  if (end >= INT64_MIN && end <= INT64_MAX) {
    end_text = std::to_string(static_cast<int64_t>(end));
  } else {
    end_text = std::to_string(a.offset) + "+" + std::to_string(a.size);
  }
  std::string resumed;
  for (const ResumedPart& part : a.resumed) {
    resumed += "+[" + std::to_string(part.lifetime.first) + "," +
               std::to_string(part.lifetime.last) + "]";
  }
  return a.id + " [" + std::to_string(a.lifetime.first) + "," +
         std::to_string(a.lifetime.last) + "]" + resumed + " bytes [" +
         std::to_string(a.offset) + "," + end_text + ")";
}

Lifetime LifetimeHull(const Allocation& a) {
  return {a.lifetime.first, a.last_part().last};
}

std::string DescribeInstruction(const Plan& plan, TimeValue position) {
  if (position < 0 ||
      static_cast<uint64_t>(position) >= plan.instruction_kind_of.size()) {
    return "";
  }
  const uint32_t kind = plan.instruction_kind_of[static_cast<size_t>(position)];
  if (kind >= plan.instruction_kinds.size()) return "";
  auto chain = std::upper_bound(plan.chain_starts.begin(),
                                plan.chain_starts.end(), position);
  if (chain == plan.chain_starts.begin()) return "";
  --chain;
  return plan.instruction_kinds[kind] + " at chains[" +
         std::to_string(chain - plan.chain_starts.begin()) + "].instructions[" +
         std::to_string(position - *chain) + "]";
}

std::string QuotedName(std::string_view name) {
  constexpr size_t kMaxShown = 200;
  if (name.size() <= kMaxShown) return "'" + std::string(name) + "'";
  return "'" + std::string(name.substr(0, kMaxShown)) + "...' (" +
         std::to_string(name.size()) + " bytes)";
}

std::string DescribeOrigin(const Plan& plan, const Allocation& a) {
  std::string instruction = DescribeInstruction(plan, a.first_named);
  std::string move = DescribeInstruction(plan, a.kept_by_move);
  if (instruction.empty() && move.empty()) return "";
  std::string origin = " (";
  if (!instruction.empty()) origin += "first named by " + instruction;
  if (!move.empty()) {
    origin += (instruction.empty() ? "" : "; ") +
              std::string("then read through the ") + move;
  }
  return origin + ")";
}

}  // namespace properties
}  // namespace memplan
