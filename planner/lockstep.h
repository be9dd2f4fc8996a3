// A race of threads whose winner does not depend on their speeds.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <mutex>
#include <vector>

namespace memplan {
namespace planner {

// The members of a race (in exact.cc: the six searches of a decision, and
// the dives beside the bound's), each on a thread, advance in lockstep:
// each counts its own work, and at the end of each kEpochWork units
// (EndEpoch) waits for every other member still racing to end that epoch
// too. Which member decided first (found a plan, or proved there is none)
// is then counted in work, not in time: the winner is the lowest-numbered
// of those that decided in the first epoch in which any did, however fast
// each thread ran, so where each member's work is a function of the
// problem, so is the winner. A member numbered above one that has decided
// can no longer win, and stops at once (Beaten); the race is over at the
// end of the epoch in which one decided. A member leaves (Leave) once it
// stops, for whatever reason.
class Lockstep {
 public:
  // In exact's units, half a millisecond to a millisecond.
  static constexpr uint64_t kEpochWork = uint64_t{1} << 19;

  explicit Lockstep(size_t members)
      : decided_at_(members, kNever),
        left_(members, false),
        active_(members),
        lowest_decided_(members) {}

  // Member i has run another epoch: waits for the others to have too. False
  // once the race is over (the member stops). Where the member goes on and
  // is OnEpochEnd's, calls its hook on the member's thread, unlocked.
  bool EndEpoch(size_t i) {
    bool on = false;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (over_) return false;
      const uint64_t epoch = epoch_;
      if (++arrived_ == active_) {
        Complete();
      } else {
        wake_.wait(lock, [&] { return epoch_ != epoch; });
      }
      on = !over_ && !Beaten(i);
    }
    if (on && i == hook_member_ && hook_) hook_();
    return on;
  }

  // Before the race: `hook` runs on member i's thread after each epoch it
  // goes on from (exact's progress while a decision runs).
  void OnEpochEnd(size_t i, std::function<void()> hook) {
    hook_member_ = i;
    hook_ = std::move(hook);
  }

  // Member i is out of the race, having decided or not (out of budget).
  void Leave(size_t i, bool decided) {
    std::lock_guard<std::mutex> lock(mutex_);
    left_[i] = true;
    --active_;
    if (decided) {
      decided_at_[i] = epoch_;
      if (i < lowest_decided_.load(std::memory_order_relaxed)) {
        lowest_decided_.store(i, std::memory_order_relaxed);
      }
    }
    if (active_ == 0) {
      wake_.notify_all();  // For winner().
    } else if (arrived_ == active_) {
      Complete();
    }
  }

  // Where an OnEpochEnd hook is set, waits until members [begin, end) have
  // left, running the hook (unlocked) about every millisecond meanwhile:
  // on the thread of the hook's member, once that member is out of the
  // race and the others run on. Without a hook, returns at once.
  void AwaitLeft(size_t begin, size_t end) {
    if (!hook_) return;
    std::unique_lock<std::mutex> lock(mutex_);
    auto left = [&] {
      for (size_t i = begin; i < end; ++i) {
        if (!left_[i]) return false;
      }
      return true;
    };
    while (!wake_.wait_for(lock, std::chrono::milliseconds(1), left)) {
      lock.unlock();
      hook_();
      lock.lock();
    }
  }

  // Whether a member numbered below i has decided (polled between epochs).
  bool Beaten(size_t i) const {
    return lowest_decided_.load(std::memory_order_relaxed) < i;
  }

  size_t members() const { return decided_at_.size(); }
  // Once every member has left (it waits for that): the winner, or
  // members() if none decided.
  size_t winner() {
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [&] { return active_ == 0; });
    size_t best = decided_at_.size();
    for (size_t i = 0; i < decided_at_.size(); ++i) {
      if (decided_at_[i] != kNever &&
          (best == decided_at_.size() || decided_at_[i] < decided_at_[best])) {
        best = i;
      }
    }
    return best;
  }

 private:
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

  // Every member still racing has ended epoch_ (mutex_ held).
  void Complete() {
    for (uint64_t at : decided_at_) over_ = over_ || at <= epoch_;
    ++epoch_;
    arrived_ = 0;
    wake_.notify_all();
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<uint64_t> decided_at_;  // The epoch each member decided in.
  std::vector<bool> left_;            // Each member, once it has left.
  size_t active_;                     // Members not yet left.
  size_t arrived_ = 0;                // Of the active, at the epoch's end.
  uint64_t epoch_ = 0;
  bool over_ = false;
  std::atomic<size_t> lowest_decided_;
  size_t hook_member_ = 0;
  std::function<void()> hook_;
};

}  // namespace planner
}  // namespace memplan
