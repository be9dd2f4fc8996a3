// Exact placement as decision searches, "do the items fit under capacity
// C?", after MiniMalloc (Moffitt, ASPLOS 2023); the code is this project's
// own. Heights: where some section has slack, grown tilings (below) at the
// lower bound and just above it; the lower bound (on perfect packings that
// is the whole answer; where some section has slack, multi_fit's
// squeaky-wheel dives run beside it on a thread of their own); then
// bisection up to the best height found.
// Each decision runs two searches, and, with slack, grown tilings first:
//
// Sweep (below): over time, filling the gaps each section's ending items
// leave with the items starting there. Where every section holds exactly C
// padded bytes it is complete and fast (forwards or backwards in time: a
// tiling that is hard one way is often easy the other); elsewhere it only
// finds plans.
//
// Grown tilings (planner/slack_spread.h): where sections have slack, the
// items grown by a spread of it until every section is full, for the sweep;
// a plan of the grown items is one of the items. Near-tight problems (a
// perfect packing with some items shrunk) have such plans just above their
// bound, where neither search finds the gaps.
//
// Search: over canonical plans, every item as low as it goes. Sorted by
// (offset, rank), each item then sits at the aligned highest end of the
// earlier items it overlaps in time, so the search picks the next item in
// that order and its offset is forced. Pruning, each sound for canonical
// plans:
// - order: the next (offset, rank) exceeds the previous one;
// - gap dominance: an item at or above min(offset + size) of the unplaced
//   leaves room under it for the item attaining that minimum, which would
//   then not be as low as it goes;
// - equivalent items (same size, alignment, lifetime) go in a fixed order,
//   and of two items of one lifetime right on each other the larger is
//   below (they could swap without moving anything else);
// - section capacity: in every section (compressed time) the unplaced
//   bytes must stack above the lowest start any of them can still have
//   (sizes rounded to the smallest alignment, the top item's padding
//   forgiven); an item behind in canonical order starts above the offset;
// - stuck items: behind in order with no unplaced neighbour to lift them;
// - decomposition: once no unplaced item spans a time cut, the two sides
//   are independent and are solved one after the other, each still above
//   the last offset placed (in canonical order their items come after
//   it), and each side's bounds checked before either is searched.
// A node costs one pass over its part's sections (placed tops and the
// last offset under the unplaced bytes: the bound MiniMalloc checks), then
// one over its unplaced items (for the candidates and the highest lowest
// start), the items of each section whose bytes would not fit above that
// highest start (only those can fail the section bound), and its item's
// neighbours and sections; every change is logged and undone, no
// allocation per node. Six preorders race (Searches, below), each on a
// thread, so that one unlucky order does not sink a decision: MiniMalloc's
// three (lifetime, area, busiest section; busiest, area, lifetime; busiest,
// lifetime, area), each once as is and once re-ranked inside every part
// the decomposition splits off, by the part's own unplaced bytes per
// section. They race in lockstep, so that which of them won is counted in
// nodes, not decided by the threads' speeds: the plan depends on the items
// alone, unless the time budget ended a decision.
#include "planner/exact.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <numeric>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <tuple>
#include <unordered_map>

#if defined(__GLIBC__)
#include <pthread.h>
#endif

#include "planner/lockstep.h"
#include "planner/lower_bound.h"
#include "planner/multi_fit.h"
#include "planner/overlap_graph.h"
#include "planner/slack_spread.h"
#include "planner/time_axis.h"
#include "planner/time_parts.h"
#include "runtime/core/checked_math.h"

namespace memplan {
namespace planner {
namespace {

using Clock = std::chrono::steady_clock;

enum class Outcome { kFound, kInfeasible, kOutOfBudget };
// A grown tiling's try: no spread of the slack exists at that capacity, the
// sweep found a plan, or it did not (a spread refuted, or out of budget).
enum class Grown { kNoSpread, kFound, kMissed };

struct Item {
  uint64_t size;
  uint64_t alignment;
  uint64_t padded;  // size rounded up to the smallest alignment.
  uint32_t lo, hi;  // Sections (compressed times), inclusive.
  uint64_t length;  // last - first + 1, in the caller's times.
  size_t index;     // Position in the caller's item list.
};

// No item, no section.
constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// When a decision ends, out of budget: at a time.
struct Deadline {
  Clock::time_point at;

  bool Passed() const { return Clock::now() > at; }
};

// Stack a search leaves below its deepest node, for what a node calls
// (bitsets, the allocator, a sanitizer's report); and the stack a search
// assumes where the thread's own extent is unknown.
constexpr uintptr_t kStackMargin = uintptr_t{64} << 10;
constexpr uintptr_t kFallbackStack = uintptr_t{1} << 20;

// The lowest address the calling thread's searches may recurse down to (a
// stack grows down on every target): its stack's far end plus
// kStackMargin, or kFallbackStack below the first caller's frame where the
// C library does not say (no pthread_getattr_np). Cached per thread.
uintptr_t StackFloor() {
  thread_local uintptr_t floor = 0;
  if (floor != 0) return floor;
  const uintptr_t here =
      reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  uintptr_t end = here > kFallbackStack ? here - kFallbackStack : 0;
#if defined(__GLIBC__)
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* address = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &address, &size) == 0 &&
        address != nullptr && reinterpret_cast<uintptr_t>(address) < here) {
      end = reinterpret_cast<uintptr_t>(address);
    }
    pthread_attr_destroy(&attr);
  }
#endif
  floor = end + kStackMargin;
  return floor;
}

// A search's budget: the deadline, and the nodes of one attempt (up to
// `limit`) and of all attempts. Search and Sweep each keep one. Both
// recurse a frame or more per node, so an attempt also ends where the
// thread's stack would run out (StackFloor): thousands of items deep, a
// stack of a few MiB did.
struct Budget {
  Deadline deadline;
  Lockstep* race = nullptr;  // And the race it runs in, as `member`.
  size_t member = 0;
  uint64_t work = 0;       // In the race: Lockstep's units, all attempts.
  uint64_t epoch_end = 0;  // Where the member's current epoch ends.
  uint64_t nodes = 0;
  uint64_t limit = 0;
  uint64_t total = 0;
  uint64_t unclocked = 0;  // Work since the clock was last read.
  uintptr_t stack_floor = 0;
  bool too_deep = false;  // An attempt reached stack_floor.

  // The clock is read every 256 nodes, or sooner once the nodes since add
  // up to this much work (Lockstep's units, about 0.1-0.3 ms): a node of
  // the offset-ordered search costs its part's sections and items, so on
  // 2,000-3,000 items where many lifetimes meet 256 nodes took tens of ms,
  // and exact overran a 5 s budget by up to 0.09 s (asplos2024 overlaid,
  // 2,287 items, 129k pairs: 5.094 s).
  static constexpr uint64_t kClockWork = uint64_t{1} << 17;

  // On the thread that will search.
  void Start(uint64_t node_limit) {
    nodes = 0;
    limit = node_limit;
    stack_floor = StackFloor();
  }
  // Adds the attempt's nodes to the total and returns them.
  uint64_t Finish() {
    total += nodes;
    return nodes;
  }
  // Ends the attempt: every later Tick fails.
  void Stop() { limit = 0; }
  // Counts a node of `node_work` units: false once the attempt is out of
  // nodes, at the stack's floor, or (checked every 256 nodes or
  // kClockWork) out of time or out of the race; all but the first also end
  // the attempt. Inline, so the frame it reads is the searching function's
  // (or, not inlined, one just below it).
  bool Tick(uint64_t node_work = 1) {
    if (++nodes > limit) return false;
    if (reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) < stack_floor) {
      too_deep = true;
      Stop();
      return false;
    }
    if (race != nullptr) {
      work += node_work;
      for (; work >= epoch_end; epoch_end += Lockstep::kEpochWork) {
        if (!race->EndEpoch(member)) {
          Stop();
          return false;
        }
      }
    }
    unclocked += node_work;
    if ((nodes & 255) != 0 && unclocked < kClockWork) return true;
    unclocked = 0;
    if (deadline.Passed() || (race != nullptr && race->Beaten(member))) {
      Stop();
      return false;
    }
    return true;
  }
};

// base + amount <= cap, without overflow.
bool FitsUnder(uint64_t base, uint64_t amount, uint64_t cap) {
  return base <= cap && amount <= cap - base;
}

uint64_t AlignUp(uint64_t value, uint64_t alignment) {
  // Values stay below every capacity tried, which ValidatePlanItems bounds.
  uint64_t out = value;
  CheckedAlignUp(value, alignment, &out);
  return out;
}

// States (each a list of words) under which a search failed at one
// capacity, so that it need not search them again. Compared in full, so a
// proof never rests on a hash; up to max_words words in all (kMaxWords,
// 32 MiB, unless the owner shares that cap with others).
class Refuted {
 public:
  static constexpr size_t kMaxWords = size_t{4} << 20;  // 32 MiB.

  explicit Refuted(size_t max_words = kMaxWords) : max_words_(max_words) {}
  bool Contains(const std::vector<uint64_t>& key) const {
    const auto [first, last] = index_.equal_range(HashOf(key));
    for (auto it = first; it != last; ++it) {
      const uint64_t* stored = &words_[it->second];
      if (stored[0] == key.size() &&
          std::equal(key.begin(), key.end(), stored + 1)) {
        return true;
      }
    }
    return false;
  }
  void Add(const std::vector<uint64_t>& key) {
    if (words_.size() + key.size() + 1 > max_words_) return;
    // Indexed last, so that an allocation failing leaves no index entry
    // pointing past the words.
    const size_t at = words_.size();
    words_.push_back(key.size());
    words_.insert(words_.end(), key.begin(), key.end());
    index_.emplace(HashOf(key), at);
  }
  void Clear() {
    index_.clear();
    words_.clear();
  }

 private:
  static uint64_t HashOf(const std::vector<uint64_t>& key) {
    uint64_t hash = 0x9E3779B97F4A7C15ull;
    for (uint64_t word : key) {
      hash ^= word + 0x9E3779B97F4A7C15ull + (hash << 6) + (hash >> 2);
      hash *= 0xBF58476D1CE4E5B9ull;
      hash ^= hash >> 31;
    }
    return hash;
  }

  size_t max_words_;
  std::unordered_multimap<uint64_t, size_t> index_;  // Hash -> words_ index.
  std::vector<uint64_t> words_;  // Each key's length, then the key.
};

// What a static preorder compares, each larger first.
enum class Key : uint8_t {
  kLength,   // Lifetime, in the caller's times.
  kArea,     // Size times lifetime.
  kBusiest,  // The most padded bytes in any of the item's sections.
};

struct Preorder {
  std::array<Key, 3> keys;
  // Whether each part the decomposition splits off is re-ranked by its own
  // unplaced bytes per section (kBusiest then counts only those).
  bool per_part;
};

constexpr Preorder kPreorders[] = {
    {{Key::kLength, Key::kArea, Key::kBusiest}, false},
    {{Key::kBusiest, Key::kArea, Key::kLength}, false},
    {{Key::kBusiest, Key::kLength, Key::kArea}, false},
    {{Key::kBusiest, Key::kArea, Key::kLength}, true},
    {{Key::kBusiest, Key::kLength, Key::kArea}, true},
    {{Key::kLength, Key::kArea, Key::kBusiest}, true},
};

// The unplaced items of one independent part: arena_[begin, end), and the
// sections [lo, hi] they live in.
struct Part {
  size_t begin, end;
  uint32_t lo, hi;
};

// What the searches over one problem share, built once: the items, which
// of them meet in time, and per section its items and padded bytes.
struct SearchProblem {
  // `overlaps`: the items' lifetimes that meet, by section.
  SearchProblem(const std::vector<Item>& items_in, OverlapGraph overlaps_in,
                size_t sections_in, uint64_t granule_in)
      : items(items_in),
        sections(sections_in),
        granule(granule_in),
        overlaps(std::move(overlaps_in)) {
    const size_t m = items.size();
    initial_total.assign(sections, 0);
    for (const Item& item : items) {
      for (uint32_t s = item.lo; s <= item.hi; ++s) {
        initial_total[s] += item.padded;
      }
    }
    // Each section's items, flattened: covering[cover_begin[s], ...[s+1]).
    cover_begin.assign(sections + 1, 0);
    for (const Item& item : items) {
      for (uint32_t s = item.lo; s <= item.hi; ++s) ++cover_begin[s + 1];
    }
    for (size_t t = 0; t < sections; ++t) {
      cover_begin[t + 1] += cover_begin[t];
    }
    covering.resize(cover_begin[sections]);
    {
      std::vector<size_t> fill(cover_begin.begin(), cover_begin.end() - 1);
      for (uint32_t i = 0; i < m; ++i) {
        for (uint32_t s = items[i].lo; s <= items[i].hi; ++s) {
          covering[fill[s]++] = i;
        }
      }
    }
    // Equivalent items: each points at the previous one in index order.
    std::vector<uint32_t> order(m);
    std::iota(order.begin(), order.end(), 0);
    auto key = [&](uint32_t i) {
      const Item& x = items[i];
      return std::make_tuple(x.size, x.alignment, x.lo, x.hi, i);
    };
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
    equivalent_before.assign(m, kNone);
    for (size_t k = 1; k < m; ++k) {
      const Item& a = items[order[k - 1]];
      const Item& b = items[order[k]];
      if (a.size == b.size && a.alignment == b.alignment && a.lo == b.lo &&
          a.hi == b.hi) {
        equivalent_before[order[k]] = order[k - 1];
      }
    }
  }

  // Whether every section holds exactly `bytes` padded bytes.
  bool EverySectionHolds(uint64_t bytes) const {
    for (uint64_t total : initial_total) {
      if (total != bytes) return false;
    }
    return true;
  }

  uint64_t max_section_bytes() const {
    uint64_t most = 0;
    for (uint64_t total : initial_total) most = std::max(most, total);
    return most;
  }

  const std::vector<Item>& items;
  const size_t sections;
  const uint64_t granule;  // The smallest alignment: every offset's unit.
  const OverlapGraph overlaps;
  std::vector<uint64_t> initial_total;  // Padded bytes per section.
  std::vector<size_t> cover_begin;
  std::vector<uint32_t> covering;  // The items live in each section.
  std::vector<uint32_t> equivalent_before;
};

// One preorder's search (see the top of the file).
class Search {
 public:
  Search(const SearchProblem& problem, const Preorder& preorder)
      : problem_(problem), preorder_(preorder) {
    const size_t m = problem_.items.size();
    busiest_.resize(m);
    for (uint32_t i = 0; i < m; ++i)
      busiest_[i] = Busiest(i, problem_.initial_total);
    std::vector<uint32_t> order(m);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return Precedes(preorder_, busiest_, a, b);
    });
    preorder_rank_.resize(m);
    for (size_t k = 0; k < m; ++k) {
      preorder_rank_[order[k]] = static_cast<uint32_t>(k + 1);
    }
    solution_.assign(m, 0);
  }

  // Whether the items fit in `capacity`, in one depth-first search (with
  // one preorder a restart would only search the same tree again), until
  // `deadline` or `nodes` run out. A found plan is in solution(). The
  // caller has checked that every section's bytes and every item fit.
  Outcome FitsIn(uint64_t capacity, Clock::time_point deadline,
                 uint64_t nodes) {
    if (capacity != capacity_) refuted_.Clear();
    capacity_ = capacity;
    padded_capacity_ = AlignUp(capacity, problem_.granule);
    budget_.deadline.at = deadline;
    if (nodes == 0 || budget_.deadline.Passed()) return Outcome::kOutOfBudget;
    per_part_ = preorder_.per_part ? &preorder_ : nullptr;
    return Attempt(preorder_rank_, nodes);
  }

  // The found plan's offsets, written at the caller's item positions.
  void WriteSolution(std::vector<uint64_t>* offsets) const {
    for (size_t k = 0; k < problem_.items.size(); ++k) {
      (*offsets)[problem_.items[k].index] = solution_[k];
    }
  }
  uint64_t total_nodes() const { return budget_.total; }
  // Decisions from now on run in `race` as `member` (none: nullptr).
  void RaceIn(Lockstep* race, size_t member) {
    budget_.race = race;
    budget_.member = member;
    if (race != nullptr) {
      budget_.work = 0;
      budget_.epoch_end = Lockstep::kEpochWork;
    }
  }

 private:
  // Whether a comes before b in `order`, with `busiest` per item; ties in
  // index order, as problem_.equivalent_before (and so the order pruning)
  // expects: equivalent items tie on every key.
  bool Precedes(const Preorder& order, const std::vector<uint64_t>& busiest,
                uint32_t a, uint32_t b) const {
    for (const Key key : order.keys) {
      unsigned __int128 x = 0, y = 0;
      switch (key) {
        case Key::kLength:
          x = problem_.items[a].length;
          y = problem_.items[b].length;
          break;
        case Key::kArea:
          x = static_cast<unsigned __int128>(problem_.items[a].size) *
              problem_.items[a].length;
          y = static_cast<unsigned __int128>(problem_.items[b].size) *
              problem_.items[b].length;
          break;
        case Key::kBusiest:
          x = busiest[a];
          y = busiest[b];
          break;
      }
      if (x != y) return x > y;
    }
    return a < b;
  }

  // The most of `totals` in any of item j's sections.
  uint64_t Busiest(uint32_t j, const std::vector<uint64_t>& totals) const {
    uint64_t most = 0;
    for (uint32_t s = problem_.items[j].lo; s <= problem_.items[j].hi; ++s) {
      most = std::max(most, totals[s]);
    }
    return most;
  }

  // Re-ranks the items of `part` (1 = first) by per_part_ over the unplaced
  // bytes of their sections, logging the ranks it replaces.
  void RerankPart(const Part& part,
                  std::vector<std::pair<uint32_t, uint32_t>>* log) {
    std::vector<uint32_t> members(arena_.begin() + part.begin,
                                  arena_.begin() + part.end);
    for (uint32_t j : members) {
      busiest_[j] = Busiest(j, total_);
      log->push_back({j, rank_[j]});
    }
    std::sort(members.begin(), members.end(), [&](uint32_t a, uint32_t b) {
      return Precedes(*per_part_, busiest_, a, b);
    });
    for (size_t k = 0; k < members.size(); ++k) {
      rank_[members[k]] = static_cast<uint32_t>(k + 1);
    }
  }

  Outcome Attempt(const std::vector<uint32_t>& rank, uint64_t node_limit) {
    const size_t m = problem_.items.size();
    rank_ = rank;
    budget_.Start(node_limit);
    placed_.assign(m, 0);
    min_offset_.assign(m, 0);
    unplaced_neighbors_.resize(m);
    for (size_t i = 0; i < m; ++i) {
      unplaced_neighbors_[i] =
          static_cast<uint32_t>(problem_.overlaps.degree(i));
    }
    floor_.assign(problem_.sections, 0);
    top_.assign(problem_.sections, kNone);
    total_ = problem_.initial_total;
    lowest_.assign(m, 0);
    cuts_.assign(problem_.sections, 0);
    for (const Item& item : problem_.items) {
      for (uint32_t s = item.lo; s < item.hi; ++s) ++cuts_[s];
    }
    arena_.clear();
    pos_.assign(m, 0);
    candidates_.clear();
    offset_log_.clear();
    floor_log_.clear();
    cut_log_.clear();
    for (size_t i = 0; i < m; ++i) {
      pos_[i] = arena_.size();
      arena_.push_back(static_cast<uint32_t>(i));
    }
    for (uint32_t s = 0; s + 1 < problem_.sections; ++s) {
      if (cuts_[s] == 0) cut_log_.push_back(s + 1);
    }
    const Part all = {0, m, 0, static_cast<uint32_t>(problem_.sections - 1)};
    const Outcome outcome = SolveParts(all, 0, 0);
    budget_.Finish();
    return outcome;
  }

  // Two items of one lifetime and alignment, sizes multiples of it, one
  // right on the other, can swap places without moving anything else; so
  // the larger goes below (equal ones are ordered by
  // problem_.equivalent_before).
  bool SwapDominated(uint32_t j, uint64_t offset) const {
    const Item& item = problem_.items[j];
    const uint32_t below = top_[item.lo];
    if (below == kNone || floor_[item.lo] != offset) return false;
    const Item& other = problem_.items[below];
    return other.lo == item.lo && other.hi == item.hi &&
           other.alignment == item.alignment && other.size < item.size &&
           other.size % other.alignment == 0 && item.size % item.alignment == 0;
  }

  bool Tick(uint64_t work = 1) { return budget_.Tick(work); }
  // Counts work done besides a node's passes (Tick): the race's clock.
  void Spend(uint64_t work) { budget_.work += work; }

  // Solves `part` split at the cuts cut_log_[cut_base..]: each side alone,
  // since no unplaced item spans a cut, but each still at last_offset or
  // above, the last placed item's offset: in canonical order the parts'
  // items would interleave after it. (Not after its rank too: at one offset
  // items that do not meet in time go in any order, so a part's outcome
  // does not depend on the ranking, and a refuted part stays refuted for
  // every preorder.)
  Outcome SolveParts(const Part& part, size_t cut_base, uint64_t last_offset) {
    if (cut_log_.size() == cut_base) return Dfs(part, last_offset, 0);
    std::vector<uint32_t> cuts(cut_log_.begin() + cut_base, cut_log_.end());
    Spend((cuts.size() + 1) * (part.end - part.begin));
    const size_t top = arena_.size();
    std::vector<Part> parts;
    uint32_t lo = part.lo;
    for (size_t c = 0; c <= cuts.size(); ++c) {
      const uint32_t hi = c < cuts.size() ? cuts[c] - 1 : part.hi;
      const size_t begin = arena_.size();
      for (size_t k = part.begin; k < part.end; ++k) {
        const uint32_t j = arena_[k];
        if (problem_.items[j].lo >= lo && problem_.items[j].lo <= hi) {
          pos_[j] = arena_.size();
          arena_.push_back(j);
        }
      }
      if (arena_.size() > begin)
        parts.push_back({begin, arena_.size(), lo, hi});
      lo = hi + 1;
    }
    Outcome outcome = Outcome::kFound;
    std::vector<std::pair<uint32_t, uint32_t>> rank_log;
    std::vector<uint64_t> key;
    // The later parts' bounds first: one that fails sinks the rest, which
    // would otherwise be searched for nothing (all the parts' sections
    // were one part's a node ago, checked together). The first part's are
    // the first thing its search checks.
    for (const Part& sub : parts) {
      if (per_part_ != nullptr) RerankPart(sub, &rank_log);
    }
    if (per_part_ != nullptr) Spend(2 * (part.end - part.begin));
    for (size_t p = 1; p < parts.size() && outcome == Outcome::kFound; ++p) {
      outcome = Dfs(parts[p], last_offset, 0, /*probe=*/true);
    }
    for (const Part& sub : parts) {
      if (outcome != Outcome::kFound) break;
      PartKey(sub, last_offset, &key);
      Spend(key.size());
      if (refuted_.Contains(key)) {
        outcome = Outcome::kInfeasible;
        break;
      }
      outcome = Dfs(sub, last_offset, 0);
      if (outcome == Outcome::kInfeasible) refuted_.Add(key);
      if (outcome != Outcome::kFound) break;
    }
    for (const auto& [j, rank] : rank_log) rank_[j] = rank;
    arena_.resize(top);
    for (size_t k = part.begin; k < part.end; ++k) pos_[arena_[k]] = k;
    return outcome;
  }

  // All a part's search depends on: its sections, its items, and per item
  // its lowest offset and what sits right below it in its first section
  // (for the swap pruning). Two paths that leave a part in one state share
  // its outcome.
  void PartKey(const Part& part, uint64_t last_offset,
               std::vector<uint64_t>* key) const {
    key->assign({part.lo, part.hi, last_offset});
    std::vector<uint32_t> members(arena_.begin() + part.begin,
                                  arena_.begin() + part.end);
    std::sort(members.begin(), members.end());
    for (uint32_t j : members) {
      const uint32_t lo = problem_.items[j].lo;
      key->insert(key->end(), {j, min_offset_[j], top_[lo], floor_[lo]});
    }
  }

  // With `probe`, only the bounds: kFound where they hold.
  Outcome Dfs(const Part& part, uint64_t last_offset, uint32_t last_rank,
              bool probe = false) {
    if (part.begin == part.end) return Outcome::kFound;
    // What the node costs: passes over the part's sections and items.
    if (!Tick(part.hi - part.lo + 1 + part.end - part.begin)) {
      return Outcome::kOutOfBudget;
    }
    // First the cheap half of the section bound, before the pass over the
    // items: every unplaced item goes at last_offset or above, and above
    // what is placed in its sections.
    for (uint32_t s = part.lo; s <= part.hi; ++s) {
      if (total_[s] != 0 && !FitsUnder(AlignUp(std::max(last_offset, floor_[s]),
                                               problem_.granule),
                                       total_[s], padded_capacity_)) {
        return Outcome::kInfeasible;
      }
    }
    const std::vector<uint32_t>& rank = rank_;
    // One pass over the unplaced items: dead ends, the gap bound, and the
    // candidates (later in canonical order, equivalent predecessor placed).
    uint64_t min_height = std::numeric_limits<uint64_t>::max();
    const size_t base = candidates_.size();
    uint64_t highest = 0;  // The highest lowest start of any unplaced item.
    for (size_t k = part.begin; k < part.end; ++k) {
      const uint32_t j = arena_[k];
      const Item& item = problem_.items[j];
      const uint64_t offset = min_offset_[j];
      const bool later = offset > last_offset ||
                         (offset == last_offset && rank[j] > last_rank);
      // An item behind in canonical order must be lifted by a later item,
      // which starts at last_offset or above.
      const uint64_t lowest =
          later ? offset
                : std::max(offset, AlignUp(last_offset + 1, item.alignment));
      lowest_[j] = lowest;
      highest = std::max(highest, lowest);
      if ((!later && unplaced_neighbors_[j] == 0) ||
          !FitsUnder(lowest, item.size, capacity_)) {
        candidates_.resize(base);
        return Outcome::kInfeasible;
      }
      min_height = std::min(min_height, offset + item.size);
      const uint32_t before = problem_.equivalent_before[j];
      if (later && (before == kNone || placed_[before]) &&
          !SwapDominated(j, offset)) {
        candidates_.push_back(j);
      }
    }
    // Section capacity: the unplaced items of a section stack above the
    // lowest start any of them can still have. Only a section whose bytes
    // would not fit above the highest of all the lowest starts can fail, so
    // only there are its items looked at.
    const uint64_t from_highest = AlignUp(highest, problem_.granule);
    for (uint32_t s = part.lo; s <= part.hi; ++s) {
      if (total_[s] == 0 ||
          FitsUnder(from_highest, total_[s], padded_capacity_)) {
        continue;
      }
      uint64_t lowest = std::numeric_limits<uint64_t>::max();
      Spend(problem_.cover_begin[s + 1] - problem_.cover_begin[s]);
      for (size_t k = problem_.cover_begin[s]; k < problem_.cover_begin[s + 1];
           ++k) {
        const uint32_t j = problem_.covering[k];
        if (!placed_[j]) lowest = std::min(lowest, lowest_[j]);
      }
      if (!FitsUnder(AlignUp(lowest, problem_.granule), total_[s],
                     padded_capacity_)) {
        candidates_.resize(base);
        return Outcome::kInfeasible;
      }
    }
    if (probe) {
      candidates_.resize(base);
      return Outcome::kFound;
    }
    size_t end = base;
    for (size_t k = base; k < candidates_.size(); ++k) {
      if (min_offset_[candidates_[k]] < min_height) {
        candidates_[end++] = candidates_[k];
      }
    }
    candidates_.resize(end);
    Spend(end - base);
    std::sort(candidates_.begin() + base, candidates_.end(),
              [&](uint32_t a, uint32_t b) {
                if (min_offset_[a] != min_offset_[b]) {
                  return min_offset_[a] < min_offset_[b];
                }
                return rank[a] < rank[b];
              });
    Outcome outcome = Outcome::kInfeasible;
    for (size_t k = base; k < end; ++k) {
      const uint32_t b = candidates_[k];
      outcome = PlaceAndRecurse(part, b);
      if (outcome != Outcome::kInfeasible) break;
    }
    candidates_.resize(base);
    return outcome;
  }

  // Places b at its canonical offset, recurses, and undoes the placement.
  Outcome PlaceAndRecurse(const Part& part, uint32_t b) {
    const Item& item = problem_.items[b];
    const uint64_t offset = min_offset_[b];
    const uint64_t end = offset + item.size;
    placed_[b] = 1;
    solution_[b] = offset;
    // Move b to the end of the part's range: the rest stay unplaced.
    const size_t last = part.end - 1;
    const uint32_t moved = arena_[last];
    arena_[pos_[b]] = moved;
    pos_[moved] = pos_[b];
    arena_[last] = b;
    pos_[b] = last;

    const size_t offset_mark = offset_log_.size();
    // Both passes over b's neighbours and sections, placing and undoing.
    Spend(2 * (problem_.overlaps.end(b) - problem_.overlaps.begin(b) + item.hi -
               item.lo + 1));
    for (size_t k = problem_.overlaps.begin(b); k < problem_.overlaps.end(b);
         ++k) {
      const uint32_t j = problem_.overlaps.neighbors()[k];
      if (placed_[j]) continue;
      --unplaced_neighbors_[j];
      const uint64_t raised = AlignUp(end, problem_.items[j].alignment);
      if (min_offset_[j] < raised) {
        offset_log_.push_back({j, min_offset_[j]});
        min_offset_[j] = raised;
      }
    }
    const size_t floor_mark = floor_log_.size();
    const uint64_t padded_end = AlignUp(end, problem_.granule);
    bool feasible = true;
    for (uint32_t s = item.lo; s <= item.hi; ++s) {
      floor_log_.push_back({floor_[s], top_[s]});
      floor_[s] = end;
      top_[s] = b;
      total_[s] -= item.padded;
      if (total_[s] > 0 &&
          !FitsUnder(padded_end, total_[s], padded_capacity_)) {
        feasible = false;
      }
    }
    const size_t cut_base = cut_log_.size();
    for (uint32_t s = item.lo; s < item.hi; ++s) {
      if (--cuts_[s] == 0 && s >= part.lo && s < part.hi) {
        cut_log_.push_back(s + 1);
      }
    }
    Outcome outcome = Outcome::kInfeasible;
    if (feasible) {
      const Part rest = {part.begin, part.end - 1, part.lo, part.hi};
      outcome = cut_log_.size() > cut_base ? SolveParts(rest, cut_base, offset)
                                           : Dfs(rest, offset, rank_[b]);
    }

    cut_log_.resize(cut_base);
    for (uint32_t s = item.lo; s < item.hi; ++s) ++cuts_[s];
    for (uint32_t s = item.lo; s <= item.hi; ++s) {
      floor_[s] = floor_log_[floor_mark + (s - item.lo)].first;
      top_[s] = floor_log_[floor_mark + (s - item.lo)].second;
      total_[s] += item.padded;
    }
    floor_log_.resize(floor_mark);
    for (size_t k = offset_log_.size(); k > offset_mark; --k) {
      min_offset_[offset_log_[k - 1].first] = offset_log_[k - 1].second;
    }
    offset_log_.resize(offset_mark);
    for (size_t k = problem_.overlaps.begin(b); k < problem_.overlaps.end(b);
         ++k) {
      const uint32_t j = problem_.overlaps.neighbors()[k];
      if (!placed_[j]) ++unplaced_neighbors_[j];
    }
    placed_[b] = 0;
    return outcome;
  }

  const SearchProblem& problem_;
  const Preorder& preorder_;
  std::vector<uint32_t> preorder_rank_;  // 1 = first.

  // One attempt's state; every change is undone on the way back.
  std::vector<uint32_t> rank_;  // The attempt's preorder, parts re-ranked.
  const Preorder* per_part_ = nullptr;  // Re-ranks parts by this, if set.
  std::vector<uint64_t> busiest_;       // Scratch for the ranking.
  uint64_t capacity_ = 0;
  uint64_t padded_capacity_ = 0;
  Budget budget_;
  std::vector<uint8_t> placed_;
  std::vector<uint64_t> min_offset_;  // Aligned highest placed neighbour end.
  std::vector<uint32_t> unplaced_neighbors_;
  std::vector<uint64_t> floor_;   // Highest placed end per section.
  std::vector<uint32_t> top_;     // The placed item ending there, or kNone.
  std::vector<uint64_t> total_;   // Unplaced padded bytes per section.
  std::vector<uint64_t> lowest_;  // Per unplaced item, at one node.
  std::vector<uint32_t> cuts_;    // Unplaced items spanning s and s + 1.
  std::vector<uint32_t> arena_;   // Parts' unplaced items.
  std::vector<size_t> pos_;       // Each item's place in arena_.
  std::vector<uint32_t> candidates_;
  std::vector<std::pair<uint32_t, uint64_t>> offset_log_;
  std::vector<std::pair<uint64_t, uint32_t>> floor_log_;
  std::vector<uint32_t> cut_log_;  // Sections where a new part starts.
  std::vector<uint64_t> solution_;
  // The parts (PartKey) that have no plan at this capacity; the racing
  // searches share the memory cap.
  Refuted refuted_{Refuted::kMaxWords / std::size(kPreorders)};
};

// The preorders race: one Search each, each on a thread of its own (the
// caller's for the first), in lockstep (Lockstep, above) until one decides,
// which stops the others. MiniMalloc instead round-robins its preorders
// with node limits doubling from scratch, so that one unlucky order does
// not sink a decision; but a restart searches its order's tree again from
// the top, and a search that needs N nodes costs about twice N per
// preorder that way. Racing, it costs N per preorder: asplos2024 E's plan
// at its bound takes one order about 0.5M nodes, the round-robin 9.3M
// (10 s here). Where threads cannot be had, the members without one run on
// the caller's after the race, in turn, each an equal share of the time.
class Searches {
 public:
  static constexpr size_t kMembers = std::size(kPreorders);

  explicit Searches(const SearchProblem& problem) : problem_(problem) {
    for (const Preorder& preorder : kPreorders) {
      members_.push_back(std::make_unique<Search>(problem, preorder));
    }
  }

  // Each search gets an equal share of `nodes`. A capacity under a
  // section's bytes or an item is refused here, before any thread starts.
  // The searches race in `race` where given (members 0 to kMembers - 1;
  // the caller runs the others, and this waits for them to leave), else in
  // one of their own; where another member wins, they are kOutOfBudget.
  Outcome FitsIn(uint64_t capacity, Clock::time_point deadline, uint64_t nodes,
                 Lockstep* race = nullptr) {
    bool fits = FitsUnder(0, problem_.max_section_bytes(),
                          AlignUp(capacity, problem_.granule));
    for (const Item& item : problem_.items) {
      fits = fits && item.size <= capacity;
    }
    if (!fits) {
      // Out of the caller's race (its other members run on).
      for (size_t i = 0; race != nullptr && i < kMembers; ++i) {
        race->Leave(i, false);
      }
      return Outcome::kInfeasible;
    }
    std::optional<Lockstep> own;
    if (race == nullptr) race = &own.emplace(kMembers);
    std::vector<Outcome> outcomes(kMembers, Outcome::kOutOfBudget);
    // A member out of memory drops out of the race (its next FitsIn starts
    // afresh); the others decide.
    auto run = [&, capacity, nodes](size_t i, Clock::time_point until,
                                    Lockstep* in) {
      members_[i]->RaceIn(in, i);
      try {
        outcomes[i] = members_[i]->FitsIn(capacity, until, nodes / kMembers);
      } catch (const std::bad_alloc&) {
        outcomes[i] = Outcome::kOutOfBudget;
      }
      members_[i]->RaceIn(nullptr, 0);
      if (in != nullptr) in->Leave(i, outcomes[i] != Outcome::kOutOfBudget);
    };
    std::vector<std::thread> threads;
    size_t started = 1;
    try {
      for (; started < kMembers; ++started) {
        threads.emplace_back(run, started, deadline, race);
      }
    } catch (const std::system_error&) {
      // Fewer threads: the rest leave the race, and run here after it.
      for (size_t i = started; i < kMembers; ++i) race->Leave(i, false);
    }
    run(0, Share(deadline, kMembers - started + 1), race);
    race->AwaitLeft(1, started);  // Running its progress hook, if any.
    for (std::thread& thread : threads) thread.join();
    const size_t winner = race->winner();
    if (winner < kMembers) {
      winner_ = winner;
      return outcomes[winner];
    }
    if (winner < race->members()) return Outcome::kOutOfBudget;
    for (size_t i = started; i < kMembers; ++i) {
      run(i, Share(deadline, kMembers - i), nullptr);
      if (outcomes[i] != Outcome::kOutOfBudget) {
        winner_ = i;
        return outcomes[i];
      }
    }
    return Outcome::kOutOfBudget;
  }

  // The plan the last FitsIn found.
  void WriteSolution(std::vector<uint64_t>* offsets) const {
    members_[winner_]->WriteSolution(offsets);
  }
  uint64_t total_nodes() const {
    uint64_t total = 0;
    for (const auto& member : members_) total += member->total_nodes();
    return total;
  }

 private:
  // An equal share, for one of `left` runs in turn, of the time to deadline
  // (all of it for the last).
  static Clock::time_point Share(Clock::time_point deadline, size_t left) {
    const Clock::time_point now = Clock::now();
    if (left <= 1 || now >= deadline) return deadline;
    return now + (deadline - now) / static_cast<int>(left);
  }

  const SearchProblem& problem_;
  std::vector<std::unique_ptr<Search>> members_;
  size_t winner_ = 0;
};

// A sweep over time. At each section the items that ended leave gaps in the
// stack, and the items that start there go into them; the search chooses,
// bottom up in each gap, which new item comes next or that the rest of the
// gap stays empty (within the section's slack: capacity minus its padded
// bytes). Only the live stack is state, so a mistake shows within the
// lifetimes it touches rather than at the height where an offset-ordered
// search would meet it.
// Where every section fills the capacity exactly (the slack is 0
// everywhere), no plan leaves a gap, every plan is one the sweep can build,
// and a failed sweep is a proof; elsewhere gaps could also sit under an
// item, which the sweep never tries, so it only finds plans.
// Pruning: at each of the next horizon_ sections, the items of the stack
// still live there cut it into windows that only items starting later (and
// at most that section's slack) can fill, so each window must be within
// the slack of a subset sum of theirs (bitsets per section pair, within
// a memory cap: dropped when full and built again as the sweep goes on).
// Symmetries: of identical new items one is tried at a spot; two adjacent
// new items that end together (the future sees only their union) go in one
// order. Transpositions: what a section's search can do depends only on
// the offsets of the items that live on into it, so the layouts it failed
// under are kept (in full, per capacity, up to a memory cap) and not
// searched again, by the same restart or a later one.
class Sweep {
 public:
  Sweep(const std::vector<Item>& items, size_t sections)
      : items_(items),
        by_start_(sections),
        total_(sections, 0),
        last_end_(sections, 0),
        slack_(sections, 0),
        waste_(sections, 0),
        layout_(sections),
        stacks_(sections),
        keys_(sections) {
    for (uint32_t i = 0; i < items_.size(); ++i) {
      by_start_[items_[i].lo].push_back(i);
      last_end_[items_[i].lo] = std::max(last_end_[items_[i].lo], items_[i].hi);
      for (uint32_t s = items_[i].lo; s <= items_[i].hi; ++s) {
        total_[s] += items_[i].padded;
      }
    }
    // The items that live on into each section from the one before.
    crossing_begin_.assign(sections + 1, 0);
    for (const Item& item : items_) {
      for (uint32_t s = item.lo + 1; s <= item.hi; ++s)
        ++crossing_begin_[s + 1];
    }
    for (size_t t = 0; t < sections; ++t) {
      crossing_begin_[t + 1] += crossing_begin_[t];
    }
    crossing_.resize(crossing_begin_[sections]);
    {
      std::vector<size_t> fill(crossing_begin_.begin(),
                               crossing_begin_.end() - 1);
      for (uint32_t i = 0; i < items_.size(); ++i) {
        for (uint32_t s = items_[i].lo + 1; s <= items_[i].hi; ++s) {
          crossing_[fill[s]++] = i;
        }
      }
    }
    // The orders new items are tried in, one per restart: larger first (big
    // items have the fewest places), longer-lived first, shorter-lived
    // first, then shuffles.
    auto sorted = [&](auto less) {
      std::vector<std::vector<uint32_t>> lists = by_start_;
      for (std::vector<uint32_t>& list : lists) {
        std::sort(list.begin(), list.end(), less);
      }
      return lists;
    };
    orders_.push_back(
        sorted([&](uint32_t a, uint32_t b) { return Before(a, b); }));
    orders_.push_back(sorted([&](uint32_t a, uint32_t b) {
      if (items_[a].hi != items_[b].hi) return items_[a].hi > items_[b].hi;
      return Before(a, b);
    }));
    orders_.push_back(sorted([&](uint32_t a, uint32_t b) {
      if (items_[a].hi != items_[b].hi) return items_[a].hi < items_[b].hi;
      return Before(a, b);
    }));
    uint64_t state = 0x2545F4914F6CDD1Dull;
    for (int copy = 0; copy < 5; ++copy) {
      std::vector<std::vector<uint32_t>> lists = orders_[0];
      for (std::vector<uint32_t>& list : lists) {
        for (size_t k = list.size(); k > 1; --k) {
          state ^= state << 13;
          state ^= state >> 7;
          state ^= state << 17;
          std::swap(list[k - 1], list[state % k]);
        }
      }
      orders_.push_back(std::move(lists));
    }
    used_.assign(items_.size(), 0);
    solution_.assign(items_.size(), 0);
  }

  // kInfeasible is a proof only where complete().
  Outcome FitsIn(uint64_t capacity, uint64_t padded_capacity,
                 Clock::time_point deadline, uint64_t nodes) {
    if (capacity != capacity_ || padded_capacity != padded_capacity_) {
      refuted_.Clear();
    }
    capacity_ = capacity;
    complete_ = true;
    for (size_t s = 0; s < total_.size(); ++s) {
      if (total_[s] > padded_capacity) return Outcome::kInfeasible;
      slack_[s] = padded_capacity - total_[s];
      complete_ = complete_ && slack_[s] == 0;
    }
    if (padded_capacity != padded_capacity_) {
      padded_capacity_ = padded_capacity;
      unit_ = padded_capacity;
      for (const Item& item : items_) unit_ = std::gcd(unit_, item.padded);
      if (unit_ == 0) unit_ = 1;
      SizeWindows();
    }
    budget_.deadline.at = deadline;
    budget_.too_deep = false;
    // Restarts: each order in turn, node limits doubling from
    // kFirstLimitPerItem nodes an item, so that one unlucky order does not
    // take the whole budget (each of them alone misses some of the
    // generated tilings) while a lucky one has room to go deep; layouts
    // refuted by one order stay refuted for the next.
    uint64_t limit =
        std::max<uint64_t>(items_.size() * kFirstLimitPerItem, 1024);
    while (true) {
      for (const std::vector<std::vector<uint32_t>>& order : orders_) {
        if (nodes == 0 || budget_.deadline.Passed()) {
          return Outcome::kOutOfBudget;
        }
        starting_ = &order;
        budget_.Start(std::min(limit, nodes));
        std::fill(used_.begin(), used_.end(), 0);
        std::fill(waste_.begin(), waste_.end(), 0);
        const Outcome outcome = Column(0);
        nodes -= std::min(nodes, budget_.Finish());
        if (outcome != Outcome::kOutOfBudget) return outcome;
        // Out of stack: a path reaching a section has placed every item
        // starting before it, so its depth (a frame per choice and per
        // section) is much the same in every order, and the next would
        // stop there too: the sweep cannot decide this one.
        if (budget_.too_deep) return outcome;
      }
      if (limit <= std::numeric_limits<uint64_t>::max() / 2) limit *= 2;
    }
  }

  void WriteSolution(std::vector<uint64_t>* offsets) const {
    for (size_t k = 0; k < items_.size(); ++k) {
      (*offsets)[items_[k].index] = solution_[k];
    }
  }
  uint64_t total_nodes() const { return budget_.total; }
  bool complete() const { return complete_; }

 private:
  static constexpr uint32_t kMaxHorizon = 64;
  static constexpr size_t kUnknown = std::numeric_limits<size_t>::max();
  static constexpr size_t kSkipped = kUnknown - 1;
  static constexpr size_t kMaxBitWords = size_t{4} << 20;  // 32 MiB.
  static constexpr uint64_t kFirstLimitPerItem = 4096;

  // A section's layout from below: a surviving item, or a gap to fill.
  struct Segment {
    uint32_t item;        // kNone for a gap.
    uint64_t begin, end;  // The gap's bytes.
  };

  // The order new items are tried in, and adjacent ones kept in.
  bool Before(uint32_t a, uint32_t b) const {
    const Item& x = items_[a];
    const Item& y = items_[b];
    if (x.padded != y.padded) return x.padded > y.padded;
    if (x.size != y.size) return x.size > y.size;
    return a < b;
  }
  bool Identical(uint32_t a, uint32_t b) const {
    const Item& x = items_[a];
    const Item& y = items_[b];
    return x.size == y.size && x.alignment == y.alignment && x.hi == y.hi;
  }

  bool Tick() { return budget_.Tick(); }

  // The sum (in units, at most the capacity's) of the items that start
  // after t and live at t + d, for d up to kMaxHorizon: a window there is at
  // most that plus the slack, and its bitset needs no more bits. Then the
  // horizon: as far ahead as the bitsets a section's decisions use (of the
  // windows from it and from the horizon's sections after it, a bitset
  // that another one's shares counted once) take at most half of
  // kMaxBitWords, so that each time the bitsets are dropped (see
  // BuildWindows) the sweep can go on for a horizon before the next.
  void SizeWindows() {
    const size_t sections = stacks_.size();
    const uint64_t most = padded_capacity_ / unit_;
    std::vector<std::vector<uint32_t>> by_end(sections);
    for (uint32_t i = 0; i < items_.size(); ++i) {
      by_end[items_[i].hi].push_back(i);
    }
    window_sums_.assign(sections * kMaxHorizon, 0);
    for (uint32_t t = 0; t < sections; ++t) {
      uint64_t sum = 0;  // Of the items starting in (t, t + d], live there.
      for (uint32_t d = 1; d <= kMaxHorizon && t + d < sections; ++d) {
        for (uint32_t j : by_end[t + d - 1]) {
          if (items_[j].lo > t) sum -= items_[j].padded / unit_;
        }
        for (uint32_t j : by_start_[t + d]) sum += items_[j].padded / unit_;
        window_sums_[t * kMaxHorizon + (d - 1)] = std::min(sum, most);
      }
    }
    // Per section, the words of its windows up to the horizon tried.
    std::vector<size_t> words(sections, 0);
    size_t total = 0;  // Every section's, for the reserve.
    horizon_ = 0;
    for (uint32_t h = 1; h <= kMaxHorizon; ++h) {
      size_t all = 0;
      for (uint32_t t = 0; t + h < sections; ++t) {
        if (!SharesNext(t, t + h)) {
          words[t] += WindowWords(t * kMaxHorizon + (h - 1));
        }
      }
      size_t run = 0, most_used = 0;  // Over h sections in a row.
      for (uint32_t t = 0; t < sections; ++t) {
        all += words[t];
        run += words[t];
        if (t >= h) run -= words[t - h];
        most_used = std::max(most_used, run);
      }
      if (h > 1 && most_used > kMaxBitWords / 2) break;
      horizon_ = h;
      total = all;
    }
    windows_.assign(sections * kMaxHorizon, kUnknown);
    bits_.clear();
    bits_.reserve(std::min(total, kMaxBitWords));  // Never moved.
  }

  // The words of a window's bitset (at index (section, distance - 1)), at
  // most one more than kMaxBitWords: no such bitset is built, and the sums
  // of them never overflow.
  size_t WindowWords(size_t index) const {
    return static_cast<size_t>(
        std::min<uint64_t>(window_sums_[index] / 64 + 1, kMaxBitWords + 1));
  }

  // Whether window (s, e) has the items of window (s + 1, e): none that
  // starts at s + 1 lives at e. Far ahead most do not (the generated
  // tilings of 500-2,000 buffers, up to 64 sections ahead: a fifth to a
  // seventh of the windows differ from the next one's), and such a window
  // shares the next one's bitset.
  bool SharesNext(uint32_t s, uint32_t e) const {
    return s + 1 < e && last_end_[s + 1] < e;
  }

  // The bitsets of the windows that end at section e, from (t, e) up to the
  // nearest one built: the items that start in (s, e] and live at e grow,
  // as s falls, by those that start at s + 1, so each bitset is the next
  // one's shifted by only those (and not by all its items, which made
  // building them cost more than the search they prune), or is the next
  // one's where there are none. Where they would pass kMaxBitWords, every
  // bitset built is dropped first: the sweep has mostly moved on from
  // them, and one it needs again is built again, the same. Until
  // 2026-12-07 the horizon was only as far as every section's bitsets fit
  // at once, and a bitset past the cap was skipped: in units of 16 bytes
  // (hard_planner_bench's aligned16 at 1,000 and 2,000 buffers) that was
  // as little as 6 and 2 sections even with shared bitsets, and 4 of those
  // 6 problems were not decided at their bound in 5 s; now all 6 are, in
  // at most 0.7 s.
  void BuildWindows(uint32_t t, uint32_t e) {
    auto index = [e](uint32_t s) { return s * kMaxHorizon + (e - s - 1); };
    auto need = [&](uint32_t from) {  // Words for (t, e) .. (from - 1, e).
      size_t words = 0;
      for (uint32_t s = t; s < from; ++s) {
        if (!SharesNext(s, e)) words += WindowWords(index(s));
      }
      return words;
    };
    uint32_t from = t + 1;  // (from, e) is built, or from == e (no items).
    while (from < e && windows_[index(from)] >= kSkipped) ++from;
    if (bits_.size() + need(from) > bits_.capacity()) {
      // Too large even alone (bytes as units, a capacity of gigabytes):
      // skipped, and nothing dropped for it.
      if (need(e) > bits_.capacity()) {
        windows_[index(t)] = kSkipped;
        return;
      }
      std::fill(windows_.begin(), windows_.end(), kUnknown);
      bits_.clear();
      from = e;
    }
    for (uint32_t s = from; s-- > t;) {
      if (SharesNext(s, e)) {
        windows_[index(s)] = windows_[index(s + 1)];
        continue;
      }
      const size_t words = WindowWords(index(s));
      const size_t slot = bits_.size();
      windows_[index(s)] = slot;
      bits_.resize(slot + words, 0);
      uint64_t* b = &bits_[slot];
      if (s + 1 < e) {
        const size_t next = windows_[index(s + 1)];
        const size_t next_words = WindowWords(index(s + 1));
        std::copy(&bits_[next], &bits_[next] + std::min(words, next_words), b);
      } else {
        b[0] = 1;
      }
      for (uint32_t j : by_start_[s + 1]) {
        if (items_[j].hi < e) continue;
        const uint64_t shift = items_[j].padded / unit_;
        const size_t ws = shift / 64, bs = shift % 64;
        for (size_t w = words; w-- > ws;) {
          uint64_t v = b[w - ws] << bs;
          if (bs != 0 && w > ws) v |= b[w - ws - 1] >> (64 - bs);
          b[w] |= v;
        }
      }
    }
  }

  // Whether `bytes` is within the slack at t + d of a sum of padded sizes
  // of items that start after t and live at t + d (true where the bitset is
  // over the memory cap, or the slack spans too many sums to look at).
  bool WindowFillable(uint32_t t, uint32_t d, uint64_t bytes) {
    const uint64_t slack = slack_[t + d];
    const uint64_t sum = window_sums_[t * kMaxHorizon + (d - 1)];
    const uint64_t high = std::min(bytes / unit_, sum);
    const uint64_t low =
        bytes > slack ? (bytes - slack + unit_ - 1) / unit_ : 0;
    if (low > high) return false;
    if (high - low > 64 * 64) return true;
    const size_t& slot = windows_[t * kMaxHorizon + (d - 1)];
    if (slot == kUnknown) {
      // A bitset costs up to its words times its items, far more than a
      // node: building them is what overruns a small budget, so the
      // deadline is checked before each (and the search stops, unpruned).
      if (budget_.deadline.Passed()) {
        budget_.Stop();
        return true;
      }
      BuildWindows(t, t + d);
    }
    if (slot == kSkipped) return true;
    const uint64_t* b = &bits_[slot];
    for (uint64_t bit = low; bit <= high; ++bit) {
      if ((bit % 64) == 0 && bit + 63 <= high) {
        if (b[bit / 64] != 0) return true;
        bit += 63;
      } else if ((b[bit / 64] >> (bit % 64)) & 1) {
        return true;
      }
    }
    return false;
  }

  // With item x just put on the stack of section t: whether the window
  // under it at each coming section can still be filled.
  // The windows under `top` (item x's offset, x at stack position `count`,
  // or the capacity with x kNone and count the stack's size).
  bool WindowsBelowFit(uint32_t t, uint64_t top, size_t count, uint32_t x) {
    const std::vector<uint32_t>& stack = stacks_[t];
    for (uint32_t d = 1; d <= horizon_ && t + d < stacks_.size(); ++d) {
      const uint32_t at = t + d;
      if (x != kNone && items_[x].hi < at) continue;
      uint64_t low = 0;
      for (size_t k = count; k-- > 0;) {
        const uint32_t y = stack[k];
        if (items_[y].hi >= at) {
          low = solution_[y] + items_[y].padded;
          break;
        }
      }
      if (!WindowFillable(t, d, top - low)) return false;
    }
    return true;
  }

  // Enters section t: its layout is the items of the previous stack that
  // live on, and the gaps between them.
  Outcome Column(uint32_t t) {
    if (t == stacks_.size()) return Outcome::kFound;
    if (!Tick()) return Outcome::kOutOfBudget;
    // What is below section t is only the offsets of the items that live on
    // into it: a layout that failed once fails again, whatever led to it.
    std::vector<uint64_t>& key = keys_[t];
    key.assign(1, t);
    for (size_t k = crossing_begin_[t]; k < crossing_begin_[t + 1]; ++k) {
      key.push_back(solution_[crossing_[k]]);
    }
    if (refuted_.Contains(key)) return Outcome::kInfeasible;
    const Outcome outcome = EnterColumn(t);
    if (outcome == Outcome::kInfeasible) refuted_.Add(key);
    return outcome;
  }

  Outcome EnterColumn(uint32_t t) {
    std::vector<Segment>& layout = layout_[t];
    layout.clear();
    uint64_t at = 0;
    if (t > 0) {
      for (uint32_t j : stacks_[t - 1]) {
        if (items_[j].hi < t) continue;
        if (solution_[j] > at) layout.push_back({kNone, at, solution_[j]});
        at = solution_[j] + items_[j].padded;
        layout.push_back({j, solution_[j], at});
      }
    }
    if (at < padded_capacity_) layout.push_back({kNone, at, padded_capacity_});
    stacks_[t].clear();
    return Fill(t, 0, layout.empty() ? 0 : layout[0].begin, kNone, 0);
  }

  // Lays out section t from segment `seg` on, at byte `pos`; `below` is the
  // new item right under pos in the current gap, if any, and stack entries
  // from `first` on are that gap's new items.
  // Where the way on is forced (a surviving item; a gap given up whose new
  // items there are none to move) this loops rather than recursing, so the
  // depth is one frame per choice made (a new item placed, a gap given up
  // under new items) and per section, not per item and gap of every
  // section: a sweep over thousands of long-lived items overflowed the
  // stack. The nodes counted, and so every outcome, are the same.
  Outcome Fill(uint32_t t, size_t seg, uint64_t pos, uint32_t below,
               size_t first) {
    const std::vector<Segment>& layout = layout_[t];
    std::vector<uint32_t>& stack = stacks_[t];
    const size_t depth = stack.size();  // Survivors pushed here come off.
    uint64_t wasted = 0;                // Gaps given up here, in bytes.
    Outcome outcome = Outcome::kInfeasible;
    while (true) {
      if (seg < layout.size() && layout[seg].item == kNone &&
          pos == layout[seg].end) {
        ++seg;
        below = kNone;
        first = stack.size();
      }
      if (seg == layout.size()) {
        outcome = EndSection(t);
        break;
      }
      if (layout[seg].item != kNone) {
        const uint32_t x = layout[seg].item;
        stack.push_back(x);
        if (!WindowsBelowFit(t, layout[seg].begin, stack.size() - 1, x)) {
          outcome = Outcome::kInfeasible;
          break;
        }
        pos = layout[seg].end;
        below = kNone;
        first = stack.size();
        ++seg;
        continue;
      }
      if (!Tick()) {
        outcome = Outcome::kOutOfBudget;
        break;
      }
      const uint64_t room = layout[seg].end - pos;
      outcome = PlaceNewItem(t, seg, pos, below, first, room);
      if (outcome != Outcome::kInfeasible) break;
      // Or the rest of the gap stays empty, if the slack allows: at its
      // top, or at its bottom with this gap's new items moved up.
      if (waste_[t] + room > slack_[t]) break;
      if (first < stack.size()) {
        outcome = GiveUpUnder(t, seg, room, first);
        break;
      }
      waste_[t] += room;
      wasted += room;
      pos = layout[seg].end;
    }
    waste_[t] -= wasted;
    stack.resize(depth);
    return outcome;
  }

  // Section t is laid out: every item starting there placed, the windows
  // under its top fillable; on to the next.
  Outcome EndSection(uint32_t t) {
    for (uint32_t j : (*starting_)[t]) {
      if (!used_[j]) return Outcome::kInfeasible;
    }
    if (!WindowsBelowFit(t, padded_capacity_, stacks_[t].size(), kNone)) {
      return Outcome::kInfeasible;
    }
    return Column(t + 1);
  }

  // Each new item of section t that fits at pos in the gap (`room` bytes
  // left), and the rest of the section after it.
  Outcome PlaceNewItem(uint32_t t, size_t seg, uint64_t pos, uint32_t below,
                       size_t first, uint64_t room) {
    std::vector<uint32_t>& stack = stacks_[t];
    const std::vector<uint32_t>& starting = (*starting_)[t];
    Outcome outcome = Outcome::kInfeasible;
    for (size_t k = 0; k < starting.size(); ++k) {
      const uint32_t j = starting[k];
      if (used_[j]) continue;
      const Item& item = items_[j];
      if (item.padded > room || pos % item.alignment != 0 ||
          !FitsUnder(pos, item.size, capacity_)) {
        continue;
      }
      bool repeat = false;
      for (size_t l = 0; l < k && !repeat; ++l) {
        repeat = !used_[starting[l]] && Identical(starting[l], j);
      }
      if (repeat) continue;
      // Swapping the two keeps both aligned and the top where it was.
      if (below != kNone && items_[below].hi == item.hi &&
          items_[below].alignment == item.alignment &&
          items_[below].size == items_[below].padded &&
          item.size == item.padded &&
          items_[below].size % item.alignment == 0 &&
          item.size % item.alignment == 0 && !Before(below, j)) {
        continue;
      }
      used_[j] = 1;
      solution_[j] = pos;
      stack.push_back(j);
      if (WindowsBelowFit(t, pos, stack.size() - 1, j)) {
        outcome = Fill(t, seg, pos + item.padded, j, first);
      }
      stack.pop_back();
      used_[j] = 0;
      if (outcome != Outcome::kInfeasible) return outcome;
    }
    return outcome;
  }

  // The rest of the gap at segment `seg` (`room` bytes, within the slack)
  // stays empty, under the new items stack entries [first, end) have put
  // in it: at the gap's top, or else at its bottom with them moved up.
  Outcome GiveUpUnder(uint32_t t, size_t seg, uint64_t room, size_t first) {
    const std::vector<Segment>& layout = layout_[t];
    std::vector<uint32_t>& stack = stacks_[t];
    waste_[t] += room;
    Outcome outcome = Fill(t, seg, layout[seg].end, kNone, stack.size());
    if (outcome == Outcome::kInfeasible) {
      bool fits = true;
      for (size_t k = first; k < stack.size() && fits; ++k) {
        const Item& item = items_[stack[k]];
        const uint64_t moved = solution_[stack[k]] + room;
        fits = moved % item.alignment == 0 &&
               FitsUnder(moved, item.size, capacity_);
      }
      for (size_t k = first; k < stack.size(); ++k) {
        solution_[stack[k]] += room;
      }
      for (size_t k = first; k < stack.size() && fits; ++k) {
        fits = WindowsBelowFit(t, solution_[stack[k]], k, stack[k]);
      }
      if (fits) outcome = Fill(t, seg, layout[seg].end, kNone, stack.size());
      // A found plan keeps them moved.
      for (size_t k = first; k < stack.size() && outcome != Outcome::kFound;
           ++k) {
        solution_[stack[k]] -= room;
      }
    }
    waste_[t] -= room;
    return outcome;
  }

  const std::vector<Item>& items_;
  std::vector<std::vector<uint32_t>> by_start_;  // Per section.
  std::vector<uint64_t> total_;  // Padded bytes live, per section.
  // Per section, the last section of the items starting there (0: none).
  std::vector<uint32_t> last_end_;
  std::vector<uint64_t> slack_;  // Capacity minus total_.
  std::vector<uint64_t> waste_;  // Bytes left empty so far, per section.
  bool complete_ = true;
  std::vector<std::vector<std::vector<uint32_t>>> orders_;  // Per restart.
  const std::vector<std::vector<uint32_t>>* starting_ = nullptr;
  std::vector<std::vector<Segment>> layout_;   // Per section.
  std::vector<std::vector<uint32_t>> stacks_;  // Per section, by offset.
  std::vector<size_t> crossing_begin_;  // crossing_[begin[t], begin[t + 1]):
  std::vector<uint32_t> crossing_;      // items live at t - 1 and t.
  // The layouts entering a section (the section, then its crossing items'
  // offsets) under which the sweep failed at this capacity.
  Refuted refuted_;
  std::vector<std::vector<uint64_t>> keys_;  // Per section, scratch.
  std::vector<uint8_t> used_;
  std::vector<uint64_t> solution_;
  uint64_t capacity_ = 0;
  uint64_t padded_capacity_ = 0;
  uint64_t unit_ = 1;  // gcd of the padded sizes and capacity.
  uint32_t horizon_ = 1;
  // Per (section, distance): a bitset of the subset sums (in units) of the
  // items that start after the section and live at the distance, as a
  // position in bits_ (or kUnknown, kSkipped), and the largest such sum.
  std::vector<size_t> windows_;
  std::vector<uint64_t> window_sums_;
  std::vector<uint64_t> bits_;
  Budget budget_;
};

// ExecuTorch's greedy scans its shared objects for each item: O(n^2) where
// lifetimes nest (100,000 nested items: 200 s). Past this many items it is
// no seed, so that the budget holds; the other heuristics stay.
constexpr size_t kMaxGreedySeedItems = 10'000;

// The heuristics exact starts from, in tie order. best_fit is not one:
// multi_fit starts from its plan and is never higher.
std::vector<std::string> SeedNames(size_t num_items) {
  std::vector<std::string> names = {"naive"};
  if (num_items <= kMaxGreedySeedItems) names.push_back("greedy");
  names.push_back("multi_fit");
  return names;
}

// What one of multi_fit's dives counts as in the race beside the bound's
// searches (Lockstep's work units), per item and per pair of items that
// meet in time (about what a dive does: see multi_fit.cc): a dive took
// 5.5-16.5 times that many units' time, median 10, on asplos2024 A..K and a
// problem of each generated family at 100, 300 and 500 buffers.
constexpr uint64_t kDiveWorkPerPair = 10;

// The longest budget in seconds: about 31 years.
constexpr double kMaxSeconds = 1e9;

// When options' time budget, counted from `start`, ends: up to kMaxSeconds
// (a larger count of nanoseconds would not fit the clock's), none where it
// is not a positive number.
Clock::time_point DeadlineOf(Clock::time_point start,
                             const AlgorithmOptions& options) {
  const double seconds =
      options.max_seconds > 0 ? std::min(options.max_seconds, kMaxSeconds) : 0;
  return start + std::chrono::duration_cast<Clock::duration>(
                     std::chrono::duration<double>(seconds));
}

// The best heuristic plan (ties: the earliest in SeedNames), so that exact
// never loses to one.
Result<Placement> BestSeed(const std::vector<PlanItem>& items,
                           const AlgorithmOptions& options) {
  Placement best;
  bool seeded = false;
  for (const std::string& name : SeedNames(items.size())) {
    std::unique_ptr<Algorithm> heuristic = MakeAlgorithm(name);
    if (heuristic == nullptr) {
      return Error(ErrorCode::kInternal, "no algorithm named " + name);
    }
    Result<Placement> placement = heuristic->Place(items, options);
    if (!placement.ok()) return placement.error();
    if (!seeded || placement->height < best.height) {
      best = std::move(*placement);
      seeded = true;
    }
  }
  best.proven_optimal = false;
  return best;
}

// Where sections have slack everywhere, the searches prune little, and
// sizes of any byte count leave them no coarse grid to work on: asplos2024
// A..K with every size cut by 0-999 bytes (hard_planner_bench --cut=1000:
// byte counts, under which the files' plans within 1048576 still hold)
// came out 1.036x their bounds on average at 5 s (up to 1.087x), and 5 of
// the 11 found no plan within 1048576 when asked for one, where the files
// as given are proven in 0.002-1 s. Each size rounded up to a multiple of
// a power of two g is a problem whose plans are the items' too (each item
// no larger, at the same aligned offset), often one the searches decide
// fast: 1.012x and 10 of 11 with the grids (PlaceItems). The grids tried,
// coarsest first: each g above the search's unit, at most the largest
// size, whose rounded live bytes could close half the gap between the
// best plan and the proven bound (at a capacity: fit it), up to
// kMaxCoarseGrids of them. A quarter of the gap missed the grid that
// helps where the dives had narrowed it (the cut I: 1.023x, 1.008x now).
constexpr int kMaxCoarseGrids = 3;
// ... within this share of the time and nodes left, each grid half of what
// is left of it: at a capacity, before its decision; otherwise this share
// of what the bound's decision left.
constexpr double kCoarseShare = 0.2;
constexpr double kCoarseShareAfterTheBound = 0.5;

// The items on the grid of g (each size rounded up to a multiple of it), or
// none where a size would overflow.
std::optional<std::vector<PlanItem>> OnGrid(const std::vector<PlanItem>& items,
                                            uint64_t g) {
  std::vector<PlanItem> rounded = items;
  for (PlanItem& item : rounded) {
    if (!CheckedAlignUp(item.size, g, &item.size)) return std::nullopt;
  }
  if (!ValidatePlanItems(rounded).ok()) return std::nullopt;
  return rounded;
}

// exact on valid items that may not split in time (see Place). A plan no
// higher than `enough` (or options.capacity) ends the search (0: only the
// lower bound does): the decisions start there, not lower. With a
// capacity, a proof that no plan fits it ends the search too.
// `*nodes_spent` tells the nodes used of options.max_nodes. `coarse`: the
// items may also be tried on coarser grids (kMaxCoarseGrids, above), which
// such a try itself is not.
Result<Placement> PlaceItems(const std::vector<PlanItem>& items,
                             const AlgorithmOptions& options, uint64_t enough,
                             uint64_t* nodes_spent, bool coarse = true) {
  *nodes_spent = 0;
  enough = std::max(enough, options.capacity);
  // Whether `bound` (a proof) settles the decision at the capacity.
  auto over_capacity = [&options](uint64_t bound) {
    return options.capacity > 0 && bound > options.capacity;
  };
  const Clock::time_point start = Clock::now();
  Result<Placement> seed = BestSeed(items, options);
  if (!seed.ok()) return seed.error();
  Placement best = std::move(*seed);

  std::vector<TimeValue> endpoints;
  uint64_t granule = std::numeric_limits<uint64_t>::max();
  for (const PlanItem& item : items) {
    if (item.size == 0) continue;
    endpoints.push_back(item.lifetime.first);
    endpoints.push_back(item.lifetime.last);
    granule = std::min(granule, item.alignment);
  }
  const TimeAxis times(std::move(endpoints));
  std::vector<Item> search_items;
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].size == 0) continue;  // Offset 0 never collides.
    const PlanItem& p = items[i];
    search_items.push_back(
        {p.size, p.alignment, AlignUp(p.size, granule),
         static_cast<uint32_t>(times.IndexOf(p.lifetime.first)),
         static_cast<uint32_t>(times.IndexOf(p.lifetime.last)),
         static_cast<uint64_t>(p.lifetime.last - p.lifetime.first) + 1, i});
  }
  // Every canonical offset is an aligned sum of sizes, so every height a
  // search can reach is a multiple of `unit`, the gcd of the sizes and of
  // the alignments above 1 (sizes in KiB: a unit of 1 KiB). Capacities are
  // tried in units, and a bound rounds up to one.
  uint64_t unit = 0;
  for (const Item& item : search_items) {
    unit = std::gcd(unit, item.size);
    if (item.alignment > 1) unit = std::gcd(unit, item.alignment);
  }
  if (unit == 0) unit = 1;
  auto round_up = [unit](uint64_t bytes) {
    return bytes % unit == 0 ? bytes : bytes + (unit - bytes % unit);
  };
  // What `best` ends with: no plan is below `bound` (a proof).
  auto settle = [&best](uint64_t bound) {
    best.lower_bound = std::min(bound, best.height);
    best.proven_optimal = best.height <= bound;
  };
  // Progress for the caller, on this thread: the lowest plan is `height`,
  // none is below `bound`, a decision at `trying` runs (0: none); each
  // change told once.
  SearchProgress reported;
  auto tell = [&](uint64_t height, uint64_t bound, uint64_t trying) {
    if (!options.on_progress) return;
    bound = std::min(bound, height);
    if (reported.height == height && reported.lower_bound == bound &&
        reported.trying == trying) {
      return;
    }
    reported.height = height;
    reported.lower_bound = bound;
    reported.trying = trying;
    reported.seconds =
        std::chrono::duration<double>(Clock::now() - start).count();
    options.on_progress(reported);
  };
  // Live bytes bound, and the padded one: in a section, items stack at
  // multiples of the granule, so all but the top one take padded bytes.
  uint64_t lower_bound = LiveBytesLowerBound(items);
  settle(lower_bound);
  if (best.proven_optimal || best.height <= enough ||
      over_capacity(lower_bound)) {
    return best;
  }
  // Too many items (or pairs) for the searches: multi_fit's dives for the
  // budget instead (DiveUntil; past kMaxSkylineItems items or its graph's
  // pairs, over the times), a dive counted as one node an item, up to half
  // the nodes.
  // Until 2026-12-06 exact gave multi_fit's plan there: asplos2024 A..K
  // overlaid twice at 0.30 (hard_planner_bench --overlay, 6,224 items in
  // one part) 1.0566x the bound, now 1.0455x at 5 s; 16,000 random
  // lifetimes (958k pairs) 1.001x, now proven at the bound in 0.93 s. Not
  // every problem gains: on three 2,000-buffer packings side by side
  // (6,000 items) 5 s of dives found nothing below multi_fit's 1.228x.
  // Until 2026-12-07 no dive ran past the graph's bound, so exact gave
  // best fit's plan there: at 5 s (planner_bench PlanLarge) model-like
  // 20,000 / 50,000 / 100,000 items 1.0605x / 1.0654x / 1.0650x ->
  // 1.0049x / 1.0256-1.0312x / 1.0233-1.0305x the bound, lifetimes with no
  // model's shape 1.1067x / 1.1031x / 1.0655x -> 1.0155x / 1.0116x /
  // 1.0183x.
  auto dives_alone = [&]() {
    DiveBudget budget;
    budget.max_dives = options.max_nodes / 2 / search_items.size();
    budget.until = DeadlineOf(start, options);
    budget.stop_at = std::max(lower_bound, enough);
    budget.on_lower = [&](uint64_t height) {
      if (height < best.height) tell(height, lower_bound, 0);
    };
    uint64_t dives = 0;
    std::optional<Placement> dived = DiveUntil(items, budget, &dives);
    *nodes_spent = std::min(options.max_nodes, dives * search_items.size());
    if (dived && dived->height < best.height) {
      best.offsets = std::move(dived->offsets);
      best.height = dived->height;
    }
    settle(lower_bound);
    tell(best.height, lower_bound, 0);
    return best;
  };
  if (search_items.size() > ExactAlgorithm::kMaxSearchItems) {
    return dives_alone();
  }
  std::optional<OverlapGraph> overlaps = OverlapGraph::Build(
      search_items.size(), [&](size_t i) { return search_items[i].lo; },
      [&](size_t i) { return search_items[i].hi; },
      [](size_t) { return false; }, ExactAlgorithm::kMaxSearchOverlaps);
  if (!overlaps) return dives_alone();
  if (granule == std::numeric_limits<uint64_t>::max()) granule = 1;
  const SearchProblem problem(search_items, std::move(*overlaps), times.size(),
                              granule);
  Searches search(problem);
  Sweep sweep(search_items, times.size());
  // The same sweep with time run backwards (a plan of these items is one of
  // the items): where every section holds the capacity, a tiling whose
  // sweep forwards is stuck is often decided fast backwards, and the other
  // way round. The generated tilings are cut as time goes forwards (gaps
  // split into new items; backwards, new items must fill gaps that several
  // ending ones leave side by side). At 5 s, hard_planner_bench
  // --reverse_time proved 24 of the 37 known optima up to 500 buffers with
  // the sweep forwards alone, and proves all 37 (medians per group 0.003-
  // 0.035 s, at most 1.7 s); the generated seeds 4-43 at 100-500 buffers
  // (480 tilings), reversed, 474 (seeds 4-13: 76 of 120 before). Forwards
  // the same 476 of 480, and the bench's groups take up to 0.04 s more
  // (the first 64th backwards).
  auto reversed_in_time = [last = static_cast<uint32_t>(times.size() - 1)](
                              std::vector<Item> items) {
    for (Item& item : items) {
      const uint32_t lo = last - item.hi;
      item.hi = last - item.lo;
      item.lo = lo;
    }
    return items;
  };
  // Built where first used (only tilings use it): on 3,000 random long
  // lifetimes with slack (`memplan plan --csv --algo exact --exact-nodes
  // 1000`, three runs each, one core), building it for every problem had
  // cost 0.22-0.32 s of CPU (2.41-2.49 s against 2.17-2.19 s) and 42 MB of
  // peak memory (231 MB against 189 MB).
  std::vector<Item> reversed_items;
  std::optional<Sweep> reversed;
  auto backwards = [&]() -> Sweep* {
    if (!reversed) {
      reversed_items = reversed_in_time(search_items);
      reversed.emplace(reversed_items, times.size());
    }
    return &*reversed;
  };
  auto swept_nodes = [&] {
    return sweep.total_nodes() + (reversed ? reversed->total_nodes() : 0);
  };
  const uint64_t padded = problem.max_section_bytes();
  if (padded >= granule)
    lower_bound = std::max(lower_bound, padded - (granule - 1));
  lower_bound = round_up(lower_bound);
  if (over_capacity(lower_bound)) {
    settle(lower_bound);
    return best;
  }

  const Clock::time_point deadline = DeadlineOf(start, options);
  uint64_t nodes_left = options.max_nodes;
  struct Spent {
    const uint64_t& left;
    uint64_t given;
    uint64_t* spent;
    ~Spent() { *spent = given - left; }
  } spent{nodes_left, options.max_nodes, nodes_spent};
  uint64_t proven = lower_bound;  // No plan is lower (a proof).
  // Where a plan is enough, the bisection's floor: in units, not above it.
  const uint64_t floor = std::max(lower_bound, enough / unit * unit);
  uint64_t low = floor;  // The bisection's floor (maybe a guess).
  // The lowest plan the dives beside the bound's decision have reached
  // while it runs (kept in `best` once they end), for the reports.
  std::atomic<uint64_t> beside{std::numeric_limits<uint64_t>::max()};
  // Progress: a decision at `trying` starts, or the best plan or the proof
  // improved.
  auto report = [&](uint64_t trying) {
    tell(std::min(best.height, beside.load(std::memory_order_relaxed)), proven,
         trying);
  };
  // Near-tight problems (a perfect packing with some items shrunk a
  // little: slack in every section, not much) defeat both searches, which
  // must leave gaps in the right places; grown into a perfect packing by a
  // spread of each section's slack (planner/slack_spread.h) they are
  // tilings the sweep decides fast, and a plan of the grown items is one of
  // the items. One spread (of many) per try, drawn from `seed`: the
  // sweep's refutation refutes only that spread, never the capacity.
  std::vector<SectionSpan> spans;
  uint64_t sizes_gcd = 0;
  for (const Item& item : search_items) {
    spans.push_back({item.lo, item.hi});
    sizes_gcd = std::gcd(sizes_gcd, item.padded);
  }
  auto grown_tiling = [&](uint64_t capacity, Clock::time_point until,
                          uint64_t nodes, uint64_t seed, bool blend) {
    const uint64_t padded_capacity = AlignUp(capacity, granule);
    // In the sweep's own unit, so that growing keeps it.
    const uint64_t step = std::gcd(sizes_gcd, padded_capacity);
    if (step == 0) return Grown::kNoSpread;
    std::vector<uint64_t> slack(problem.initial_total.size());
    for (size_t t = 0; t < slack.size(); ++t) {
      if (problem.initial_total[t] > padded_capacity) return Grown::kNoSpread;
      slack[t] = (padded_capacity - problem.initial_total[t]) / step;
    }
    std::optional<std::vector<uint64_t>> growth =
        SpreadSlack(spans, slack, seed);
    if (!growth) return Grown::kNoSpread;
    // A blend, the mean of two spreads (in half steps), grows items that
    // no single spread grows together: two of one lifetime, say.
    uint64_t grow_step = step;
    if (blend && step % 2 == 0) {
      const std::optional<std::vector<uint64_t>> other =
          SpreadSlack(spans, slack, ~seed);
      if (!other) return Grown::kNoSpread;
      for (size_t i = 0; i < growth->size(); ++i) {
        (*growth)[i] += (*other)[i];
      }
      grow_step = step / 2;
    }
    // No overflow: an item grown stays within its sections' capacity.
    std::vector<Item> grown = search_items;
    for (size_t i = 0; i < grown.size(); ++i) {
      grown[i].size += (*growth)[i] * grow_step;
      grown[i].padded += (*growth)[i] * grow_step;
    }
    // Forwards, then where that ran out (a refutation is one either way)
    // backwards with as much again.
    std::vector<Item> grown_reversed;  // Outlives the sweep over it.
    std::optional<Sweep> tiling;
    tiling.emplace(grown, times.size());
    Outcome outcome = tiling->FitsIn(capacity, padded_capacity, until, nodes);
    nodes_left -= std::min(nodes_left, tiling->total_nodes());
    if (outcome == Outcome::kOutOfBudget && Clock::now() < until) {
      grown_reversed = reversed_in_time(grown);
      tiling.emplace(grown_reversed, times.size());
      outcome = tiling->FitsIn(capacity, padded_capacity, until, nodes);
      nodes_left -= std::min(nodes_left, tiling->total_nodes());
    }
    if (outcome != Outcome::kFound) return Grown::kMissed;
    std::vector<uint64_t> offsets(items.size(), 0);
    tiling->WriteSolution(&offsets);
    const uint64_t height = PlacementHeight(items, offsets);
    if (height < best.height) {
      best.offsets = std::move(offsets);
      best.height = height;
    }
    return Grown::kFound;
  };
  // `race`: the lockstep the dives beside the bound's decision follow.
  auto decide = [&](uint64_t capacity, double share, Lockstep* race = nullptr) {
    report(capacity);
    const Clock::time_point now = Clock::now();
    const Clock::time_point until =
        now >= deadline ? now
                        : now + std::chrono::duration_cast<Clock::duration>(
                                    (deadline - now) * share);
    const uint64_t before = search.total_nodes() + swept_nodes();
    const uint64_t nodes =
        static_cast<uint64_t>(std::min(static_cast<double>(nodes_left) * share,
                                       static_cast<double>(nodes_left)));
    const uint64_t padded_capacity = AlignUp(capacity, granule);
    // Where every section holds the capacity exactly the sweep decides
    // (finds or refutes), backwards and forwards (below), then the
    // offset-ordered search with the rest: some tilings defeat every order
    // of the sweep and not the search. Elsewhere a grown tiling
    // (see grown_tiling) has a quarter, then the search (which can prove) two
    // thirds of the rest, then the sweep what is left: with slack it finds some
    // aligned packings fast, but none of MiniMalloc's asplos2024 problems at
    // their capacity, where the search finds most. With the dives beside (at a
    // bound with slack) the searches race them for two thirds, and the
    // dives have the last third to themselves: there the sweep found no
    // plan on any of the 14 such problems of hard_planner_bench (12
    // unreachable, asplos2024 D and J), and the dives' plans are the
    // lower.
    Outcome outcome;
    const Sweep* swept = nullptr;  // The sweep that found the plan.
    if (race != nullptr) {
      const Clock::time_point two_thirds = now + (until - now) * 2 / 3;
      outcome = search.FitsIn(capacity, two_thirds, nodes / 3 * 2, race);
    } else if (problem.EverySectionHolds(padded_capacity)) {
      // The sweep backwards for a 64th (where it is the easy way it needs
      // few nodes), forwards until two thirds (as before the sweep
      // backwards came in, so that a tiling the sweep forwards decides gets
      // the nodes it had), backwards again until five sixths (either one's
      // refutation is a proof), then the search. A third each way, or each
      // restart in turn, left exact_test's random tilings (cut forwards too)
      // short of nodes.
      const Clock::duration part = until - now;
      const std::pair<Sweep*, std::pair<Clock::duration, uint64_t>> turns[] = {
          {backwards(), {part / 64, nodes / 64}},
          {&sweep, {part * 2 / 3, nodes / 3 * 2}},
          {backwards(), {part * 5 / 6, nodes / 6 - nodes / 64}}};
      outcome = Outcome::kOutOfBudget;
      for (const auto& [way, end_nodes] : turns) {
        outcome = way->FitsIn(capacity, padded_capacity, now + end_nodes.first,
                              end_nodes.second);
        if (outcome == Outcome::kFound) swept = way;
        if (outcome != Outcome::kOutOfBudget) break;
      }
      if (outcome == Outcome::kOutOfBudget) {
        const uint64_t spent = swept_nodes() + search.total_nodes() - before;
        outcome =
            search.FitsIn(capacity, until, nodes - std::min(nodes, spent));
      }
    } else {
      const uint64_t grown_before = nodes_left;
      if (grown_tiling(capacity, now + (until - now) / 4, nodes / 4, capacity,
                       false) == Grown::kFound) {
        report(0);
        return Outcome::kFound;
      }
      // What the grown tiling left of the decision's nodes and time.
      const uint64_t rest = nodes - std::min(nodes, grown_before - nodes_left);
      const Clock::time_point from = Clock::now();
      const Clock::time_point two_thirds =
          from >= until ? until : from + (until - from) * 2 / 3;
      outcome = search.FitsIn(capacity, two_thirds, rest / 3 * 2);
      if (outcome == Outcome::kOutOfBudget) {
        const uint64_t spent = swept_nodes() + search.total_nodes() - before;
        if (sweep.FitsIn(capacity, padded_capacity, until,
                         rest - std::min(rest, spent)) == Outcome::kFound) {
          swept = &sweep;
          outcome = Outcome::kFound;
        }
      }
    }
    const uint64_t used = search.total_nodes() + swept_nodes() - before;
    nodes_left -= std::min(nodes_left, used);
    // Out of budget without using a node (the last few, shared out to
    // none, or too few for a search to start on): no later decision would
    // use one either, and the bisection would try the same ones again until
    // the deadline (with no time budget, for ever).
    if (outcome == Outcome::kOutOfBudget && used == 0) nodes_left = 0;
    if (outcome == Outcome::kFound) {
      std::vector<uint64_t> offsets(items.size(), 0);
      if (swept != nullptr) {
        swept->WriteSolution(&offsets);
      } else {
        search.WriteSolution(&offsets);
      }
      best.offsets = std::move(offsets);
      best.height = PlacementHeight(items, best.offsets);
    } else if (outcome == Outcome::kInfeasible) {
      proven = std::max(proven, round_up(capacity + 1));
    }
    report(0);
    return outcome;
  };
  // The bound itself first: on tight problems, real models' included, that
  // is the whole answer (half the budget where the sweep decides it, else
  // three quarters: the search is heavy-tailed, and the bisection after it
  // starts from the heuristics' height).
  const bool exact_at_bound = problem.EverySectionHolds(AlignUp(low, granule));
  // At a capacity, that decision is the whole answer: all of the budget.
  const double bound_share = options.capacity > 0 ? 1.0
                             : exact_at_bound     ? 0.5
                                                  : 0.75;
  // Where some section has slack, multi_fit's squeaky-wheel dives, unbounded
  // in number (a dive counted as one node per item, up to half the nodes),
  // run beside that decision on a thread of their own, the seventh member
  // of the searches' race (a dive counted by kDiveWorkPerPair), and on
  // after it until the decision's time is up; the first to reach the
  // bound in the race stops the other. With slack to spare the search finds
  // few plans, and the dives find lower ones than the bisection does: on
  // asplos2024 at 5 s they prove H (0.4-0.7 s, beside the six racing
  // searches) and give D and J their heights (1.077x -> 1.060-1.069x,
  // 1.055x -> 1.044x when they came in). The bisection then starts from
  // their height.
  // Up to half the nodes left, a dive counted as one node per item.
  auto dive_budget = [&](Clock::time_point until, uint64_t stop_at) {
    DiveBudget budget;
    budget.max_dives = nodes_left / 2 / search_items.size();
    budget.until = until;
    budget.stop_at = stop_at;
    return budget;
  };
  auto keep_dives = [&](std::optional<Placement>& dived, uint64_t dives) {
    nodes_left -= std::min(nodes_left, dives * search_items.size());
    if (dived && dived->height < best.height) {
      best.offsets = std::move(dived->offsets);
      best.height = dived->height;
    }
    report(0);
  };
  // Where some section has slack, grown tilings first (see grown_tiling):
  // at the bound, then at every unit above it up to kEveryUnitUpTo units,
  // then each a quarter further (160, 200, 250, ...) up to 2^-6 of the bound,
  // until one is found, within a fifth of the budget. A spread is likeliest
  // to be a tiling's where the slack is least (extra slack must grow items
  // in every section): on the unreachable family the first capacity with a
  // spread was the construction's height, which steps of a quarter missed
  // on some. A capacity gets kSpreadsPerCapacity spreads, each at most
  // kGrownNodesPerItem nodes an item and half of the time left: the sweep
  // finds or refutes a spread fast or not at all. Where no spread exists
  // (most problems with slack: real models') that is found out in 0.1 ms
  // for 500 items (0.7 ms for 2,000), at each of the 128 units and then
  // once a step (some 160 steps for a bound near 2^64, 13 for 8 MiB in
  // units of 64 bytes).
  if (!exact_at_bound) {
    constexpr uint64_t kSpreadsPerCapacity = 2;
    constexpr uint64_t kGrownNodesPerItem = 256;
    constexpr uint64_t kEveryUnitUpTo = 128;
    const Clock::time_point now = Clock::now();
    const Clock::time_point ladder_end =
        now >= deadline ? now : now + (deadline - now) / 5;
    uint64_t ladder_nodes = nodes_left / 5;
    const uint64_t reach = (low >> 6) / unit;  // In units.
    bool found = false;
    for (uint64_t k = 0; k <= reach && !found;
         k = k < kEveryUnitUpTo ? k + 1 : k + k / 4) {
      if (k * unit > std::numeric_limits<uint64_t>::max() - low) break;
      const uint64_t capacity = low + k * unit;
      if (capacity >= best.height || over_capacity(capacity) ||
          Clock::now() >= ladder_end || ladder_nodes == 0) {
        break;
      }
      report(capacity);
      // At a capacity it is the only one: spreads while the ladder lasts.
      const uint64_t spreads = options.capacity > 0
                                   ? std::numeric_limits<uint64_t>::max()
                                   : kSpreadsPerCapacity;
      for (uint64_t spread = 0; spread < spreads; ++spread) {
        const Clock::time_point at = Clock::now();
        if (at >= ladder_end || ladder_nodes == 0) break;
        const uint64_t spread_nodes = std::min(
            ladder_nodes / 2, kGrownNodesPerItem * search_items.size());
        // The ladder's last node, halved to none: every later spread would
        // miss without a node, until the ladder's time is up.
        if (spread_nodes == 0) {
          ladder_nodes = 0;
          break;
        }
        const uint64_t before = nodes_left;
        const Grown grown =
            grown_tiling(capacity, at + (ladder_end - at) / 2, spread_nodes,
                         k * kSpreadsPerCapacity + spread, spread % 2 == 1);
        ladder_nodes -= std::min(ladder_nodes, before - nodes_left);
        found = grown == Grown::kFound;
        if (grown != Grown::kMissed) break;
      }
      report(0);
    }
    if (best.height <= proven) {
      settle(proven);
      return best;
    }
    if (best.height <= floor) return best;
  }
  // Coarser grids (see kMaxCoarseGrids), within `share` of the time and
  // nodes left: a plan of the rounded items, never a bound (a rounded
  // problem's proof says nothing of the items').
  auto coarser_grids = [&](double share) {
    uint64_t largest = 0;
    for (const Item& item : search_items) {
      largest = std::max(largest, item.size);
    }
    const uint64_t target = options.capacity > 0
                                ? options.capacity
                                : proven + (best.height - proven) / 2;
    const Clock::time_point now = Clock::now();
    if (now >= deadline) return;
    const Clock::time_point grids_end =
        now +
        std::chrono::duration_cast<Clock::duration>((deadline - now) * share);
    uint64_t grid_nodes =
        static_cast<uint64_t>(static_cast<double>(nodes_left) * share);
    int grids = 0;
    for (uint64_t g = uint64_t{1} << 63; g > unit && grids < kMaxCoarseGrids;
         g >>= 1) {
      if (g > largest) continue;
      const std::optional<std::vector<PlanItem>> rounded = OnGrid(items, g);
      if (!rounded) continue;
      const uint64_t rounded_bound = LiveBytesLowerBound(*rounded);
      if (rounded_bound > target) continue;
      const Clock::time_point at = Clock::now();
      if (rounded_bound >= best.height || at >= grids_end || grid_nodes == 0) {
        break;
      }
      ++grids;
      AlgorithmOptions on_grid = options;
      on_grid.on_progress = nullptr;
      on_grid.max_seconds =
          std::chrono::duration<double>(grids_end - at).count() / 2;
      on_grid.max_nodes = grid_nodes / 2;
      uint64_t spent = 0;
      Result<Placement> placed = PlaceItems(*rounded, on_grid, floor, &spent,
                                            /*coarse=*/false);
      grid_nodes -= std::min(grid_nodes, spent);
      nodes_left -= std::min(nodes_left, spent);
      if (!placed.ok()) continue;  // Out of memory, say: the next grid.
      const uint64_t height = PlacementHeight(items, placed->offsets);
      if (height < best.height) {
        best.offsets = std::move(placed->offsets);
        best.height = height;
      }
    }
    report(0);
  };
  // At a capacity, where some section has slack, they come before its
  // decision (which has the rest of the budget).
  if (coarse && !exact_at_bound && options.capacity > 0) {
    coarser_grids(kCoarseShare);
    if (best.height <= floor) return best;
  }
  std::optional<Placement> dived;
  uint64_t dives = 0;
  std::thread diver;
  Lockstep race(Searches::kMembers + 1);
  constexpr size_t kDiver = Searches::kMembers;  // The dives' member.
  if (!exact_at_bound && Clock::now() < deadline) {
    // Chains split at half the time to the deadline, as in DiveUntil
    // alone; the dives end with the decision.
    DiveBudget budget = dive_budget(deadline, low);
    // Their lower plans reported as they come (on this thread, between the
    // first search's epochs), not only once the decision ends.
    if (options.on_progress) {
      budget.on_lower = [&beside](uint64_t height) {
        uint64_t was = beside.load(std::memory_order_relaxed);
        while (height < was && !beside.compare_exchange_weak(
                                   was, height, std::memory_order_relaxed)) {
        }
      };
      race.OnEpochEnd(0, [&] { report(reported.trying); });
    }
    const Clock::time_point now = Clock::now();
    const Clock::time_point until =
        now + std::chrono::duration_cast<Clock::duration>((deadline - now) *
                                                          bound_share);
    const uint64_t dive_work =
        kDiveWorkPerPair * (search_items.size() + problem.overlaps.pairs());
    budget.proceed = [&race, dive_work, until, paced = uint64_t{0}]() mutable {
      if (Clock::now() >= until) return false;
      paced += dive_work;
      for (; paced >= Lockstep::kEpochWork; paced -= Lockstep::kEpochWork) {
        if (!race.EndEpoch(kDiver)) return false;
      }
      return !race.Beaten(kDiver);
    };
    try {
      diver = std::thread([&items, budget, low, &dived, &dives, &race] {
        try {
          dived = DiveUntil(items, budget, &dives);
        } catch (const std::bad_alloc&) {
          dived.reset();  // Out of memory: no dives, the search goes on.
        }
        race.Leave(kDiver, dived && dived->height <= low);
      });
    } catch (const std::system_error&) {
      // No thread to be had: the dives run after the decision instead.
    }
  }
  const bool dove = diver.joinable();
  if (!dove) race.Leave(kDiver, false);
  const Outcome at_bound = decide(low, bound_share, dove ? &race : nullptr);
  if (dove) {
    diver.join();
    keep_dives(dived, dives);
  }
  if (at_bound != Outcome::kFound) {
    low = round_up(low + 1);
    // A full-section decision that failed (or no thread for them): the dives
    // after it, for half of what is left.
    const Clock::time_point now = Clock::now();
    const uint64_t enough_now = std::max(proven, floor);
    if (!dove && now < deadline && best.height > enough_now &&
        !over_capacity(proven)) {
      dived = DiveUntil(
          items, dive_budget(now + (deadline - now) / 2, enough_now), &dives);
      keep_dives(dived, dives);
    }
    // Otherwise after the bound's decision, with slack, so that where the
    // searches decide the bound they lose nothing: before it, asplos2024 E
    // took 0.95 s instead of 0.41 s (a 2 KiB grid qualifies, and fails).
    if (coarse && !exact_at_bound && options.capacity == 0) {
      coarser_grids(kCoarseShareAfterTheBound);
    }
  }
  // Then bisection in units; a step gets its share of what is left, at
  // least a quarter, since a step that finds a plan ends early. A step out
  // of budget raises the floor too (a guess, not a proof), so a pass that
  // ends with time left starts again from the proven floor, where every
  // step now gets more of the time.
  while (best.height > floor && options.capacity == 0 && nodes_left > 0 &&
         Clock::now() < deadline) {
    while (low < best.height && nodes_left > 0 && Clock::now() < deadline) {
      const uint64_t high = (best.height - 1) / unit;  // In units.
      const uint64_t low_units = low / unit;
      if (low_units > high) break;
      const uint64_t mid = (low_units + (high - low_units) / 2) * unit;
      double steps = 1;
      for (uint64_t span = high - low_units; span > 0; span /= 2) ++steps;
      if (decide(mid, std::max(1.0 / steps, 0.25)) != Outcome::kFound) {
        low = mid + unit;
      }
    }
    if (proven >= best.height) break;
    low = std::max(proven, floor);
  }
  settle(proven);
  return best;
}

}  // namespace

// Where the items split in time (planner/time_parts.h), each part is
// decided on its own, those with the most live bytes first; a part's
// search ends once it is no higher than the parts before it (or the most
// live bytes of any part), since the whole plan is as high as its highest
// part, and no lower part is sought. A part gets half of the time and
// nodes left, or its share of the items left if more; a part that ends
// early leaves the rest to the next. The best heuristic plan of all the
// items stands for each part that does not beat it there, so that exact
// still never loses to one. One search of all the parts instead spreads
// its budget over all of them, and any part it cannot close sinks the
// decision: asplos2024's eleven problems one after another in time (3,112
// items, the optimum 1048576, E's) came out 1.176x at 5 s, where each
// alone is proven or at worst 1.038x (D); decided apart, they are proven
// in 1.6 s.
Result<Placement> ExactAlgorithm::Place(const std::vector<PlanItem>& items,
                                        const AlgorithmOptions& options) const {
  MEMPLAN_RETURN_IF_ERROR(ValidatePlanItems(items));
  uint64_t spent = 0;
  std::vector<std::vector<size_t>> parts = TimeParts(items);
  if (parts.size() <= 1) return PlaceItems(items, options, 0, &spent);
  const Clock::time_point start = Clock::now();
  const Clock::time_point deadline = DeadlineOf(start, options);
  Result<Placement> seed = BestSeed(items, options);
  if (!seed.ok()) return seed.error();
  Placement placement = std::move(*seed);

  // Each part as it stands: its height in `placement` (the seed's, then
  // its own where lower) and its proven bound.
  struct Part {
    TimePart part;
    uint64_t height = 0;
    uint64_t lower_bound = 0;
  };
  std::vector<Part> split;
  for (TimePart& part : ByLiveBytes(items, std::move(parts))) {
    Part stands;
    for (size_t k = 0; k < part.indices.size(); ++k) {
      stands.height =
          std::max(stands.height,
                   part.items[k].size + placement.offsets[part.indices[k]]);
    }
    stands.lower_bound = part.live_bytes;
    stands.part = std::move(part);
    split.push_back(std::move(stands));
  }
  // The whole plan's height and bound as the parts stand, with part
  // `current` as `at` has it where given.
  auto whole = [&](const SearchProgress* at, size_t current) {
    SearchProgress progress;
    for (size_t p = 0; p < split.size(); ++p) {
      const bool now = at != nullptr && p == current;
      progress.height =
          std::max(progress.height, now ? std::min(split[p].height, at->height)
                                        : split[p].height);
      progress.lower_bound =
          std::max(progress.lower_bound,
                   now ? std::max(split[p].lower_bound, at->lower_bound)
                       : split[p].lower_bound);
    }
    progress.lower_bound = std::min(progress.lower_bound, progress.height);
    return progress;
  };
  uint64_t enough = split.front().part.live_bytes;  // Then what parts reach.
  uint64_t nodes_left = options.max_nodes;
  size_t items_left = 0;  // In the parts: items of size 0 are in none.
  for (const Part& stands : split) items_left += stands.part.items.size();
  for (size_t k = 0; k < split.size(); ++k) {
    Part& stands = split[k];
    const TimePart& part = stands.part;
    const double share =
        k + 1 == split.size()
            ? 1.0
            : std::max(0.5, static_cast<double>(part.items.size()) /
                                static_cast<double>(items_left));
    items_left -= part.items.size();
    AlgorithmOptions part_options = options;
    const Clock::time_point now = Clock::now();
    part_options.max_seconds =
        now >= deadline
            ? 0
            : std::chrono::duration<double>(deadline - now).count() * share;
    part_options.max_nodes =
        static_cast<uint64_t>(std::min(static_cast<double>(nodes_left) * share,
                                       static_cast<double>(nodes_left)));
    if (options.on_progress) {
      part_options.on_progress = [&, k](const SearchProgress& at) {
        SearchProgress progress = whole(&at, k);
        progress.trying = at.trying;
        progress.seconds =
            std::chrono::duration<double>(Clock::now() - start).count();
        options.on_progress(progress);
      };
    }
    Result<Placement> decided =
        PlaceItems(part.items, part_options, enough, &spent);
    if (!decided.ok()) return decided.error();
    nodes_left -= std::min(nodes_left, spent);
    stands.lower_bound = std::max(stands.lower_bound, decided->lower_bound);
    if (decided->height < stands.height) {
      stands.height = decided->height;
      for (size_t j = 0; j < part.indices.size(); ++j) {
        placement.offsets[part.indices[j]] = decided->offsets[j];
      }
    }
    enough = std::max(enough, stands.height);
    // At a capacity, a part that does not fit decides the whole.
    if (options.capacity > 0 && stands.height > options.capacity) break;
  }
  placement.height = PlacementHeight(items, placement.offsets);
  placement.lower_bound = whole(nullptr, 0).lower_bound;
  placement.proven_optimal = placement.height <= placement.lower_bound;
  return placement;
}

}  // namespace planner
}  // namespace memplan
