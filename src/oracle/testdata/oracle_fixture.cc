// oracle_fixture: a synthetic command for the oracle's self-tests, whose behaviour is set by its
// arguments. Every invocation appends one line to the --counter file (under flock), so a test can
// count exactly how many processes the oracle started; the line count before the append is this
// invocation's index, which also seeds the "marginal" mode's per-process randomness, making a
// random-looking sequence of fresh processes exactly reproducible.
//
//   oracle_fixture --counter FILE --mode MODE [--p P] [--seed S] [--crash-at K] [--out PATH]
//
// Modes (a JIT-trace-report look-alike; items are "location state"):
//   stable           header + three items, printed in an invocation-dependent order and alignment
//   marginal         stable + "Bench.RefLoop.lua:32 JFUNCF" with probability --p per process
//   changed          a real change: the :20 JFUNCF item moved to :21 (a deterministic line shift)
//   header-drift     a header line that differs between invocations (the workload is not fixed)
//   header-changed   a different header in every invocation (the workload changed vs the golden)
//   crash            like stable, but invocation --crash-at (1-based) aborts
//   fail             exits 3 with a message on stderr
//   no-report        exits 0 and writes nothing
//   counters         a deterministic counter report
//   counters-changed the same report with one count changed
//   counters-unstable a count that alternates between invocations
//   hang             sleeps for a minute (timeouts)
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "oracle/testdata/fixture_random.h"

namespace {

// Appends a line to the counter file and returns how many lines it had before.
int CountInvocation(const char* path) {
  int fd = open(path, O_RDWR | O_CREAT | O_APPEND, 0644);
  if (fd < 0 || flock(fd, LOCK_EX) != 0) {
    std::perror("oracle_fixture: counter file");
    std::exit(70);
  }
  int lines = 0;
  char buf[4096];
  ssize_t n;
  lseek(fd, 0, SEEK_SET);
  while ((n = read(fd, buf, sizeof buf)) > 0) {
    for (ssize_t i = 0; i < n; ++i) lines += buf[i] == '\n';
  }
  if (write(fd, "run\n", 4) != 4) std::exit(70);
  close(fd);  // releases the lock
  return lines;
}

}  // namespace

int main(int argc, char** argv) {
  std::string counter, mode = "stable", out_path;
  double p = 0.5;
  uint64_t seed = 1;
  int crash_at = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--counter") counter = value;
    else if (flag == "--mode") mode = value;
    else if (flag == "--p") p = std::atof(value.c_str());
    else if (flag == "--seed") seed = std::strtoull(value.c_str(), nullptr, 10);
    else if (flag == "--crash-at") crash_at = std::atoi(value.c_str());
    else if (flag == "--out") out_path = value;
    else {
      std::fprintf(stderr, "oracle_fixture: unknown flag %s\n", flag.c_str());
      return 64;
    }
  }
  if (counter.empty()) {
    std::fprintf(stderr, "oracle_fixture: --counter FILE is required\n");
    return 64;
  }
  const int index = CountInvocation(counter.c_str());  // 0-based

  if (mode == "fail") {
    std::fprintf(stderr, "oracle_fixture: cannot load artifact Bench.RefLoop.lua\n");
    return 3;
  }
  if (mode == "no-report") return 0;
  if (mode == "hang") {
    sleep(60);
    return 0;
  }
  if (mode == "crash" && index + 1 == crash_at) {
    std::fprintf(stderr, "oracle_fixture: crashing on invocation %d as asked\n", index + 1);
    std::abort();
  }

  std::string report;
  if (mode.rfind("counters", 0) == 0) {
    long instructions = 1234567;
    if (mode == "counters-changed") instructions = 1234571;
    if (mode == "counters-unstable") instructions += index % 2;
    report =
        "# census bench/RefLoop.lua\ninstructions " + std::to_string(instructions) + "\nbranches 90210\ntables 12\n";
  } else {
    std::string header = "# trace-report fixture artifact=Bench.RefLoop.lua reps=8";
    if (mode == "header-drift") header += index % 3 == 2 ? " jit=off" : "";
    if (mode == "header-changed") header = "# trace-report fixture artifact=Bench.RefLoop.lua reps=16";
    std::vector<std::string> items = {"Bench.RefLoop.lua:12    JLOOP", "Bench.RefLoop.lua:20 JFUNCF",
                                      "Bench.Lib.lua:3\tIFUNCF"};
    if (mode == "changed") items[1] = "Bench.RefLoop.lua:21 JFUNCF";
    if (mode == "marginal" && tare::oracle::testing::FixtureDraw(seed, index) < p)
      items.push_back("Bench.RefLoop.lua:32 JFUNCF");
    report = header + "\n## pid " + std::to_string(getpid()) + " (a note: differs every run)\n";
    // Order and alignment vary per process; the oracle must not care.
    for (size_t k = 0; k < items.size(); ++k) {
      report += (index % 2 ? "  " : "") + items[(k + index) % items.size()] + "\n";
    }
  }

  if (out_path.empty()) {
    std::fwrite(report.data(), 1, report.size(), stdout);
    return 0;
  }
  FILE* f = std::fopen(out_path.c_str(), "w");
  if (f == nullptr) {
    std::perror(out_path.c_str());
    return 73;
  }
  std::fwrite(report.data(), 1, report.size(), f);
  std::fclose(f);
  return 0;
}
