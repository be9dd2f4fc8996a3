// Device {type, index}: where a tensor or a planned buffer lives. The same
// numbering as the ET12 schema's DeviceType.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace memplan {

enum class DeviceType : int8_t {
  kCpu = 0,
  kCuda = 1,
};

// Number of known device types; values at or above it are refused.
inline constexpr int kNumDeviceTypes = 2;

using DeviceIndex = int8_t;

struct Device {
  DeviceType type = DeviceType::kCpu;
  DeviceIndex index = 0;

  static Device Cpu() { return Device{}; }
  static Device Cuda(DeviceIndex index) {
    return Device{DeviceType::kCuda, index};
  }

  bool is_cpu() const { return type == DeviceType::kCpu; }
  // "cpu", "cuda:1"; CPU:0 prints as "cpu".
  std::string ToString() const;
};

inline bool operator==(Device a, Device b) {
  return a.type == b.type && a.index == b.index;
}
inline bool operator!=(Device a, Device b) { return !(a == b); }
// CPU first, then by (type, index): the order planned buffers are numbered in.
inline bool operator<(Device a, Device b) {
  if (a.type != b.type) return a.type < b.type;
  return a.index < b.index;
}

bool IsKnownDeviceType(int raw_type);
const char* DeviceTypeName(DeviceType type);
// Parses "cpu", "cpu:0", "cuda", "cuda:3"; nullopt on anything else.
std::optional<Device> ParseDevice(std::string_view text);

}  // namespace memplan

template <>
struct std::hash<memplan::Device> {
  size_t operator()(memplan::Device d) const {
    return (static_cast<size_t>(static_cast<uint8_t>(d.type)) << 8) |
           static_cast<uint8_t>(d.index);
  }
};
