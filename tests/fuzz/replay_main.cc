// main() for the replay build of a harness: runs LLVMFuzzerTestOneInput once over every file of
// the directories (or files) named on the command line, the way libFuzzer runs a corpus without
// fuzzing. ctest runs it over tests/fuzz/corpus/<harness>/ and tests/fuzz/crashes/<harness>/, so
// every input that once crashed a parser is replayed on every CI run. A missing directory is
// empty (git keeps no empty directories); files whose names start with "." are skipped.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_check.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    fs::path arg = argv[i];
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      for (const auto& entry : fs::directory_iterator(arg)) {
        if (entry.is_regular_file() && entry.path().filename().string().rfind('.', 0) != 0) {
          files.push_back(entry.path());
        }
      }
    } else if (fs::is_regular_file(arg, ec)) {
      files.push_back(arg);
    } else {
      std::fprintf(stderr, "replay: %s does not exist; nothing to replay there\n", argv[i]);
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& path : files) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
      std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
      return 2;
    }
    // A crash here names the input: stderr keeps this line above the sanitizer's report.
    std::fprintf(stderr, "replay: %s (%zu bytes)\n", path.c_str(), bytes.size());
    std::vector<uint8_t> copy(bytes.begin(), bytes.end());  // its own allocation: ASan sees overreads
    LLVMFuzzerTestOneInput(copy.data(), copy.size());
  }
  std::printf("replay: %zu inputs, no crash\n", files.size());
  return 0;
}
