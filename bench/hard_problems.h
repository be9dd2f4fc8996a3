// Hard placement problems with known optima, built as perfect packings.
//
// A rectangle of H bytes by T time steps is cut into buffers by a sweep over
// time, one op a step: a live buffer ends (short-lived ones far more often),
// sometimes with its neighbours in the stack and now and then with a whole
// band of it; the freed runs of bytes merge into gaps, and each gap is cut
// into a few new buffers that start there (a huge gap first gets one huge
// buffer). Every column stays full, so the peak live bytes equal H and so
// does the optimum; the cuts are not guillotine (pinwheels arise wherever
// gaps straddle older buffers). Sizes are multiples of 64 bytes, of 1 KiB
// from 1 KiB up; most are small, a few huge, and best_fit lands 1.1-1.5x
// above H, as on exported models.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "planner/algorithm.h"

namespace memplan {
namespace bench {

enum class HardFamily {
  kTight,        // Optimum == peak live bytes; alignment 1.
  kUnreachable,  // Tight, then some buffers shrunk: peak live < the
                 // construction's height, the optimum unknown in between.
  kAligned16,    // Packing in multiples of 16, alignment 16, some sizes odd.
  kAligned64,    // The same at 64.
};

// "tight", "unreachable", "aligned16", "aligned64".
const char* HardFamilyName(HardFamily family);

struct HardProblem {
  std::string name;  // "<family>/n=<buffers>/seed=<seed>".
  std::vector<planner::PlanItem> items;
  // The construction's plan: one offset per item, height `optimum`, valid.
  std::vector<uint64_t> construction_offsets;
  // The optimal height; for kUnreachable the construction's height, an upper
  // bound only (optimum_known false).
  uint64_t optimum = 0;
  bool optimum_known = true;
  // max over time of the live bytes, each size rounded up to its alignment.
  uint64_t lower_bound = 0;
};

// Deterministic in (family, buffers, seed); exactly `buffers` items.
HardProblem MakeHardProblem(HardFamily family, size_t buffers, uint64_t seed);

// `phases` one after another in time, nothing live across a seam (as where
// methods or stages share one arena), each lifetime shifted past the last
// phase's. The optimum is the highest phase's (known where every phase's
// is), the construction the phases' own plans, the bound the highest.
HardProblem InSequence(std::string name,
                       const std::vector<HardProblem>& phases);

// The tight, aligned16 and aligned64 problems of 100, 200 and 300 buffers
// of `seed`, and those in sequence: 1,800 items,
// "phased/n=1800/seed=<seed>".
std::vector<HardProblem> PhasesOf(uint64_t seed);
HardProblem MakePhasedProblem(uint64_t seed);

// `streams` side by side on one time axis, each stretched to the longest's
// span (its time t becomes [t * longest / span, (t + 1) * longest / span),
// so its times still tile the axis) and stacked on the ones before, as
// where a model's branches or several models share one arena: many more
// lifetimes meet than in any stream. The optimum is the sum of the
// streams' (known where every stream's is: perfect packings stay perfect),
// the construction the streams' plans stacked. Heights must keep every
// stream's alignment (MakeHardProblem's are multiples of 1 KiB).
HardProblem InParallel(std::string name,
                       const std::vector<HardProblem>& streams);

// `problem` with every size cut by a count of bytes drawn below
// min(bytes, size) from `seed`'s stream, named "cut/" and the rest of its
// name after its first '/': as real models' byte counts, which share no
// coarse grid. The problem's plans (its construction's offsets, say) still
// hold the items; the optimum is unknown (the ratio is to the lower bound).
HardProblem CutSizes(const HardProblem& problem, uint64_t bytes, uint64_t seed);

// `problem` with time run backwards: over its span [lo, hi] each lifetime
// [first, last] becomes [lo + hi - last, lo + hi - first]. The same
// packing (the construction still holds it, the optimum and bound are the
// same), met from the other end by anything that goes through time in
// order: the generator cuts its tilings as time goes forwards.
HardProblem ReversedInTime(const HardProblem& problem);

// The tight, aligned16 and aligned64 problems of 300 and 500 buffers of
// `seed`, and those in parallel: 2,400 items,
// "parallel/n=2400/seed=<seed>".
std::vector<HardProblem> StreamsOf(uint64_t seed);
HardProblem MakeParallelProblem(uint64_t seed);

// Every family at 100, 200, 300, 500, 1000 and 2000 buffers (those up to
// max_buffers), seeds 1..3; deterministic, in that nesting order.
std::vector<HardProblem> HardSuite(size_t max_buffers = 2000);

}  // namespace bench
}  // namespace memplan
