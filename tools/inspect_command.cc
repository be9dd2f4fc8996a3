// memplan inspect FILE [--json] [--method NAME]: a program's methods,
// planned buffers and planned tensors, or the validation error it broke.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

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

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
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
};

std::vector<TensorRow> TensorRows(const MethodMeta& meta) {
  std::vector<TensorRow> rows;
  for (const PlannedTensor& t : meta.planned_tensors()) {
    const executorch_flatbuffer::Tensor* tensor =
        meta.plan()->values()->Get(t.value_index)->val_as_Tensor();
    rows.push_back(
        {t, Shape(*tensor),
         executorch_flatbuffer::EnumNameScalarType(tensor->scalar_type())});
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

std::string MethodJson(const MethodMeta& meta) {
  std::vector<TensorRow> tensors = TensorRows(meta);
  std::string out = "{\"name\": " + JsonString(meta.name()) +
                    ", \"num_values\": " + std::to_string(NumValues(meta)) +
                    ", \"total_planned_bytes\": " +
                    std::to_string(meta.total_planned_bytes()) +
                    ", \"buffers\": [";
  const std::vector<Device> devices = meta.memory_planned_buffer_devices();
  for (size_t i = 0; i < meta.num_memory_planned_buffers(); ++i) {
    if (i > 0) out += ", ";
    out += "{\"mem_id\": " + std::to_string(i + 1) + ", \"size\": " +
           std::to_string(*meta.memory_planned_buffer_size(i)) +
           ", \"device\": " + JsonString(devices[i].ToString()) + "}";
  }
  out += "], \"planned_tensors\": [";
  for (size_t i = 0; i < tensors.size(); ++i) {
    const TensorRow& row = tensors[i];
    if (i > 0) out += ", ";
    out += "{\"value\": " + std::to_string(row.planned.value_index) +
           ", \"shape\": " + row.shape +
           ", \"dtype\": " + JsonString(row.dtype) +
           ", \"mem_id\": " + std::to_string(row.planned.memory_id) +
           ", \"offset\": " + std::to_string(row.planned.offset) +
           ", \"nbytes\": " + std::to_string(row.planned.nbytes) +
           ", \"device\": " + JsonString(row.planned.device.ToString()) + "}";
  }
  return out + "]}";
}

int ReportError(const Options& options, const Error& error) {
  if (options.json) {
    std::printf("{\"file\": %s, \"error\": {\"code\": %s, \"message\": %s}}\n",
                JsonString(options.file).c_str(),
                JsonString(ErrorCodeName(error.code())).c_str(),
                JsonString(error.message()).c_str());
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
    std::string out =
        "{\"file\": " + JsonString(options.file) +
        ", \"program_bytes\": " + std::to_string(size) +
        ", \"extended_header\": " + (header.present ? "true" : "false") +
        ", \"segments\": " + std::to_string(num_segments) + ", \"methods\": [";
    for (size_t i = 0; i < methods.size(); ++i) {
      if (i > 0) out += ", ";
      out += MethodJson(methods[i]);
    }
    std::printf("%s]}\n", out.c_str());
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
