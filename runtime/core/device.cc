#include "runtime/core/device.h"

#include <charconv>

namespace memplan {

bool IsKnownDeviceType(int raw_type) {
  return raw_type >= 0 && raw_type < kNumDeviceTypes;
}

const char* DeviceTypeName(DeviceType type) {
  switch (type) {
    case DeviceType::kCpu:
      return "cpu";
    case DeviceType::kCuda:
      return "cuda";
  }
  return "unknown";
}

std::string Device::ToString() const {
  if (!IsKnownDeviceType(static_cast<int>(type))) {
    return "unknown(" + std::to_string(static_cast<int>(type)) +
           "):" + std::to_string(index);
  }
  if (is_cpu() && index == 0) return "cpu";
  return std::string(DeviceTypeName(type)) + ":" + std::to_string(index);
}

std::optional<Device> ParseDevice(std::string_view text) {
  std::string_view name = text;
  int index = 0;
  size_t colon = text.find(':');
  if (colon != std::string_view::npos) {
    name = text.substr(0, colon);
    std::string_view digits = text.substr(colon + 1);
    if (digits.empty()) return std::nullopt;
    auto [end, ec] =
        std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (ec != std::errc() || end != digits.data() + digits.size()) {
      return std::nullopt;
    }
    if (index < 0 || index > 127) return std::nullopt;
  }
  Device device;
  if (name == "cpu" || name == "CPU") {
    device.type = DeviceType::kCpu;
  } else if (name == "cuda" || name == "CUDA") {
    device.type = DeviceType::kCuda;
  } else {
    return std::nullopt;
  }
  device.index = static_cast<DeviceIndex>(index);
  return device;
}

}  // namespace memplan
