// Loops of a program's instruction graph, and the lifetime rule they impose.
//
// A JumpFalseCall at position t whose destination h is at or before it is a
// loop over [h, t]; forward jumps are branches. Positions number the
// instructions of all chains in order, so a branch's two arms lie one after
// the other and the linear lifetime [first, last] already covers every path
// through them (a value defined before a branch and read after it spans
// both arms). Loops are what the linear order hides: a value that is live
// at a loop's head or read in its body and also named outside it is needed
// again in the next iteration, so it lives through the whole loop.
//
// Rule: a lifetime that overlaps a loop without lying inside it grows to
// cover the loop, until no loop is left half covered. Worked example, loop
// [2,5] (jump at 5 back to 2):
//   w named at 0 and 3 -> [0,3] overlaps [2,5], not inside: becomes [0,5];
//   t named at 3 and 4 -> [3,4] lies inside one iteration: stays [3,4];
//   o named at 4 and 7 -> [4,7] leaves the loop: becomes [2,7].
// Loops that cross without nesting (never emitted by ExecuTorch, possible in
// a hostile file) are merged into one loop over both, which only widens.
//
// Conds: ExecuTorch's emitter lays out torch.cond as a jump on the
// predicate to just past the true branch; the true branch; a jump on a
// constant false (always taken) over the false branch; the false branch.
// Its outputs reach the parent through moves at each branch's end.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "properties/plan.h"

namespace memplan {
namespace properties {

// A JumpFalseCall at `at` to `destination`; `always` where its condition is
// a Bool false that no kernel or delegate call names, so that it always
// jumps (it never falls through to at + 1).
struct Jump {
  TimeValue at = 0;
  TimeValue destination = 0;
  bool always = false;
};

// A cond's true branch: from the jump on the predicate (`entry`, to just
// past `skip`) to the always-taken jump over the false branch (`skip`, to
// `join`).
struct TrueBranch {
  TimeValue entry = 0;
  TimeValue skip = 0;
  TimeValue join = 0;
  bool operator==(const TrueBranch& other) const {
    return entry == other.entry && skip == other.skip && join == other.join;
  }
};

// The true branches of conds: a forward always-taken jump that a forward
// jump from before it lands just past. Sorted by entry, then skip, each
// once; O(jumps log jumps).
std::vector<TrueBranch> TrueBranches(const std::vector<Jump>& jumps);

// Where a value slot is named: by a MoveCall into it (which makes it name
// another tensor and touches none of its own bytes), or otherwise.
struct SlotNamings {
  std::vector<TimeValue> moves_in;
  std::vector<TimeValue> others;
};

// Definite assignment over the instruction graph: each position goes on to
// the next (except an always-taken jump) and a jump also to its
// destination; a run starts at position 0. For each slot, true where every
// path from the start to each of its other namings passes one of its
// moves in first, so that its own tensor is never named. Up to
// kMaxMovedSlots slots are judged, 64 at a time; the rest, and each batch
// that does not settle within kMaxPasses passes or the kMaxMovedWork
// position and jump visits left, are false: not shown, which is the
// cautious answer. O((positions + jumps) x passes x slots / 64).
constexpr size_t kMaxMovedSlots = 1024;
constexpr int kMaxPasses = 64;
constexpr uint64_t kMaxMovedWork = uint64_t{1} << 26;
std::vector<bool> MovedInBeforeEveryNaming(
    TimeValue positions, const std::vector<Jump>& jumps,
    const std::vector<SlotNamings>& slots);

class Loops {
 public:
  // `spans`: [head, tail] of each backward jump; `positions`: instruction
  // count (every head and tail lies in [0, positions)).
  Loops(std::vector<std::pair<TimeValue, TimeValue>> spans,
        TimeValue positions);

  bool empty() const { return loops_.empty(); }
  size_t size() const { return loops_.size(); }
  // The lifetime grown by the rule above; O(log loops).
  Lifetime Widen(Lifetime lifetime) const;

 private:
  struct Loop {
    TimeValue head, tail;
    int32_t depth;
  };
  // The ancestor of loop `node` at `depth` (<= its own depth).
  int32_t AncestorAt(int32_t node, int32_t depth) const;

  std::vector<Loop> loops_;               // Laminar: nested or disjoint.
  std::vector<std::vector<int32_t>> up_;  // up_[k][i]: 2^k-th ancestor, -1.
  std::vector<int32_t> innermost_;        // Per position; -1 outside loops.
};

}  // namespace properties
}  // namespace memplan
