#include "bench/hard_problems.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <utility>

#include "planner/lower_bound.h"
#include "planner/splitmix64.h"

namespace memplan {
namespace bench {
namespace {

using planner::PlanItem;

// Draws from planner/splitmix64.h's stream, so a problem's name pins it
// down on every standard library.
class Rng {
 public:
  explicit Rng(uint64_t seed) : stream_(seed * 0x9E3779B97F4A7C15ull + 7) {}
  uint64_t Next() { return stream_.Next(); }
  uint64_t Below(uint64_t n) { return n <= 1 ? 0 : Next() % n; }
  uint64_t Between(uint64_t lo, uint64_t hi) {  // Inclusive; lo <= hi.
    return lo + Below(hi - lo + 1);
  }
  double Unit() { return stream_.Unit(); }
  bool Chance(double p) { return Unit() < p; }
  uint64_t LogUniform(uint64_t lo, uint64_t hi) {
    const double l = std::log(static_cast<double>(lo));
    const double h = std::log(static_cast<double>(hi));
    const uint64_t v = static_cast<uint64_t>(std::exp(l + Unit() * (h - l)));
    return std::min(hi, std::max(lo, v));
  }

 private:
  planner::SplitMix64 stream_;
};

// A buffer of the packing; sizes and offsets in bytes.
struct Rect {
  uint64_t offset;
  uint64_t size;
  TimeValue first, last;
};

// A buffer still live in the sweep; `hazard` is its chance to end per step.
struct Live {
  uint64_t offset;
  uint64_t size;
  TimeValue first;
  double hazard;
};

class PackingBuilder {
 public:
  // `unit`: every size and offset is a multiple of it; `units`: H / unit.
  PackingBuilder(Rng* rng, uint64_t unit, uint64_t units)
      : rng_(*rng), unit_(unit), units_(units) {}

  std::vector<Rect> Build(size_t buffers) {
    std::vector<Rect> rects;
    if (buffers == 0) return rects;
    std::vector<Live> live;
    // The inputs: a few buffers fill the first step.
    size_t count = Fill(0, units_ * unit_, 0, 3, buffers, &live);
    for (TimeValue t = 1;; ++t) {
      // One op a step, mostly: the output of an earlier op dies (short-lived
      // ones far more often), sometimes with its neighbour in the stack, and
      // now and then a whole band frees at once (the huge gaps, and so the
      // huge buffers, and long lifetimes cut short).
      std::vector<bool> ended(live.size(), false);
      double weight = 0;
      for (const Live& l : live) weight += l.hazard;
      double pick = rng_.Unit() * weight;
      size_t first = live.size() - 1;
      for (size_t i = 0; i < live.size(); ++i) {
        pick -= live[i].hazard;
        if (pick < 0) {
          first = i;
          break;
        }
      }
      ended[first] = true;
      for (size_t i = first; i + 1 < live.size() && rng_.Chance(0.3); ++i) {
        ended[i + 1] = true;
      }
      for (size_t i = first; i > 0 && rng_.Chance(0.3); --i)
        ended[i - 1] = true;
      if (rng_.Chance(0.04)) {
        const uint64_t y = rng_.Below(units_) * unit_;
        const uint64_t len = rng_.Between(units_ / 8, units_ / 2) * unit_;
        for (size_t i = 0; i < live.size(); ++i) {
          if (live[i].offset < y + len && y < live[i].offset + live[i].size) {
            ended[i] = true;
          }
        }
      }
      size_t gaps = 0;
      for (size_t i = 0; i < live.size(); ++i) {
        if (ended[i] && (i == 0 || !ended[i - 1])) ++gaps;
      }
      const size_t budget = buffers - count;
      if (budget < gaps) {
        for (const Live& l : live) {
          rects.push_back({l.offset, l.size, l.first, t - 1});
        }
        break;
      }
      std::vector<Live> next;
      size_t used = 0, gap = 0;
      for (size_t i = 0; i < live.size();) {
        if (!ended[i]) {
          next.push_back(live[i++]);
          continue;
        }
        const uint64_t begin = live[i].offset;
        uint64_t end = begin;
        for (; i < live.size() && ended[i]; ++i) {
          rects.push_back({live[i].offset, live[i].size, live[i].first, t - 1});
          end = live[i].offset + live[i].size;
        }
        // Leave at least one buffer of budget for each later gap.
        const size_t wanted = 1 + rng_.Chance(0.5) + rng_.Chance(0.3);
        const size_t allowed = budget - used - (gaps - 1 - gap);
        used += Fill(begin, end - begin, t, wanted, allowed, &next);
        ++gap;
      }
      count += used;
      live = std::move(next);
    }
    SplitToCount(buffers, &rects);
    return rects;
  }

 private:
  // A small buffer's size in bytes, log-uniform from H/1024 to H/16 (a
  // fifth of them up to H/8); a multiple of 1 KiB once it reaches it, else
  // of the unit.
  uint64_t DrawSmallSize() {
    const uint64_t units =
        rng_.Chance(0.2) ? rng_.LogUniform(std::max<uint64_t>(1, units_ / 16),
                                           std::max<uint64_t>(1, units_ / 8))
                         : rng_.LogUniform(std::max<uint64_t>(1, units_ / 1024),
                                           std::max<uint64_t>(1, units_ / 16));
    uint64_t bytes = units * unit_;
    if (bytes >= 1024) bytes = bytes / 1024 * 1024;
    return bytes;
  }

  // Cuts [offset, offset + len) into new buffers starting at t, appended to
  // `live` in offset order; returns how many (at most `allowed`, >= 1). A
  // gap over H/8 first gets one huge buffer of half of it or more (one op
  // makes one output: few buffers start at a step); the rest is cut into
  // `wanted` small ones, the last taking what is left.
  size_t Fill(uint64_t offset, uint64_t len, TimeValue t, size_t wanted,
              size_t allowed, std::vector<Live>* live) {
    const uint64_t eighth = units_ / 8 * unit_;
    size_t pieces = 0, small = 0;
    while (len > 0) {
      uint64_t size;
      if (pieces + 1 == allowed) {
        size = len;
      } else if (len > eighth) {
        size = rng_.Between((len / unit_ + 1) / 2, len / unit_) * unit_;
      } else if (small + 1 >= wanted) {
        size = len;
      } else {
        size = std::min(len, DrawSmallSize());
        ++small;
      }
      // Most outputs die within a few steps; some live long (skips).
      const double hazard = rng_.Chance(0.12) ? 0.05 : 1.0;
      live->push_back({offset, size, t, hazard});
      offset += size;
      len -= size;
      ++pieces;
    }
    return pieces;
  }

  // Cuts random buffers in two along time (same bytes, consecutive
  // lifetimes) until there are `buffers`; the packing stays perfect.
  void SplitToCount(size_t buffers, std::vector<Rect>* rects) {
    std::vector<size_t> splittable;
    for (size_t i = 0; i < rects->size(); ++i) {
      if ((*rects)[i].last > (*rects)[i].first) splittable.push_back(i);
    }
    while (rects->size() < buffers && !splittable.empty()) {
      const size_t pick = rng_.Below(splittable.size());
      const size_t i = splittable[pick];
      Rect& r = (*rects)[i];
      const TimeValue cut =
          r.first + static_cast<TimeValue>(
                        rng_.Below(static_cast<uint64_t>(r.last - r.first)));
      Rect tail = {r.offset, r.size, cut + 1, r.last};
      r.last = cut;
      if (r.last == r.first) {
        splittable[pick] = splittable.back();
        splittable.pop_back();
      }
      if (tail.last > tail.first) splittable.push_back(rects->size());
      rects->push_back(tail);
    }
    // Short runs may have only one-step lifetimes: cut along bytes then.
    for (size_t i = 0; rects->size() < buffers && i < rects->size();) {
      Rect& r = (*rects)[i];
      if (r.size < 2 * unit_) {
        ++i;
        continue;
      }
      const uint64_t head = rng_.Between(1, r.size / unit_ - 1) * unit_;
      Rect tail = {r.offset + head, r.size - head, r.first, r.last};
      r.size = head;
      rects->push_back(tail);
    }
  }

  Rng& rng_;
  uint64_t unit_;
  uint64_t units_;
};

uint64_t AlignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// Peak live bytes with each size rounded up to its alignment, by the
// planner's sweep (planner/lower_bound.h) rather than a copy of it.
uint64_t AlignedLiveBytes(std::vector<PlanItem> items) {
  for (PlanItem& item : items) item.size = AlignUp(item.size, item.alignment);
  return planner::LiveBytesLowerBound(items);
}

// Shrinks some buffers by multiples of 64 bytes, and at least one in every
// column that is still full, so the peak live bytes fall below H.
void ShrinkSome(Rng* rng, uint64_t height, std::vector<Rect>* rects) {
  TimeValue horizon = 0;
  for (const Rect& r : *rects) horizon = std::max(horizon, r.last + 1);
  std::vector<uint64_t> column(static_cast<size_t>(horizon), 0);
  auto shrink = [&](Rect& r) {
    const uint64_t by =
        64 * rng->Between(1, std::max<uint64_t>(1, r.size / 64 / 8));
    r.size -= by;
    for (TimeValue t = r.first; t <= r.last; ++t) column[t] -= by;
  };
  for (const Rect& r : *rects) {
    for (TimeValue t = r.first; t <= r.last; ++t) column[t] += r.size;
  }
  for (Rect& r : *rects) {
    if (r.size > 64 && rng->Chance(0.25)) shrink(r);
  }
  for (TimeValue t = 0; t < horizon; ++t) {
    if (column[t] < height) continue;
    std::vector<Rect*> candidates;
    for (Rect& r : *rects) {
      if (r.first <= t && t <= r.last && r.size > 64) candidates.push_back(&r);
    }
    if (!candidates.empty()) shrink(*candidates[rng->Below(candidates.size())]);
  }
}

// Makes some sizes odd (padding within the alignment), except for the
// buffers live at one full column: their aligned sizes stack to H at
// aligned offsets, so no plan is lower than H.
void PadSome(Rng* rng, uint64_t alignment, std::vector<Rect>* rects) {
  TimeValue horizon = 0;
  for (const Rect& r : *rects) horizon = std::max(horizon, r.last + 1);
  const TimeValue kept =
      static_cast<TimeValue>(rng->Below(static_cast<uint64_t>(horizon)));
  for (Rect& r : *rects) {
    if (r.first <= kept && kept <= r.last) continue;
    if (rng->Chance(0.3)) r.size -= rng->Between(1, alignment - 1);
  }
}

}  // namespace

const char* HardFamilyName(HardFamily family) {
  switch (family) {
    case HardFamily::kTight:
      return "tight";
    case HardFamily::kUnreachable:
      return "unreachable";
    case HardFamily::kAligned16:
      return "aligned16";
    case HardFamily::kAligned64:
      return "aligned64";
  }
  return "unknown";
}

HardProblem MakeHardProblem(HardFamily family, size_t buffers, uint64_t seed) {
  Rng rng(seed * 4 + static_cast<uint64_t>(family) + buffers * 1000003);
  uint64_t unit = 64, alignment = 1;
  if (family == HardFamily::kAligned16) unit = alignment = 16;
  if (family == HardFamily::kAligned64) unit = alignment = 64;
  // H between 1 and 8 MiB, a multiple of the unit.
  const uint64_t height = rng.Between(1024, 8192) * 1024;
  PackingBuilder builder(&rng, unit, height / unit);
  std::vector<Rect> rects = builder.Build(buffers);
  // The builder's order follows time; callers must not lean on it.
  for (size_t i = rects.size(); i > 1; --i) {
    std::swap(rects[i - 1], rects[rng.Below(i)]);
  }

  HardProblem problem;
  problem.name = std::string(HardFamilyName(family)) +
                 "/n=" + std::to_string(buffers) +
                 "/seed=" + std::to_string(seed);
  problem.optimum = height;
  if (family == HardFamily::kUnreachable) {
    ShrinkSome(&rng, height, &rects);
    problem.optimum_known = false;
    problem.optimum = 0;
    for (const Rect& r : rects) {
      problem.optimum = std::max(problem.optimum, r.offset + r.size);
    }
  }
  if (alignment > 1) PadSome(&rng, alignment, &rects);
  for (const Rect& r : rects) {
    problem.items.push_back({r.size, alignment, r.first, r.last});
    problem.construction_offsets.push_back(r.offset);
  }
  problem.lower_bound = AlignedLiveBytes(problem.items);
  return problem;
}

HardProblem InSequence(std::string name,
                       const std::vector<HardProblem>& phases) {
  HardProblem sequence;
  sequence.name = std::move(name);
  TimeValue shift = 0;
  for (const HardProblem& phase : phases) {
    TimeValue end = shift;
    for (size_t i = 0; i < phase.items.size(); ++i) {
      planner::PlanItem item = phase.items[i];
      item.lifetime.first += shift;
      item.lifetime.last += shift;
      end = std::max(end, item.lifetime.last + 1);
      sequence.items.push_back(item);
      sequence.construction_offsets.push_back(phase.construction_offsets[i]);
    }
    shift = end;
    sequence.optimum = std::max(sequence.optimum, phase.optimum);
    sequence.optimum_known = sequence.optimum_known && phase.optimum_known;
    sequence.lower_bound = std::max(sequence.lower_bound, phase.lower_bound);
  }
  return sequence;
}

HardProblem InParallel(std::string name,
                       const std::vector<HardProblem>& streams) {
  HardProblem parallel;
  parallel.name = std::move(name);
  std::vector<TimeValue> horizons;
  TimeValue longest = 0;
  for (const HardProblem& stream : streams) {
    TimeValue horizon = 0;
    for (const PlanItem& item : stream.items) {
      horizon = std::max(horizon, item.lifetime.last + 1);
    }
    horizons.push_back(horizon);
    longest = std::max(longest, horizon);
  }
  uint64_t base = 0;  // Where the stream's plan starts in the construction.
  for (size_t s = 0; s < streams.size(); ++s) {
    const HardProblem& stream = streams[s];
    // Time t of the stream becomes [t * longest / horizon, (t + 1) * longest
    // / horizon), never empty: the stream's times still tile the axis.
    auto stretch = [&](TimeValue t) {
      return static_cast<TimeValue>(static_cast<__int128>(t) * longest /
                                    horizons[s]);
    };
    for (size_t i = 0; i < stream.items.size(); ++i) {
      planner::PlanItem item = stream.items[i];
      item.lifetime = {stretch(item.lifetime.first),
                       stretch(item.lifetime.last + 1) - 1};
      parallel.items.push_back(item);
      parallel.construction_offsets.push_back(base +
                                              stream.construction_offsets[i]);
    }
    // Heights are multiples of 1 KiB (MakeHardProblem), so every stream's
    // offsets keep their alignment.
    base += stream.optimum;
    parallel.optimum_known = parallel.optimum_known && stream.optimum_known;
  }
  parallel.optimum = base;
  parallel.lower_bound = AlignedLiveBytes(parallel.items);
  return parallel;
}

namespace {

// The tight, aligned16 and aligned64 problems (optimum known) of `seed` at
// each of `sizes`, in that nesting order.
std::vector<HardProblem> KnownOptimaOf(uint64_t seed,
                                       std::initializer_list<size_t> sizes) {
  std::vector<HardProblem> problems;
  for (size_t buffers : sizes) {
    for (HardFamily family :
         {HardFamily::kTight, HardFamily::kAligned16, HardFamily::kAligned64}) {
      problems.push_back(MakeHardProblem(family, buffers, seed));
    }
  }
  return problems;
}

}  // namespace

std::vector<HardProblem> PhasesOf(uint64_t seed) {
  return KnownOptimaOf(seed, {100, 200, 300});
}

HardProblem MakePhasedProblem(uint64_t seed) {
  return InSequence("phased/n=1800/seed=" + std::to_string(seed),
                    PhasesOf(seed));
}

std::vector<HardProblem> StreamsOf(uint64_t seed) {
  return KnownOptimaOf(seed, {300, 500});
}

HardProblem MakeParallelProblem(uint64_t seed) {
  return InParallel("parallel/n=2400/seed=" + std::to_string(seed),
                    StreamsOf(seed));
}

HardProblem CutSizes(const HardProblem& problem, uint64_t bytes,
                     uint64_t seed) {
  Rng rng(seed);
  HardProblem cut = problem;
  const size_t slash = problem.name.find('/');
  cut.name =
      "cut/" + (slash == std::string::npos ? problem.name
                                           : problem.name.substr(slash + 1));
  for (planner::PlanItem& item : cut.items) {
    item.size -= rng.Below(std::min(bytes, item.size));
  }
  cut.optimum_known = false;
  cut.lower_bound = planner::LiveBytesLowerBound(cut.items);
  cut.optimum = cut.lower_bound;
  return cut;
}

HardProblem ReversedInTime(const HardProblem& problem) {
  HardProblem reversed = problem;
  if (problem.items.empty()) return reversed;
  TimeValue lo = problem.items[0].lifetime.first;
  TimeValue hi = problem.items[0].lifetime.last;
  for (const planner::PlanItem& item : problem.items) {
    lo = std::min(lo, item.lifetime.first);
    hi = std::max(hi, item.lifetime.last);
  }
  // hi less the distance from lo, in unsigned arithmetic: no overflow for
  // any span of int64 times.
  auto mirror = [lo, hi](TimeValue t) {
    return static_cast<TimeValue>(
        static_cast<uint64_t>(hi) -
        (static_cast<uint64_t>(t) - static_cast<uint64_t>(lo)));
  };
  for (planner::PlanItem& item : reversed.items) {
    item.lifetime = {mirror(item.lifetime.last), mirror(item.lifetime.first)};
  }
  return reversed;
}

std::vector<HardProblem> HardSuite(size_t max_buffers) {
  std::vector<HardProblem> suite;
  for (HardFamily family : {HardFamily::kTight, HardFamily::kUnreachable,
                            HardFamily::kAligned16, HardFamily::kAligned64}) {
    for (size_t buffers : {100, 200, 300, 500, 1000, 2000}) {
      if (buffers > max_buffers) continue;
      for (uint64_t seed = 1; seed <= 3; ++seed) {
        suite.push_back(MakeHardProblem(family, buffers, seed));
      }
    }
  }
  return suite;
}

}  // namespace bench
}  // namespace memplan
