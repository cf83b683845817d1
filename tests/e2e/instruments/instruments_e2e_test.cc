// The instruments end to end: tare benchmark binaries over the child protocol, `--instrument sim`
// under real valgrind (determinism, the allocator ripple), `--instrument mem` with the real shim
// (exact counts), and the warnings that carry their fix.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

struct Result {
  int exit_code = -1;
  std::string out;
  std::string err;
  nlohmann::json json;
};

class InstrumentsE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "tare_instr_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // tare run ARGS --json, with the results parsed.
  Result Run(std::vector<std::string> args) {
    std::vector<std::string> argv = {TARE_BIN, "run", "--store", dir_ + "/tare.db", "--json", dir_ + "/r.json"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::filesystem::remove(dir_ + "/r.json");
    pid_t pid = fork();
    if (pid == 0) {
      freopen((dir_ + "/out").c_str(), "w", stdout);
      freopen((dir_ + "/err").c_str(), "w", stderr);
      std::vector<char*> cargv;
      for (auto& a : argv) cargv.push_back(a.data());
      cargv.push_back(nullptr);
      execv(cargv[0], cargv.data());
      _exit(98);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    Result r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = Slurp(dir_ + "/out");
    r.err = Slurp(dir_ + "/err");
    if (std::filesystem::exists(dir_ + "/r.json")) r.json = nlohmann::json::parse(Slurp(dir_ + "/r.json"));
    return r;
  }

  static std::string Slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  // Every measured value of `metric` per benchmark name.
  static std::map<std::string, std::vector<double>> Values(const nlohmann::json& j, const std::string& metric) {
    std::map<std::string, std::vector<double>> out;
    for (const auto& b : j["benchmarks"]) {
      for (const auto& s : b["samples"]) {
        if (s["warmup"].get<bool>() || s["outcome"] != "ok") continue;
        if (s["values"].contains(metric)) out[b["name"]].push_back(s["values"][metric].get<double>());
      }
    }
    return out;
  }

  std::string dir_;
};

// The acceptance example of the allocator ripple (../shared/background/03-process-isolation.txt):
// isolated, the three identical benchmarks cost exactly the same instructions; sharing one
// process, glibc's raised mmap threshold makes the later ones far more expensive.
TEST_F(InstrumentsE2E, AllocatorRippleIsolatedIsExactOneProcessIsNot) {
  Result iso = Run({"-i", "sim", "-n", "2", "--iterations", "1", RIPPLE});
  ASSERT_EQ(iso.exit_code, 0) << iso.err;
  auto ir = Values(iso.json, "sim.Ir");
  ASSERT_EQ(ir.size(), 3u);
  double first = ir["zeroed_buffer/1"].at(0);
  EXPECT_GT(first, 1000);
  for (const auto& [name, values] : ir) {
    ASSERT_EQ(values.size(), 2u) << name;
    for (double v : values) EXPECT_EQ(v, first) << name << " differs from zeroed_buffer/1";
  }

  Result shared = Run({"-i", "sim", "-n", "1", "--iterations", "1", "--no-isolation", RIPPLE});
  ASSERT_EQ(shared.exit_code, 0) << shared.err;
  auto sir = Values(shared.json, "sim.Ir");
  EXPECT_EQ(sir["zeroed_buffer/1"].at(0), first) << "the first benchmark is unaffected";
  EXPECT_GT(sir["zeroed_buffer/2"].at(0), 5 * first);
  EXPECT_GT(sir["zeroed_buffer/3"].at(0), 5 * first);
}

TEST_F(InstrumentsE2E, SimIsDeterministicAcrossReruns) {
  std::vector<double> irs;
  for (int rerun = 0; rerun < 3; ++rerun) {
    Result r = Run({"-i", "sim", "-n", "1", "--filter", "^sort_ints/64$", TARE_BASIC});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto ir = Values(r.json, "sim.Ir");
    ASSERT_EQ(ir.size(), 1u);
    irs.push_back(ir.begin()->second.at(0));
    auto cycles = Values(r.json, "sim.est_cycles");
    EXPECT_GT(cycles.begin()->second.at(0), irs.back()) << "cycles = L1 hits + 5 LL + 35 RAM >= Ir";
  }
  EXPECT_GT(irs[0], 0);
  EXPECT_EQ(irs[0], irs[1]);
  EXPECT_EQ(irs[1], irs[2]);
}

TEST_F(InstrumentsE2E, SimOnAnUnmodifiedGoogleBenchmarkBinary) {
  Result r = Run({"-i", "sim", "-n", "2", "--filter", "BM_SortVector", GBENCH_BASIC});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto ir = Values(r.json, "sim.Ir");
  ASSERT_EQ(ir["BM_SortVector/1024"].size(), 2u);
  EXPECT_GT(ir["BM_SortVector/1024"][0], 1000);
  EXPECT_EQ(ir["BM_SortVector/1024"][0], ir["BM_SortVector/1024"][1]);
  // The raw profile is kept with the run for attribution.
  EXPECT_FALSE(r.json["benchmarks"].empty());
}

TEST_F(InstrumentsE2E, MemCountsExactlyForACommandAndInsideATareWindow) {
  Result cmd = Run({"-i", "mem", "-n", "2", "--", ALLOC_PATTERN, "pattern"});
  ASSERT_EQ(cmd.exit_code, 0) << cmd.err;
  auto allocs = Values(cmd.json, "mem.allocs");
  ASSERT_EQ(allocs.size(), 1u);
  for (double v : allocs.begin()->second) EXPECT_EQ(v, 12);
  // (The maps are kept in locals: a range-for over a member of a temporary would dangle.)
  auto frees = Values(cmd.json, "mem.frees");
  for (double v : frees.begin()->second) EXPECT_EQ(v, 12);
  auto bytes = Values(cmd.json, "mem.bytes_allocated");
  for (double v : bytes.begin()->second) EXPECT_EQ(v, 6280);

  // three_blocks mallocs three blocks per iteration inside the window (setup excluded).
  Result win = Run({"-i", "mem", "-n", "2", "--filter", "^three_blocks$", LIB_TEST_BENCH});
  ASSERT_EQ(win.exit_code, 0) << win.err;
  auto win_allocs = Values(win.json, "mem.allocs");
  ASSERT_EQ(win_allocs["three_blocks"].size(), 2u);
  for (double v : win_allocs["three_blocks"]) EXPECT_EQ(v, 3);
  auto win_frees = Values(win.json, "mem.frees");
  for (double v : win_frees["three_blocks"]) EXPECT_EQ(v, 3);
}

TEST_F(InstrumentsE2E, TareBinaryRunsWithOneFixedIterationCountPerBenchmark) {
  Result r = Run({"-n", "3", "--filter", "sort_ints", TARE_BASIC});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto iters = Values(r.json, "bench.iterations");
  ASSERT_FALSE(iters.empty());
  for (const auto& [name, values] : iters) {
    ASSERT_EQ(values.size(), 3u);
    EXPECT_EQ(values[0], values[1]) << name;
    EXPECT_EQ(values[1], values[2]) << name;
  }
  auto wall = Values(r.json, "bench.wall_ns");
  for (const auto& [name, values] : wall) {
    for (double v : values) EXPECT_GT(v, 1) << name;
  }
  EXPECT_NE(r.out.find("\nsort_ints/64 "), std::string::npos) << r.out;
}

TEST_F(InstrumentsE2E, WarnsWhenABenchmarkMeasuresNoWork) {
  Result wall = Run({"-n", "1", "--warmup", "0", "--filter", "^empty_loop$", LIB_TEST_BENCH});
  ASSERT_EQ(wall.exit_code, 0) << wall.err;
  EXPECT_NE(wall.err.find("warning: lib_test_bench::empty_loop: measured no work"), std::string::npos) << wall.err;
  EXPECT_NE(wall.err.find("do_not_optimize"), std::string::npos);
  Result sim = Run({"-i", "sim", "-n", "1", "--filter", "^empty_loop$", LIB_TEST_BENCH});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  EXPECT_NE(sim.err.find("measured no work"), std::string::npos) << sim.err;
  // A benchmark that does work raises no such warning.
  Result busy = Run({"-n", "1", "--warmup", "0", "--filter", "^sort_ints/512$", TARE_BASIC});
  EXPECT_EQ(busy.err.find("measured no work"), std::string::npos) << busy.err;
}

TEST_F(InstrumentsE2E, InstrumentErrorsAreClear) {
  Result bad = Run({"-i", "telepathy", "/bin/true"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("unknown instrument 'telepathy'; use wall, sim or mem"), std::string::npos) << bad.err;
  Result iso = Run({"--no-isolation", "/bin/true"});
  EXPECT_EQ(iso.exit_code, 2);
  EXPECT_NE(iso.err.find("needs a tare benchmark binary"), std::string::npos) << iso.err;
}

}  // namespace
