#include "planner/multi_fit.h"

#if defined(__linux__)
#include <sched.h>
#endif

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <new>
#include <numeric>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

#include "planner/best_fit.h"
#include "planner/highest_ends.h"
#include "planner/lower_bound.h"
#include "planner/overlap_graph.h"
#include "planner/skyline.h"
#include "planner/splitmix64.h"
#include "planner/time_axis.h"
#include "planner/time_parts.h"
#include "runtime/core/checked_math.h"

namespace memplan {
namespace planner {
namespace {

// Where no dives run (no overlap graph), items the jittered tries may
// place: 1 try at 2,000 items, none above.
constexpr size_t kJitterBudget = 2000;
// Placements held for compaction (bottom-up tries) or a flip (a chain's
// dives): the lowest this many.
constexpr size_t kHeld = 3;
constexpr int kMaxFlips = 4;
// A bottom-up try that looks at more than this many times and items per
// item and time gives up: it bounds many long, nested lifetimes.
constexpr uint64_t kWorkPerItem = 256;

// Squeaky-wheel dives, per chain: at most this many, while their work
// (items plus pairs of overlapping lifetimes, per dive) stays within
// kDiveWork: 50 dives at 2,000 items and pairs, 5 at 20,000; then
// kMinDives dives, within kMaxDiveWork (DiveWork).
// It was 130,000 until the dives' levels were bands (kBandBelowMedian),
// which made the dives better and 4-6% dearer: at 100,000 the generated
// families up to 500 buffers / over 500 / asplos2024 A..K / A..K cut to
// byte counts come out at 1.0856x / 1.2257x / 1.0231x / 1.0274x, against
// 1.0838x / 1.2243x / 1.0212x / 1.0258x at 130,000 (1.0958x / 1.2456x /
// 1.0265x / 1.0737x before the bands; 80,000: 1.0893x / 1.2257x / 1.0239x
// / 1.0286x), in 15% fewer instructions (callgrind, the 12 problems at 500
// buffers: 369.7M against 437.4M; 419.7M before the bands): on one core
// the medians per family at 500 buffers take 4.1-4.6 ms against 4.8-5.1
// ms (4.7-5.1 ms before the bands; three interleaved runs, a quiet hour).
// It was 150,000 until the dives covered levels (see Dives), which made a
// dive cost more; at 150,000 now the generated families up to 500 buffers
// come out at 1.11017x the optimum and asplos2024 B..K at 1.03336x the
// bound, against 1.11096x and 1.03532x, but on one core the medians per
// family at 500 buffers take 5.1-5.3 ms against 4.8-5.1 ms (the dives in
// priority order at 150,000: 4.6-4.8 ms; interleaved runs). The figures
// below were measured at 150,000.
constexpr uint64_t kMaxDives = 50;
constexpr uint64_t kDiveWork = 100'000;
// Where a dive is dearer than kDiveWork / kMinDives (many lifetimes meet:
// real models of a few thousand tensors), each chain still makes kMinDives
// dives, as far as kMaxDiveWork allows (at least one: the dives' overlap
// graph holds up to half of it in pairs, DiveGraph). Until 2026-12-06 none
// ran past 130,000, so multi_fit was best fit's plan there: asplos2024's
// problems overlaid on one time axis, 3 to 11 at a time, each starting
// 0.24-0.74 of the one before's span after it (the first 12 overlays of
// bench/HISTORY.md, 778-2,909 items, 22k-236k pairs), took 1.223x the
// lower bound on average, and take 1.071x in 7.5-74 ms (before
// hard_planner_bench --overlay, shifted a little differently: 1.237x,
// against 1.074x at 4 dives, 1.065x at 8 and 1.065x at 16);
// hard_planner_bench's parallel streams 1.204x -> 1.169x in 65 ms (27 ms).
// On 4,000 random lifetimes the flips' compactions cost more than the
// dives: 468k pairs, 1.016x -> 1.000x the bound in 0.13 s (0.07 s before);
// 918k pairs (2 dives a chain), 1.080x -> 1.023x in 0.26 s; at 1.75M
// pairs no dives (at kMaxDiveWork 4M: 1.106x -> 1.046x, but 0.52 s).
// It was 8 until compaction stopped sorting each item's conflicts afresh
// (GraphPlacer, best_fit.h), which took multi_fit on asplos2024 D and J
// from 4.5-4.9 and 10.1-10.9 ms to about 3.0 and 7.7 ms on one core (a
// warm benchmark loop; in single runs the two are about as fast). At 12
// they take 3.5 and 8.1 ms there and come out at 1.0831x and 1.0476x the
// bound against 1.1038x and 1.0569x (A..K 1.0231x -> 1.0203x); the 15
// overlays 1.0686x -> 1.0660x, the generated families over 500 buffers
// 1.2257x -> 1.2228x (at 1,000 and 2,000 buffers in 8-10 and 16-22 ms,
// about as before the compaction's change), parallel 1.1561x -> 1.1552x;
// up to 500 buffers none has such dives. At 16, D 1.0737x in 4.5 ms.
constexpr uint64_t kMinDives = 12;
constexpr uint64_t kMaxDiveWork = 2'000'000;

// The work a chain's dives may take, each `per_dive` (at most
// kMaxSkylineItems items plus the graph's kMaxDiveWork / 2 pairs, so the
// product does not overflow).
uint64_t DiveWork(uint64_t per_dive) {
  return std::max(kDiveWork, std::min(kMaxDiveWork, kMinDives * per_dive));
}
// Every this many dives a chain starts its squeaky wheel again: from its
// ranks, each raised by up to kStartNoise times the number of items
// (uniform, from a fixed stream), so that a chain tries several regions
// instead of refining the one its ranks put it in. Over the generated
// families up to 500 buffers, the mean over six streams (kJitterSeed's,
// from its first to its sixth value) goes from 1.11096x to 1.10252x the
// optimum (1.0975-1.1054x; the first, the one used, gives 1.09745x), and
// on 8 other seeds per family at 100/200/300/500 buffers from
// 1.0363/1.0796/1.1490/1.1867x to 1.0316/1.0724/1.1450/1.1809x;
// asplos2024 B..K stays about where it was (1.03463x over the six
// streams, 1.03157x on the first, against 1.03532x), and 200 variants of
// it go from 1.02676x to 1.02444x. DiveUntil gains more (below). Every 5,
// 7, 15 or 20 dives: 1.10733x, 1.10621x, 1.10484x, 1.10480x over the six
// streams; noise 0.2, 0.4, 0.5, 1: 1.10519x, 1.10522x, 1.10354x,
// 1.10528x. Restarting from the priorities of the chain's lowest dive
// instead: 1.10521x; keeping a tenth or a quarter of what the wheel
// added: 1.10495x and 1.10602x; adding the noise without starting again:
// no gain (raw dives, 1.117-1.120x against 1.1196x).
constexpr uint64_t kDivesPerStart = 10;
constexpr double kStartNoise = 0.3;
// A dive weighs an item by its lifetime's length (each time counted as
// below) times (1 + its priority) to this power (see Dives). With every
// time counting the same, over the generated families up to 500 buffers /
// on 8 other seeds of them at 500 / asplos2024 B..K: 0.02
// 1.11238x / 1.18811x / 1.05058x, 0.05 1.11087x / 1.18573x / 1.04287x,
// 0.1 1.11511x / 1.19497x / 1.05801x, 0.25 1.12235x / 1.20019x / 1.06478x,
// 0.5 1.13027x / - / 1.07487x, 1 1.13598x / - / 1.07873x; 0 (the
// priorities only break ties) 1.15932x / - / 1.08078x. The length to a
// power of 0.8 or 1.2 instead: 1.21029x and 1.15204x over the families.
constexpr double kPriorityPower = 0.05;
// ... and each time in a lifetime counts as (the bytes live then / the most
// live at any time) to this power (a power of two). On the generated
// families every time holds the optimum's bytes, so there it changes
// nothing (within 0.001x at each size on 8 other seeds). asplos2024 B..K /
// 200 variants of them: 0 (every time counting the same; the figures for
// kPriorityPower above) 1.04287x / 1.04576x, 4 1.04389x / 1.03125x, 8
// 1.03336x / 1.02632x, 16 1.03166x / 1.02607x, 32 1.05017x / 1.03000x, 64
// 1.06421x / 1.04812x. On planner/multi_fit_test's 1,000 small problems,
// 997 optima counting every time the same, 1,000 at 8.
constexpr int kPressurePower = 8;
// A dive's levels are bands of offsets (see Dives): 2^(floor(log2 of the
// median size) - kBandBelowMedian) bytes wide, a quarter to an eighth of
// the median size. multi_fit with bands in both chains of dives (at
// kDiveWork 130,000), over the generated families up to 500 buffers (49
// problems) / over 500 (24) / asplos2024 A..K / A..K with every size cut
// by 0-999 bytes, at kBandBelowMedian 2: 1.0865x / 1.2220x / 1.0234x / 1.0217x;
// 1: 1.0764x / 1.2189x / 1.0373x / 1.0285x; 3: 1.0889x / 1.2301x / 1.0270x
// / 1.0261x; without bands (each level one offset): 1.0958x / 1.2456x / 1.0265x
// / 1.0737x. On 8 other seeds of each family (4-11) up to 500 / over 500:
// 2: 1.0927x / 1.2255x; 1: 1.0801x / 1.2115x; none: 1.1041x / 1.2432x.
constexpr int kBandBelowMedian = 2;
// Which of a chain's dives have their levels in bands:
enum class Bands {
  // All: for multi_fit's area-ranked chain and exact's chains.
  kAlways,
  // Every other run of kDivesPerStart dives (one start of the wheel),
  // the first run in exact levels: multi_fit's start-ranked chain. Exact
  // levels reach the optimum of more small packings, bands come nearer on
  // large ones. On the small aligned packings of hard_problems_test (30
  // seeds each of aligned16 at 40 and 60 buffers, aligned64 at 40),
  // multi_fit reaches 29, 28, 29 optima so, 29, 29, 29 without bands and
  // 23, 21, 12 with bands in both chains; on the figures above (2) 1.0838x
  // / 1.2243x / 1.0212x / 1.0258x, and 1.0935x / 1.2289x on the other
  // seeds. The start-ranked chain in exact levels throughout: 29, 28, 29
  // and 1.0840x / 1.2243x / 1.0205x / 1.0349x. (At kDiveWork 100,000 the
  // optima are the same, 29, 28, 29; the means are in kDiveWork's note.)
  kAlternate,
};
// Which dives of a chain are also mirrored and compacted (Tries::FlipOf):
enum class Flips {
  // Each dive at most kFlipNearPercent above the best so far, as it comes,
  // so that more dives never give a higher plan: for exact's chains, bound
  // in time. On asplos2024 B..K this took multi_fit's mean from 1.118x to
  // 1.115x the bound, on the generated families 1.172x to 1.167x (before
  // its second chain).
  kNearBest,
  // The kHeld lowest dives, after the chain: for multi_fit's chains, bound
  // in work. Measured while every item above the bound was blamed (see
  // RunDives): flipping as they come (122 flips in 532 dives over the 12
  // generated problems at 500 buffers) cost a fifth of multi_fit's
  // instructions there, and 12% of its time on one core (paired runs:
  // 0.84-0.91x; quiet medians 5.1-5.5 ms against 4.6-4.8 ms), for
  // 1.15255x against 1.15391x the optimum on the generated families up
  // to 500 buffers (1.05749x against 1.05771x at 100) and the same
  // 1.09995x the bound on asplos2024 B..K. Only the lowest dive: 1.15715x
  // and 1.10142x; the 6 lowest: 1.15257x and the old time; the 3 lowest
  // so far, as they come: 1.15232x and 1.09995x, but 6.7-6.9 ms on one
  // core in runs where flipping as they came took 5.3-6.3 ms and the 3
  // lowest after the chain 4.7-5.6 ms.
  kLowestAtEnd,
};
constexpr uint64_t kFlipNearPercent = 3;
// After dives, the jittered tries get the dives' work left over (where the
// dives stopped at kMaxDives), a try costing this many dives: a bottom-up
// try took 3.2 dives' instructions at 500 buffers. At 500 buffers that
// leaves none (there were 4; they cost a third of multi_fit's time and
// lowered 1 of the 12 problems), at 100 about 30 (there were 20). Since a
// dive queues each placed item once, a try takes about 4.9 dives'
// instructions at 100 buffers, so there the tries are half the time; at 5
// the generated families at 100 buffers (30 seeds each) take 2.1 ms, not
// 2.9, but lose: 1.05749x -> 1.05895x (at 40, 1.00187x -> 1.00234x).
constexpr uint64_t kJitterDives = 3;
// ... and at most this many: where the optimum is above the bound the
// dives stop at kMaxDives, and on a few items that left thousands (2,760
// on planner/exact_test's 8-item gap: 3.6-4.0 ms; capped 0.43-0.67 ms).
// No generated problem from 10 to 500 buffers (30 seeds a family at 10,
// 20, 40 and 100) lost or gained a byte by the cap.
constexpr uint64_t kMaxJitterTries = 200;

// The bits set in x, inline: without -mpopcnt, __builtin_popcountll is a
// call into libgcc (3.8% of multi_fit's instructions at 500 buffers).
inline uint32_t BitCount(uint64_t x) {
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<uint32_t>((x * 0x0101010101010101ull) >> 56);
}

// The CPUs this process may run on (its affinity on Linux), at least 1.
size_t CpusToRunOn() {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  return static_cast<size_t>(std::max(1, CPU_COUNT(&set)));
#else
  return std::max<size_t>(1, std::thread::hardware_concurrency());
#endif
}

// The stream of the jitter and of the restarts' noise.
constexpr uint64_t kJitterSeed = 1;

// The lifetime's length less one (no overflow at the full int64 range).
uint64_t Span(const PlanItem& item) {
  return static_cast<uint64_t>(item.lifetime.last) -
         static_cast<uint64_t>(item.lifetime.first);
}

// rank[i]: n for the first item of `order`, 1 for the last.
std::vector<uint64_t> Ranks(const std::vector<size_t>& order) {
  std::vector<uint64_t> rank(order.size());
  for (size_t k = 0; k < order.size(); ++k) rank[order[k]] = order.size() - k;
  return rank;
}

// A monotone priority queue (radix heap) of (offset, item) entries that
// pops a whole level (every item at the lowest offset) at once: every
// offset pushed is at or above the last level popped, as in a dive, where
// an item placed in a band ends in it or above it (entries pushed at the
// last level popped make it the next one again). An entry lands in the
// bucket of the highest bit in which its offset differs from the last
// level; when bucket 0 (that level) is taken, the lowest nonempty bucket (a
// bit of `used_`) is redistributed, so each entry moves once per bit at
// most and usually once. Buckets keep their memory across Clear().
class LevelHeap {
 public:
  struct Entry {
    uint64_t offset;
    uint32_t item;
  };

  bool empty() const { return size_ == 0; }
  void Clear() {
    for (std::vector<Entry>& bucket : buckets_) bucket.clear();
    used_ = 0;
    last_ = 0;
    size_ = 0;
  }
  void Push(uint64_t offset, uint32_t item) {
    const size_t b = Bucket(offset);
    buckets_[b].push_back(Entry{offset, item});
    if (b > 0) used_ |= uint64_t{1} << (b - 1);
    ++size_;
  }
  // Moves the items of every entry at the lowest offset into *level
  // (replacing what it held) and returns that offset. Not empty().
  uint64_t PopLevel(std::vector<uint32_t>* level) {
    if (buckets_[0].empty()) {
      const size_t b = static_cast<size_t>(__builtin_ctzll(used_)) + 1;
      used_ &= used_ - 1;
      std::vector<Entry>& from = buckets_[b];
      last_ = std::min_element(from.begin(), from.end(),
                               [](const Entry& x, const Entry& y) {
                                 return x.offset < y.offset;
                               })
                  ->offset;
      for (const Entry& entry : from) {
        const size_t to = Bucket(entry.offset);
        buckets_[to].push_back(entry);
        if (to > 0) used_ |= uint64_t{1} << (to - 1);
      }
      from.clear();
    }
    level->clear();
    for (const Entry& entry : buckets_[0]) level->push_back(entry.item);
    size_ -= buckets_[0].size();
    buckets_[0].clear();
    return last_;
  }

 private:
  size_t Bucket(uint64_t offset) const {
    const uint64_t x = offset ^ last_;
    return x == 0 ? 0 : 64 - static_cast<size_t>(__builtin_clzll(x));
  }

  std::array<std::vector<Entry>, 65> buckets_;
  uint64_t used_ = 0;  // Bit b - 1 set: bucket b (> 0) may hold entries.
  uint64_t last_ = 0;
  size_t size_ = 0;
};

// What a dive weighs each item by (see Dives): its lifetime's length,
// every time in it counted as (the bytes live then / the most live at any
// time) to the kPressurePower, so that what counts is covering the busiest
// times; times (1 + its priority) to the kPriorityPower.
class DiveWeights {
 public:
  // Over the compressed times (each endpoint, and the run of times between
  // two of them), by prefix sums.
  DiveWeights(const std::vector<PlanItem>& items, const TimeAxis& times) {
    const size_t t = times.size();
    std::vector<uint32_t> lo(items.size()), hi(items.size());
    // Bytes live at each endpoint, and in the run after it (less the
    // items that end there).
    std::vector<double> at(t + 1, 0), ending(t, 0);
    for (size_t i = 0; i < items.size(); ++i) {
      lo[i] = static_cast<uint32_t>(times.IndexOf(items[i].lifetime.first));
      hi[i] = static_cast<uint32_t>(times.IndexOf(items[i].lifetime.last));
      const double size = static_cast<double>(items[i].size);
      at[lo[i]] += size;
      at[hi[i] + 1] -= size;
      ending[hi[i]] += size;
    }
    double most = 0;
    for (size_t k = 0; k < t; ++k) {
      if (k > 0) at[k] += at[k - 1];
      most = std::max(most, at[k]);
    }
    auto pressure = [most](double bytes) {
      if (most <= 0 || bytes <= 0) return 0.0;
      double x = bytes / most;
      for (int power = 1; power < kPressurePower; power *= 2) x *= x;
      return x;
    };
    // before[k]: the weighted times before endpoint k.
    std::vector<double> before(t + 1, 0);
    for (size_t k = 0; k < t; ++k) {
      before[k + 1] = before[k] + pressure(at[k]);
      if (k + 1 < t) {
        // Times strictly between endpoints k and k + 1 (no overflow: the
        // difference of two int64 values in order fits in a uint64).
        const uint64_t run = static_cast<uint64_t>(times.at(k + 1)) -
                             static_cast<uint64_t>(times.at(k)) - 1;
        before[k + 1] += pressure(at[k] - ending[k]) * static_cast<double>(run);
      }
    }
    lengths_.resize(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
      lengths_[i] = before[hi[i]] - before[lo[i]] + pressure(at[hi[i]]);
    }
  }

  // The weights for `priority`, recomputed only where it changed since the
  // last call (the squeaky wheel raises some items' priorities).
  const std::vector<double>& Weigh(const std::vector<double>& priority) {
    const size_t n = lengths_.size();
    if (last_priority_.size() != n) {
      last_priority_.assign(n, std::numeric_limits<double>::quiet_NaN());
      weight_.assign(n, 0);
    }
    for (size_t i = 0; i < n; ++i) {
      if (priority[i] == last_priority_[i]) continue;
      last_priority_[i] = priority[i];
      weight_[i] = lengths_[i] * std::pow(1 + priority[i], kPriorityPower);
    }
    return weight_;
  }

 private:
  std::vector<double> lengths_;  // Of the lifetimes, in weighted times.
  std::vector<double> weight_, last_priority_;
};

// kBandBelowMedian's shift for these sizes: a dive's levels are bands of
// offsets 2^shift wide.
int BandShift(std::vector<uint64_t> sizes) {
  sizes.erase(std::remove(sizes.begin(), sizes.end(), 0), sizes.end());
  if (sizes.empty()) return 0;
  const auto median = sizes.begin() + sizes.size() / 2;
  std::nth_element(sizes.begin(), median, sizes.end());
  const int log2 = 63 - __builtin_clzll(*median);
  return std::max(0, log2 - kBandBelowMedian);
}

// Weighted interval scheduling: of `level` (items in order of last time),
// a heaviest set with pairwise disjoint lifetimes, appended to *chosen;
// prefix(k) is how many of the level's items end before its k-th starts
// (its first ones). best and before have room for one more than the level.
// (Inlined: out of line, now that two divers call it, multi_fit took 1.4%
// more instructions on the 12 problems at 500 buffers.)
template <typename Prefix>
__attribute__((always_inline)) inline void HeaviestCover(
    const std::vector<uint32_t>& level, const std::vector<double>& weight,
    Prefix prefix, std::vector<double>* best_of, std::vector<size_t>* before_of,
    std::vector<uint32_t>* chosen) {
  const size_t m = level.size();
  // best[k]: the heaviest of the first k.
  double* __restrict best = best_of->data();
  // before[k]: where item k - 1 is taken, the prefix left.
  size_t* __restrict before = before_of->data();
  best[0] = 0;
  for (size_t k = 0; k < m; ++k) {
    const size_t left = prefix(k);
    const double with = best[left] + weight[level[k]];
    if (with > best[k]) {
      best[k + 1] = with;
      before[k + 1] = left;
    } else {
      best[k + 1] = best[k];
      before[k + 1] = k + 1;  // Not taken.
    }
  }
  for (size_t k = m; k > 0;) {
    if (before[k] == k) {
      --k;
    } else {
      chosen->push_back(level[k - 1]);
      k = before[k];
    }
  }
}

// A dive's level: a bit per item at its place in order of last time (ties:
// index), so that the level's items come out in that order without a sort,
// and the count of them that end before one starts is a count of bits.
class LevelBits {
 public:
  explicit LevelBits(const std::vector<PlanItem>& items) {
    const size_t n = items.size();
    for (const PlanItem& item : items) {
      firsts_.push_back(item.lifetime.first);
      lasts_.push_back(item.lifetime.last);
    }
    by_last_.resize(n);
    std::iota(by_last_.begin(), by_last_.end(), 0);
    std::sort(by_last_.begin(), by_last_.end(), [&](uint32_t a, uint32_t b) {
      return lasts_[a] != lasts_[b] ? lasts_[a] < lasts_[b] : a < b;
    });
    place_.resize(n);
    for (uint32_t k = 0; k < n; ++k) place_[by_last_[k]] = k;
    // before_place_[i]: how many items end before item i starts, which are
    // the first ones in by_last_.
    before_place_.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
      before_place_[i] = static_cast<uint32_t>(
          std::partition_point(
              by_last_.begin(), by_last_.end(),
              [&](uint32_t j) { return lasts_[j] < firsts_[i]; }) -
          by_last_.begin());
    }
    // Sized once: a level has at most n items (no resize per level).
    bits_.assign((n + 63) / 64, 0);
    words_before_.resize(bits_.size());
    best_.resize(n + 1);
    before_.resize(n + 1);
    lo_ = bits_.size();
  }

  // Item i joins the level.
  void Add(uint32_t i) {
    const uint32_t k = place_[i];
    const size_t w = k / 64;
    bits_[w] |= uint64_t{1} << (k % 64);
    if (w < lo_) lo_ = w;
    if (w >= hi_) hi_ = w + 1;
  }

  // Every item of nonzero size joins the (empty) level.
  void AddEvery(const std::vector<uint64_t>& sizes) {
    for (uint32_t k = 0; k < by_last_.size(); ++k) {
      bits_[k / 64] |= uint64_t{sizes[by_last_[k]] > 0} << (k % 64);
    }
    lo_ = 0;
    hi_ = bits_.size();
  }

  // The level's items, in order of last time.
  const std::vector<uint32_t>& Gather() {
    items_.clear();
    for (size_t w = lo_; w < hi_; ++w) {
      words_before_[w - lo_] = static_cast<uint32_t>(items_.size());
      for (uint64_t bits = bits_[w]; bits != 0; bits &= bits - 1) {
        items_.push_back(
            by_last_[w * 64 + static_cast<size_t>(__builtin_ctzll(bits))]);
      }
    }
    return items_;
  }

  // Of the gathered items, a heaviest set with pairwise disjoint lifetimes.
  // (Inlined in the dives, as HeaviestCover.)
  __attribute__((always_inline)) const std::vector<uint32_t>& Cover(
      const std::vector<double>& weight) {
    chosen_.clear();
    const size_t m = items_.size();
    if (m <= 1) return m == 1 ? items_ : chosen_;
    HeaviestCover(
        items_, weight,
        [&](size_t k) {
          const uint32_t i = items_[k];
          // The level's items that end before i starts: its first ones
          // (all k before it, where the one right before does), as many as
          // have bits before i's first place after them.
          size_t prefix = k;
          if (k > 0 && lasts_[items_[k - 1]] >= firsts_[i]) {
            const size_t w = before_place_[i] / 64;
            if (w < lo_) {
              prefix = 0;
            } else {
              const uint64_t below =
                  (uint64_t{1} << (before_place_[i] % 64)) - 1;
              prefix = words_before_[w - lo_] +
                       static_cast<size_t>(BitCount(bits_[w] & below));
            }
          }
          return prefix;
        },
        &best_, &before_, &chosen_);
    return chosen_;
  }

  // Empties the level.
  void Clear() {
    for (size_t w = lo_; w < hi_; ++w) bits_[w] = 0;
    lo_ = bits_.size();
    hi_ = 0;
  }

 private:
  std::vector<TimeValue> firsts_, lasts_;
  std::vector<uint32_t> by_last_;       // Items by last time (ties: index).
  std::vector<uint32_t> place_;         // An item's place in by_last_.
  std::vector<uint32_t> before_place_;  // Places of items ending before.
  std::vector<uint64_t> bits_;          // A bit per place in by_last_.
  size_t lo_ = 0, hi_ = 0;              // The words that may hold bits.
  std::vector<uint32_t> words_before_;  // Level items in earlier words.
  std::vector<uint32_t> items_, chosen_;
  std::vector<double> best_;
  std::vector<size_t> before_;
};

// Dives over the lifetimes' overlap graph, as exact's canonical search's
// first dive goes but with no capacity, level by level: a level is the
// lowest offset an unplaced item can take, and of the items that can go
// there, a heaviest set with pairwise disjoint lifetimes goes there (the
// others meet one of them and are raised). An item weighs its lifetime's
// length, each time in it counted by how many bytes are live then (see
// DiveWeights), times (1 + its priority) to the power kPriorityPower: so the
// level's busiest times are covered as fully as they can be (time left
// free at a level stays empty below the next one), and the priorities
// choose among near-equal covers. The choice is weighted interval
// scheduling over the level's items in order of their last time.
//
// A level is a band of offsets (kBandBelowMedian): the items whose lowest
// offsets share their bits above the band's width, each placed at its own
// lowest offset if chosen. Bands pool items whose lowest offsets differ
// by less than a fraction of a typical size, so that a level's cover has
// more to choose from, where exact levels (each one offset) are thin:
// sizes in bytes, not in round units, seldom end level with each other.
//
// Placing each level's items in priority order instead (each one raising
// its neighbours above the level): multi_fit 1.14776x against 1.11017x the
// optimum on the generated families up to 500 buffers, and on 8 other
// seeds of each 1.22586x against 1.18511x at 500 buffers, 1.19053x against
// 1.14951x at 300, 1.12325x against 1.07593x at 200, 1.05798x against
// 1.03454x at 100; asplos2024 B..K 1.09514x against 1.03336x the bound,
// and 200 variants of them (7% of the buffers dropped at random) 1.06568x
// against 1.02632x.
class Dives {
 public:
  static constexpr uint64_t kPlaced = std::numeric_limits<uint64_t>::max();

  // `times`: the items' lifetimes' endpoints.
  Dives(const std::vector<PlanItem>& items, const TimeAxis& times,
        const OverlapGraph& overlaps)
      : overlaps_(overlaps), level_(items), weights_(items, times) {
    const size_t n = items.size();
    for (const PlanItem& item : items) {
      sizes_.push_back(item.size);
      alignments_.push_back(item.alignment);
      if (item.size > 0) alignment_classes_.push_back(item.alignment);
    }
    sizes_shift_ = BandShift(sizes_);
    band_shift_ = sizes_shift_;
    std::sort(alignment_classes_.begin(), alignment_classes_.end());
    alignment_classes_.erase(
        std::unique(alignment_classes_.begin(), alignment_classes_.end()),
        alignment_classes_.end());
    band_value_.resize(n);
  }

  // Levels in bands (the default), or each level one offset.
  void UseBands(bool bands) { band_shift_ = bands ? sizes_shift_ : 0; }

  // Items must have passed ValidatePlanItems: its bound on the sum of
  // sizes and paddings bounds every offset a dive gives (each is the
  // aligned end of a chain of items), so none overflows; it counts every
  // padding twice, so an end aligned to any item's alignment is in range
  // too.
  std::vector<uint64_t> Dive(const std::vector<double>& priority) {
    const size_t n = sizes_.size();
    const std::vector<double>& weight = weights_.Weigh(priority);
    std::vector<uint64_t> offsets(n, 0);
    // The lowest offset each unplaced item can take; kPlaced once placed.
    std::vector<uint64_t>& lowest = lowest_;
    lowest.assign(n, 0);
    queue_.Clear();
    // The first level is every item, at 0.
    level_.Clear();
    level_.AddEvery(sizes_);
    std::fill(band_value_.begin(), band_value_.end(), 0);
    const uint32_t* neighbor = overlaps_.neighbors().data();
    // An unplaced item's lowest offset is 0 or the aligned end of a placed
    // neighbour, so the levels are the bands of those ends: each placed
    // item is queued at its end's band (its end aligned to each alignment
    // in use), and when that band is the lowest queued, its neighbours
    // still in it form the level.
    auto place = [&](uint32_t i, uint64_t offset) {
      offsets[i] = offset;
      lowest[i] = kPlaced;
      const uint64_t end = offset + sizes_[i];
      // Read once: the stores to `lowest` might alias it.
      const size_t last = overlaps_.end(i);
      if (alignment_classes_.size() == 1) {  // One alignment: one raise.
        const uint64_t raised = AlignUpInBound(end, alignment_classes_[0]);
        for (size_t e = overlaps_.begin(i); e < last; ++e) {
          const uint32_t j = neighbor[e];
          lowest[j] = std::max(lowest[j], raised);
        }
      } else {
        for (size_t e = overlaps_.begin(i); e < last; ++e) {
          const uint32_t j = neighbor[e];
          const uint64_t raised = AlignUpInBound(end, alignments_[j]);
          lowest[j] = std::max(lowest[j], raised);
        }
      }
      // Each band once: the first may be the one being placed.
      uint64_t queued = kPlaced;
      for (uint64_t alignment : alignment_classes_) {
        const uint64_t band = AlignUpInBound(end, alignment) >> band_shift_;
        if (band != queued) queue_.Push(band, i);
        queued = band;
      }
    };
    for (uint64_t band = 0;;) {
      // Every item with a bit is in the level's band, at band_value_: bits
      // are set only for items whose lowest offset is there, and nothing is
      // placed between.
      const std::vector<uint32_t>& level_items = level_.Gather();
      // The chosen ones meet none of each other in time: none raised.
      for (uint32_t i : level_.Cover(weight)) place(i, lowest[i]);
      // Every other item of the level meets a chosen one in time, and is
      // raised by it unless that one is below it (in the band), or rounding
      // in the weights' sums lost it: those not raised go too.
      for (uint32_t i : level_items) {
        if (lowest[i] == band_value_[i]) place(i, lowest[i]);
      }
      level_.Clear();
      if (queue_.empty()) break;
      band = queue_.PopLevel(&ended_);
      // The band's offsets: [first, first + width).
      const uint64_t first = band << band_shift_;
      const uint64_t width = uint64_t{1} << band_shift_;
      for (uint32_t i : ended_) {
        const size_t last = overlaps_.end(i);  // Read once, as in `place`.
        for (size_t e = overlaps_.begin(i); e < last; ++e) {
          const uint32_t j = neighbor[e];
          const uint64_t at = lowest[j];
          // Placed ones (kPlaced) are in no band.
          if (at - first < width && at != kPlaced) {
            band_value_[j] = at;
            level_.Add(j);
          }
        }
      }
    }
    return offsets;
  }

 private:
  const OverlapGraph& overlaps_;
  int sizes_shift_ = 0;  // BandShift of the sizes: levels in bands.
  // In use: sizes_shift_, or 0 (each level one offset); an offset's band is
  // offset >> band_shift_.
  int band_shift_ = 0;
  std::vector<uint64_t> band_value_;  // A level item's lowest offset.
  std::vector<uint64_t> sizes_;
  std::vector<uint64_t> alignments_;
  std::vector<uint64_t> alignment_classes_;  // Distinct, ascending.
  LevelHeap queue_;              // Placed items, at their ends' bands.
  std::vector<uint32_t> ended_;  // Items that end in the level's band.
  LevelBits level_;
  DiveWeights weights_;
  std::vector<uint64_t> lowest_;
};

// Dives (above) without the overlap graph: the same levels, covers and
// plans (multi_fit_test holds the two to one answer), for items whose
// lifetimes meet in too many pairs for the graph. An unplaced item's
// lowest offset is the highest end over its lifetime of the items placed
// (HighestEnds, the tree best fit also keeps), aligned; it only rises, so each
// unplaced item waits in a LevelHeap at the band of the lowest offset it last
// had, and one that comes up is looked at again: where it rose past that band,
// it goes back in at its new one. The level is every unplaced item whose lowest
// offset is in the lowest band, so a dive costs O(log) per look instead of a
// graph's pairs.
class TimeDives {
 public:
  TimeDives(const std::vector<PlanItem>& items, const TimeAxis& times)
      : weights_(items, times),
        skyline_(times.size()),
        last_time_(static_cast<uint32_t>(times.size() - 1)),
        level_(items) {
    for (const PlanItem& item : items) {
      sizes_.push_back(item.size);
      alignments_.push_back(item.alignment);
      lo_.push_back(static_cast<uint32_t>(times.IndexOf(item.lifetime.first)));
      hi_.push_back(static_cast<uint32_t>(times.IndexOf(item.lifetime.last)));
    }
    sizes_shift_ = BandShift(sizes_);
    band_shift_ = sizes_shift_;
    band_value_.resize(items.size());
  }

  // As Dives::UseBands.
  void UseBands(bool bands) { band_shift_ = bands ? sizes_shift_ : 0; }

  // A dive still going at `until` stops there, with no plan: where many
  // lifetimes span the whole problem, every level holds nearly every item
  // (100,000 items: seconds a dive).
  void StopAt(std::chrono::steady_clock::time_point until) { until_ = until; }

  // As Dives::Dive; empty where it stopped (StopAt).
  std::vector<uint64_t> Dive(const std::vector<double>& priority) {
    const size_t n = sizes_.size();
    const std::vector<double>& weight = weights_.Weigh(priority);
    std::vector<uint64_t> offsets(n, 0);
    skyline_.Clear();
    placed_.assign(n, 0);
    queue_.Clear();
    level_.Clear();  // A dive that stopped left its level.
    for (uint32_t i = 0; i < n; ++i) {
      if (sizes_[i] > 0) queue_.Push(0, i);
    }
    // While every item placed lives throughout, one on the other, the
    // skyline is flat: each item's lowest offset is its top, aligned (where
    // many items live throughout, every level then holds nearly every
    // item, and the tree is not asked).
    bool flat = true;
    uint64_t flat_top = 0;
    auto lowest = [&](uint32_t i) {
      return AlignUpInBound(flat ? flat_top : skyline_.Highest(lo_[i], hi_[i]),
                            alignments_[i]);
    };
    auto place = [&](uint32_t i, uint64_t offset) {
      offsets[i] = offset;
      placed_[i] = 1;
      skyline_.Raise(lo_[i], hi_[i], offset + sizes_[i]);
      if (lo_[i] == 0 && hi_[i] == last_time_) {
        flat_top = offset + sizes_[i];  // At its lowest: above every end.
      } else {
        flat = false;
      }
    };
    // The clock is read every kLooksPerClock items looked at.
    uint64_t looks = 0;
    auto out_of_time = [&] {
      if (++looks < kLooksPerClock) return false;
      looks = 0;
      return std::chrono::steady_clock::now() >= until_;
    };
    while (!queue_.empty()) {
      // The items waiting in the lowest band: those still there form the
      // level (none can be below it, and lowest offsets only rise).
      const uint64_t band = queue_.PopLevel(&popped_);
      for (uint32_t i : popped_) {
        if (out_of_time()) return {};
        const uint64_t at = lowest(i);
        if (at >> band_shift_ != band) {
          queue_.Push(at >> band_shift_, i);
        } else {
          level_.Add(i);
          band_value_[i] = at;
        }
      }
      const std::vector<uint32_t>& level_items = level_.Gather();
      for (uint32_t i : level_.Cover(weight)) place(i, band_value_[i]);
      // As in Dives: the others that no chosen one raised go too, in turn;
      // the rest wait at their new lowest offsets.
      for (uint32_t i : level_items) {
        if (placed_[i]) continue;
        if (out_of_time()) return {};
        const uint64_t now = lowest(i);
        if (now == band_value_[i]) {
          place(i, now);
        } else {
          queue_.Push(now >> band_shift_, i);
        }
      }
      level_.Clear();
    }
    return offsets;
  }

 private:
  // About a millisecond of looks (each a query of the skyline).
  static constexpr uint64_t kLooksPerClock = 10'000;

  DiveWeights weights_;
  HighestEnds skyline_;
  uint32_t last_time_;  // The last compressed time.
  std::chrono::steady_clock::time_point until_ =
      std::chrono::steady_clock::time_point::max();
  int sizes_shift_ = 0;  // As in Dives.
  int band_shift_ = 0;
  std::vector<uint64_t> sizes_, alignments_;
  std::vector<uint32_t> lo_, hi_;     // Compressed lifetimes.
  std::vector<uint64_t> band_value_;  // A level item's lowest offset.
  std::vector<uint8_t> placed_;
  LevelHeap queue_;  // Unplaced items, at the bands they last could take.
  std::vector<uint32_t> popped_;
  LevelBits level_;
};

class Tries {
 public:
  Tries(const std::vector<PlanItem>& items, const TimeAxis& times)
      : items_(items), times_(times) {}

  // Compaction reads conflicts off the overlap graph from now on.
  void UseOverlaps(const OverlapGraph* overlaps) {
    placer_.emplace(items_, *overlaps);
  }

  // Best fit in `order`, over the graph where there is one.
  std::vector<uint64_t> PlaceInOrder(const std::vector<size_t>& order) const {
    return placer_ ? placer_->Place(order)
                   : planner::PlaceInOrder(items_, times_, order);
  }

  // Re-places every item lowest first in order of `offsets`: each one's old
  // offset stays free of the items re-placed before it, so none rises.
  std::vector<uint64_t> Compact(const std::vector<uint64_t>& offsets) const {
    std::vector<size_t> order(items_.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return offsets[a] < offsets[b];
    });
    return PlaceInOrder(order);
  }

  void Keep(std::vector<uint64_t> offsets) {
    const uint64_t height = PlacementHeight(items_, offsets);
    if (best_.offsets.empty() || height < best_.height) {
      best_.offsets = std::move(offsets);
      best_.height = height;
    }
  }

  // Mirrors a placement of height `height` (the top item comes down first)
  // and compacts it. Mirrored offsets may be unaligned, so a flip may also
  // come out higher; Keep then drops it.
  void FlipOf(const std::vector<uint64_t>& offsets, uint64_t height) {
    std::vector<uint64_t> mirrored(items_.size());
    for (size_t i = 0; i < items_.size(); ++i) {
      mirrored[i] = height - offsets[i] - items_[i].size;
    }
    Keep(Compact(mirrored));
  }

  // Flips the best placement while that lowers it.
  void Flip() {
    for (int flip = 0; flip < kMaxFlips; ++flip) {
      const uint64_t before = best_.height;
      FlipOf(best_.offsets, best_.height);
      if (best_.height == before) return;
    }
  }

  // Holds a placement of height `height` while it is among the kHeld
  // lowest (ties: the earliest), for CompactHeld or FlipHeld: compaction
  // lowers a placement by a few percent, rarely past the others.
  void Hold(const std::vector<uint64_t>& offsets, uint64_t height) {
    if (held_.size() == kHeld && height >= held_.back().first) return;
    held_.emplace_back(height, offsets);
    std::stable_sort(
        held_.begin(), held_.end(),
        [](const auto& a, const auto& b) { return a.first < b.first; });
    if (held_.size() > kHeld) held_.pop_back();
  }
  // A bottom-up try, where it gave a placement.
  void Hold(const std::optional<std::vector<uint64_t>>& offsets) {
    if (offsets) Hold(*offsets, PlacementHeight(items_, *offsets));
  }
  void CompactHeld() {
    for (auto& [height, offsets] : held_) Keep(Compact(offsets));
    held_.clear();
  }
  void FlipHeld() {
    for (auto& [height, offsets] : held_) FlipOf(offsets, height);
    held_.clear();
  }

  uint64_t height() const { return best_.height; }
  const std::vector<uint64_t>& offsets() const { return best_.offsets; }
  Placement Take() { return std::move(best_); }

 private:
  const std::vector<PlanItem>& items_;
  const TimeAxis& times_;
  // Its buffers are kept from one placement to the next.
  mutable std::optional<GraphPlacer> placer_;
  Placement best_;
  std::vector<std::pair<uint64_t, std::vector<uint64_t>>> held_;
};

// Best fit's own order: largest first, then longest, then item order.
std::vector<size_t> BySize(const std::vector<PlanItem>& items) {
  std::vector<size_t> by_size(items.size());
  std::iota(by_size.begin(), by_size.end(), 0);
  std::sort(by_size.begin(), by_size.end(), [&](size_t a, size_t b) {
    if (items[a].size != items[b].size) return items[a].size > items[b].size;
    if (Span(items[a]) != Span(items[b])) {
      return Span(items[a]) > Span(items[b]);
    }
    return a < b;
  });
  return by_size;
}

// By size x lifetime, larger first (ties: by_size's order).
std::vector<size_t> ByArea(const std::vector<PlanItem>& items,
                           std::vector<size_t> by_size) {
  std::stable_sort(by_size.begin(), by_size.end(), [&](size_t a, size_t b) {
    return static_cast<unsigned __int128>(items[a].size) * Span(items[a]) >
           static_cast<unsigned __int128>(items[b].size) * Span(items[b]);
  });
  return by_size;
}

// By start, earlier first; ties: the longer lifetime, then by_area's order.
std::vector<size_t> ByStart(const std::vector<PlanItem>& items,
                            std::vector<size_t> by_area) {
  std::stable_sort(by_area.begin(), by_area.end(), [&](size_t a, size_t b) {
    if (items[a].lifetime.first != items[b].lifetime.first) {
      return items[a].lifetime.first < items[b].lifetime.first;
    }
    return Span(items[a]) > Span(items[b]);
  });
  return by_area;
}

// The pairs of lifetimes that meet, for best fit's placements and the
// dives; none past kMaxSkylineItems items or where more than half of
// kMaxDiveWork would be pairs (best fit then finds conflicts by itself).
std::optional<OverlapGraph> DiveGraph(const std::vector<PlanItem>& items) {
  if (items.size() > MultiFitAlgorithm::kMaxSkylineItems) return std::nullopt;
  return OverlapGraph::Build(
      items.size(), [&](size_t i) { return items[i].lifetime.first; },
      [&](size_t i) { return items[i].lifetime.last; },
      [&](size_t i) { return items[i].size == 0; }, kMaxDiveWork / 2);
}

// A chain of squeaky-wheel dives (Joslin and Clements, JAIR 1999) from
// `rank`, in tries of its own that start from the plan `from`, while
// `more(dives so far, lowest height so far)` and that height is above the
// lower bound: each dive's items that end in the upper half of its excess
// over the bound gain priority in proportion to how far into it, so the
// next dive weighs them more in its levels' covers; `flips` says which
// dives are also flipped. The lowest plan, and in *dives how many dives
// ran.
//
// Measured while the dives placed each level's items in priority order:
// blaming every item that ended above the bound (in proportion to how far
// above) instead: multi_fit 1.15391x against 1.14776x the optimum on the
// generated families up to 500 buffers, and on 8 other seeds of each
// 1.2353x against 1.2259x at 500 buffers, 1.1935x against 1.1905x at 300
// (about the same at 100 and 200); asplos2024 B..K 1.09995x against
// 1.09514x the bound, and 200 variants of them (7% of the buffers dropped
// at random) 1.06562x against 1.06568x. 1,000 dives (DiveUntil): 1.1425x
// against 1.1334x, asplos2024 1.0681x against 1.0673x. Any line from 0.3
// to 0.7 of the excess did about as well on the generated families at 300
// and 500 buffers; on asplos2024 they ranged from 1.095x to 1.107x.
template <typename Diver, typename More>
void RunChain(const std::vector<PlanItem>& items, Diver& diver, Tries& tries,
              const std::vector<uint64_t>& rank, uint64_t lower_bound,
              More more, Flips flips, Bands bands, uint64_t* dives,
              std::chrono::steady_clock::time_point stop_by) {
  const bool timed = stop_by != std::chrono::steady_clock::time_point::max();
  // Where timed, how long the last flip took (before the first: the dive
  // before it; over the times a dive took longer than best fit on every
  // workload measured): none starts that close to stop_by.
  std::chrono::steady_clock::duration flip_took{0};
  const size_t n = items.size();
  std::vector<double> priority(rank.begin(), rank.end());
  SplitMix64 noise(kJitterSeed);
  uint64_t dive = 0;
  for (; more(dive, tries.height()) && tries.height() > lower_bound; ++dive) {
    if (bands == Bands::kAlternate && dive % kDivesPerStart == 0) {
      diver.UseBands(dive / kDivesPerStart % 2 == 1);
    }
    if (dive > 0 && dive % kDivesPerStart == 0) {
      for (size_t i = 0; i < n; ++i) {
        priority[i] = static_cast<double>(rank[i]) +
                      kStartNoise * static_cast<double>(n) * noise.Unit();
      }
    }
    // Before the first flip, the dive's time stands for it.
    const bool time_dive = timed && flip_took.count() == 0;
    const auto dive_start = time_dive ? std::chrono::steady_clock::now()
                                      : std::chrono::steady_clock::time_point{};
    std::vector<uint64_t> offsets = diver.Dive(priority);
    if (offsets.size() != n) break;  // Stopped (TimeDives::StopAt).
    if (time_dive) flip_took = std::chrono::steady_clock::now() - dive_start;
    const uint64_t height = PlacementHeight(items, offsets);
    const uint64_t line = height > lower_bound
                              ? lower_bound + (height - lower_bound) / 2
                              : height;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t end = offsets[i] + items[i].size;
      if (end > line) {
        priority[i] += static_cast<double>(n) *
                       static_cast<double>(end - line) /
                       static_cast<double>(height - line);
      }
    }
    if (flips == Flips::kLowestAtEnd) {
      tries.Hold(offsets, height);
    } else if (static_cast<unsigned __int128>(height) * 100 <=
                   static_cast<unsigned __int128>(tries.height()) *
                       (100 + kFlipNearPercent) &&
               (!timed ||
                stop_by - std::chrono::steady_clock::now() > flip_took)) {
      // (Over the times a flip's compaction costs about best fit's time,
      // 0.3-0.8 s at 100,000 items: none that would end past stop_by.)
      const auto start = timed ? std::chrono::steady_clock::now()
                               : std::chrono::steady_clock::time_point{};
      tries.FlipOf(offsets, height);
      if (timed) flip_took = std::chrono::steady_clock::now() - start;
    }
    tries.Keep(std::move(offsets));
  }
  *dives = dive;
}

// The chain over the overlap graph where there is one (Dives), else over
// time (TimeDives: the same plans, for more pairs than a graph holds),
// whose dives stop at `stop_by` and whose flips do not start past it.
template <typename More>
Placement RunDives(const std::vector<PlanItem>& items, const TimeAxis& times,
                   const OverlapGraph* overlaps,
                   const std::vector<uint64_t>& rank, uint64_t lower_bound,
                   const std::vector<uint64_t>& from, More more, Flips flips,
                   Bands bands, uint64_t* dives,
                   std::chrono::steady_clock::time_point stop_by =
                       std::chrono::steady_clock::time_point::max()) {
  Tries tries(items, times);
  if (overlaps != nullptr) tries.UseOverlaps(overlaps);
  tries.Keep(from);
  if (overlaps != nullptr) {
    // A graph dive and its flip take milliseconds: the caller's `more`
    // keeps them within its time.
    Dives diver(items, times, *overlaps);
    RunChain(items, diver, tries, rank, lower_bound, more, flips, bands, dives,
             std::chrono::steady_clock::time_point::max());
  } else {
    TimeDives diver(items, times);
    diver.StopAt(stop_by);
    RunChain(items, diver, tries, rank, lower_bound, more, flips, bands, dives,
             stop_by);
  }
  if (tries.height() > lower_bound) tries.FlipHeld();
  return tries.Take();
}

// multi_fit on items that may not split in time (see Place), valid ones.
// A plan no higher than `enough` ends the work (0: only the live-bytes
// bound does); best fit alone where `skyline` is false, and `*tried` tells
// whether anything else ran.
Placement PlaceItems(const std::vector<PlanItem>& items, uint64_t enough,
                     bool skyline, bool* tried) {
  *tried = false;
  const size_t n = items.size();
  if (n == 0) return Placement{};
  const TimeAxis times = LifetimeAxis(items);
  Tries tries(items, times);

  const std::vector<size_t> by_size = BySize(items);
  const std::optional<OverlapGraph> overlaps =
      skyline ? DiveGraph(items) : std::nullopt;
  if (overlaps) tries.UseOverlaps(&*overlaps);
  tries.Keep(tries.PlaceInOrder(by_size));
  // Nothing beats the most bytes live at once.
  const uint64_t lower_bound = LiveBytesLowerBound(items);
  if (!skyline || n > MultiFitAlgorithm::kMaxSkylineItems ||
      (!overlaps && n > MultiFitAlgorithm::kMaxBottomUpItems) ||
      tries.height() <= std::max(lower_bound, enough)) {
    return tries.Take();
  }
  *tried = true;

  const std::vector<size_t> by_area = ByArea(items, by_size);
  const uint64_t max_work = kWorkPerItem * (n + times.size());
  const std::vector<uint64_t> area_rank = Ranks(by_area);
  // Bottom-up by size and by area, forwards and backwards, only where no
  // dives follow (no overlap graph): after dives none of the four was ever
  // the lowest on the generated families (100 to 2,000 buffers) or
  // asplos2024, and at 2,000 buffers they took half the time.
  size_t jitter_tries = kJitterBudget / n;
  if (!overlaps) {
    const std::vector<uint64_t> size_rank = Ranks(by_size);
    for (const std::vector<uint64_t>* rank : {&size_rank, &area_rank}) {
      for (SkylineDirection direction :
           {SkylineDirection::kForward, SkylineDirection::kBackward}) {
        tries.Hold(SkylinePlace(items, times, *rank, direction, max_work));
      }
    }
  } else {
    // A dive's work, about: its items, and its pairs (each looked at from
    // both ends, once to raise and once to gather a level).
    const uint64_t per_dive = n + overlaps->pairs();
    const uint64_t dive_work = DiveWork(per_dive);
    auto more = [per_dive, dive_work, enough](uint64_t dive, uint64_t height) {
      return dive < kMaxDives && (dive + 1) * per_dive <= dive_work &&
             height > enough;
    };
    // Two chains of dives, one from the area ranks and one from the start
    // ranks (time order), the second on a thread of its own where one can
    // be had and the process may run on more than one CPU (else after the
    // first: on one CPU (`taskset -c 1`) the thread only cost its start and
    // its own heap's page faults, asplos2024 D 3.41-3.44 -> 3.16-3.22 ms,
    // J 9.58-9.74 -> 9.23-9.47 ms, the generated families at 500 buffers
    // 4.39 -> 4.16 ms, medians of 15 and 5). Squeaky-wheel priorities only
    // gain, so a wheel keeps to the region its ranks put it in; each chain
    // starts its wheel again every kDivesPerStart dives. On asplos2024 B..K the
    // second chain takes the mean from 1.115x to 1.100x the bound, on the
    // generated families up to 500 buffers from 1.165x to 1.153x the optimum.
    // Second chains tried, by the same means: lifetime 1.107x and 1.156x;
    // size 1.113x and 1.162x; latest end first 1.096x and 1.157x; latest start
    // first 1.111x and 1.159x; busiest section first 1.110x and 1.158x.
    const std::vector<uint64_t> start_rank = Ranks(ByStart(items, by_area));
    const std::vector<uint64_t> best_fit = tries.offsets();
    Placement second;
    auto run_second = [&] {
      uint64_t unused = 0;
      try {
        second = RunDives(items, times, &*overlaps, start_rank, lower_bound,
                          best_fit, more, Flips::kLowestAtEnd,
                          Bands::kAlternate, &unused);
      } catch (const std::bad_alloc&) {
        // Out of memory: the first chain's plans stand.
      }
    };
    std::thread helper;
    if (CpusToRunOn() > 1) {
      try {
        helper = std::thread(run_second);
      } catch (const std::system_error&) {
        // No thread to be had: the second chain runs after the first.
      }
    }
    struct Join {
      std::thread& thread;
      ~Join() {
        if (thread.joinable()) thread.join();
      }
    } join{helper};
    uint64_t dives = 0;
    tries.Keep(RunDives(items, times, &*overlaps, area_rank, lower_bound,
                        best_fit, more, Flips::kLowestAtEnd, Bands::kAlways,
                        &dives)
                   .offsets);
    if (helper.joinable()) {
      helper.join();
    } else {
      run_second();
    }
    if (!second.offsets.empty()) tries.Keep(std::move(second.offsets));
    jitter_tries = static_cast<size_t>(std::min(
        kMaxJitterTries, (kDiveWork - std::min(kDiveWork, dives * per_dive)) /
                             (kJitterDives * per_dive)));
    if (tries.height() <= std::max(lower_bound, enough)) jitter_tries = 0;
  }
  // Sizes scaled by a random factor in [0, 1): other ties, other choices.
  SplitMix64 jitter(kJitterSeed);
  std::vector<uint64_t> jittered(n);
  for (size_t k = 0; k < jitter_tries; ++k) {
    for (size_t i = 0; i < n; ++i) {
      jittered[i] = static_cast<uint64_t>(
          (static_cast<unsigned __int128>(items[i].size) * jitter.Next()) >>
          64);
    }
    const SkylineDirection direction =
        k % 2 == 0 ? SkylineDirection::kForward : SkylineDirection::kBackward;
    tries.Hold(SkylinePlace(items, times, jittered, direction, max_work));
  }
  tries.CompactHeld();
  tries.Flip();
  return tries.Take();
}

}  // namespace

// Where the items split in time (planner/time_parts.h), each part is placed
// on its own, those with the most live bytes first, and a part's work ends
// once it is no higher than the parts before it (or the most live bytes of
// any part): the whole plan is as high as its highest part. Skyline tries
// and dives go to the parts best fit leaves above that, while their items
// add up to kMaxSkylineItems, the limit of one placement's: past it, best
// fit alone.
// asplos2024's eleven problems one after another in time (3,112 items, the
// optimum 1048576, E's) came out 1.410x before, the worst part decided
// alone 1.089x.
Result<Placement> MultiFitAlgorithm::Place(const std::vector<PlanItem>& items,
                                           const AlgorithmOptions&) const {
  MEMPLAN_RETURN_IF_ERROR(ValidatePlanItems(items));
  std::vector<std::vector<size_t>> parts = TimeParts(items);
  bool tried = false;
  if (parts.size() <= 1) return PlaceItems(items, 0, true, &tried);
  const std::vector<TimePart> split = ByLiveBytes(items, std::move(parts));
  uint64_t enough = split.front().live_bytes;
  Placement placement;
  placement.offsets.assign(items.size(), 0);
  size_t skyline_items = 0;
  for (const TimePart& part : split) {
    const size_t n = part.items.size();
    const bool skyline = skyline_items + n <= kMaxSkylineItems;
    const Placement placed = PlaceItems(part.items, enough, skyline, &tried);
    if (tried) skyline_items += n;
    for (size_t k = 0; k < n; ++k) {
      placement.offsets[part.indices[k]] = placed.offsets[k];
    }
    enough = std::max(enough, placed.height);
  }
  placement.height = PlacementHeight(items, placement.offsets);
  return placement;
}

std::optional<Placement> DiveUntil(const std::vector<PlanItem>& items,
                                   const DiveBudget& budget, uint64_t* dives) {
  *dives = 0;
  if (!ValidatePlanItems(items).ok() || items.empty()) return std::nullopt;
  // Over time where the graph would be too large (TimeDives).
  const std::optional<OverlapGraph> overlaps = DiveGraph(items);
  const TimeAxis times = LifetimeAxis(items);
  Tries tries(items, times);
  if (overlaps) tries.UseOverlaps(&*overlaps);
  const std::vector<size_t> by_size = BySize(items);
  tries.Keep(tries.PlaceInOrder(by_size));
  const std::vector<size_t> by_area = ByArea(items, by_size);
  const uint64_t lower_bound = LiveBytesLowerBound(items);
  // multi_fit's two chains, one after the other: the start ranks' for half
  // the time and dives, then the area ranks' for the rest. 1,000 dives give
  // 1.0168x the bound on asplos2024 B..K and 1.0755x the optimum on the
  // generated families up to 500 buffers (95-110 ms a problem at 500);
  // 1.0239x and 1.0997x (87 ms) before the wheels started again every
  // kDivesPerStart dives. Of B..K, J, K and H did better without them
  // (1.0331x, 1.0059x and 1.0000x against 1.0414x, 1.0205x and 1.0010x);
  // D, for one, did worse (1.0800x against 1.0592x). While
  // the dives placed each level's items in priority order, 1,000 dives
  // took asplos2024's mean from 1.0746x (the area ranks' chain alone) to
  // 1.0681x, and the generated families' from 1.1494x to 1.1425x; in
  // exact at 5 s the unreachable family's medians per size went from
  // 1.005, 1.090, 1.148, 1.183x to 1.024, 1.038-1.057, 1.147, 1.172x the
  // construction.
  const auto start = std::chrono::steady_clock::now();
  const auto half =
      budget.until > start ? start + (budget.until - start) / 2 : start;
  for (int chain = 0; chain < 2; ++chain) {
    const auto until = chain == 0 ? half : budget.until;
    const uint64_t max_dives =
        chain == 0 ? budget.max_dives / 2 : budget.max_dives - *dives;
    uint64_t ran = 0;
    // A dive starts only where one as long as the last (with its flip)
    // would end in time: where lifetimes meet by the 100,000s a dive takes
    // tens of ms, and exact's budget overran by up to 0.09 s at 2 s
    // (asplos2024 overlaid, 182k pairs: 2.088 s).
    auto last = std::chrono::steady_clock::now();
    uint64_t told = tries.height();
    tries.Keep(RunDives(
                   items, times, overlaps ? &*overlaps : nullptr,
                   Ranks(chain == 0 ? ByStart(items, by_area) : by_area),
                   lower_bound, tries.offsets(),
                   [&](uint64_t dive, uint64_t height) {
                     // The last dive took from its go-ahead (after any
                     // wait in `proceed`) to now; none starts at or past
                     // `until` (took is never negative).
                     if (budget.on_lower && height < told) {
                       told = height;
                       budget.on_lower(height);
                     }
                     const auto now = std::chrono::steady_clock::now();
                     const auto took = dive == 0 ? now - now : now - last;
                     const bool more = dive < max_dives &&
                                       height > budget.stop_at &&
                                       until - now > took &&
                                       (!budget.proceed || budget.proceed());
                     last = std::chrono::steady_clock::now();
                     return more;
                   },
                   Flips::kNearBest, Bands::kAlways, &ran, until)
                   .offsets);
    *dives += ran;
  }
  return tries.Take();
}

std::vector<uint64_t> DiveOnceForTest(
    const std::vector<PlanItem>& items, const std::vector<double>& priority,
    bool bands, bool over_time, std::chrono::steady_clock::time_point until) {
  if (!ValidatePlanItems(items).ok() || priority.size() != items.size()) {
    return {};
  }
  const TimeAxis times = LifetimeAxis(items);
  if (over_time) {
    TimeDives diver(items, times);
    diver.UseBands(bands);
    diver.StopAt(until);
    return diver.Dive(priority);
  }
  const std::optional<OverlapGraph> overlaps = DiveGraph(items);
  if (!overlaps) return {};
  Dives diver(items, times, *overlaps);
  diver.UseBands(bands);
  return diver.Dive(priority);
}

}  // namespace planner
}  // namespace memplan
