// memplan inspect FILE [--json] [--method NAME]: a program's methods,
// planned buffers and planned tensors, or the validation error it broke.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "runtime/bundled_program.h"
#include "runtime/program.h"
#include "tools/command_line.h"
#include "tools/commands.h"

namespace memplan {
namespace cli {
namespace {

struct Options {
  std::string file;
  std::string method;  // Empty: every method.
  bool json = false;
};

constexpr char kDescription[] =
    "Verifies and validates an ET12 program (.pte, or the program in a .bpte)\n"
    "and prints its methods, planned buffers and planned tensors.\n";

constexpr char kFooter[] =
    "Exit code: 0 ok, 2 unreadable or invalid, or usage.";

// Invalid UTF-8 (a file name, say) becomes U+FFFD instead of throwing.
std::string JsonDump(const nlohmann::ordered_json& json) {
  return json.dump(-1, ' ', false,
                   nlohmann::ordered_json::error_handler_t::replace);
}

// Columns padded to their widest cell; numbers right-aligned.
void PrintTable(const std::vector<std::string>& header,
                const std::vector<std::vector<std::string>>& rows,
                const std::vector<bool>& right_align) {
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) width[c] = header[c].size();
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      width[c] = std::max(width[c], row[c].size());
    }
  }
  auto print_row = [&](const std::vector<std::string>& row) {
    std::printf("   ");
    for (size_t c = 0; c < row.size(); ++c) {
      std::printf(right_align[c] ? " %*s" : " %-*s", static_cast<int>(width[c]),
                  row[c].c_str());
    }
    std::printf("\n");
  };
  print_row(header);
  for (const auto& row : rows) print_row(row);
}

std::string Shape(const executorch_flatbuffer::Tensor& tensor) {
  std::string out = "[";
  const auto* sizes = tensor.sizes();
  for (uint32_t d = 0; sizes != nullptr && d < sizes->size(); ++d) {
    if (d > 0) out += ", ";
    out += std::to_string(sizes->Get(d));
  }
  return out + "]";
}

// One planned tensor, with the shape and dtype read back from its value.
struct TensorRow {
  PlannedTensor planned;
  std::string shape;
  std::string dtype;
  std::vector<int64_t> sizes;
};

std::vector<TensorRow> TensorRows(const MethodMeta& meta) {
  std::vector<TensorRow> rows;
  for (const PlannedTensor& t : meta.planned_tensors()) {
    const executorch_flatbuffer::Tensor* tensor =
        meta.plan()->values()->Get(t.value_index)->val_as_Tensor();
    std::vector<int64_t> sizes;
    if (tensor->sizes() != nullptr) {
      sizes.assign(tensor->sizes()->begin(), tensor->sizes()->end());
    }
    rows.push_back(
        {t, Shape(*tensor),
         executorch_flatbuffer::EnumNameScalarType(tensor->scalar_type()),
         std::move(sizes)});
  }
  return rows;
}

uint64_t NumValues(const MethodMeta& meta) {
  const auto* values = meta.plan()->values();
  return values == nullptr ? 0 : values->size();
}

void PrintMethodText(const MethodMeta& meta) {
  std::vector<TensorRow> tensors = TensorRows(meta);
  std::printf(
      "method \"%s\": %llu values, %zu planned tensors, %zu planned "
      "buffers (%llu bytes)\n",
      meta.name().c_str(), static_cast<unsigned long long>(NumValues(meta)),
      tensors.size(), meta.num_memory_planned_buffers(),
      static_cast<unsigned long long>(meta.total_planned_bytes()));
  std::vector<std::vector<std::string>> buffer_rows;
  const std::vector<Device> devices = meta.memory_planned_buffer_devices();
  for (size_t i = 0; i < meta.num_memory_planned_buffers(); ++i) {
    buffer_rows.push_back({std::to_string(i + 1),
                           std::to_string(*meta.memory_planned_buffer_size(i)),
                           devices[i].ToString()});
  }
  std::printf("  buffers:\n");
  PrintTable({"mem_id", "size", "device"}, buffer_rows, {true, true, false});
  std::vector<std::vector<std::string>> tensor_rows;
  for (const TensorRow& row : tensors) {
    tensor_rows.push_back({std::to_string(row.planned.value_index), row.shape,
                           row.dtype, std::to_string(row.planned.memory_id),
                           std::to_string(row.planned.offset),
                           std::to_string(row.planned.nbytes),
                           row.planned.device.ToString()});
  }
  std::printf("  planned tensors:\n");
  PrintTable(
      {"value", "shape", "dtype", "mem_id", "offset", "nbytes", "device"},
      tensor_rows, {true, false, false, true, true, true, false});
}

nlohmann::ordered_json MethodJson(const MethodMeta& meta) {
  using nlohmann::ordered_json;
  ordered_json buffers = ordered_json::array();
  const std::vector<Device> devices = meta.memory_planned_buffer_devices();
  for (size_t i = 0; i < meta.num_memory_planned_buffers(); ++i) {
    buffers.push_back({{"mem_id", i + 1},
                       {"size", *meta.memory_planned_buffer_size(i)},
                       {"device", devices[i].ToString()}});
  }
  ordered_json tensors = ordered_json::array();
  for (const TensorRow& row : TensorRows(meta)) {
    tensors.push_back({{"value", row.planned.value_index},
                       {"shape", row.sizes},
                       {"dtype", row.dtype},
                       {"mem_id", row.planned.memory_id},
                       {"offset", row.planned.offset},
                       {"nbytes", row.planned.nbytes},
                       {"device", row.planned.device.ToString()}});
  }
  return {{"name", meta.name()},
          {"num_values", NumValues(meta)},
          {"total_planned_bytes", meta.total_planned_bytes()},
          {"buffers", std::move(buffers)},
          {"planned_tensors", std::move(tensors)}};
}

int ReportError(const Options& options, const Error& error) {
  if (options.json) {
    nlohmann::ordered_json json = {{"file", options.file},
                                   {"error",
                                    {{"code", ErrorCodeName(error.code())},
                                     {"message", error.message()}}}};
    std::printf("%s\n", JsonDump(json).c_str());
  } else {
    std::fprintf(stderr, "memplan inspect: %s: %s\n", options.file.c_str(),
                 error.ToString().c_str());
  }
  return kExitUnusable;
}

}  // namespace

int RunInspect(int argc, char** argv) {
  CommandLine command_line("inspect", kDescription, kFooter);
  Options options;
  CLI::App& app = command_line.app();
  app.add_option("FILE", options.file, "the program")->required();
  app.add_flag("--json", options.json, "print the program as JSON");
  app.add_option("--method", options.method,
                 "show only this method (default: all)")
      ->type_name("NAME");
  if (std::optional<int> stop = command_line.Parse(argc, argv)) return *stop;
  std::ifstream in(options.file, std::ios::binary);
  if (!in) {
    return ReportError(
        options, Error(ErrorCode::kIo, "cannot open the file for reading"));
  }
  std::vector<uint8_t> file(std::istreambuf_iterator<char>(in), {});
  const uint8_t* data = file.data();
  size_t size = file.size();
  if (IsBundledProgram(data, size)) {
    auto inner = ExtractBundledProgram(data, size);
    if (!inner.ok()) return ReportError(options, inner.error());
    data = inner->first;
    size = inner->second;
  }
  Result<Program> program = Program::Load(data, size);
  if (!program.ok()) return ReportError(options, program.error());

  std::vector<MethodMeta> methods;
  for (size_t i = 0; i < program->num_methods(); ++i) {
    Result<MethodMeta> meta = program->method_meta(i);
    if (!meta.ok()) return ReportError(options, meta.error());
    if (options.method.empty() || meta->name() == options.method) {
      methods.push_back(*meta);
    }
  }
  if (!options.method.empty() && methods.empty()) {
    return ReportError(options,
                       Error(ErrorCode::kNotFound,
                             "no method named \"" + options.method + "\""));
  }
  const ExtendedHeader& header = program->extended_header();
  uint64_t num_segments = program->flatbuffer()->segments() == nullptr
                              ? 0
                              : program->flatbuffer()->segments()->size();
  if (options.json) {
    nlohmann::ordered_json json = {
        {"file", options.file},
        {"program_bytes", size},
        {"extended_header", header.present},
        {"segments", num_segments},
        {"methods", nlohmann::ordered_json::array()}};
    for (const MethodMeta& meta : methods) {
      json["methods"].push_back(MethodJson(meta));
    }
    std::printf("%s\n", JsonDump(json).c_str());
    return kExitOk;
  }
  std::printf(
      "program %s: %zu bytes, %zu methods, %llu segments, extended "
      "header %s\n",
      options.file.c_str(), size, program->num_methods(),
      static_cast<unsigned long long>(num_segments),
      header.present ? "present" : "absent");
  for (const MethodMeta& meta : methods) PrintMethodText(meta);
  return kExitOk;
}

}  // namespace cli
}  // namespace memplan
