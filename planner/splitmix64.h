// splitmix64 (Steele, Lea and Flood, OOPSLA 2014): tiny, and the same
// stream on every standard library (the <random> distributions are not),
// so a seed pins down what is drawn from it: multi_fit's jitter and
// restart noise, the generated hard problems.
#pragma once

#include <cstdint>

namespace memplan {
namespace planner {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t state) : state_(state) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1): the top 53 bits.
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

}  // namespace planner
}  // namespace memplan
