// The README's "Using it" commands, run for real (issue 44, item 8): parsing alone
// (docs_commands_test) let the README promise "allocations, bytes, peak live heap" for a line that
// printed gb.real_time_ns only. Every README command line is either run here — in a scratch
// directory where ./build/my_gbench is the bundled Google Benchmark example, ./build/my_bench the
// tare-library one, README.md a copy — and its output checked for the shape its comment promises,
// or listed with the reason it cannot run offline. A README line in neither list fails the test, so
// a new example gets its check when it is written.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "doc_commands.h"
#include "tare_process.h"

namespace tare::docs {
namespace {

namespace fs = std::filesystem;

// The argv after `build/tare`, joined by single spaces: how a README line is named below.
std::string Key(const DocCommand& c) {
  auto argv = SplitCommand(c.text);
  std::string key;
  for (size_t i = 1; i < argv.size(); ++i) key += (i > 1 ? " " : "") + argv[i];
  return key;
}

// What each runnable line must print (stdout and stderr together), in README order: later lines
// read what earlier ones stored.
const std::vector<std::pair<std::string, std::vector<std::string>>>& Shapes() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> kShapes = {
      {"run sleep 0.1 sleep 0.2",
       {R"(\nsleep 0\.1 +10 )", R"(`sleep 0\.2` is [0-9.]+ × slower than `sleep 0\.1` \(95%: )"}},
      {"run --runs 20 --warmup 3 --prepare sync gzip -c README.md xz -c README.md",
       {R"(\ngzip -c README\.md +20 )", R"(\nxz -c README\.md +20 )"}},
      {"run --parameter-scan n 1 3 sleep 0.{n}", {R"(\nsleep 0\.1 )", R"(\nsleep 0\.2 )", R"(\nsleep 0\.3 )"}},
      {"run -r 5 --shell bash --export-json h.json --export-json-format hyperfine sleep 0.1", {R"(\nsleep 0\.1 +5 )"}},
      {"run ./build/my_gbench",
       {R"(cpu median  metrics\n)", R"(\nBM_SortVector/1024 [^\n]* gb\.real_time_ns, gb\.cpu_time_ns\n)"}},
      {"run --all-metrics ./build/my_gbench", {R"(\n  gb\.cpu_time_ns )", R"(\n  peak_rss_bytes )"}},
      {"run --filter BM_Sort.* --samples 20 ./build/my_gbench", {R"(\nBM_SortVector/1024 +20 )"}},
      {"run ./build/my_gbench --benchmark_min_time=0.1",
       {R"(every sample ran for the length the binary's own --benchmark_min_time [^\n]*; tare added none)"}},
      {"run --instrument sim ./build/my_bench", {R"(\nfill_bytes/1024 [^\n]* sim\.Ir\n)"}},
      {"run --instrument mem ./build/my_bench", {R"(\nfill_bytes/1024 [^\n]* mem\.allocs\n)"}},
      {"env", {R"(^Host fingerprint \(hard digest [0-9a-f]+)", R"(\nStability checks \()"}},
      {"runs", {R"(^id +kind +status +started \(UTC\))"}},
      {"run --shard 2/4 --store part.db ./build/my_gbench", {R"(shard 2/4: [0-9]+ of 3 benchmarks)"}},
      {"variance", {R"(benchmarks, CV within)"}},
      {"site -o site", {R"(site of [0-9]+ benchmarks? on [0-9]+ host types? in site)"}},
      {"export --run latest --format json", {R"("schema": "tare\.run/2")"}},
  };
  return kShapes;
}

// The lines that need what a scratch directory cannot have.
const std::map<std::string, std::string>& Offline() {
  static const std::map<std::string, std::string> kWhy = {
      {"run -- ./my_program --input data.bin", "the reader's own program"},
      {"run --metrics app.throughput -- ./server_bench", "the reader's own program"},
      {"merge all.db shard-*/tare.db", "stores of several CI shards (the glob is the shell's)"},
      {"push --to postgresql://ci@db/perf", "a PostgreSQL server"},
      {"shards --store all.db", "a merged store of shards"},
      {"compare main feature-x", "runs of two branches"},
      {"history BM_Sort/1024", "the reader's benchmark"},
      {"report --compare main feature-x -o compare.html", "runs of two branches"},
      {"oracle check --golden spots.golden -- ./report_spots", "the reader's golden and program"},
      {"ab --base old/bench --head new/bench", "two builds of the reader's suite"},
      {"ab --base old/prog --head new/prog -- --input x", "two builds of the reader's program"},
      {"ab examples/ab_knob/campaign.toml --ledger ledger.md --json result.json",
       "a campaign of minutes: scripts/demo.sh runs it"},
      {"ab examples/ab_knob/campaign.toml --resume", "an interrupted cohort"},
      {"ab examples/ab_knob/campaign.toml --plan", "the example's builds (scripts/demo.sh)"},
      {"attribute --run latest --cell BM_Sort/1024", "a sim cohort of the reader's suite"},
      {"ab --base old/bench --head new/bench --instrument sim --attribute 5", "two builds of the reader's suite"},
      {"bisect --good v1.2 --bad main --instrument sim BM_Parse", "a git repository and its build recipe"},
      {"run --commits v1.2..main --every 2", "a git repository and its build recipe"},
  };
  return kWhy;
}

TEST(ReadmeExamples, EachRunsAndPrintsWhatItsCommentPromises) {
  char tmpl[] = "/tmp/tare-readme-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const fs::path dir = tmpl;
  fs::create_directories(dir / "build");
  fs::create_symlink(GBENCH_BASIC, dir / "build/my_gbench");
  fs::create_symlink(TARE_BASIC, dir / "build/my_bench");
  fs::copy_file(fs::path(TARE_SOURCE_ROOT) / "README.md", dir / "README.md");
  unsetenv("TARE_PARSE_ONLY");

  const auto commands = ExtractCommands("README.md", e2e::Slurp(std::string(TARE_SOURCE_ROOT) + "/README.md"));
  ASSERT_GE(commands.size(), 30u);
  std::map<std::string, const DocCommand*> by_key;
  for (const auto& c : commands) {
    const std::string key = Key(c);
    by_key[key] = &c;
    const bool shaped = std::any_of(Shapes().begin(), Shapes().end(), [&](const auto& s) { return s.first == key; });
    EXPECT_TRUE(shaped || Offline().count(key) > 0)
        << "README.md:" << c.line << ": `" << key << "` has no expected output here: add its shape (or why it "
        << "cannot run offline) to tests/docs/readme_examples_test.cc";
  }
  for (const auto& [key, why] : Offline()) EXPECT_TRUE(by_key.count(key)) << "no longer in the README: " << key;
  for (const auto& [key, shapes] : Shapes()) {
    auto it = by_key.find(key);
    if (it == by_key.end()) {
      ADD_FAILURE() << "no longer in the README: " << key;
      continue;
    }
    auto argv = SplitCommand(it->second->text);
    argv.erase(argv.begin());
    const e2e::Result r = e2e::RunTare(TARE_BIN, dir.string(), argv);
    EXPECT_EQ(r.exit_code, 0) << "README.md:" << it->second->line << ": " << key << "\n" << r.out << r.err;
    const std::string both = r.out + r.err;
    for (const auto& shape : shapes) {
      EXPECT_TRUE(std::regex_search(both, std::regex(shape)))
          << "README.md:" << it->second->line << ": `" << key << "` printed no match for /" << shape << "/:\n"
          << both;
    }
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tare::docs
