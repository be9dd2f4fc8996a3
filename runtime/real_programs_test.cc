// Real ExecuTorch programs from ../shared/data/pte: each must verify and
// validate, and MethodMeta must agree with flatc's own JSON decoding.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/bundled_program.h"
#include "runtime/core/error_matchers.h"
#include "runtime/program.h"

namespace memplan {
namespace {

using ::memplan::testing::IsError;
using ::testing::HasSubstr;

const char* const kFiles[] = {"add.pte", "add_model.pte",
                              "module_linear_no_constant_segment.pte",
                              "bundled_program.bpte"};

std::string Runfile(const std::string& workspace_path,
                    const std::string& external_path) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  if (srcdir == nullptr) return "";
  for (const std::string& candidate :
       {std::string(srcdir) + "/" + external_path,
        std::string(srcdir) + "/memplan/" + workspace_path}) {
    if (std::ifstream(candidate).good()) return candidate;
  }
  return "";
}

std::string PtePath(const std::string& name) {
  return Runfile("external/shared_data/data/pte/" + name,
                 "shared_data/data/pte/" + name);
}

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

bool HaveRealPrograms() { return !PtePath("add.pte").empty(); }

// The ET12 bytes of a file: the file itself, or the program a bundled
// program wraps (copied so that its alignment is the vector's).
std::vector<uint8_t> ProgramBytes(const std::string& name) {
  std::vector<uint8_t> file = ReadFile(PtePath(name));
  if (!IsBundledProgram(file.data(), file.size())) return file;
  auto inner = ExtractBundledProgram(file.data(), file.size());
  EXPECT_TRUE(inner.ok()) << name << ": " << inner.error().ToString();
  if (!inner.ok()) return {};
  return std::vector<uint8_t>(inner->first, inner->first + inner->second);
}

// Just enough JSON for flatc's --strict-json output.
struct Json {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  std::string text;  // Number or string literal, bool as "true"/"false".
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> fields;

  const Json* Get(std::string_view key) const {
    for (const auto& [k, v] : fields) {
      if (k == key) return &v;
    }
    return nullptr;
  }
  // Integer member with flatc's omitted-default of 0.
  int64_t Int(std::string_view key) const {
    const Json* v = Get(key);
    return v == nullptr ? 0 : std::stoll(v->text);
  }
  uint64_t UInt(std::string_view key) const {
    const Json* v = Get(key);
    return v == nullptr ? 0 : std::stoull(v->text);
  }
};

class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : text_(text) {}

  std::optional<Json> Parse() {
    std::optional<Json> value = Value();
    SkipSpace();
    if (pos_ != text_.size()) return std::nullopt;
    return value;
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(text_[pos_])) ++pos_;
  }
  bool Eat(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  std::optional<std::string> String() {
    if (!Eat('"')) return std::nullopt;
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\\') ++pos_;  // Keys never need unescaping here.
      if (pos_ < text_.size()) out += text_[pos_++];
    }
    if (!Eat('"')) return std::nullopt;
    return out;
  }
  std::optional<Json> Value() {
    SkipSpace();
    if (pos_ >= text_.size()) return std::nullopt;
    Json json;
    char c = text_[pos_];
    if (c == '{') {
      json.kind = Json::Kind::kObject;
      ++pos_;
      if (Eat('}')) return json;
      do {
        std::optional<std::string> key = String();
        if (!key || !Eat(':')) return std::nullopt;
        std::optional<Json> value = Value();
        if (!value) return std::nullopt;
        json.fields.emplace_back(std::move(*key), std::move(*value));
      } while (Eat(','));
      if (!Eat('}')) return std::nullopt;
    } else if (c == '[') {
      json.kind = Json::Kind::kArray;
      ++pos_;
      if (Eat(']')) return json;
      do {
        std::optional<Json> value = Value();
        if (!value) return std::nullopt;
        json.items.push_back(std::move(*value));
      } while (Eat(','));
      if (!Eat(']')) return std::nullopt;
    } else if (c == '"') {
      json.kind = Json::Kind::kString;
      std::optional<std::string> s = String();
      if (!s) return std::nullopt;
      json.text = std::move(*s);
    } else {
      size_t start = pos_;
      while (pos_ < text_.size() &&
             std::string_view(",]} \n\r\t").find(text_[pos_]) ==
                 std::string_view::npos) {
        ++pos_;
      }
      json.text = std::string(text_.substr(start, pos_ - start));
      if (json.text.empty()) return std::nullopt;
      json.kind = json.text == "null" ? Json::Kind::kNull
                  : (json.text == "true" || json.text == "false")
                      ? Json::Kind::kBool
                      : Json::Kind::kNumber;
    }
    return json;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// Decodes `bytes` with flatc and the project's schema; nullopt on failure.
std::optional<Json> DecodeWithFlatc(const std::string& name,
                                    const std::vector<uint8_t>& bytes) {
  std::string flatc =
      Runfile("external/system_libs/bin/flatc", "system_libs/bin/flatc");
  std::string schema =
      Runfile("schema/program.fbs", "memplan/schema/program.fbs");
  const char* tmp = std::getenv("TEST_TMPDIR");
  if (flatc.empty() || schema.empty() || tmp == nullptr) {
    ADD_FAILURE() << "flatc, schema or TEST_TMPDIR missing from runfiles";
    return std::nullopt;
  }
  std::string stem = name.substr(0, name.find('.'));
  std::string bin = std::string(tmp) + "/" + stem + ".bin";
  std::ofstream(bin, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  std::string schema_dir = schema.substr(0, schema.rfind('/'));
  std::string command = flatc + " --json --raw-binary --strict-json -I " +
                        schema_dir + " -o " + tmp + " " + schema + " -- " + bin;
  if (std::system(command.c_str()) != 0) {
    ADD_FAILURE() << "flatc failed: " << command;
    return std::nullopt;
  }
  std::ifstream in(std::string(tmp) + "/" + stem + ".json");
  std::stringstream text;
  text << in.rdbuf();
  std::optional<Json> json = JsonParser(text.str()).Parse();
  if (!json) ADD_FAILURE() << "could not parse flatc's JSON for " << name;
  return json;
}

TEST(RealProgramsTest, EveryRealProgramLoads) {
  if (!HaveRealPrograms()) GTEST_SKIP() << "../shared/data/pte is absent";
  for (const char* name : kFiles) {
    SCOPED_TRACE(name);
    std::vector<uint8_t> bytes = ProgramBytes(name);
    ASSERT_FALSE(bytes.empty());
    Result<Program> program = Program::Load(bytes.data(), bytes.size());
    ASSERT_TRUE(program.ok()) << program.error().ToString();
    ASSERT_GE(program->num_methods(), 1u);
    Result<MethodMeta> forward = program->method_meta("forward");
    ASSERT_TRUE(forward.ok()) << forward.error().ToString();
    EXPECT_GE(forward->num_memory_planned_buffers(), 1u);
    EXPECT_FALSE(forward->planned_tensors().empty());
  }
}

TEST(RealProgramsTest, AddModelHasItsKnownPlan) {
  if (!HaveRealPrograms()) GTEST_SKIP() << "../shared/data/pte is absent";
  std::vector<uint8_t> bytes = ProgramBytes("add_model.pte");
  Result<Program> program = Program::Load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok()) << program.error().ToString();
  EXPECT_TRUE(program->extended_header().present);
  ASSERT_TRUE(program->segment(0).ok());
  EXPECT_EQ(program->segment(0)->second, 4u);
  Result<MethodMeta> meta = program->method_meta("forward");
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(*meta->memory_planned_buffer_size(0), 32u);
  std::vector<PlannedTensor> tensors = meta->planned_tensors();
  ASSERT_EQ(tensors.size(), 2u);
  EXPECT_EQ(tensors[0].offset, 16u);
  EXPECT_EQ(tensors[0].nbytes, 12u);  // float[3]
  EXPECT_EQ(tensors[1].offset, 0u);
}

TEST(RealProgramsTest, BundledProgramExtractionRefusesAPlainProgram) {
  if (!HaveRealPrograms()) GTEST_SKIP() << "../shared/data/pte is absent";
  std::vector<uint8_t> plain = ReadFile(PtePath("add.pte"));
  EXPECT_FALSE(IsBundledProgram(plain.data(), plain.size()));
  EXPECT_EQ(ExtractBundledProgram(plain.data(), plain.size()).error().code(),
            ErrorCode::kInvalidProgram);
  std::vector<uint8_t> bundled = ReadFile(PtePath("bundled_program.bpte"));
  ASSERT_TRUE(IsBundledProgram(bundled.data(), bundled.size()));
  auto inner = ExtractBundledProgram(bundled.data(), bundled.size());
  ASSERT_TRUE(inner.ok()) << inner.error().ToString();
  // Cutting the file inside the program vector must be caught by the
  // Verifier, not read past.
  bundled.resize(static_cast<size_t>(inner->first - bundled.data()) +
                 inner->second / 2);
  EXPECT_THAT(ExtractBundledProgram(bundled.data(), bundled.size()),
              IsError(ErrorCode::kInvalidProgram,
                      HasSubstr("flatbuffer verification")));
}

TEST(RealProgramsTest, MethodMetaMatchesFlatcDecoding) {
  if (!HaveRealPrograms()) GTEST_SKIP() << "../shared/data/pte is absent";
  for (const char* name : kFiles) {
    SCOPED_TRACE(name);
    std::vector<uint8_t> bytes = ProgramBytes(name);
    Result<Program> program = Program::Load(bytes.data(), bytes.size());
    ASSERT_TRUE(program.ok()) << program.error().ToString();
    std::optional<Json> json = DecodeWithFlatc(name, bytes);
    ASSERT_TRUE(json.has_value());
    const Json* plans = json->Get("execution_plan");
    ASSERT_NE(plans, nullptr);
    ASSERT_EQ(plans->items.size(), program->num_methods());
    for (size_t p = 0; p < plans->items.size(); ++p) {
      const Json& plan = plans->items[p];
      Result<MethodMeta> meta = program->method_meta(p);
      ASSERT_TRUE(meta.ok());
      EXPECT_EQ(meta->name(), plan.Get("name")->text);
      const Json* sizes = plan.Get("non_const_buffer_sizes");
      ASSERT_NE(sizes, nullptr);
      ASSERT_EQ(meta->num_memory_planned_buffers(), sizes->items.size() - 1);
      for (size_t b = 1; b < sizes->items.size(); ++b) {
        EXPECT_EQ(*meta->memory_planned_buffer_size(b - 1),
                  std::stoull(sizes->items[b].text))
            << "buffer " << b;
      }
      std::vector<std::pair<uint32_t, std::pair<uint32_t, uint64_t>>> expected;
      const Json* values = plan.Get("values");
      ASSERT_NE(values, nullptr);
      for (size_t v = 0; v < values->items.size(); ++v) {
        const Json& value = values->items[v];
        if (value.Get("val_type")->text != "Tensor") continue;
        const Json* alloc = value.Get("val")->Get("allocation_info");
        if (alloc == nullptr) continue;
        uint64_t offset = alloc->UInt("memory_offset_low") |
                          alloc->UInt("memory_offset_high") << 32;
        expected.push_back(
            {static_cast<uint32_t>(v),
             {static_cast<uint32_t>(alloc->UInt("memory_id")), offset}});
      }
      std::vector<std::pair<uint32_t, std::pair<uint32_t, uint64_t>>> actual;
      for (const PlannedTensor& t : meta->planned_tensors()) {
        actual.push_back({t.value_index, {t.memory_id, t.offset}});
      }
      EXPECT_FALSE(expected.empty());
      EXPECT_EQ(actual, expected);
    }
  }
}

}  // namespace
}  // namespace memplan
