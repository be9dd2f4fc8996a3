// Replay driver for builds without libFuzzer (gcc, plain `bazel test`): feeds
// every file named on the command line (directories are walked; @LIST reads
// one path per line from LIST) through
// LLVMFuzzerTestOneInput, like rules_fuzzing's regression tests. A crash,
// an assert or a sanitizer report fails the test; the last printed name is
// the culprit.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
    __attribute__((weak));
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size,
                                          size_t max_size, unsigned int seed)
    __attribute__((weak));
extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1,
                                            const uint8_t* data2, size_t size2,
                                            uint8_t* out, size_t max_out_size,
                                            unsigned int seed)
    __attribute__((weak));

namespace {

uint64_t g_mutate_state = 0x9E3779B97F4A7C15ull;

uint64_t NextRandom() {
  // xorshift64: deterministic, so a replay failure reproduces exactly.
  g_mutate_state ^= g_mutate_state << 13;
  g_mutate_state ^= g_mutate_state >> 7;
  g_mutate_state ^= g_mutate_state << 17;
  return g_mutate_state;
}

// Collects regular files under `path` in a stable (sorted) order.
void CollectFiles(const std::filesystem::path& path,
                  std::vector<std::filesystem::path>* files) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    std::vector<std::filesystem::path> found;
    for (auto it = std::filesystem::recursive_directory_iterator(
             path, std::filesystem::directory_options::follow_directory_symlink,
             ec);
         !ec && it != std::filesystem::recursive_directory_iterator();
         it.increment(ec)) {
      if (it->is_regular_file(ec)) found.push_back(it->path());
    }
    std::sort(found.begin(), found.end());
    files->insert(files->end(), found.begin(), found.end());
  } else if (std::filesystem::is_regular_file(path, ec)) {
    files->push_back(path);
  } else {
    std::printf("replay: %s is absent, skipped\n", path.c_str());
  }
}

bool ReadFile(const std::filesystem::path& path, std::vector<uint8_t>* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out->assign(std::istreambuf_iterator<char>(in),
              std::istreambuf_iterator<char>());
  return !in.bad();
}

// Exercises the structure-aware mutators too, so their code runs under the
// plain build: a few deterministic mutations of each input, each replayed.
void ReplayMutations(const std::vector<uint8_t>& input,
                     const std::vector<uint8_t>& previous) {
  constexpr size_t kMaxSize = 1 << 16;
  constexpr int kMutationsPerInput = 8;
  std::vector<uint8_t> buffer(kMaxSize);
  for (int i = 0; i < kMutationsPerInput; ++i) {
    size_t size = std::min(input.size(), kMaxSize);
    std::copy(input.begin(), input.begin() + size, buffer.begin());
    unsigned int seed = static_cast<unsigned int>(NextRandom());
    if (LLVMFuzzerCustomMutator != nullptr) {
      size = LLVMFuzzerCustomMutator(buffer.data(), size, kMaxSize, seed);
      if (size > kMaxSize) {
        std::fprintf(stderr, "replay: mutator returned %zu > max %zu\n", size,
                     kMaxSize);
        std::abort();
      }
      LLVMFuzzerTestOneInput(buffer.data(), size);
    }
    if (LLVMFuzzerCustomCrossOver != nullptr && !previous.empty()) {
      size = LLVMFuzzerCustomCrossOver(input.data(), input.size(),
                                       previous.data(), previous.size(),
                                       buffer.data(), kMaxSize, seed);
      if (size > kMaxSize) {
        std::fprintf(stderr, "replay: crossover returned %zu > max %zu\n", size,
                     kMaxSize);
        std::abort();
      }
      LLVMFuzzerTestOneInput(buffer.data(), size);
    }
  }
}

}  // namespace

// libFuzzer's byte mutator is absent without libFuzzer; custom mutators fall
// back to it, so this stand-in flips, inserts or erases a few bytes.
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size,
                                   size_t max_size) {
  size_t edits = 1 + NextRandom() % 4;
  for (size_t i = 0; i < edits; ++i) {
    uint64_t r = NextRandom();
    switch (r % 3) {
      case 0:
        if (size > 0) data[(r >> 8) % size] ^= static_cast<uint8_t>(r >> 32);
        break;
      case 1:
        if (size < max_size) data[size++] = static_cast<uint8_t>(r >> 16);
        break;
      case 2:
        if (size > 0) --size;
        break;
    }
  }
  return size;
}

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-') continue;  // libFuzzer flags are ignored here.
    if (argv[i][0] == '@') {
      // A list file: one path per line (see fuzz.bzl's corpus list).
      std::ifstream list(argv[i] + 1);
      if (!list) {
        std::fprintf(stderr, "replay: cannot read list %s\n", argv[i] + 1);
        return 1;
      }
      for (std::string line; std::getline(list, line);) {
        if (!line.empty()) CollectFiles(line, &files);
      }
      continue;
    }
    CollectFiles(argv[i], &files);
  }
  if (files.empty()) {
    // A replay that runs nothing asserts nothing; refuse to pass.
    std::fprintf(stderr, "replay: no input files given\n");
    return 1;
  }
  std::vector<uint8_t> previous;
  for (const auto& file : files) {
    std::vector<uint8_t> input;
    if (!ReadFile(file, &input)) {
      std::fprintf(stderr, "replay: cannot read %s\n", file.c_str());
      return 1;
    }
    std::printf("replay: %s (%zu bytes)\n", file.c_str(), input.size());
    std::fflush(stdout);
    LLVMFuzzerTestOneInput(input.data(), input.size());
    ReplayMutations(input, previous);
    previous = std::move(input);
  }
  std::printf("replay: %zu inputs passed\n", files.size());
  return 0;
}
