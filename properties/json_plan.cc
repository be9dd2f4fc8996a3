#include "properties/json_plan.h"

#include <initializer_list>
#include <string>
#include <unordered_map>

#include "nlohmann/json.hpp"
#include "properties/json.h"

namespace memplan {
namespace properties {
namespace {

Error JsonError(const JsonValue& at, const std::string& what) {
  return Error(ErrorCode::kInvalidArgument, "json " + at.Where() + ": " + what);
}

Error CheckMembers(const JsonValue& object, const std::string& where,
                   std::initializer_list<std::string_view> known) {
  if (object.type() != JsonValue::Type::kObject) {
    return JsonError(object, where + " must be an object");
  }
  for (const JsonValue& member : object.members()) {
    bool found = false;
    for (std::string_view k : known) found = found || member.key() == k;
    if (!found) {
      return JsonError(member, where + " has unknown member \"" +
                                   std::string(member.key()) + "\"");
    }
  }
  return Error::Ok();
}

Result<const JsonValue*> Required(const JsonValue& object,
                                  const std::string& where,
                                  std::string_view key) {
  const JsonValue* value = object.Find(key);
  if (value == nullptr) {
    return JsonError(object, where + " lacks \"" + std::string(key) + "\"");
  }
  return value;
}

// "cpu", "cuda:1", or {"type": 7, "index": 0} for a raw (maybe unknown) one.
Result<Device> ReadDevice(const JsonValue& value, const std::string& field) {
  if (value.type() == JsonValue::Type::kString) {
    std::optional<Device> device = ParseDevice(value.text());
    if (!device) {
      return JsonError(value, field + " = \"" + std::string(value.text()) +
                                  "\", expected \"cpu\" or \"cuda:N\"");
    }
    return *device;
  }
  MEMPLAN_RETURN_IF_ERROR(CheckMembers(value, field, {"type", "index"}));
  Result<const JsonValue*> type = Required(value, field, "type");
  if (!type.ok()) return type.error();
  Result<int64_t> raw_type = (*type)->AsInt64(field, "type");
  if (!raw_type.ok()) return raw_type.error();
  int64_t raw_index = 0;
  if (const JsonValue* index = value.Find("index")) {
    Result<int64_t> parsed = index->AsInt64(field, "index");
    if (!parsed.ok()) return parsed.error();
    raw_index = *parsed;
  }
  if (*raw_type < -128 || *raw_type > 127 || raw_index < -128 ||
      raw_index > 127) {
    return JsonError(value, field + " type and index must fit in 8 bits");
  }
  return Device{static_cast<DeviceType>(*raw_type),
                static_cast<DeviceIndex>(raw_index)};
}

Error ReadInt(const JsonValue& object, const std::string& where,
              std::string_view key, int64_t* out) {
  Result<const JsonValue*> value = Required(object, where, key);
  if (!value.ok()) return value.error();
  Result<int64_t> parsed = (*value)->AsInt64(where, key);
  if (!parsed.ok()) return parsed.error();
  *out = *parsed;
  return Error::Ok();
}

Result<Buffer> ReadBuffer(const JsonValue& value, const std::string& where) {
  MEMPLAN_RETURN_IF_ERROR(
      CheckMembers(value, where, {"mem_id", "size", "device"}));
  Buffer buffer;
  MEMPLAN_RETURN_IF_ERROR(ReadInt(value, where, "mem_id", &buffer.mem_id));
  MEMPLAN_RETURN_IF_ERROR(ReadInt(value, where, "size", &buffer.size));
  if (const JsonValue* device = value.Find("device")) {
    Result<Device> parsed = ReadDevice(*device, where + ".device");
    if (!parsed.ok()) return parsed.error();
    buffer.device = *parsed;
  }
  return buffer;
}

Result<Allocation> ReadAllocation(const JsonValue& value,
                                  const std::string& where) {
  MEMPLAN_RETURN_IF_ERROR(
      CheckMembers(value, where,
                   {"id", "kind", "mem_id", "offset", "size", "first", "last",
                    "device", "alignment", "alias_of"}));
  Allocation a;
  Result<const JsonValue*> id = Required(value, where, "id");
  if (!id.ok()) return id.error();
  Result<std::string> id_text = (*id)->AsString(where, "id");
  if (!id_text.ok()) return id_text.error();
  a.id = *id_text;
  if (const JsonValue* kind = value.Find("kind")) {
    Result<std::string> text = kind->AsString(where, "kind");
    if (!text.ok()) return text.error();
    std::optional<SpecKind> parsed = ParseSpecKind(*text);
    if (!parsed)
      return JsonError(*kind, where + ".kind = \"" + *text + "\" is unknown");
    a.kind = *parsed;
  }
  MEMPLAN_RETURN_IF_ERROR(ReadInt(value, where, "mem_id", &a.mem_id));
  MEMPLAN_RETURN_IF_ERROR(ReadInt(value, where, "offset", &a.offset));
  MEMPLAN_RETURN_IF_ERROR(ReadInt(value, where, "size", &a.size));
  MEMPLAN_RETURN_IF_ERROR(ReadInt(value, where, "first", &a.lifetime.first));
  MEMPLAN_RETURN_IF_ERROR(ReadInt(value, where, "last", &a.lifetime.last));
  if (value.Find("alignment") != nullptr) {
    MEMPLAN_RETURN_IF_ERROR(ReadInt(value, where, "alignment", &a.alignment));
  }
  if (const JsonValue* device = value.Find("device")) {
    Result<Device> parsed = ReadDevice(*device, where + ".device");
    if (!parsed.ok()) return parsed.error();
    a.device = *parsed;
  }
  if (const JsonValue* alias = value.Find("alias_of");
      alias && !alias->is_null()) {
    Result<std::string> text = alias->AsString(where, "alias_of");
    if (!text.ok()) return text.error();
    a.alias_of = *text;
  }
  return a;
}

nlohmann::ordered_json DeviceJson(Device device) {
  // "cuda:-2" would not read back: a negative index takes the raw object.
  if (IsKnownDeviceType(static_cast<int>(device.type)) && device.index >= 0) {
    return device.ToString();
  }
  return {{"type", static_cast<int>(device.type)},
          {"index", static_cast<int>(device.index)}};
}

}  // namespace

Result<Plan> PlanFromJson(std::string_view text) {
  Result<JsonDocument> root = ParseJson(text);
  if (!root.ok()) return root.error();
  MEMPLAN_RETURN_IF_ERROR(CheckMembers(
      *root, "plan", {"format", "end_time", "buffers", "allocations"}));
  Plan plan;
  if (const JsonValue* format = root->Find("format")) {
    if (format->type() != JsonValue::Type::kString ||
        format->text() != "memplan.plan.v1") {
      return JsonError(*format, "format must be \"memplan.plan.v1\"");
    }
  }
  if (const JsonValue* end_time = root->Find("end_time")) {
    Result<int64_t> parsed = end_time->AsInt64("end_time");
    if (!parsed.ok()) return parsed.error();
    plan.end_time = *parsed;
  }
  for (const char* list : {"buffers", "allocations"}) {
    Result<const JsonValue*> value = Required(*root, "plan", list);
    if (!value.ok()) return value.error();
    if ((*value)->type() != JsonValue::Type::kArray) {
      return JsonError(**value, std::string(list) + " must be an array");
    }
  }
  JsonValue::Children buffers = root->Find("buffers")->items();
  for (size_t i = 0; i < buffers.size(); ++i) {
    Result<Buffer> buffer =
        ReadBuffer(buffers[i], "buffers[" + std::to_string(i) + "]");
    if (!buffer.ok()) return buffer.error();
    plan.buffers.push_back(*buffer);
  }
  JsonValue::Children allocations = root->Find("allocations")->items();
  plan.allocations.reserve(allocations.size());
  // alias_of and every report name allocations by id: two with one id make
  // the plan ambiguous, so it is refused rather than judged.
  std::unordered_map<std::string, size_t> index_of_id;
  std::string where;  // Reused: no allocation per item.
  for (size_t i = 0; i < allocations.size(); ++i) {
    where.assign("allocations[").append(std::to_string(i)).append("]");
    Result<Allocation> allocation = ReadAllocation(allocations[i], where);
    if (!allocation.ok()) return allocation.error();
    auto [first, inserted] = index_of_id.emplace(allocation->id, i);
    if (!inserted) {
      return JsonError(*allocations[i].Find("id"),
                       where + ".id = " + JsonQuote(allocation->id) +
                           " duplicates allocations[" +
                           std::to_string(first->second) + "].id");
    }
    plan.allocations.push_back(std::move(*allocation));
  }
  return plan;
}

std::string PlanToJson(const Plan& plan) {
  using nlohmann::ordered_json;
  ordered_json out = {{"format", "memplan.plan.v1"}};
  if (plan.end_time) out["end_time"] = *plan.end_time;
  ordered_json& buffers = out["buffers"] = ordered_json::array();
  for (const Buffer& b : plan.buffers) {
    buffers.push_back({{"mem_id", b.mem_id},
                       {"size", b.size},
                       {"device", DeviceJson(b.device)}});
  }
  ordered_json& allocations = out["allocations"] = ordered_json::array();
  for (const Allocation& a : plan.allocations) {
    ordered_json item = {{"id", a.id},
                         {"kind", SpecKindName(a.kind)},
                         {"mem_id", a.mem_id},
                         {"offset", a.offset},
                         {"size", a.size},
                         {"first", a.lifetime.first},
                         {"last", a.lifetime.last}};
    if (a.device) item["device"] = DeviceJson(*a.device);
    item["alignment"] = a.alignment;
    if (a.alias_of) item["alias_of"] = *a.alias_of;
    allocations.push_back(std::move(item));
  }
  // Invalid UTF-8 in an id (CSV ids may hold any bytes) becomes U+FFFD.
  return out.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace properties
}  // namespace memplan
